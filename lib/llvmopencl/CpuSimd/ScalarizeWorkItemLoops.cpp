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
// either), and the loop does more than stream vectors of 16 bytes or more
// through memory (split, their loads become costly interleaved groups).
// The exception is a vector math builtin of up to four lanes narrower than
// the registers (exp(float4) calls Sleef_expf4_u10avx2128 per work-item):
// the pass splits it into SLEEF's scalar function (Sleef_expf_u10) with the
// vector variants VectorMathVariants gives the scalar builtins, so the
// vectorizer calls Sleef_expf16_u10avx512f across 16 work-items instead
// (exp(float4) 1742 -> 4164 Melem/s, near the scalar form's 5700). Four
// lanes at most: wider vectors cost more in shuffles than they gain.
// Straight-line vector code outside loops is split too; the SLP
// vectorizer regroups it where that pays.
//
// Two leftovers of the split would still keep the loop from the vectorizer
// ("instruction return type cannot be vectorized"), so they are undone:
// any() and all() of a split compare, which InstCombine had made a bitcast
// of the <N x i1> to an integer tested against 0 or -1 (sleef.cl's repairs
// of cosh, sinh, exp and pow test any() of their lanes), become an or (and)
// of the lanes; and what InstCombine folds back into a small vector after
// the split (a float2 builtin's `.lo` of its padded float4 SLEEF call was
// stored as a double, whose pieces became a <2 x float> store again) is
// split by a second round.
//
// A function with a loop WidenWorkItemLoops widened across work-items keeps
// its vectors: they are already full-width.
//
// Runs at the vectorizer-start extension point of the O3 pipeline, after
// inlining and loop canonicalization and right before loop-vectorize
// (after WidenWorkItemLoops).
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/ScalarizeWorkItemLoops.h"

#include "WorkGroup/ParallelLoops.h"
#include "CpuSimd/VectorMathVariants.h"
#include "CpuSimd/WidenWorkItemLoops.h"

#include "weft/debug.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <algorithm>
#include <optional>

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

/// The narrowest vector access worth keeping whole (movesFullVector).
constexpr uint64_t FullVectorBytes = 16;
/// SLEEF calls on wider vectors stay whole (isNarrowSleefCall).
constexpr unsigned MaxSplitLanes = 4;
/// What a SLEEF call weighs against the loads and stores around it when
/// judging whether a loop computes enough to split (exp is some twenty
/// instructions; exp(float4) runs 2.4 times faster split).
constexpr unsigned SleefCallOperations = 16;

/// A call of one of SLEEF's vector functions, as lib/kernel/sleef.cl's
/// vector math builtins make them: Sleef_<stem><f|d><lanes>_<accuracy><isa>
/// ("Sleef_expf4_u10avx2128"), all of whose operands have its vector type.
struct SleefCall {
  StringRef Stem, Accuracy; ///< "exp", "u10"
  bool IsFloat = false;
  unsigned Lanes = 0;
};

std::optional<SleefCall> parseSleefCall(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  auto *VecTy = dyn_cast<FixedVectorType>(Call.getType());
  if (!Callee || !VecTy ||
      !(VecTy->getElementType()->isFloatTy() ||
        VecTy->getElementType()->isDoubleTy()) ||
      Call.arg_size() < 1 || Call.arg_size() > 2 ||
      any_of(Call.args(), [&](const Use &A) { return A->getType() != VecTy; }))
    return std::nullopt;
  StringRef Name = Callee->getName();
  if (!Name.consume_front("Sleef_"))
    return std::nullopt;
  auto [Head, Tail] = Name.rsplit('_');
  // Tail: u, two digits of accuracy, the ISA.
  if (Tail.size() < 4 || Tail[0] != 'u' || !isDigit(Tail[1]) ||
      !isDigit(Tail[2]))
    return std::nullopt;
  SleefCall Result;
  Result.Accuracy = Tail.take_front(3);
  size_t Digits = Head.find_last_not_of("0123456789");
  if (Digits == StringRef::npos || Digits + 1 == Head.size() ||
      Head.drop_front(Digits + 1).getAsInteger(10, Result.Lanes) ||
      Result.Lanes != VecTy->getNumElements())
    return std::nullopt;
  char Type = Head[Digits];
  Result.IsFloat = Type == 'f';
  if (Type != (VecTy->getElementType()->isFloatTy() ? 'f' : 'd'))
    return std::nullopt;
  Result.Stem = Head.take_front(Digits);
  if (Result.Stem.empty())
    return std::nullopt;
  return Result;
}

/// A SLEEF call on vectors of at most four lanes, narrower than the
/// registers: one call per work-item uses part of them, so it is split into
/// one scalar call per lane, which the vectorizer turns back into
/// full-width SLEEF calls. The split costs the loads and stores around it
/// deinterleaving shuffles (interleaved groups of factor Lanes), which for
/// eight lanes can exceed what the call saves (2-core Zen 4, Melem/s, whole
/// call vs split: exp float4 1742 -> 4164, double4 1308 -> 1462, but float8
/// 3381 -> 2730).
bool isNarrowSleefCall(const Instruction &I, unsigned RegisterBytes) {
  const auto *Call = dyn_cast<CallInst>(&I);
  if (!Call)
    return false;
  std::optional<SleefCall> S = parseSleefCall(*Call);
  return S && S->Lanes <= MaxSplitLanes &&
         I.getDataLayout().getTypeStoreSize(Call->getType()) < RegisterBytes;
}

/// A vector instruction the Scalarizer leaves whole (a call of a function
/// over vectors, a masked or gather intrinsic), which would keep its loop
/// out of the vectorizer's reach anyway; narrow SLEEF calls this pass
/// splits itself.
bool cannotSplit(const Instruction &I, unsigned RegisterBytes) {
  const auto *Call = dyn_cast<CallInst>(&I);
  if (!Call)
    return false;
  const auto *II = dyn_cast<IntrinsicInst>(Call);
  if (!II)
    return !isNarrowSleefCall(I, RegisterBytes);
  return !isTriviallyVectorizable(II->getIntrinsicID());
}

/// Replaces each narrow SLEEF call in a loop of F with one call per lane of
/// SLEEF's scalar function of the same accuracy (Sleef_expf_u10), declared
/// without memory effects and carrying the vector variants of every
/// register width: the same functions the scalar math builtins reach.
void splitSleefCalls(Function &F, const LoopInfo &LI, unsigned RegisterBytes) {
  SmallVector<CallInst *, 8> Calls;
  for (BasicBlock &BB : F)
    if (LI.getLoopFor(&BB))
      for (Instruction &I : BB)
        if (isNarrowSleefCall(I, RegisterBytes))
          Calls.push_back(cast<CallInst>(&I));
  Module &M = *F.getParent();
  for (CallInst *Call : Calls) {
    SleefCall S = *parseSleefCall(*Call);
    auto *VecTy = cast<FixedVectorType>(Call->getType());
    Type *T = VecTy->getElementType();
    std::string Scalar =
        ("Sleef_" + S.Stem + (S.IsFloat ? "f" : "") + "_" + S.Accuracy).str();
    SmallVector<Type *, 2> Params(Call->arg_size(), T);
    FunctionCallee Callee =
        M.getOrInsertFunction(Scalar, FunctionType::get(T, Params, false));
    if (auto *Fn = dyn_cast<Function>(Callee.getCallee())) {
      Fn->setDoesNotAccessMemory();
      Fn->setDoesNotThrow();
      Fn->setWillReturn();
    }
    Attribute Variants = Attribute::get(
        F.getContext(), "vector-function-abi-variant",
        declareSleefVariants(M, Scalar, S.Stem, T, Call->arg_size(),
                             ("_" + S.Accuracy).str(), RegisterBytes));
    IRBuilder<> B(Call);
    Value *Result = PoisonValue::get(VecTy);
    for (unsigned Lane = 0; Lane < S.Lanes; ++Lane) {
      SmallVector<Value *, 2> Args;
      for (Value *Arg : Call->args())
        Args.push_back(B.CreateExtractElement(Arg, Lane));
      CallInst *Part = B.CreateCall(Callee, Args);
      Part->addFnAttr(Variants);
      Result = B.CreateInsertElement(Result, Part, Lane);
    }
    Result->takeName(Call);
    Call->replaceAllUsesWith(Result);
    Call->eraseFromParent();
  }
}

