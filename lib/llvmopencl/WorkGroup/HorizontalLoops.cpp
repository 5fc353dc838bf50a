//===- HorizontalLoops.cpp - Implicit barriers in uniform loops -----------===//
//
// Horizontal inner-loop parallelization. Without it, the work-item loops
// are wrapped around the whole kernel, so a loop of the kernel is the
// innermost loop the vectorizer sees: a sequential chain (a dot product, a
// mad chain) that stays scalar, with the parallel work-item loop outside:
//
//   for x { acc = 0; for k < N { acc += A[k] * B[k][x] } C[x] = acc }
//
// When every work-item runs the same trips of the kernel's loop, a barrier
// at the top of its body changes nothing a kernel may observe (work-items
// without barriers have no order among themselves), and ParallelRegions
// then gives the body a work-item loop of its own, inside the kernel's
// loop: the loops are interchanged, and the work-item loop, whose
// iterations are independent, is the one that vectorizes:
//
//   for k < N { for x { acc[x] += A[k] * B[k][x] } }   for x { C[x] = acc[x] }
//
// The implicit barriers go after the loop header's PHIs (every trip starts
// with all work-items at the same point) and at the top of each exit block
// (so the code after the loop, which may hold loops of its own, is a region
// of its own instead of a part of the body's region).
//
// Legality. A barrier may only go where every work-item arrives equally
// often: the loop is barrier-free, its header and exiting blocks are not
// divergent (UniformityAnalysis: not under a branch on a varying condition,
// in particular not in a loop with a varying trip count) and every exit
// condition is uniform. An exit block gets its barrier only when it is not
// divergent either.
//
// Profitability. The barrier costs a pass of the work-item loop per trip
// (reloading the per-work-item values from their context arrays), so a
// loop is chosen only when
//  - its body does per-work-item work (a varying value or memory access),
//  - every loop nested in it is chosen too, or has a small constant trip
//    count that O3 unrolls (otherwise the work-item loop would not be
//    innermost and could not vectorize); a loop with a small constant trip
//    count is itself left to the unroller, which makes the work-item loop
//    innermost at no cost; so is a loop of up to 32 trips that carries a
//    per-work-item value (an accumulator), loads memory (a tile; not a
//    mad chain, which stays horizontal) and unrolls within 8192
//    instructions (llvm.loop.unroll.full): made horizontal, each trip's
//    work-item loop would reload and store those values through context
//    arrays (CLBlast's Xgemm: 8 accumulators every 2 of its 32 k-steps),
//    unrolled they stay in registers of the one work-item loop around it,
//  - it touches no private array left in memory (it would become a context
//    array with a slot per work-item and element),
//  - no access walks consecutive elements along the loop's trips while
//    neighbouring work-items are apart (a row sum, In[I * N + J]): that
//    loop vectorizes better in its own orientation (with fast math) and
//    would gather after the interchange,
//  - it calls no function on vectors (a vector math builtin's SLEEF
//    function): the scalarizer keeps such a call, and the loop vectorizer
//    cannot widen a vector-typed call,
//  - a work-item does not reload what it stored in the same trip
//    (mayReadAfterWriteInIteration), which would withhold the parallel
//    annotation from the body's work-item loop,
//  - the work-group has more than one work-item,
//  - and the region method will take the kernel (RegionMethodLimits.h);
//    the fallback method would only pay for the barriers.
// WEFT_HORIZONTAL=0 turns the pass off.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/HorizontalLoops.h"
#include "WorkGroup/BarrierUtils.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/ParallelLoops.h"
#include "WorkGroup/RegionMethodLimits.h"
#include "CpuSimd/RevectorizeWorkItemLoops.h"
#include "WorkGroup/UniformityAnalysis.h"

#include "weft/debug.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <cstdlib>
#include <cstring>
#include <string>

#define DEBUG_TYPE "weft-horizontal-loops"

using namespace llvm;

namespace weft {

bool horizontalLoopsEnabled() { return switchEnabled("WEFT_HORIZONTAL"); }

namespace {

/// Loops with at most this many trips are left to full unrolling.
constexpr unsigned SmallTripCount = 8;
/// A loop with up to this many trips that carries per-work-item values is
/// fully unrolled instead, if its unrolled body stays within
/// UnrollBudget instructions: half of LLVM's threshold for
/// llvm.loop.unroll.full, and room for CLBlast's Xgemm as it is tuned for
/// Intel CPUs (17 trips of 410 instructions in floats, 366 in halves;
/// horizontal, SGEMM ran 25% and HGEMM 13x slower).
constexpr unsigned CarryingTripCount = 32;
constexpr unsigned UnrollBudget = 8192;

enum class Decision {
  Chosen,   ///< gets implicit barriers
  Unrolled, ///< small constant trip count: no barriers, no obstacle either
  Rejected, ///< left alone, and so is every loop around it
};

class LoopChooser {
public:
  LoopChooser(Function &F, LoopInfo &LI, ScalarEvolution &SE,
              const UniformityInfo &UI)
      : F(F), LI(LI), SE(SE), UI(UI) {}

