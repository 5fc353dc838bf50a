//===- CheckParallelLoops.cpp - Parallel loops the vectorizer may trust ---===//
//
// WorkItemLoops and ParallelRegions annotate every work-item loop with
// llvm.loop.parallel_accesses: work-items are independent between barriers.
// LLVM 19's loop vectorizer takes the annotation further than "iterations
// are independent": LoopAccessAnalysis skips its dependence checker, and
// interleaved-access vectorization then hoists strided loads above, and
// sinks strided stores below, stores of the same iteration. A work-item
// that reloads (or overwrites) what it stored in one pass through the body
// would read the stale value. Whether that can happen is only known late:
//
//   for x { for i < 2 { t[x*2+i] = a; ... = t[x*2+i+1] } }
//
// Before O3 the inner loop hides whether the reload is of the stored
// element; after full unrolling, GVN and instcombine the x loop is the
// innermost one and its body says so with constant offsets. So the
// decision is taken here, at the vectorizer-start extension point, on each
// innermost annotated loop: the annotation goes where a store may still be
// followed in the same iteration by an access of the same object
// (mayReadAfterWriteInIteration), unless alias analysis or ScalarEvolution
// (a constant distance at least the size of the first access) proves the
// two apart. The loop vectorizer then proves what it can on its own.
//
// Nothing between the work-group passes and this point reads the
// annotation: in LLVM 19's O3 pipeline only LoopAccessAnalysis (the loop
// vectorizer, loop distribution and load elimination, all after this
// extension point) and the loop vectorizer's legality check consult
// Loop::isAnnotatedParallel; unrolling and the scalar passes only carry
// the metadata along or intersect access groups when they merge accesses.
// A loop that is not innermost here is never vectorized (no outer-loop
// vectorization in the default pipeline), so its annotation is harmless.
//
// Before that, loads of a loop-invariant address that O3 recreated without
// their access groups (VectorCombine scalarizing a uniform vector load whose
// lanes are only extracted) get the loop's groups back, unless a store of
// the loop lacks them as well (LowerLocalAtomics) or the load reads private
// memory: one such load kept CLBlast's double Xgemm compute loop scalar.
//
// A kept loop of fewer than 16 constant trips (a local size under 16 in x)
// also gets llvm.loop.vectorize.enable: the vectorizer would otherwise
// treat it as code to optimize for size and refuse every run-time check,
// among them the no-wrap checks of 32-bit indices, which kept CLBlast's
// tile copies (x loop of 8) scalar. Not the y loops InterchangeWorkItem
// Loops made innermost: forced, the vectorizer allows itself a scalar
// epilogue, loads the context slots (strided across y) as interleaved
// groups with gaps that need one, and a loop of exactly one vector of
// trips then never runs its vector body. Failures to vectorize such a loop are
// remarks and warnings the compiler keeps in its log (WorkGroupCompiler).
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/CheckParallelLoops.h"

#include "CpuSimd/InterchangeWorkItemLoops.h"
#include "WorkGroup/ParallelLoops.h"

#include "weft/debug.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#define DEBUG_TYPE "weft-check-parallel-loops"

using namespace llvm;

