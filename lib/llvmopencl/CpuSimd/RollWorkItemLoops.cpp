//===- RollWorkItemLoops.cpp - Keep short work-item loops for the vectorizer //
//
// A work-item loop of a region runs the specialized local size in x, often
// 8 trips. When its body is small (a tile copy, one arm of a branch split
// off by an implicit barrier), O3's full unrolling, which runs before the
// loop vectorizer, unrolls it: the y loop around becomes the innermost
// loop and is vectorized instead, each lane a row apart, with gathers and
// scatters (CLBlast's direct GEMM tile copy: vgatherqpd per double2 pair
// instead of one <16 x double> load per row). Work-items are independent,
// and neighbours in x are the ones whose accesses are consecutive: the x
// loop is the one to vectorize. So every innermost loop (once the loops
// of at most 8 constant trips nested in it are unrolled) that carries
// llvm.loop.parallel_accesses (a work-item loop, WorkItemLoops and
// ParallelRegions) with a constant trip count small enough to be unrolled
// whole gets llvm.loop.unroll.disable. The vectorizer still runs it (one
// vector trip for 8 doubles on AVX-512); a loop it leaves scalar stays a
// loop, which costs a branch per trip.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/RollWorkItemLoops.h"

#include "weft/debug.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#define DEBUG_TYPE "weft-roll-workitem-loops"

using namespace llvm;

namespace weft {

namespace {

/// Trip counts O3's full unrolling may take whole (its threshold allows
/// small bodies of up to a few dozen trips).
constexpr unsigned MaxRolledTrips = 32;

/// Loops nested in a work-item loop with at most this many constant trips
/// are taken to be unrolled by O3 (a conjugation loop over a double2).
constexpr unsigned MaxUnrolledInnerTrips = 8;

bool isWorkItemLoop(Loop *L) {
  return findOptionMDForLoop(L, "llvm.loop.parallel_accesses");
}

/// Whether L is innermost once O3 has unrolled the small constant loops of
/// the kernel nested in it (not work-item loops: those are the ones kept).
bool innermostOnceUnrolled(Loop *L, ScalarEvolution &SE) {
  for (Loop *Sub : L->getSubLoops()) {
    unsigned Trips = SE.getSmallConstantTripCount(Sub);
    if (isWorkItemLoop(Sub) || !Trips || Trips > MaxUnrolledInnerTrips ||
        !innermostOnceUnrolled(Sub, SE))
      return false;
  }
  return true;
}

/// Whether some loop of F is marked as a work-item loop: a cheap look at
/// the latches before any analysis (most functions of the module are
/// library code).
bool hasWorkItemLoop(Function &F) {
  for (BasicBlock &BB : F)
    if (MDNode *ID = BB.getTerminator()->getMetadata(LLVMContext::MD_loop))
      for (const MDOperand &Op : drop_begin(ID->operands()))
        if (auto *Prop = dyn_cast<MDNode>(Op.get());
            Prop && Prop->getNumOperands() &&
            isa<MDString>(Prop->getOperand(0)) &&
            cast<MDString>(Prop->getOperand(0))->getString() ==
                "llvm.loop.parallel_accesses")
          return true;
  return false;
}

} // namespace

PreservedAnalyses RollWorkItemLoopsPass::run(Function &F,
                                             FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || !hasWorkItemLoop(F))
    return PreservedAnalyses::all();
  // ParallelRegions leaves the kernel's own loop counters in memory; SROA
  // (which O3 starts with anyway) gives SCEV their trip counts.
  PreservedAnalyses PA = SROAPass(SROAOptions::ModifyCFG).run(F, FAM);
  FAM.invalidate(F, PA);
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  unsigned Marked = 0;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!isWorkItemLoop(L) || !innermostOnceUnrolled(L, SE) ||
        findOptionMDForLoop(L, "llvm.loop.unroll.disable"))
      continue;
    unsigned Trips = SE.getSmallConstantTripCount(L);
    if (Trips < 2 || Trips > MaxRolledTrips)
      continue;
    addStringMetadataToLoop(L, "llvm.loop.unroll.disable", 1);
    ++Marked;
  }
  if (!Marked)
    return PA;
  WEFT_LOG(DebugCompile, "%s: %u short work-item loops kept rolled for the "
           "vectorizer", F.getName().str().c_str(), Marked);
  return PreservedAnalyses::none();
}

} // namespace weft