  /// The chosen loops, innermost first.
  SmallVector<Loop *, 8> choose() {
    for (Loop *L : LI)
      decide(L);
    return Chosen;
  }

  /// How many loops choose() marked for full unrolling instead.
  unsigned fullyUnrolled() const { return FullyUnrolled; }

private:
  Decision decide(Loop *L) {
    bool SubloopsFit = true, SubloopsUnrolled = true;
    for (Loop *Sub : L->getSubLoops()) {
      Decision SubD = decide(Sub);
      SubloopsFit &= SubD != Decision::Rejected;
      SubloopsUnrolled &= SubD == Decision::Unrolled;
    }
    const char *Why = nullptr;
    Decision D = Decision::Rejected;
    if (const char *Illegal = whyIllegal(L))
      Why = Illegal;
    else if (unsigned Trips = SE.getSmallConstantTripCount(L);
             Trips && Trips <= SmallTripCount) {
      Why = "small constant trip count, left to unrolling";
      D = Decision::Unrolled;
    } else if (SubloopsUnrolled && isWorthUnrolling(L, Trips)) {
      Why = "carries per-work-item values over a few trips: fully unrolled";
      D = Decision::Unrolled;
      addStringMetadataToLoop(L, "llvm.loop.unroll.full", /*V=*/1);
      ++FullyUnrolled;
    } else if (!SubloopsFit)
      Why = "a nested loop stays around the work-item loop";
    else if (const char *Unprofitable = whyUnprofitable(L))
      Why = Unprofitable;
    else
      D = Decision::Chosen;
    if (D == Decision::Chosen) {
      Chosen.push_back(L);
      WEFT_LOG(DebugCompile, "%s: loop %s (depth %u): horizontal",
               F.getName().str().c_str(),
               L->getHeader()->getName().str().c_str(), L->getLoopDepth());
    } else {
      WEFT_LOG(DebugCompile, "%s: loop %s (depth %u): not horizontal: %s",
               F.getName().str().c_str(),
               L->getHeader()->getName().str().c_str(), L->getLoopDepth(), Why);
    }
    return D;
  }

  /// Whether L, with a constant trip count up to CarryingTripCount, carries
  /// a per-work-item value from trip to trip (an accumulator) and unrolls
  /// within UnrollBudget. Made horizontal, each trip's work-item loop would
  /// reload and store those values through context arrays (CLBlast's Xgemm:
  /// 8 accumulators per 2 k-steps); unrolled, the work-item loop around the
  /// whole loop keeps them in registers. Only for loops whose nested loops
  /// are all left to unrolling too (none holds implicit barriers).
  bool isWorthUnrolling(Loop *L, unsigned Trips) {
    if (!Trips || Trips > CarryingTripCount)
      return false;
    if (none_of(L->getHeader()->phis(),
                [&](PHINode &Phi) { return UI.isVarying(&Phi); }))
      return false;
    // A loop that only computes on what it carries (clpeak's mad chains)
    // stays horizontal: GroupWorkItemChains lays out its body's chains,
    // and unrolled, float8/float16 ran at half the speed.
    if (none_of(L->blocks(), [](BasicBlock *BB) {
          return any_of(*BB, [](Instruction &I) { return isa<LoadInst>(I); });
        }))
      return false;
    return unrolledSize(L) * Trips <= UnrollBudget;
  }

  /// L's instructions once its nested loops (constant trip counts, or L
  /// would not be considered) are unrolled.
  uint64_t unrolledSize(Loop *L) {
    uint64_t Size = 0;
    for (BasicBlock *BB : L->blocks())
      if (LI.getLoopFor(BB) == L)
        Size += BB->size();
    for (Loop *Sub : L->getSubLoops())
      Size +=
          unrolledSize(Sub) * std::max(1u, SE.getSmallConstantTripCount(Sub));
    return Size;
  }