namespace weft {

namespace {

/// Whether the bytes Store writes and the bytes Later touches are disjoint
/// whenever both run in the same iteration of their (innermost) loop.
bool provedApart(Instruction &Store, Instruction &Later, AAResults &AA,
                 ScalarEvolution &SE) {
  std::optional<MemoryLocation> A = MemoryLocation::getOrNone(&Store),
                                B = MemoryLocation::getOrNone(&Later);
  if (!A || !B)
    return false;
  if (AA.isNoAlias(*A, *B))
    return true;
  if (!A->Size.hasValue() || !B->Size.hasValue() || A->Size.isScalable() ||
      B->Size.isScalable() || A->Ptr->getType() != B->Ptr->getType())
    return false;
  // Same iteration: the two addresses differ by a constant (their common
  // base and induction cancel out).
  const SCEV *Distance =
      SE.getMinusSCEV(SE.getSCEV(const_cast<Value *>(B->Ptr)),
                      SE.getSCEV(const_cast<Value *>(A->Ptr)));
  auto *C = dyn_cast<SCEVConstant>(Distance);
  if (!C || C->getAPInt().getSignificantBits() > 63)
    return false;
  int64_t D = C->getAPInt().getSExtValue(); // Later starts D bytes after Store
  return D >= int64_t(A->Size.getValue()) || -D >= int64_t(B->Size.getValue());
}

/// LLVM 19's loop vectorizer treats a loop of fewer trips than this
/// (vectorizer-min-trip-count) as if optimizing for size: no run-time
/// checks, no scalar epilogue.
constexpr unsigned TinyTripCount = 16;

/// Whether L, an innermost work-item loop that keeps its annotation, runs
/// a constant number of trips below TinyTripCount: a local size under 16
/// in x (CLBlast's Xgemm: 8). The vectorizer would then refuse any loop
/// whose int indices need a run-time no-wrap check (sext of a 32-bit
/// `idk * kSizeM + x`), and keep the tile copies scalar, one work-item
/// at a time. llvm.loop.vectorize.enable lifts that rule (and makes it
/// choose the cheapest vector width even where it would have stayed
/// scalar), as OpenCL's work-items are meant to run side by side.
bool isTinyLoop(const Loop &L, ScalarEvolution &SE) {
  unsigned Trips = SE.getSmallConstantTripCount(&L);
  return Trips > 1 && Trips < TinyTripCount;
}

/// Gives back the loop's access groups to the loads of a loop-invariant
/// address that O3 made without them; returns how many. VectorCombine
/// scalarizes a loaded vector whose lanes are only extracted (CLBlast's
/// double4 of B, the same for every work-item) into loads of its elements
/// with no metadata, and one access outside the groups keeps the loop
/// scalar. Reading an address no work-item of the loop writes is parallel;
/// one another work-item writes between barriers is a race. Not when a
/// write of the loop lacks the groups too: LowerLocalAtomics leaves its
/// load/store pairs out on purpose (work-items updating one bin depend on
/// each other). Private memory is one alloca for every work-item in turn,
/// so its loads are never given the groups.
unsigned restoreInvariantLoadGroups(Loop &L) {
  MDNode *Groups = nullptr;
  SmallVector<LoadInst *, 16> Untagged;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (!I.mayReadOrWriteMemory())
        continue;
      if (MDNode *G = I.getMetadata(LLVMContext::MD_access_group)) {
        Groups = Groups ? Groups : G;
        continue;
      }
      if (I.mayWriteToMemory())
        return 0;
      auto *Load = dyn_cast<LoadInst>(&I);
      if (Load && Load->isSimple() &&
          L.isLoopInvariant(Load->getPointerOperand()) &&
          !accessesPrivateAlloca(*Load))
        Untagged.push_back(Load);
    }
  if (!Groups)
    return 0;
  for (LoadInst *Load : Untagged)
    Load->setMetadata(LLVMContext::MD_access_group, Groups);
  return Untagged.size();
}

} // namespace

PreservedAnalyses CheckParallelLoopsPass::run(Function &F,
                                              FunctionAnalysisManager &AM) {
  LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return PreservedAnalyses::all();
  AAResults &AA = AM.getResult<AAManager>(F);
  ScalarEvolution &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
  unsigned Kept = 0, Dropped = 0, Forced = 0, Restored = 0;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!isInnermostParallelLoop(*L))
      continue;
    Restored += restoreInvariantLoadGroups(*L);
    auto Apart = [&](Instruction &S, Instruction &I) {
      return provedApart(S, I, AA, SE);
    };
    if (!mayReadAfterWriteInIteration(L->getBlocks(), Apart)) {
      ++Kept;
      if (isTinyLoop(*L, SE) && !findOptionMDForLoop(L, InterchangedLoopMD)) {
        addStringMetadataToLoop(L, "llvm.loop.vectorize.enable", 1);
        ++Forced;
      }
      continue;
    }
    L->setLoopID(makePostTransformationMetadata(
        F.getContext(), L->getLoopID(), {"llvm.loop.parallel_accesses"}, {}));
    ++Dropped;
  }
  if (Kept + Dropped)
    WEFT_LOG(DebugCompile,
             "%s: %u innermost work-item loops keep their parallel "
             "annotation (%u of fewer than %u trips asked to vectorize), %u "
             "left to LLVM's dependence analysis (a work-item may reload "
             "what it stored), %u loads of invariant addresses given back "
             "their access groups",
             F.getName().str().c_str(), Kept, Forced, TinyTripCount, Dropped,
             Restored);
  if (!Dropped && !Forced && !Restored)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft
