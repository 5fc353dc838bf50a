//===- RevectorizeWorkItemLoops.cpp - Rebuild vectors split into lanes ----===//
//
// CLBlast writes its multiply-add on float2/float4 per component
// (MultiplyAddVector without USE_VECTOR_MAD: c.x = fma(a.x, b, c.x), ...),
// and O3 leaves the work-item loop of Xgemm's compute region as scalar
// fmuladds over extractelements of the loaded float4, the vector rebuilt
// with insertelements only where it is stored. Neither vectorizer of the
// work-item loop takes that: WidenWorkItemLoops finds "mostly scalar work",
// and split into floats (what HorizontalLoops used to do up front) the
// loop vectorizer deinterleaves every float4 load of the A row with four
// permutes per k-step and work-item group, redone for every y.
//
// Where HorizontalLoops kept the vectors (VectorsKeptAttr: the function's
// only loops were left to full unrolling), this pass, at the
// vectorizer-start extension point before WidenWorkItemLoops:
//
//  1. runs LLVM's SLP vectorizer over the function, which rebuilds
//     `fmuladd(ext(a,i), s, ext(c,i))` for i = 0..3 into
//     `fmuladd(a, splat(s), c)`; the loop then computes on whole float4s
//     and WidenWorkItemLoops runs four work-items per <16 x float>;
//  2. turns a splat of element k of a loaded vector
//     (`shufflevector (load <N x T> p), poison, <k, k, ...>`) into a splat
//     of a scalar load of p[k], placed right after the vector load (the
//     same bytes at the same point, so the same value): the backend then
//     broadcasts from memory instead of shuffling registers (CLBlast's
//     float2 of B, uniform across work-items, splatted per component).
//
// Only functions that HorizontalLoops marked, and only when an innermost
// work-item loop holds lane-split code: other kernels' vector code is left
// to WidenWorkItemLoops and ScalarizeWorkItemLoops as before.
// WEFT_REVECTORIZE=0 turns this pass and the marking off.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/RevectorizeWorkItemLoops.h"

#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/ParallelLoops.h"

#include "weft/debug.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Vectorize/SLPVectorizer.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace weft {

bool revectorizationEnabled() { return switchEnabled("WEFT_REVECTORIZE"); }

namespace {

/// Whether I computes one lane of a split vector: a floating-point
/// operation with an operand extracted at a constant index.
bool isLaneOperation(const Instruction &I) {
  if (!I.getType()->isFloatingPointTy())
    return false;
  if (!isa<BinaryOperator>(I) && !isa<UnaryOperator>(I) &&
      !isa<IntrinsicInst>(I))
    return false;
  return any_of(I.operands(), [](const Use &U) {
    return match(U.get(), m_ExtractElt(m_Value(), m_ConstantInt()));
  });
}

/// Whether an innermost work-item loop of F computes on split vectors.
bool hasLaneSplitWorkItemLoop(const LoopInfo &LI) {
  for (const Loop *L : LI.getLoopsInPreorder()) {
    if (!isInnermostParallelLoop(*L))
      continue;
    for (const BasicBlock *BB : L->blocks())
      if (any_of(*BB, isLaneOperation))
        return true;
  }
  return false;
}

/// The scalar load of element Index of the vector that VecLoad loads,
/// created right after VecLoad with its metadata (alias scopes, the
/// loop's access group).
LoadInst *loadElement(LoadInst *VecLoad, unsigned Index) {
  auto *VTy = cast<FixedVectorType>(VecLoad->getType());
  Type *EltTy = VTy->getElementType();
  const DataLayout &DL = VecLoad->getModule()->getDataLayout();
  uint64_t EltBytes = DL.getTypeStoreSize(EltTy);
  IRBuilder<> B(VecLoad->getNextNode());
  Value *Ptr = VecLoad->getPointerOperand();
  if (Index != 0)
    Ptr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ptr, Index * EltBytes);
  LoadInst *Elt = B.CreateAlignedLoad(
      EltTy, Ptr, commonAlignment(VecLoad->getAlign(), Index * EltBytes),
      VecLoad->getName() + ".elt" + Twine(Index));
  Elt->copyMetadata(*VecLoad);
  return Elt;
}

/// Replaces splats of one element of a simple vector load by splats of a
/// scalar load of that element; returns how many.
unsigned splatFromMemory(Function &F) {
  SmallVector<ShuffleVectorInst *, 16> Splats;
  for (Instruction &I : instructions(F)) {
    auto *SV = dyn_cast<ShuffleVectorInst>(&I);
    if (!SV || getSplatIndex(SV->getShuffleMask()) < 0)
      continue;
    auto *Load = dyn_cast<LoadInst>(SV->getOperand(0));
    if (!Load || !Load->isSimple() || !isa<FixedVectorType>(Load->getType()))
      continue;
    Splats.push_back(SV);
  }
  unsigned Count = 0;
  for (ShuffleVectorInst *SV : Splats) {
    auto *Load = cast<LoadInst>(SV->getOperand(0));
    int Index = getSplatIndex(SV->getShuffleMask());
    Type *EltTy = Load->getType()->getScalarType();
    const DataLayout &DL = F.getDataLayout();
    // An element that does not fill its bytes (i1) has no address.
    if (Index < 0 || !DL.typeSizeEqualsStoreSize(EltTy) ||
        Index >= (int)cast<FixedVectorType>(Load->getType())->getNumElements())
      continue;
    LoadInst *Elt = loadElement(Load, Index);
    IRBuilder<> B(SV);
    unsigned Lanes = cast<FixedVectorType>(SV->getType())->getNumElements();
    Value *Splat = B.CreateVectorSplat(Lanes, Elt, SV->getName());
    SV->replaceAllUsesWith(Splat);
    SV->eraseFromParent();
    if (Load->use_empty())
      Load->eraseFromParent();
    ++Count;
  }
  return Count;
}

} // namespace

PreservedAnalyses
RevectorizeWorkItemLoopsPass::run(Function &F, FunctionAnalysisManager &AM) {
  if (F.isDeclaration() || !F.hasFnAttribute(VectorsKeptAttr))
    return PreservedAnalyses::all();
  if (!hasLaneSplitWorkItemLoop(AM.getResult<LoopAnalysis>(F)))
    return PreservedAnalyses::all();
  PreservedAnalyses PA = SLPVectorizerPass().run(F, AM);
  AM.invalidate(F, PA);
  unsigned Splats = splatFromMemory(F);
  WEFT_LOG(DebugCompile,
           "%s: lane-split vector code rebuilt by the SLP vectorizer, %u "
           "splats of loaded elements broadcast from memory",
           F.getName().str().c_str(), Splats);
  PreservedAnalyses Result;
  Result.preserveSet<CFGAnalyses>();
  return Result;
}

} // namespace weft