  const char *whyIllegal(Loop *L) {
    if (UI.isDivergent(L->getHeader()))
      return "reached under a varying condition, or a varying trip count";
    SmallVector<BasicBlock *, 4> Exiting;
    L->getExitingBlocks(Exiting);
    for (BasicBlock *BB : Exiting) {
      if (UI.isDivergent(BB))
        return "an exit under a varying condition";
      Instruction *T = BB->getTerminator();
      Value *Cond = nullptr;
      if (auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
        Cond = Br->getCondition();
      else if (auto *Sw = dyn_cast<SwitchInst>(T))
        Cond = Sw->getCondition();
      if (!Cond || UI.isVarying(Cond))
        return "a varying exit condition";
    }
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB)
        if (isBarrierCall(I))
          return "it holds a barrier";
    return nullptr;
  }

  const char *whyUnprofitable(Loop *L) {
    bool Varying = false;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB) {
        if (accessesPrivateAlloca(I))
          return "it uses private memory that would become a context array";
        if (auto *CB = dyn_cast<CallBase>(&I); CB && !isa<IntrinsicInst>(CB))
          if (CB->getType()->isVectorTy() ||
              any_of(CB->args(),
                     [](Value *A) { return A->getType()->isVectorTy(); }))
            return "a call on vectors (SLEEF), which the scalarizer keeps "
                   "and the work-item loop could not vectorize";
        if (!I.isTerminator() && !I.getType()->isVoidTy() && UI.isVarying(&I))
          Varying = true;
        if (I.mayWriteToMemory())
          Varying = true;
      }
    if (!Varying)
      return "no per-work-item work in it";
    if (streamsAlongLoop(L))
      return "it streams through memory along its own trips, and "
             "across the work-items with a stride (gathers after the "
             "interchange)";
    SmallVector<BasicBlock *, 16> Body(L->blocks());
    if (mayReadAfterWriteInIteration(Body))
      return "a work-item may reload what it stored in the same trip";
    return nullptr;
  }

  /// Whether some access of L walks consecutive elements from one trip to
  /// the next while neighbouring work-items in x are not consecutive (a row
  /// sum over In[I * N + J]): the loop in its own orientation reads whole
  /// vectors, interchanged it would gather.
  bool streamsAlongLoop(Loop *L) {
    Value *X = F.getArg(F.arg_size() - 3);
    ValueToSCEVMapTy NextX;
    NextX[X] = SE.getAddExpr(SE.getSCEV(X), SE.getOne(X->getType()));
    const DataLayout &DL = F.getParent()->getDataLayout();
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB) {
        Value *Ptr = getLoadStorePointerOperand(&I);
        if (!Ptr || UI.isUniform(Ptr))
          continue;
        int64_t Size = DL.getTypeStoreSize(getLoadStoreType(&I));
        const SCEV *At = SE.getSCEV(Ptr);
        auto *Trips = dyn_cast<SCEVAddRecExpr>(At);
        if (!Trips || Trips->getLoop() != L)
          continue;
        auto *Step = dyn_cast<SCEVConstant>(Trips->getStepRecurrence(SE));
        if (!Step || Step->getAPInt().abs() != Size)
          continue;
        const SCEV *AtNext = SCEVParameterRewriter::rewrite(At, SE, NextX);
        auto *Across = dyn_cast<SCEVConstant>(SE.getMinusSCEV(AtNext, At));
        if (!Across || (!Across->isZero() && Across->getAPInt().abs() != Size))
          return true;
      }
    return false;
  }

  Function &F;
  LoopInfo &LI;
  ScalarEvolution &SE;
  const UniformityInfo &UI;
  SmallVector<Loop *, 8> Chosen;
  unsigned FullyUnrolled = 0;
};

/// Where a trip of L starts for the work-items: the top of its body when
/// the header only tests the uniform exit condition (a for loop), else the
/// header after its PHIs. A barrier after the test leaves the test in the
/// region that reaches the header (the previous trip's or the code before
/// the loop), which then ends at one barrier or the other; a barrier
/// before it would test the condition in every work-item of every trip
/// inside the body's work-item loop, which the vectorizer if-converts:
/// each value the trip updates is then selected against its old value at
/// the end, and both stay live (clpeak float16: 64 live registers).
BasicBlock *tripStart(Loop *L, const UniformityInfo &UI) {
  BasicBlock *Header = L->getHeader();
  BasicBlock *Body = nullptr;
  for (BasicBlock *Succ : successors(Header)) {
    if (!L->contains(Succ))
      continue;
    if (Body || Succ == Header)
      return Header;
    Body = Succ;
  }
  if (!Body || Body->getSinglePredecessor() != Header || Body->isEHPad())
    return Header;
  // A vector narrower than 16 bytes the scalarizer left whole in a header
  // PHI would cross the barrier as a vector context array, whose 8-byte
  // loads and stores keep the body's work-item loop from vectorizing
  // (clpeak float2: 217 -> 20 GFLOP/s). Wider ones (float4..float16) do not.
  const DataLayout &DL = Header->getDataLayout();
  for (PHINode &Phi : Header->phis())
    if (Phi.getType()->isVectorTy() &&
        DL.getTypeStoreSize(Phi.getType()) < 16)
      return Header;
  for (Instruction &I : *Header)
    if (!isa<PHINode>(I) && !isa<DbgInfoIntrinsic>(I) && !I.isTerminator() &&
        (I.mayHaveSideEffects() || I.mayReadFromMemory() || !UI.isUniform(&I)))
      return Header;
  return Body;
}

/// The blocks that get an implicit barrier at their top for a chosen loop:
/// where its trips start and each exit block every work-item reaches.
void collectBarrierBlocks(Loop *L, const UniformityInfo &UI,
                          SetVector<BasicBlock *> &Blocks) {
  Blocks.insert(tripStart(L, UI));
  SmallVector<BasicBlock *, 4> Exits;
  L->getUniqueExitBlocks(Exits);
  for (BasicBlock *Exit : Exits)
    if (!UI.isDivergent(Exit) && !Exit->isEHPad())
      Blocks.insert(Exit);
}

/// Uniform branches given implicit barriers in one function, at most.
constexpr unsigned MaxUniformBranches = 8;

/// The blocks a branch in BB controls: reachable from its successors
/// without passing Join.
SmallPtrSet<BasicBlock *, 16> controlledBlocks(BasicBlock *BB,
                                               BasicBlock *Join) {
  SmallPtrSet<BasicBlock *, 16> Region;
  SmallVector<BasicBlock *, 16> Stack(succ_begin(BB), succ_end(BB));
  while (!Stack.empty()) {
    BasicBlock *B = Stack.pop_back_val();
    if (B == Join || !Region.insert(B).second)
      continue;
    Stack.append(succ_begin(B), succ_end(B));
  }
  return Region;
}

/// Whether every loop around BB holds a barrier, explicit or implicit:
/// there a barrier more adds a region, not a horizontal loop.
bool loopsAroundHaveBarriers(BasicBlock *BB, LoopInfo &LI,
                             const SetVector<BasicBlock *> &BarrierBlocks) {
  for (Loop *L = LI.getLoopFor(BB); L; L = L->getParentLoop())
    if (none_of(L->blocks(), [&](BasicBlock *B) {
          return BarrierBlocks.count(B) ||
                 any_of(*B, [](Instruction &I) { return isBarrierCall(I); });
        }))
      return false;
  return true;
}

/// Implicit barriers for uniform branches in a kernel that has regions
/// anyway: at the top of both successors and of the join. Inside one
/// work-item loop such a branch (CLBlast's `if (a_ld % 2 == 0) vector
/// copy else scalar copy`) is if-converted by the vectorizer: both arms'
/// loads and stores become masked, gathers and scatters. Split, each arm
/// is a work-item loop of its own, unconditional. Only arms that store
/// (a branch between two loads, a ternary, stays: it is a select once
/// if-converted) and hold no barrier; the branch's block is not divergent (so
/// every work-item reaches the barriers equally often) and every loop
/// around it holds a barrier already (else the barriers would make that
/// loop horizontal, which LoopChooser decides).
unsigned collectUniformBranchBarriers(Function &F, LoopInfo &LI,
                                      const UniformityInfo &UI,
                                      SetVector<BasicBlock *> &BarrierBlocks) {
  if (BarrierBlocks.empty() && !hasBarrier(F))
    return 0;
  PostDominatorTree PDT(F);
  SmallVector<BasicBlock *, 8> Branches;
  for (BasicBlock &BB : F) {
    auto *BI = dyn_cast<BranchInst>(BB.getTerminator());
    if (!BI || !BI->isConditional() || UI.isVarying(BI->getCondition()) ||
        UI.isDivergent(&BB) || BI->getSuccessor(0) == BI->getSuccessor(1) ||
        !loopsAroundHaveBarriers(&BB, LI, BarrierBlocks))
      continue;
    const DomTreeNode *Node = PDT.getNode(&BB);
    if (!Node || !Node->getIDom() || !Node->getIDom()->getBlock())
      continue;
    BasicBlock *Join = Node->getIDom()->getBlock();
    SmallPtrSet<BasicBlock *, 16> Region = controlledBlocks(&BB, Join);
    bool Memory = false, Barrier = false;
    for (BasicBlock *B : Region)
      for (Instruction &I : *B) {
        Barrier |= isBarrierCall(I);
        Memory |= isa<StoreInst>(I);
      }
    if (Region.count(&BB) || Barrier || !Memory ||
        any_of(successors(&BB), [](BasicBlock *S) { return S->isEHPad(); }) ||
        Join->isEHPad())
      continue;
    Branches.push_back(&BB);
    if (Branches.size() == MaxUniformBranches)
      break;
  }
  for (BasicBlock *BB : Branches) {
    for (BasicBlock *Succ : successors(BB))
      BarrierBlocks.insert(Succ);
    BarrierBlocks.insert(PDT.getNode(BB)->getIDom()->getBlock());
    WEFT_LOG(DebugCompile, "%s: uniform branch in %s: implicit barriers in "
             "its arms", F.getName().str().c_str(), BB->getName().str().c_str());
  }
  return Branches.size();
}

} // namespace

PreservedAnalyses HorizontalLoopsPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  // One work-item: nothing to interchange with.
  if (LocalSize[0] * LocalSize[1] * LocalSize[2] < 2)
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  FAM.registerPass([] { return UniformityAnalysis(); });
  bool Changed = false;
  for (Function &F : M) {
    if (!isWorkItemFunctionOf(F, Kernel) || F.arg_size() < 4)
      continue;
    // Loops to choose, or barriers whose regions uniform branches may
    // split (collectUniformBranchBarriers).
    if (FAM.getResult<LoopAnalysis>(F).empty() && !hasBarrier(F))
      continue;
    // A kernel the region method will decline goes to the fallback method,
    // for which implicit barriers are only cost.
    if (std::string Why = whyRegionMethodDeclines(F); !Why.empty()) {
      WEFT_LOG(DebugCompile, "%s: no horizontal loops: %s",
               F.getName().str().c_str(), Why.c_str());
      continue;
    }
    // The loops' values in SSA form, as uniformity needs them: clang leaves
    // every variable in memory, whose loads count as varying.
    PreservedAnalyses PA = SROAPass(SROAOptions::ModifyCFG).run(F, FAM);
    FAM.invalidate(F, PA);
    if (removeUnreachableBlocks(F))
      FAM.invalidate(F, PreservedAnalyses::none());
    Changed = true;
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    const UniformityInfo &UI = FAM.getResult<UniformityAnalysis>(F);
    LoopChooser Chooser(F, LI, SE, UI);
    SmallVector<Loop *, 8> Chosen = Chooser.choose();
    SetVector<BasicBlock *> BarrierBlocks;
    for (Loop *L : Chosen)
      collectBarrierBlocks(L, UI, BarrierBlocks);
    unsigned Branches =
        collectUniformBranchBarriers(F, LI, UI, BarrierBlocks);
    if (Chosen.empty() && !Chooser.fullyUnrolled() && !Branches)
      continue;
    // The loop vectorizer widens scalars only: a float4 accumulator would
    // keep the work-item loop of the body scalar. Split into four floats,
    // each gets a context array of its own, consecutive in the work-items,
    // and the work-item loop vectorizes (the vector loads and stores become
    // interleaved groups). The blocks survive: the scalarizer changes no
    // control flow. Where the only loops are left to full unrolling, the
    // work-item loops run straight-line float4 code: kept whole (and marked
    // for RevectorizeWorkItemLoops), WidenWorkItemLoops runs four
    // work-items' float4 per register, with no deinterleaving shuffles.
    bool KeepVectors =
        Chosen.empty() && !Branches && revectorizationEnabled();
    if (KeepVectors) {
      F.addFnAttr(VectorsKeptAttr);
    } else {
      PA = ScalarizerPass(ScalarizerPassOptions{/*VariableInsertExtract=*/true,
                                                /*LoadStore=*/true,
                                                /*MinBits=*/0})
               .run(F, FAM);
      FAM.invalidate(F, PA);
    }
    FunctionCallee Marker = getBarrierMarker(M);
    for (BasicBlock *BB : BarrierBlocks)
      CallInst::Create(Marker, "", BB->getFirstInsertionPt());
    WEFT_LOG(DebugCompile,
             "kernel '%s': horizontal inner-loop parallelization of %zu "
             "loops and %u uniform branches, %zu implicit barriers, %u loops "
             "fully unrolled instead, vectors %s",
             derivedFrom(F, WorkItemAttr).str().c_str(), Chosen.size(),
             Branches, BarrierBlocks.size(), Chooser.fullyUnrolled(),
             KeepVectors ? "kept" : "scalarized");
    FAM.invalidate(F, PreservedAnalyses::none());
    assert(!verifyFunction(F, &errs()) && "HorizontalLoops broke the IR");
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
