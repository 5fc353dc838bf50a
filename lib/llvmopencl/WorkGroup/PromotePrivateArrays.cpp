//===- PromotePrivateArrays.cpp - Private arrays into registers -----------===//
//
// Tiled kernels keep per-work-item tiles in private arrays indexed by short
// loops the author asks to unroll (CLBlast's Xgemm: `#pragma unroll` over
// `cpm[_ni * (MWI/VWM) + _mi]`):
//
//   float4 cpm[2];
//   for (kwg ...) { load tiles; barrier; for (k ...) {
//       for (_ni < 2) cpm[_ni] += apm * bpm[_ni];   // private array
//   } barrier; }
//
// O3 would unroll those loops, but only after the work-group passes, and
// by then an array indexed in a loop is memory: one that lives across a
// barrier became a context array with a slot per work-item and element,
// and every use of it is a load or a store in the work-item loops. So the
// work-item function gets the unrolling first: each barrier-free loop with
// a small constant trip count that indexes a private array with its own
// induction variable is fully unrolled (innermost first, within a size
// budget), and SROA then splits the array into scalars, which the later
// passes keep in registers or in one context slot per value.
//
// A private scalar that is only ever loaded and stored as a whole (never
// has its address taken) loses its `volatile` first: no other work-item
// and no other agent can observe private memory, so those accesses have no
// observer, and CLBlast's `volatile int tid` would otherwise stay a
// context array whose volatile accesses keep its loops scalar.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/PromotePrivateArrays.h"
#include "WorkGroup/BarrierUtils.h"
#include "WorkGroup/KernelUtils.h"

#include "weft/debug.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#define DEBUG_TYPE "weft-promote-private-arrays"

using namespace llvm;

namespace weft {

namespace {

/// Loops with more trips than this keep their loop.
constexpr unsigned MaxTrips = 32;
/// Instructions one unrolled loop nest may grow to.
constexpr unsigned MaxUnrolledSize = 4096;

/// Whether every use of AI loads or stores it as a whole.
bool isWholeScalarAccessOnly(AllocaInst &AI) {
  if (AI.isArrayAllocation() || AI.getAllocatedType()->isAggregateType())
    return false;
  for (User *U : AI.users()) {
    if (auto *L = dyn_cast<LoadInst>(U)) {
      if (L->getType() != AI.getAllocatedType())
        return false;
      continue;
    }
    if (auto *S = dyn_cast<StoreInst>(U)) {
      if (S->getValueOperand() == &AI ||
          S->getValueOperand()->getType() != AI.getAllocatedType())
        return false;
      continue;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
      continue;
    return false;
  }
  return true;
}

/// Drops `volatile` from the accesses of private scalars nobody else can
/// reach; returns how many.
unsigned dropPrivateVolatile(Function &F) {
  unsigned Count = 0;
  for (Instruction &I : F.getEntryBlock()) {
    auto *AI = dyn_cast<AllocaInst>(&I);
    if (!AI || !isWholeScalarAccessOnly(*AI))
      continue;
    for (User *U : AI->users()) {
      if (auto *L = dyn_cast<LoadInst>(U); L && L->isVolatile()) {
        L->setVolatile(false);
        ++Count;
      } else if (auto *S = dyn_cast<StoreInst>(U); S && S->isVolatile()) {
        S->setVolatile(false);
        ++Count;
      }
    }
  }
  return Count;
}

class LoopChooser {
public:
  LoopChooser(Function &F, LoopInfo &LI, ScalarEvolution &SE)
      : F(F), LI(LI), SE(SE) {}

  /// Marks the loops to unroll with llvm.loop.unroll.full; how many.
  unsigned markLoops() {
    for (Loop *L : LI)
      unrolledSize(L);
    for (Loop *L : Chosen)
      addStringMetadataToLoop(L, "llvm.loop.unroll.full", /*V=*/1);
    return Chosen.size();
  }

private:
  /// The instructions L's body amounts to once the chosen loops in it (and
  /// L itself, if chosen) are unrolled; chooses on the way, innermost first.
  uint64_t unrolledSize(Loop *L) {
    uint64_t Size = 0;
    for (BasicBlock *BB : L->blocks())
      if (LI.getLoopFor(BB) == L)
        Size += BB->size();
    for (Loop *Sub : L->getSubLoops())
      Size += unrolledSize(Sub);
    unsigned Trips = SE.getSmallConstantTripCount(L);
    if (!Trips || Trips > MaxTrips || Size * Trips > MaxUnrolledSize ||
        hasBarrierIn(L) || !indexesPrivateArray(L))
      return Size;
    WEFT_LOG(DebugCompile,
             "%s: loop %s (depth %u, %u trips) indexes a private array: "
             "unrolled",
             F.getName().str().c_str(), L->getHeader()->getName().str().c_str(),
             L->getLoopDepth(), Trips);
    Chosen.push_back(L);
    return Size * Trips;
  }

  static bool hasBarrierIn(Loop *L) {
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB)
        if (isBarrierCall(I))
          return true;
    return false;
  }

  /// Whether L loads or stores an alloca at an address that L's own
  /// induction moves (an index of a nested loop only does not count: that
  /// loop is unrolled, and L then has constant indices).
  bool indexesPrivateArray(Loop *L) {
    auto MovesWithL = [L](const SCEV *S) {
      auto *AR = dyn_cast<SCEVAddRecExpr>(S);
      return AR && AR->getLoop() == L;
    };
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB) {
        Value *Ptr = getLoadStorePointerOperand(&I);
        if (!Ptr || !isa<AllocaInst>(getUnderlyingObject(Ptr)))
          continue;
        if (SCEVExprContains(SE.getSCEV(Ptr), MovesWithL))
          return true;
      }
    return false;
  }

  Function &F;
  LoopInfo &LI;
  ScalarEvolution &SE;
  SmallVector<Loop *, 8> Chosen;
};

} // namespace

PreservedAnalyses PromotePrivateArraysPass::run(Module &M,
                                                ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (!isWorkItemFunctionOf(F, Kernel))
      continue;
    if (unsigned Dropped = dropPrivateVolatile(F)) {
      WEFT_LOG(DebugCompile,
               "%s: %u volatile accesses of private scalars "
               "made plain",
               F.getName().str().c_str(), Dropped);
      FAM.invalidate(F, PreservedAnalyses::none());
      Changed = true;
    }
    if (FAM.getResult<LoopAnalysis>(F).empty())
      continue;
    // Induction variables in SSA form, as ScalarEvolution needs them.
    PreservedAnalyses PA = SROAPass(SROAOptions::ModifyCFG).run(F, FAM);
    FAM.invalidate(F, PA);
    Changed = true;
    unsigned Marked = LoopChooser(F, FAM.getResult<LoopAnalysis>(F),
                                  FAM.getResult<ScalarEvolutionAnalysis>(F))
                          .markLoops();
    if (!Marked)
      continue;
    FunctionPassManager FPM;
    FPM.addPass(createFunctionToLoopPassAdaptor(
        LoopFullUnrollPass(/*OptLevel=*/3, /*OnlyWhenForced=*/true)));
    PA = FPM.run(F, FAM);
    FAM.invalidate(F, PA);
    // Unrolling leaves the exits of the unrolled trips unreachable; their
    // accesses would keep SROA from promoting the arrays.
    if (removeUnreachableBlocks(F))
      FAM.invalidate(F, PreservedAnalyses::none());
    PA = SROAPass(SROAOptions::ModifyCFG).run(F, FAM);
    FAM.invalidate(F, PA);
    assert(!verifyFunction(F, &errs()) && "PromotePrivateArrays broke the IR");
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
