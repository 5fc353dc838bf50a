//===- InterchangeWorkItemLoops.cpp - y innermost where x would gather ----===//
//
// WorkItemLoops and ParallelRegions put x innermost, and the loop vectorizer
// fills a vector with neighbouring work-items in x. That is right when x
// walks memory consecutively, but not always. CLBlast's XgemmDirectTN
// reads its local tile of A as alm[(2*x + mi) * 17 + k]: work-items next to
// each other in x are 34 doubles apart, so every k step is a gather, while
// the tile of B, blm[k * 17 + 2*y + ni], is the same for all of them.
// Across y it is the other way round: A is the same for every lane (one
// broadcast) and B's two columns are an interleaved pair of loads.
//
// Work-items of one region are independent (a race between them is
// undefined), so the order of the y and x loops is free. This pass swaps
// them where the vectorizer would gather across x and would not across y:
//
//   y.loop:  y = phi [0], [y+1]         y.loop:  y' = phi [0], [y'+1]
//   x.loop:  x = phi [0], [x+1]         x.loop:  x' = phi [0], [x'+1]
//            body(x, y)          ->              body(x := y', y := x')
//            x+1 < LX ?                          x'+1 < LY ?
//   y.latch: y+1 < LY ?                 y.latch: y'+1 < LX ?
//
// Only the roles of the two counters and the two bounds are exchanged; the
// blocks, the loop IDs (the inner one keeps RollWorkItemLoops's
// unroll.disable and its parallel_accesses group, which every access of
// the body belongs to) and the access groups stay where they are.
//
// When: both loops carry llvm.loop.parallel_accesses and every memory
// access of the body is annotated for both; they form a perfect nest (the
// outer header holds only its counter, the outer latch only the step and
// test); no other value crosses an iteration (one used after the nest, like
// the region's next barrier, is the last work-item's either way); the body
// has no atomics, fences, volatile or private-alloca accesses, and no call
// that touches memory or has side effects (a barrier cannot be inside a
// region). The cost is SCEV's stride of each access's address over x and
// over y: invariant, consecutive, or part of an interleaved group of
// loads (stores) that covers its stride are free; any other stride is a
// gather (a scatter for a store, which costs twice as much), weighted by
// the trips of the kernel loops around it inside the work-item loop. The
// loops are swapped when the y order costs at most half the x order and
// the y loop runs at least as many trips as the x loop (a short y loop
// would fill fewer lanes). Accesses that are consecutive in x and strided
// in y count against the swap.
//
// ParallelRegions's context slots are such accesses, but only because it
// numbers the work-items x fastest. Where the nests that run y innermost
// touch the slots more than the others, the pass numbers them y fastest
// instead, rewriting every context index of the function (the numbering
// is the function's, not a nest's): it costs the slots apart, lets each
// nest take its better order under either numbering, and keeps the
// cheaper whole. WEFT_INTERCHANGE=0 turns the pass off,
// WEFT_SLOTS_Y_FIRST=0 only the renumbering.
//
//===----------------------------------------------------------------------===//
#include "InterchangeWorkItemLoops.h"
#include "KernelUtils.h"
#include "ParallelLoops.h"

#include "weft/debug.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <optional>

#define DEBUG_TYPE "weft-interchange-workitem-loops"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace weft {

bool workItemInterchangeEnabled() { return switchEnabled("WEFT_INTERCHANGE"); }

bool yFirstSlotsEnabled() { return switchEnabled("WEFT_SLOTS_Y_FIRST"); }

