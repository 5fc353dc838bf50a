//===- PrefetchWorkItemLoads.cpp - Prefetch the next trip's global loads --===//
//
// A tiled kernel copies a tile of global memory into local memory, waits at
// a barrier, computes on it, waits again and moves to the next tile:
//
//   for (k = 0; k < K; k += 32) {          // kernel loop O (barriers inside)
//     for y, x: alm[..] = agm[(k + ..) * ld + x + ..]   // work-item loop X
//     barrier; for y, x: compute on alm;  barrier
//   }
//
// Each row of the tile lies ld elements from the previous one, on a page of
// its own, so the hardware prefetchers do not follow it and every row of the
// copy waits for memory while the cores have nothing else to do (CLBlast's
// Xgemm: ~45% of its time in the copy). The next trip's addresses are known
// one trip early: they are X's addresses with O's induction variables one
// step further. So before X (in the block entering it) this pass emits
// llvm.prefetch for the addresses X's global loads will have on the next
// trip of O, and the compute phase in between hides the memory latency.
//
// The address of a load is recomputed from its operands with O's induction
// phis replaced by their next values and X's induction phi by a constant
// (the first work-item, then one work-item per cache line of consecutive
// accesses, then the last). Only arithmetic that is safe to speculate is
// recomputed (a load before X whose address stays, such as a group id, and
// the ids of the work-item loops between O and X are taken as they are);
// a value only X computes, a call or another phi on the way leaves the
// load without prefetch. A prefetch changes no memory and never traps, so a
// wrong guess (an address past the end of the data on O's last trip, or
// accesses that are not consecutive) costs time, not correctness. The
// recomputed instructions drop their poison-generating flags: the next
// trip's values need not satisfy the current trip's nsw/inbounds.
//
// X is an innermost work-item loop (llvm.loop.parallel_accesses, a constant
// trip count) that stores into local memory (the copy of a tile: after it
// come a barrier and the regions computing on the tile, time for the
// prefetches to land; a loop that only streams global memory is left to
// the hardware prefetchers); O is the nearest loop around it that is not a
// work-item loop and has an induction phi the latch steps by a constant. The
// pass runs at the vectorizer start, before CheckParallelLoops takes the
// annotation off the work-item loops where a work-item may reload what it
// stored (a copy into local memory often looks so). The prefetches sit outside
// X, in the block that enters it, so the loop vectorizer takes X as before (it
// does not vectorize a loop with a prefetch call inside). WEFT_PREFETCH=0 turns
// the pass off.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/PrefetchWorkItemLoads.h"

#include "weft/debug.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <string>

#define DEBUG_TYPE "weft-prefetch-workitem-loads"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace weft {

namespace {

constexpr unsigned GlobalAddressSpace = 1;
constexpr unsigned LocalAddressSpace = 3;
/// Instructions recomputed for one address at most: beyond that the
/// prefetch costs more than it is likely to save.
constexpr unsigned MaxRecomputed = 48;
/// Prefetches emitted for one load at most (one per cache line of a
/// consecutive access across the work-items of X), and before one loop.
constexpr unsigned MaxPointsPerLoad = 8;
constexpr unsigned MaxPerLoop = 32;

bool isWorkItemLoop(const Loop &L) {
  return findOptionMDForLoop(&L, "llvm.loop.parallel_accesses") != nullptr;
}

/// The constant step of Phi, an integer phi of L's header that L's latch
/// increments by a constant; null if it is not one.
ConstantInt *constantStep(PHINode &Phi, const Loop &L) {
  BasicBlock *Latch = L.getLoopLatch();
  ConstantInt *Step;
  if (!Latch || !Phi.getType()->isIntegerTy() ||
      !match(Phi.getIncomingValueForBlock(Latch),
             m_Add(m_Specific(&Phi), m_ConstantInt(Step))))
    return nullptr;
  return Step;
}

/// The header phi of L counting from a constant by a constant, if it is the
/// header's only phi: X's other phis would need values of their own at each
/// work-item.
PHINode *soleCountingPhi(Loop &L, ConstantInt *&Start, ConstantInt *&Step) {
  BasicBlock *Entry = L.getLoopPredecessor();
  auto Phis = L.getHeader()->phis();
  if (!Entry || Phis.empty() || std::next(Phis.begin()) != Phis.end())
    return nullptr;
  PHINode &Phi = *Phis.begin();
  Step = constantStep(Phi, L);
  Start = dyn_cast<ConstantInt>(Phi.getIncomingValueForBlock(Entry));
  return Step && Start ? &Phi : nullptr;
}

/// Recomputes values at a point before X with some values replaced.
class Recomputer {
public:
  Recomputer(const Loop &X, const Loop &O, LoopInfo &LI, DominatorTree &DT,
             Instruction *InsertPt, DenseMap<Value *, Value *> Replaced)
      : X(&X), O(&O), LI(&LI), DT(&DT), InsertPt(InsertPt),
        Replaced(std::move(Replaced)) {}

