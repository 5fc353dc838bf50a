//===- ScalarizeWorkItemLoops.cpp - Explicit vectors of work-item loops ---===//
//
// A kernel written with float4 arithmetic reaches its work-item loop as
// <4 x float> instructions. LLVM's loop vectorizer does not widen values
// that already are vectors, so such a loop runs one work-item at a time and
// uses a quarter of a 512-bit register (clpeak's float2/float4 figures).
// Split into scalars, the same loop is an ordinary one the vectorizer widens
// across 16 work-items: four float components become four full registers,
// and the float4 loads become interleaved groups of factor 4.
//
//   for x { <4 x float> v = load p[x]; v = fma(v, a, b) }   (1 work-item)
//   becomes
//   for x { float v0..v3 = load p[x].s0..s3; v0 = fma(v0, ..) ... }
//   which loop-vectorize turns into 16 work-items per iteration.
//
// Scalarizing pays only where the vectorizer will take the loop: the
// innermost loops carrying llvm.loop.parallel_accesses (work-item loops,
// which need no dependence proof). Vector code anywhere else in a loop (the
// kernel's own loops around or inside the work-item loop) keeps its vectors:
// split there, it would lose the SIMD the programmer wrote. So the pass runs
// LLVM's Scalarizer on a function only when every vector instruction inside
// a loop is in an innermost work-item loop and can be split (no call of a
// function taking or returning vectors, which the vectorizer cannot widen
// either), and the loop does more than stream register-wide vectors
// through memory (float16 loads split become costly interleaved groups).
// Straight-line vector code outside loops is split too; the SLP
// vectorizer regroups it where that pays.
//
// Runs at the vectorizer-start extension point of the O3 pipeline, after
// inlining and loop canonicalization and right before loop-vectorize.
//
//===----------------------------------------------------------------------===//
#include "ScalarizeWorkItemLoops.h"

#include "ParallelLoops.h"

#include "weft/debug.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <algorithm>

#define DEBUG_TYPE "weft-scalarize-workitem-loops"

using namespace llvm;

namespace weft {

namespace {

bool hasVectorType(const Instruction &I) {
  if (I.getType()->isVectorTy())
    return true;
  for (const Value *Op : I.operands())
    if (Op->getType()->isVectorTy())
      return true;
  return false;
}

/// A vector instruction the Scalarizer leaves whole (a call of a function
/// over vectors, a masked or gather intrinsic), which would keep its loop
/// out of the vectorizer's reach anyway.
bool cannotSplit(const Instruction &I) {
  const auto *Call = dyn_cast<CallInst>(&I);
  if (!Call)
    return false;
  const auto *II = dyn_cast<IntrinsicInst>(Call);
  if (!II)
    return true;
  return !isTriviallyVectorizable(II->getIntrinsicID());
}

/// A load or store of a whole vector of at least RegisterBytes.
bool movesWholeRegister(const Instruction &I, unsigned RegisterBytes) {
  Type *T = nullptr;
  if (const auto *Load = dyn_cast<LoadInst>(&I))
    T = Load->getType();
  else if (const auto *Store = dyn_cast<StoreInst>(&I))
    T = Store->getValueOperand()->getType();
  if (!T || !T->isVectorTy())
    return false;
  return I.getDataLayout().getTypeStoreSize(T) >= RegisterBytes;
}

enum class Verdict { NoVectors, Split, Keep };

/// Whether F's vector code sits where splitting it helps the vectorizer.
Verdict judge(Function &F, LoopInfo &LI, unsigned RegisterBytes) {
  unsigned Arithmetic = 0, WideMoves = 0;
  for (BasicBlock &BB : F) {
    const Loop *L = LI.getLoopFor(&BB);
    for (Instruction &I : BB) {
      if (isa<DbgInfoIntrinsic>(I) || !hasVectorType(I) || !L)
        continue;
      if (!isInnermostParallelLoop(*L) || cannotSplit(I)) {
        LLVM_DEBUG(dbgs() << F.getName() << ": keeps its vectors for " << I
                          << "\n");
        WEFT_LOG(DebugCompile, "%s keeps its vectors: vector code in a loop "
                 "that is not an innermost work-item loop",
                 F.getName().str().c_str());
        return Verdict::Keep;
      }
      if (movesWholeRegister(I, RegisterBytes))
        ++WideMoves;
      else if (!isa<LoadInst>(I) && !isa<StoreInst>(I) &&
               !isa<ShuffleVectorInst>(I) && !isa<ExtractElementInst>(I) &&
               !isa<InsertElementInst>(I))
        ++Arithmetic;
    }
  }
  if (Arithmetic == 0 && WideMoves == 0)
    return Verdict::NoVectors;
  // float16 streamed through memory already fills a 512-bit register per
  // access; split, each access becomes a factor-16 interleaved group whose
  // shuffles cost more than the loop computes (a float16 triad ran at a
  // sixth of its bandwidth). Only enough arithmetic per access pays for it.
  if (WideMoves && Arithmetic < 4 * WideMoves) {
    WEFT_LOG(DebugCompile, "%s keeps its vectors: %u operations for %u "
             "register-wide loads/stores", F.getName().str().c_str(),
             Arithmetic, WideMoves);
    return Verdict::Keep;
  }
  return Verdict::Split;
}

} // namespace

PreservedAnalyses ScalarizeWorkItemLoopsPass::run(Function &F,
                                                  FunctionAnalysisManager &AM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  const TargetTransformInfo &TTI = AM.getResult<TargetIRAnalysis>(F);
  unsigned RegisterBytes =
      TTI.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector)
          .getFixedValue() /
      8;
  if (judge(F, AM.getResult<LoopAnalysis>(F), std::max(RegisterBytes, 16u)) !=
      Verdict::Split)
    return PreservedAnalyses::all();
  WEFT_LOG(DebugCompile, "%s: explicit vectors of its work-item loops split "
           "into scalars", F.getName().str().c_str());
  ScalarizerPassOptions Options;
  Options.ScalarizeLoadStore = true;
  Options.ScalarizeVariableInsertExtract = true;
  PreservedAnalyses PA = ScalarizerPass(Options).run(F, AM);
  AM.invalidate(F, PA);
  // The Scalarizer leaves extract/insert chains where whole vectors met
  // scalars; folding them keeps the vectorizer's cost model honest.
  PA.intersect(EarlyCSEPass().run(F, AM));
  AM.invalidate(F, PA);
  PA.intersect(InstCombinePass().run(F, AM));
  return PA;
}

} // namespace weft