namespace {

/// Trips assumed for a kernel loop whose trip count is not a constant.
constexpr uint64_t UnknownTrips = 16;
/// The widest interleaved group the loop vectorizer forms.
constexpr int64_t MaxInterleaveFactor = 8;
/// A scatter against a gather of the same width.
constexpr uint64_t ScatterCost = 2;
/// Accesses of one block beyond which interleaved groups are not looked
/// for (the search is quadratic); they count as gathers.
constexpr unsigned MaxGroupSearch = 256;

/// A counting loop as the work-item loop builders emit it:
///   header: Id = phi [0, preheader], [Next, latch]
///   latch:  Next = add Id, 1; br (icmp ult Next, Bound), header, exit
struct CountingLoop {
  Loop *L = nullptr;
  PHINode *Id = nullptr;
  Instruction *Next = nullptr;
  ICmpInst *Test = nullptr;
  Value *bound() const { return Test->getOperand(1); }
};

bool isWorkItemLoop(const Loop *L) {
  return findOptionMDForLoop(L, "llvm.loop.parallel_accesses");
}

std::optional<CountingLoop> matchCountingLoop(Loop *L) {
  BasicBlock *Header = L->getHeader(), *Latch = L->getLoopLatch();
  BasicBlock *Preheader = L->getLoopPreheader();
  if (!Latch || !Preheader || L->getExitingBlock() != Latch)
    return std::nullopt;
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Br || !Br->isConditional() || Br->getSuccessor(0) != Header)
    return std::nullopt;
  auto *Test = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Test || Test->getPredicate() != ICmpInst::ICMP_ULT || !Test->hasOneUse())
    return std::nullopt;
  auto *Next = dyn_cast<Instruction>(Test->getOperand(0));
  Value *Id = nullptr;
  if (!Next || Next->getParent() != Latch ||
      !match(Next, m_Add(m_Value(Id), m_One())))
    return std::nullopt;
  auto *Phi = dyn_cast<PHINode>(Id);
  if (!Phi || Phi->getParent() != Header || Phi->getNumIncomingValues() != 2 ||
      !match(Phi->getIncomingValueForBlock(Preheader), m_Zero()) ||
      Phi->getIncomingValueForBlock(Latch) != Next)
    return std::nullopt;
  for (User *U : Next->users())
    if (U != Test && U != Phi)
      return std::nullopt;
  return CountingLoop{L, Phi, Next, Test};
}

/// Whether Outer and Inner are a perfect nest whose counters and bounds may
/// trade places: nothing runs between the two loops but their counters,
/// and no value other than the counters crosses an iteration or leaves.
bool isPerfectNest(const CountingLoop &Outer, const CountingLoop &Inner) {
  Loop *OL = Outer.L, *IL = Inner.L;
  if (IL->getParentLoop() != OL || OL->getSubLoops().size() != 1)
    return false;
  BasicBlock *OuterHeader = OL->getHeader(), *OuterLatch = OL->getLoopLatch();
  auto *Enter = dyn_cast<BranchInst>(OuterHeader->getTerminator());
  if (OuterHeader->size() != 2 || !Enter || Enter->isConditional() ||
      Enter->getSuccessor(0) != IL->getHeader() ||
      IL->getLoopPreheader() != OuterHeader)
    return false;
  if (IL->getExitBlock() != OuterLatch || OuterLatch->size() != 3 ||
      OuterLatch->getSinglePredecessor() != IL->getLoopLatch())
    return false;
  // The bounds move to the other loop's test.
  if (!OL->isLoopInvariant(Outer.bound()) ||
      !OL->isLoopInvariant(Inner.bound()) ||
      Outer.bound()->getType() != Inner.bound()->getType())
    return false;
  // A phi besides the counter carries a value from one work-item to the
  // next. A value used after the nest is the last work-item's, (LX - 1,
  // LY - 1) in either order (the region's next barrier, which all agree on).
  for (PHINode &Phi : IL->getHeader()->phis())
    if (&Phi != Inner.Id)
      return false;
  for (User *U : Outer.Id->users())
    if (U != Outer.Next && !IL->contains(cast<Instruction>(U)))
      return false;
  return true;
}

/// Whether the access I belongs to an access group L's
/// llvm.loop.parallel_accesses names (Loop::isAnnotatedParallel's test for
/// one access; that function also rejects the noalias scope markers
/// inlining leaves, which touch no memory of the kernel).
bool isParallelAccess(const Instruction &I, const Loop &L) {
  MDNode *Parallel = findOptionMDForLoop(&L, "llvm.loop.parallel_accesses");
  MDNode *Groups = I.getMetadata(LLVMContext::MD_access_group);
  if (!Parallel || !Groups)
    return false;
  auto Names = [Parallel](const MDOperand &Group) {
    return is_contained(drop_begin(Parallel->operands()), Group.get());
  };
  if (Groups->getNumOperands() == 0) // a single group
    return is_contained(drop_begin(Parallel->operands()), Groups);
  return any_of(Groups->operands(), Names);
}

/// Whether the body only does what work-items may do in any order: plain
/// loads and stores of shared memory annotated for both loops, and
/// computation.
bool hasIndependentBody(const CountingLoop &Outer, const CountingLoop &Inner) {
  for (BasicBlock *BB : Inner.L->blocks())
    for (Instruction &I : *BB) {
      // Markers for the optimizer, not actions of a work-item.
      if (isa<DbgInfoIntrinsic>(I) || isa<NoAliasScopeDeclInst>(I))
        continue;
      if (isa<AllocaInst>(I) || isa<FenceInst>(I) || I.isAtomic())
        return false;
      if (auto *Call = dyn_cast<CallBase>(&I)) {
        if (Call->mayHaveSideEffects() || Call->mayReadOrWriteMemory())
          return false;
        continue;
      }
      if (!I.mayReadOrWriteMemory())
        continue;
      auto *Load = dyn_cast<LoadInst>(&I);
      auto *Store = dyn_cast<StoreInst>(&I);
      if (!(Load && Load->isSimple()) && !(Store && Store->isSimple()))
        return false;
      if (!isParallelAccess(I, *Inner.L) || !isParallelAccess(I, *Outer.L) ||
          accessesPrivateAlloca(I))
        return false;
    }
  return true;
}

/// Whether V has the same value in every trip of L, or would once LICM
/// hoists it: ParallelRegions reloads the context's arena pointer
/// (!invariant.load) in each work-item's region code.
bool isHoistable(Value *V, const Loop *L, unsigned Depth = 0) {
  if (L->isLoopInvariant(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 4)
    return false;
  if (auto *Load = dyn_cast<LoadInst>(I))
    return Load->hasMetadata(LLVMContext::MD_invariant_load) &&
           isHoistable(Load->getPointerOperand(), L, Depth + 1);
  if (!isa<GetElementPtrInst>(I) && !isa<CastInst>(I))
    return false;
  return all_of(I->operands(),
                [&](Value *Op) { return isHoistable(Op, L, Depth + 1); });
}

/// The change of S, in bytes, from one trip of L to the next at the same
/// point of the loops inside L, when it is a constant. Extensions and
/// truncations are looked through: this only estimates a cost.
std::optional<int64_t> constantStride(const SCEV *S, const Loop *L,
                                      ScalarEvolution &SE) {
  if (SE.isLoopInvariant(S, L))
    return 0;
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    if (!AR->isAffine())
      return std::nullopt;
    const SCEV *Step = AR->getStepRecurrence(SE);
    if (AR->getLoop() == L) {
      auto *C = dyn_cast<SCEVConstant>(Step);
      if (!C || C->getAPInt().getSignificantBits() > 32)
        return std::nullopt;
      return C->getAPInt().getSExtValue();
    }
    // A recurrence of a kernel loop inside L: its start may move with L,
    // its step must not.
    if (!L->contains(AR->getLoop()))
      return std::nullopt;
    std::optional<int64_t> StepStride = constantStride(Step, L, SE);
    if (!StepStride || *StepStride)
      return std::nullopt;
    return constantStride(AR->getStart(), L, SE);
  }
  if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    int64_t Sum = 0;
    for (const SCEV *Op : Add->operands()) {
      std::optional<int64_t> OpStride = constantStride(Op, L, SE);
      if (!OpStride)
        return std::nullopt;
      Sum += *OpStride;
    }
    return Sum;
  }
  // A product of factors that do not move with L does not either; one
  // moving factor times constants moves by their product.
  if (auto *Mul = dyn_cast<SCEVMulExpr>(S)) {
    int64_t Scale = 1;
    SmallVector<int64_t, 2> Strides;
    for (const SCEV *Op : Mul->operands()) {
      auto *C = dyn_cast<SCEVConstant>(Op);
      if (C && C->getAPInt().getSignificantBits() <= 32) {
        Scale *= C->getAPInt().getSExtValue();
        continue;
      }
      std::optional<int64_t> OpStride = constantStride(Op, L, SE);
      if (!OpStride)
        return std::nullopt;
      Strides.push_back(*OpStride);
    }
    if (all_of(Strides, [](int64_t V) { return V == 0; }))
      return 0;
    if (Strides.size() != 1)
      return std::nullopt;
    return Scale * Strides.front();
  }
  if (auto *Cast = dyn_cast<SCEVCastExpr>(S))
    return constantStride(Cast->getOperand(0), L, SE);
  if (auto *Unknown = dyn_cast<SCEVUnknown>(S);
      Unknown && isHoistable(Unknown->getValue(), L))
    return 0;
  return std::nullopt;
}