  /// V with the replacements made, or null when some value on the way
  /// cannot be recomputed before X.
  Value *get(Value *V) {
    if (Value *R = Replaced.lookup(V)) {
      Used.insert(V);
      return R;
    }
    auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return V;
    // Outside O nothing depends on O's induction phis.
    if (!O->contains(I) && DT->dominates(I, InsertPt))
      return I;
    auto Known = Done.find(I);
    if (Known != Done.end())
      return Known->second;
    Value *R = recompute(*I);
    if (!R && !Blocker)
      Blocker = I;
    Done[I] = R;
    return R;
  }

  /// The first value get() could not recompute.
  Instruction *Blocker = nullptr;

  /// Whether the result depended on V (one of the replaced values).
  bool used(Value *V) const { return Used.contains(V); }

  /// Removes what get() inserted, when its result is not wanted.
  void discard() {
    for (Instruction *I : reverse(Created))
      I->eraseFromParent();
    Created.clear();
  }

private:
  /// Whether Phi is the id of a work-item loop between O and X: the same
  /// ids come again on O's next trip.
  bool isEnclosingWorkItemId(PHINode &Phi) const {
    Loop *L = LI->getLoopFor(Phi.getParent());
    return L && L != O && L->getHeader() == Phi.getParent() && O->contains(L) &&
           L->contains(X) && isWorkItemLoop(*L);
  }

  Value *recompute(Instruction &I) {
    bool Available = DT->dominates(&I, InsertPt);
    if (auto *Phi = dyn_cast<PHINode>(&I))
      return Available && isEnclosingWorkItemId(*Phi) ? Phi : nullptr;
    // A load before X whose address stays is taken as it is (a group id,
    // an argument): a prefetch only needs a likely address.
    if (auto *Load = dyn_cast<LoadInst>(&I))
      return Available && Load->isSimple() &&
                     get(Load->getPointerOperand()) == Load->getPointerOperand()
                 ? Load
                 : nullptr;
    if (I.mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(&I) ||
        Created.size() >= MaxRecomputed)
      return nullptr;
    SmallVector<Value *, 4> Operands;
    bool Same = true;
    for (Value *Op : I.operands()) {
      Value *R = get(Op);
      if (!R)
        return nullptr;
      Same &= R == Op;
      Operands.push_back(R);
    }
    if (Same && Available)
      return &I;
    // A work-item's constant id makes some of the arithmetic constant.
    if (all_of(Operands, [](Value *V) { return isa<Constant>(V); }) &&
        !isa<GetElementPtrInst>(I))
      if (Constant *C = ConstantFoldInstOperands(
              &I,
              SmallVector<Constant *, 4>(map_range(
                  Operands, [](Value *V) { return cast<Constant>(V); })),
              I.getDataLayout()))
        return C;
    Instruction *Copy = I.clone();
    for (auto [Index, Op] : enumerate(Operands))
      Copy->setOperand(Index, Op);
    // The same operands give the same value; other ones belong to a trip
    // that has not run yet, whose flags nothing promises.
    if (!Same)
      Copy->dropPoisonGeneratingFlags();
    Copy->dropUnknownNonDebugMetadata();
    Copy->setName(I.getName() + ".next");
    Copy->insertBefore(InsertPt);
    Created.push_back(Copy);
    return Copy;
  }

  const Loop *X, *O;
  LoopInfo *LI;
  DominatorTree *DT;
  Instruction *InsertPt;
  DenseMap<Value *, Value *> Replaced;
  DenseMap<Instruction *, Value *> Done;
  SmallPtrSet<Value *, 4> Used;
  SmallVector<Instruction *, 16> Created;
};

class LoopPrefetcher {
public:
  LoopPrefetcher(Loop &X, Loop &O, LoopInfo &LI, ScalarEvolution &SE,
                 DominatorTree &DT, unsigned LineBytes)
      : X(X), O(O), LI(LI), SE(SE), DT(DT), LineBytes(LineBytes) {}