/// Whether an innermost work-item loop of F still computes on vectors.
bool loopsHoldVectors(Function &F, const LoopInfo &LI) {
  for (BasicBlock &BB : F) {
    const Loop *L = LI.getLoopFor(&BB);
    if (!L || !isInnermostParallelLoop(*L))
      continue;
    for (Instruction &I : BB)
      if (!isa<DbgInfoIntrinsic>(I) && hasVectorType(I))
        return true;
  }
  return false;
}

/// Replaces the tests of `bitcast <N x i1> (N lanes inserted one by one)
/// to iN` against 0 (any lane) and -1 (every lane) in F's innermost
/// work-item loops by an or (and) of the lanes. True if it changed F.
bool foldLaneMaskTests(Function &F, const LoopInfo &LI) {
  SmallVector<BitCastInst *, 4> Casts;
  for (BasicBlock &BB : F) {
    const Loop *L = LI.getLoopFor(&BB);
    if (!L || !isInnermostParallelLoop(*L))
      continue;
    for (Instruction &I : BB)
      if (auto *Cast = dyn_cast<BitCastInst>(&I)) {
        auto *VecTy = dyn_cast<FixedVectorType>(Cast->getSrcTy());
        if (VecTy && VecTy->getElementType()->isIntegerTy(1) &&
            Cast->getDestTy()->isIntegerTy())
          Casts.push_back(Cast);
      }
  }
  bool Changed = false;
  for (BitCastInst *Cast : Casts) {
    unsigned N = cast<FixedVectorType>(Cast->getSrcTy())->getNumElements();
    SmallVector<Value *, 16> Lanes(N, nullptr);
    Value *V = Cast->getOperand(0);
    while (auto *Insert = dyn_cast<InsertElementInst>(V)) {
      auto *Index = dyn_cast<ConstantInt>(Insert->getOperand(2));
      if (!Index || Index->getZExtValue() >= N)
        break;
      Value *&Lane = Lanes[Index->getZExtValue()];
      if (!Lane) // a later insert into the same lane wins
        Lane = Insert->getOperand(1);
      V = Insert->getOperand(0);
    }
    if (is_contained(Lanes, nullptr))
      continue;
    auto Test = [](User *U, bool &Every, bool &Negated) {
      auto *Cmp = dyn_cast<ICmpInst>(U);
      auto *C = Cmp ? dyn_cast<ConstantInt>(Cmp->getOperand(1)) : nullptr;
      if (!C || !Cmp->isEquality() || !(C->isZero() || C->isMinusOne()))
        return false;
      Every = C->isMinusOne();
      Negated = (Cmp->getPredicate() == ICmpInst::ICMP_NE) == Every;
      return true;
    };
    bool Every, Negated;
    if (!all_of(Cast->users(),
                [&](User *U) { return Test(U, Every, Negated); }))
      continue;
    for (User *U : make_early_inc_range(Cast->users())) {
      auto *Cmp = cast<ICmpInst>(U);
      Test(Cmp, Every, Negated);
      IRBuilder<> B(Cmp);
      Value *R = Lanes[0];
      for (unsigned Lane = 1; Lane < N; ++Lane)
        R = Every ? B.CreateAnd(R, Lanes[Lane]) : B.CreateOr(R, Lanes[Lane]);
      if (Negated)
        R = B.CreateNot(R);
      R->takeName(Cmp);
      Cmp->replaceAllUsesWith(R);
      Cmp->eraseFromParent();
    }
    Changed = true;
  }
  return Changed;
}

/// Splits F's vector code: the Scalarizer, then the clean-ups of its
/// leftovers.
PreservedAnalyses splitVectors(Function &F, FunctionAnalysisManager &AM) {
  ScalarizerPassOptions Options;
  Options.ScalarizeLoadStore = true;
  Options.ScalarizeVariableInsertExtract = true;
  PreservedAnalyses PA = ScalarizerPass(Options).run(F, AM);
  AM.invalidate(F, PA);
  if (foldLaneMaskTests(F, AM.getResult<LoopAnalysis>(F))) {
    PA.intersect(PreservedAnalyses::none());
    PA.preserveSet<CFGAnalyses>();
    AM.invalidate(F, PA);
  }
  // The Scalarizer leaves extract/insert chains where whole vectors met
  // scalars; folding them keeps the vectorizer's cost model honest.
  PA.intersect(EarlyCSEPass().run(F, AM));
  AM.invalidate(F, PA);
  PA.intersect(InstCombinePass().run(F, AM));
  AM.invalidate(F, PA);
  return PA;
}

/// A load or store of a vector of at least 16 bytes: whole, it is one
/// full SSE-or-wider access. A float2 access is not (clpeak's float2
/// global-bandwidth kernel runs faster split: 13.5 against 10.3 GB/s).
bool movesFullVector(const Instruction &I) {
  Type *T = nullptr;
  if (const auto *Load = dyn_cast<LoadInst>(&I))
    T = Load->getType();
  else if (const auto *Store = dyn_cast<StoreInst>(&I))
    T = Store->getValueOperand()->getType();
  return T && T->isVectorTy() &&
         I.getDataLayout().getTypeStoreSize(T) >= FullVectorBytes;
}

enum class Verdict { NoVectors, Split, Keep };

/// Whether F's vector code sits where splitting it helps the vectorizer.
Verdict judge(Function &F, LoopInfo &LI, unsigned RegisterBytes) {
  unsigned Arithmetic = 0, Moves = 0;
  for (BasicBlock &BB : F) {
    const Loop *L = LI.getLoopFor(&BB);
    for (Instruction &I : BB) {
      if (isa<DbgInfoIntrinsic>(I) || !hasVectorType(I) || !L)
        continue;
      if (isWidenedWorkItemLoop(*L)) {
        // Its vectors hold several work-items each; the Scalarizer works on
        // the whole function and would split them too.
        WEFT_LOG(DebugCompile, "%s keeps its vectors: a work-item loop "
                 "widened across work-items", F.getName().str().c_str());
        return Verdict::Keep;
      }
      if (!isInnermostParallelLoop(*L) || cannotSplit(I, RegisterBytes)) {
        LLVM_DEBUG(dbgs() << F.getName() << ": keeps its vectors for " << I
                          << "\n");
        WEFT_LOG(DebugCompile, "%s keeps its vectors: vector code in a loop "
                 "that is not an innermost work-item loop",
                 F.getName().str().c_str());
        return Verdict::Keep;
      }
      if (isa<LoadInst>(I) || isa<StoreInst>(I))
        Moves += movesFullVector(I);
      else if (isNarrowSleefCall(I, RegisterBytes))
        Arithmetic += SleefCallOperations;
      else if (!isa<ShuffleVectorInst>(I) && !isa<ExtractElementInst>(I) &&
               !isa<InsertElementInst>(I))
        ++Arithmetic;
    }
  }
  if (Arithmetic == 0 && Moves == 0)
    return Verdict::NoVectors;
  // Vectors streamed through memory: split, each access becomes an
  // interleaved group (of factor 4 to 16) whose shuffles cost more than
  // such a loop computes, while whole they are plain loads and stores (a
  // float16 triad ran at a sixth of its bandwidth split; clpeak's float4
  // global-bandwidth kernel, 16 loads and 19 additions, 8.4 GB/s split and
  // 21.1 whole on 2 loaded Zen 4 cores, float8 16.9 and 22.3; float4 triad
  // 23.7 and 27.6). Only enough arithmetic per access pays for the split.
  if (Moves && Arithmetic < 4 * Moves) {
    WEFT_LOG(DebugCompile,
             "%s keeps its vectors: %u operations for %u vector loads/stores",
             F.getName().str().c_str(), Arithmetic, Moves);
    return Verdict::Keep;
  }
  return Verdict::Split;
}

} // namespace

PreservedAnalyses ScalarizeWorkItemLoopsPass::run(Function &F,
                                                  FunctionAnalysisManager &AM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  unsigned RegisterBytes =
      vectorRegisterBytes(AM.getResult<TargetIRAnalysis>(F));
  if (judge(F, AM.getResult<LoopAnalysis>(F), std::max(RegisterBytes, 16u)) !=
      Verdict::Split)
    return PreservedAnalyses::all();
  WEFT_LOG(DebugCompile, "%s: explicit vectors of its work-item loops split "
           "into scalars", F.getName().str().c_str());
  splitSleefCalls(F, AM.getResult<LoopAnalysis>(F),
                  std::max(RegisterBytes, 16u));
  PreservedAnalyses PA = splitVectors(F, AM);
  if (loopsHoldVectors(F, AM.getResult<LoopAnalysis>(F)))
    PA.intersect(splitVectors(F, AM));
  return PA;
}

} // namespace weft