struct Access {
  Instruction *I;
  const SCEV *Address;
  int64_t Size;          ///< bytes accessed
  uint64_t Trips;        ///< how often the body of the work-item loop runs it
  const Loop *Innermost; ///< the innermost loop around it
};

/// What the vectorizer's accesses across the work-item loop Dim cost: the
/// gathers and scatters, weighted by their trips in the body.
uint64_t gatherCost(ArrayRef<Access> Accesses, const Loop *Dim,
                    ScalarEvolution &SE) {
  SmallVector<std::optional<int64_t>, 64> Strides;
  for (const Access &A : Accesses)
    Strides.push_back(constantStride(A.Address, Dim, SE));
  // A strided access is free when accesses of the same kind, loop and
  // stride at constant distances below the stride cover every residue:
  // the vectorizer loads (stores) the group whole and shuffles.
  auto InFullGroup = [&](unsigned Idx, int64_t Factor) {
    const Access &A = Accesses[Idx];
    SmallVector<bool, 8> Covered(Factor, false);
    Covered[0] = true;
    unsigned Candidates = 0;
    for (unsigned J = 0; J < Accesses.size(); ++J) {
      const Access &B = Accesses[J];
      if (J == Idx || B.Innermost != A.Innermost ||
          B.I->getOpcode() != A.I->getOpcode() || B.Size != A.Size ||
          Strides[J] != Strides[Idx])
        continue;
      if (++Candidates > MaxGroupSearch)
        return false;
      auto *Dist =
          dyn_cast<SCEVConstant>(SE.getMinusSCEV(B.Address, A.Address));
      if (!Dist || Dist->getAPInt().getSignificantBits() > 32)
        continue;
      int64_t Bytes = Dist->getAPInt().getSExtValue();
      if (Bytes % A.Size)
        continue;
      int64_t Elements = Bytes / A.Size;
      if (Elements > -Factor && Elements < Factor)
        Covered[(Elements + Factor) % Factor] = true;
    }
    return all_of(Covered, [](bool C) { return C; });
  };
  uint64_t Cost = 0;
  for (unsigned Idx = 0; Idx < Accesses.size(); ++Idx) {
    const Access &A = Accesses[Idx];
    std::optional<int64_t> Stride = Strides[Idx];
    if (Stride && (*Stride == 0 || *Stride == A.Size || *Stride == -A.Size))
      continue;
    if (Stride && *Stride % A.Size == 0) {
      int64_t Factor = std::abs(*Stride / A.Size);
      if (Factor <= MaxInterleaveFactor && InFullGroup(Idx, Factor))
        continue;
    }
    Cost += A.Trips * (isa<StoreInst>(A.I) ? ScatterCost : 1);
  }
  return Cost;
}

/// The loads and stores of the work-item loop Inner's body, with the trips
/// of the kernel loops around each inside Inner; context slot accesses
/// (Slots) are left out: what they cost depends on the numbering of the
/// work-items, which is chosen for the whole function.
SmallVector<Access, 64>
collectAccesses(Loop *Inner, LoopInfo &LI, ScalarEvolution &SE,
                const SmallPtrSetImpl<Instruction *> &Slots,
                uint64_t &SlotCost) {
  const DataLayout &DL = Inner->getHeader()->getDataLayout();
  SmallVector<Access, 64> Accesses;
  SlotCost = 0;
  for (BasicBlock *BB : Inner->blocks()) {
    uint64_t Trips = 1;
    for (Loop *M = LI.getLoopFor(BB); M != Inner; M = M->getParentLoop()) {
      unsigned T = SE.getSmallConstantTripCount(M);
      Trips = std::min<uint64_t>(Trips * (T ? T : UnknownTrips), 1u << 20);
    }
    for (Instruction &I : *BB) {
      Value *Ptr = getLoadStorePointerOperand(&I);
      if (!Ptr)
        continue;
      if (Slots.count(&I)) {
        SlotCost += Trips * (isa<StoreInst>(I) ? ScatterCost : 1);
        continue;
      }
      Accesses.push_back(
          {&I, SE.getSCEV(Ptr),
           static_cast<int64_t>(DL.getTypeStoreSize(getLoadStoreType(&I))),
           Trips, LI.getLoopFor(BB)});
    }
  }
  return Accesses;
}

/// The trips of the kernel loops around L (work-item loops count once).
uint64_t tripsAround(const Loop *L, ScalarEvolution &SE) {
  uint64_t Trips = 1;
  for (Loop *M = L->getParentLoop(); M; M = M->getParentLoop())
    if (!isWorkItemLoop(M)) {
      unsigned T = SE.getSmallConstantTripCount(M);
      Trips = std::min<uint64_t>(Trips * (T ? T : UnknownTrips), 1u << 20);
    }
  return Trips;
}

/// A y/x nest that may run either way round, and what each order costs.
/// The context slots are consecutive across the dimension the numbering
/// puts fastest and a gather (scatter) across the other.
struct Nest {
  CountingLoop Outer, Inner;
  uint64_t CostX = 0, CostY = 0; ///< gathers across x / y, slots left out
  uint64_t Slots = 0;            ///< the slot accesses as gathers
  uint64_t Weight = 1;           ///< trips of the kernel loops around it
  bool YNotShorter = true;       ///< y runs at least as many trips as x

  /// Whether y should run innermost under the numbering YFirst: when it
  /// costs at most half as much, or when only the slots tell the two
  /// orders apart and y is cheaper.
  bool swaps(bool YFirst) const {
    if (!YNotShorter)
      return false;
    uint64_t X = CostX + (YFirst ? Slots : 0);
    uint64_t Y = CostY + (YFirst ? 0 : Slots);
    return X && (2 * Y <= X || (CostX == CostY && Y < X));
  }
  uint64_t cost(bool YFirst) const {
    bool Swap = swaps(YFirst);
    uint64_t X = CostX + (YFirst ? Slots : 0);
    uint64_t Y = CostY + (YFirst ? 0 : Slots);
    return Weight * (Swap ? Y : X);
  }
};

Nest measureNest(const CountingLoop &Outer, const CountingLoop &Inner,
                 LoopInfo &LI, ScalarEvolution &SE,
                 const SmallPtrSetImpl<Instruction *> &Slots) {
  Nest N{Outer, Inner};
  auto *OuterTrips = dyn_cast<ConstantInt>(Outer.bound());
  auto *InnerTrips = dyn_cast<ConstantInt>(Inner.bound());
  N.YNotShorter = !(OuterTrips && InnerTrips &&
                    OuterTrips->getZExtValue() < InnerTrips->getZExtValue());
  SmallVector<Access, 64> Accesses =
      collectAccesses(Inner.L, LI, SE, Slots, N.Slots);
  N.CostX = gatherCost(Accesses, Inner.L, SE);
  N.CostY = gatherCost(Accesses, Outer.L, SE);
  N.Weight = tripsAround(Outer.L, SE);
  return N;
}

/// Swaps the roles of the two counters and of the two bounds: the inner
/// loop now runs the outer dimension.
void interchange(const CountingLoop &Outer, const CountingLoop &Inner) {
  SmallVector<Use *, 16> OuterUses, InnerUses;
  for (Use &U : Outer.Id->uses())
    if (U.getUser() != Outer.Next)
      OuterUses.push_back(&U);
  for (Use &U : Inner.Id->uses())
    if (U.getUser() != Inner.Next)
      InnerUses.push_back(&U);
  for (Use *U : OuterUses)
    U->set(Inner.Id);
  for (Use *U : InnerUses)
    U->set(Outer.Id);
  Value *OuterBound = Outer.bound();
  Outer.Test->setOperand(1, Inner.bound());
  Inner.Test->setOperand(1, OuterBound);
  // The names say which local id each counter now is.
  std::string OuterName = Outer.Id->getName().str();
  Outer.Id->setName(Inner.Id->getName() + ".outer");
  Inner.Id->setName(OuterName + ".inner");
}

/// ParallelRegions's context index `(Z * LY + Y) * LX + X` taken apart.
struct ContextIndexTerms {
  Value *X, *Y, *Z;
  ConstantInt *LX, *LY;
};

std::optional<ContextIndexTerms> matchContextIndex(Instruction &I) {
  ContextIndexTerms T;
  if (!match(&I, m_Add(m_Mul(m_Add(m_Mul(m_Value(T.Z), m_ConstantInt(T.LY)),
                                   m_Value(T.Y)),
                             m_ConstantInt(T.LX)),
                       m_Value(T.X))))
    return std::nullopt;
  return T;
}

/// The loads and stores whose address is computed from Index (the slot
/// copies of the regions, and the accesses to private memory that lives in
/// context arrays).
SmallVector<Instruction *, 16> slotAccesses(Instruction *Index) {
  SmallVector<Instruction *, 16> Accesses, Work{Index};
  SmallPtrSet<Instruction *, 32> Seen{Index};
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    for (User *U : I->users()) {
      auto *UI = cast<Instruction>(U);
      if (!Seen.insert(UI).second)
        continue;
      if (isa<LoadInst>(UI) || isa<StoreInst>(UI)) {
        if (getLoadStorePointerOperand(UI) == I)
          Accesses.push_back(UI);
        continue;
      }
      if (isa<BinaryOperator>(UI) || isa<GetElementPtrInst>(UI) ||
          isa<CastInst>(UI))
        Work.push_back(UI);
    }
  }
  return Accesses;
}

/// The context indices of F, when they can all be renumbered y fastest
/// (every one has ParallelRegions's form, with the same local size, and y
/// has more than one work-item); otherwise none.
SmallVector<Instruction *, 16> renumberableContextIndices(Function &F) {
  SmallVector<Instruction *, 16> Indices;
  ConstantInt *LX = nullptr, *LY = nullptr;
  for (Instruction &I : instructions(F)) {
    if (!isContextIndex(I))
      continue;
    std::optional<ContextIndexTerms> T = matchContextIndex(I);
    if (!T || (LX && (T->LX != LX || T->LY != LY)))
      return {};
    LX = T->LX;
    LY = T->LY;
    Indices.push_back(&I);
  }
  if (LY && LY->isOne())
    return {};
  return Indices;
}

/// Numbers the work-items y fastest in every context index: each must
/// change alike, or a work-item would read another's slot.
void numberSlotsYFirst(ArrayRef<Instruction *> Indices) {
  for (Instruction *I : Indices) {
    ContextIndexTerms T = *matchContextIndex(*I);
    IRBuilder<> B(I);
    Value *YFirst = B.CreateAdd(
        B.CreateMul(B.CreateAdd(B.CreateMul(T.Z, T.LX, "", true, true), T.X, "",
                                true, true),
                    T.LY, "", true, true),
        T.Y, "wi.linear.yfirst", true, true);
    I->replaceAllUsesWith(YFirst);
    RecursivelyDeleteTriviallyDeadInstructions(I);
  }
}

/// What the slot accesses outside every nest that may be reordered cost
/// when y is fastest: they stay in x-innermost loops, where the slots are
/// then a row apart. Each counts as often as the kernel loops around it run.
uint64_t fixedSlotCost(const SmallPtrSetImpl<Instruction *> &Slots,
                       ArrayRef<Nest> Nests, LoopInfo &LI,
                       ScalarEvolution &SE) {
  uint64_t Cost = 0;
  for (Instruction *Access : Slots) {
    if (any_of(Nests, [&](const Nest &N) {
          return N.Inner.L->contains(Access->getParent());
        }))
      continue;
    uint64_t Trips = 1;
    for (Loop *M = LI.getLoopFor(Access->getParent()); M;
         M = M->getParentLoop())
      if (!isWorkItemLoop(M)) {
        unsigned T = SE.getSmallConstantTripCount(M);
        Trips = std::min<uint64_t>(Trips * (T ? T : UnknownTrips), 1u << 20);
      }
    Cost += Trips * (isa<StoreInst>(Access) ? ScatterCost : 1);
  }
  return Cost;
}

} // namespace

PreservedAnalyses
InterchangeWorkItemLoopsPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  // The kernel's own loop counters are still in memory after
  // ParallelRegions; SCEV needs them as values.
  PreservedAnalyses PA = SROAPass(SROAOptions::ModifyCFG).run(F, FAM);
  FAM.invalidate(F, PA);
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  // Context slots, when they may be renumbered, are costed apart.
  SmallVector<Instruction *, 16> Indices;
  SmallPtrSet<Instruction *, 32> Slots;
  if (yFirstSlotsEnabled())
    Indices = renumberableContextIndices(F);
  for (Instruction *Index : Indices)
    for (Instruction *Access : slotAccesses(Index))
      Slots.insert(Access);
  SmallVector<Nest, 8> Nests;
  for (Loop *L : LI.getLoopsInPreorder()) {
    Loop *Parent = L->getParentLoop();
    if (!Parent || !isWorkItemLoop(L) || !isWorkItemLoop(Parent))
      continue;
    // The inner work-item loop is x only when no work-item loop is
    // nested in it.
    if (any_of(L->getLoopsInPreorder(),
               [L](Loop *M) { return M != L && isWorkItemLoop(M); }))
      continue;
    std::optional<CountingLoop> Inner = matchCountingLoop(L);
    std::optional<CountingLoop> Outer = matchCountingLoop(Parent);
    if (!Inner || !Outer || !isPerfectNest(*Outer, *Inner) ||
        !hasIndependentBody(*Outer, *Inner))
      continue;
    Nests.push_back(measureNest(*Outer, *Inner, LI, SE, Slots));
  }
  // Number the work-items y fastest when that, with each nest then run its
  // better way round, costs less than x fastest.
  bool YFirst = false;
  if (!Slots.empty()) {
    uint64_t TotalX = 0, TotalY = fixedSlotCost(Slots, Nests, LI, SE);
    for (const Nest &N : Nests) {
      TotalX += N.cost(false);
      TotalY += N.cost(true);
    }
    YFirst = TotalY < TotalX;
    WEFT_LOG(DebugCompile,
             "%s: gathers with context slots x fastest %llu, y fastest %llu",
             F.getName().str().c_str(), static_cast<unsigned long long>(TotalX),
             static_cast<unsigned long long>(TotalY));
  }
  unsigned Swapped = 0;
  for (const Nest &N : Nests) {
    bool Swap = N.swaps(YFirst);
    WEFT_LOG(DebugCompile,
             "%s: work-item loop %s: gathers across x %llu, across y %llu, "
             "context slots %llu%s",
             F.getName().str().c_str(),
             N.Inner.L->getHeader()->getName().str().c_str(),
             static_cast<unsigned long long>(N.CostX),
             static_cast<unsigned long long>(N.CostY),
             static_cast<unsigned long long>(N.Slots),
             Swap ? ": y innermost" : "");
    if (!Swap)
      continue;
    interchange(N.Outer, N.Inner);
    addStringMetadataToLoop(N.Inner.L, InterchangedLoopMD, 1);
    // The loop runs a vector of work-items or two: interleaving vector
    // iterations (InterleaveWorkItemLoops) would leave it none.
    if (isa<ConstantInt>(N.Inner.bound()))
      addStringMetadataToLoop(N.Inner.L, "llvm.loop.interleave.count", 1);
    ++Swapped;
  }
  if (YFirst) {
    numberSlotsYFirst(Indices);
    WEFT_LOG(DebugCompile, "%s: context slots numbered y fastest",
             F.getName().str().c_str());
  }
  if (!Swapped && !YFirst)
    return PA;
  WEFT_LOG(DebugCompile, "%s: %u work-item loop nests run y innermost",
           F.getName().str().c_str(), Swapped);
  PreservedAnalyses Kept;
  Kept.preserveSet<CFGAnalyses>();
  PA.intersect(std::move(Kept));
  return PA;
}

} // namespace weft