  /// Emits the prefetches; how many.
  unsigned run();

  /// Why run() emitted none, when it says.
  std::string Reason;

private:
  unsigned fail(const char *Why) {
    Reason = Why;
    return 0;
  }
  bool findNextTripValues(Instruction *InsertPt);
  unsigned prefetch(Value *Pointer, uint64_t Bytes);

  Loop &X, &O;
  LoopInfo &LI;
  ScalarEvolution &SE;
  DominatorTree &DT;
  unsigned LineBytes;
  PHINode *Id = nullptr;
  ConstantInt *IdStart = nullptr, *IdStep = nullptr;
  unsigned Trips = 0;
  /// O's induction phis and their values on O's next trip.
  DenseMap<Value *, Value *> NextTrip;
  /// The increments findNextTripValues added (erased when unused).
  SmallVector<Instruction *, 2> Increments;
};

/// O's integer inductions with a constant step (a header phi that the
/// latch increments by a constant; O often has no preheader: the exit test
/// of the region before it branches into its header), each mapped to its
/// value on the next trip: the latch's own increment when it is available
/// before X, else the same increment (same flags) computed there.
bool LoopPrefetcher::findNextTripValues(Instruction *InsertPt) {
  for (PHINode &Phi : O.getHeader()->phis()) {
    ConstantInt *Step = constantStep(Phi, O);
    if (!Step)
      continue;
    auto *Inc =
        cast<Instruction>(Phi.getIncomingValueForBlock(O.getLoopLatch()));
    if (DT.dominates(Inc, InsertPt)) {
      NextTrip[&Phi] = Inc;
      continue;
    }
    auto *Next = BinaryOperator::CreateAdd(&Phi, Step, Phi.getName() + ".next",
                                           InsertPt);
    Next->copyIRFlags(Inc);
    NextTrip[&Phi] = Next;
    Increments.push_back(Next);
  }
  return !NextTrip.empty();
}

/// Prefetches Bytes at Pointer for the work-items of X that start its
/// cache lines; returns how many. None when Pointer does not change with O.
unsigned LoopPrefetcher::prefetch(Value *Pointer, uint64_t Bytes) {
  Instruction *InsertPt = X.getLoopPredecessor()->getTerminator();
  uint64_t PerLine =
      std::max<uint64_t>(1, LineBytes / std::max<uint64_t>(1, Bytes));
  SmallVector<uint64_t, MaxPointsPerLoad> Points;
  for (uint64_t J = 0; J < Trips && Points.size() < MaxPointsPerLoad - 1;
       J += PerLine)
    Points.push_back(J);
  if (Points.back() != Trips - 1)
    Points.push_back(Trips - 1);

  SmallVector<Value *, MaxPointsPerLoad> Addresses;
  SmallVector<Recomputer, MaxPointsPerLoad> Recomputers;
  auto DiscardAll = [&] {
    for (Recomputer &R : reverse(Recomputers))
      R.discard();
    return 0u;
  };
  for (uint64_t J : Points) {
    DenseMap<Value *, Value *> Replaced = NextTrip;
    APInt IdValue = IdStart->getValue() + IdStep->getValue() * J;
    Replaced[Id] = ConstantInt::get(Id->getType(), IdValue);
    Recomputer &R =
        Recomputers.emplace_back(X, O, LI, DT, InsertPt, std::move(Replaced));
    Value *Address = R.get(Pointer);
    if (!Address) {
      Reason = "an address needs " + R.Blocker->getName().str() +
               ", not known before the loop";
      return DiscardAll();
    }
    // The same address on every trip of O: nothing to fetch ahead.
    if (!any_of(NextTrip, [&](auto &KV) { return R.used(KV.first); })) {
      Reason = "no address changes with the kernel loop";
      return DiscardAll();
    }
    Addresses.push_back(Address);
    // The same address for every work-item: one prefetch is enough.
    if (!R.used(Id))
      break;
  }
  IRBuilder<> Builder(InsertPt);
  for (Value *Address : Addresses)
    Builder.CreateIntrinsic(Intrinsic::prefetch, {Address->getType()},
                            {Address, Builder.getInt32(0), Builder.getInt32(3),
                             Builder.getInt32(1)});
  return Addresses.size();
}

unsigned LoopPrefetcher::run() {
  // The block entering X, its preheader when it has one: what runs there
  // runs before each pass through X (and maybe when X is skipped, which
  // costs a prefetch, nothing else).
  BasicBlock *Entry = X.getLoopPredecessor();
  if (!Entry || !X.getLoopLatch())
    return fail("no single entry and latch");
  Trips = SE.getSmallConstantTripCount(&X);
  if (Trips == 0)
    return fail("no constant trip count");
  Id = soleCountingPhi(X, IdStart, IdStep);
  if (!Id)
    return fail("no sole counting phi");
  // Loads at constant offsets from one pointer (a float4 split into
  // floats) are one access.
  MapVector<Value *, uint64_t> Accesses;
  for (BasicBlock *BB : X.blocks())
    for (Instruction &I : *BB) {
      auto *Load = dyn_cast<LoadInst>(&I);
      if (!Load || !Load->isSimple() ||
          Load->getPointerAddressSpace() != GlobalAddressSpace)
        continue;
      const DataLayout &DL = Load->getDataLayout();
      APInt Offset(DL.getIndexTypeSizeInBits(Load->getPointerOperandType()), 0);
      Value *Base =
          Load->getPointerOperand()->stripAndAccumulateConstantOffsets(
              DL, Offset, /*AllowNonInbounds=*/true);
      if (Offset.isNegative())
        Base = Load->getPointerOperand(), Offset = 0;
      uint64_t End = Offset.getZExtValue() +
                     DL.getTypeStoreSize(Load->getType()).getFixedValue();
      uint64_t &Bytes = Accesses[Base];
      Bytes = std::max(Bytes, End);
    }
  if (Accesses.empty())
    return fail("no global load");
  // Only a copy into local memory is sure to have other work after it in
  // O's trip (the barrier, then the regions that compute on the copy),
  // which leaves the prefetches time to land. A trip that only reads
  // global memory reads the next trip's data right after this one's: a
  // stream the hardware prefetchers follow (a horizontal loop over
  // consecutive blocks, Reduction's), where prefetches only cost
  // (Reduction 0.53-0.67 -> 0.69-1.1 ms with them).
  if (!any_of(X.blocks(), [](BasicBlock *BB) {
        return any_of(*BB, [](Instruction &I) {
          auto *Store = dyn_cast<StoreInst>(&I);
          return Store && Store->getPointerAddressSpace() == LocalAddressSpace;
        });
      }))
    return fail("no copy into local memory");
  if (!findNextTripValues(Entry->getTerminator()))
    return fail("no constant-step induction in the kernel loop");
  unsigned Emitted = 0;
  for (auto [Pointer, Bytes] : Accesses)
    if (Emitted < MaxPerLoop)
      Emitted += prefetch(Pointer, Bytes);
  for (Instruction *I : Increments)
    if (I->use_empty())
      I->eraseFromParent();
  return Emitted;
}

} // namespace

