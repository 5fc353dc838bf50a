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
// test); no other value crosses an iteration or leaves the nest; the body
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
// in y, like ParallelRegions's context slots, count against the swap.
// WEFT_INTERCHANGE=0 turns the pass off.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/InterchangeWorkItemLoops.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/ParallelLoops.h"

#include "weft/debug.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <optional>

#define DEBUG_TYPE "weft-interchange-workitem-loops"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace weft {

bool workItemInterchangeEnabled() { return switchEnabled("WEFT_INTERCHANGE"); }

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
  // next; a value used after the nest is some work-item's.
  for (PHINode &Phi : IL->getHeader()->phis())
    if (&Phi != Inner.Id)
      return false;
  for (BasicBlock *BB : IL->blocks())
    for (Instruction &I : *BB)
      for (User *U : I.users())
        if (!IL->contains(cast<Instruction>(U)))
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
/// of the kernel loops around each inside Inner.
SmallVector<Access, 64> collectAccesses(Loop *Inner, LoopInfo &LI,
                                        ScalarEvolution &SE) {
  const DataLayout &DL = Inner->getHeader()->getDataLayout();
  SmallVector<Access, 64> Accesses;
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
      Accesses.push_back(
          {&I, SE.getSCEV(Ptr),
           static_cast<int64_t>(DL.getTypeStoreSize(getLoadStoreType(&I))),
           Trips, LI.getLoopFor(BB)});
    }
  }
  return Accesses;
}

/// Whether running y innermost pays: y's gathers cost at most half of x's,
/// and y has at least as many trips as x (when both are constants).
bool interchangePays(const CountingLoop &Outer, const CountingLoop &Inner,
                     LoopInfo &LI, ScalarEvolution &SE, StringRef FName) {
  auto *OuterTrips = dyn_cast<ConstantInt>(Outer.bound());
  auto *InnerTrips = dyn_cast<ConstantInt>(Inner.bound());
  if (OuterTrips && InnerTrips &&
      OuterTrips->getZExtValue() < InnerTrips->getZExtValue())
    return false;
  SmallVector<Access, 64> Accesses = collectAccesses(Inner.L, LI, SE);
  uint64_t CostX = gatherCost(Accesses, Inner.L, SE);
  if (!CostX)
    return false;
  uint64_t CostY = gatherCost(Accesses, Outer.L, SE);
  WEFT_LOG(DebugCompile,
           "%s: work-item loop %s: gathers across x %llu, across y %llu%s",
           FName.str().c_str(), Inner.L->getHeader()->getName().str().c_str(),
           static_cast<unsigned long long>(CostX),
           static_cast<unsigned long long>(CostY),
           2 * CostY <= CostX ? ": y innermost" : "");
  return 2 * CostY <= CostX;
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
  SmallVector<std::pair<CountingLoop, CountingLoop>, 8> Swaps;
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
        !hasIndependentBody(*Outer, *Inner) ||
        !interchangePays(*Outer, *Inner, LI, SE, F.getName()))
      continue;
    Swaps.push_back({*Outer, *Inner});
  }
  if (Swaps.empty())
    return PA;
  for (auto &[Outer, Inner] : Swaps) {
    interchange(Outer, Inner);
    addStringMetadataToLoop(Inner.L, InterchangedLoopMD, 1);
    // The loop runs a vector of work-items or two: interleaving vector
    // iterations (InterleaveWorkItemLoops) would leave it none.
    if (isa<ConstantInt>(Inner.bound()))
      addStringMetadataToLoop(Inner.L, "llvm.loop.interleave.count", 1);
  }
  WEFT_LOG(DebugCompile, "%s: %zu work-item loop nests run y innermost",
           F.getName().str().c_str(), Swaps.size());
  PreservedAnalyses Kept;
  Kept.preserveSet<CFGAnalyses>();
  PA.intersect(std::move(Kept));
  return PA;
}

} // namespace weft