PreservedAnalyses PrefetchWorkItemLoadsPass::run(Function &F,
                                                 FunctionAnalysisManager &AM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
  DominatorTree &DT = AM.getResult<DominatorTreeAnalysis>(F);
  ScalarEvolution &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
  unsigned LineBytes = AM.getResult<TargetIRAnalysis>(F).getCacheLineSize();
  if (LineBytes == 0)
    LineBytes = 64;
  unsigned Emitted = 0;
  for (Loop *X : LI.getLoopsInPreorder()) {
    if (!X->isInnermost() || !isWorkItemLoop(*X))
      continue;
    Loop *O = X->getParentLoop();
    while (O && isWorkItemLoop(*O))
      O = O->getParentLoop();
    if (!O)
      continue;
    LoopPrefetcher Prefetcher(*X, *O, LI, SE, DT, LineBytes);
    unsigned N = Prefetcher.run();
    if (!N && !Prefetcher.Reason.empty())
      WEFT_LOG(DebugCompile,
               "%s: no prefetch before work-item loop %s (in loop %s): %s",
               F.getName().str().c_str(), X->getName().str().c_str(),
               O->getName().str().c_str(), Prefetcher.Reason.c_str());
    if (N)
      WEFT_LOG(DebugCompile,
               "%s: %u prefetches before work-item loop %s for the next "
               "trip of loop %s",
               F.getName().str().c_str(), N, X->getName().str().c_str(),
               O->getName().str().c_str());
    Emitted += N;
  }
  if (!Emitted)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft
