//===- VersionGroupGuards.cpp - Whole-group copies of bounds guards -------===//
//
// Kernels guard their work with bounds tests on the ids (CLBlast's direct
// GEMM, with idm = get_local_id(0) * 2 + get_group_id(0) * 16):
//
//   if (idm < (M / 16) * 16 && idn < (N / 16) * 16) { tiled loops, barriers }
//   else { checked loops, barriers }
//
// The condition is varying (UniformityAnalysis), so all it controls is
// divergent: its loops keep per-work-item exit tests, never go horizontal,
// and carry their counters in context arrays. Yet in every group but the
// last ones the guard holds in all work-items. This pass adds a uniform test
// of that, all(c), and a copy of the guarded code taken when it holds:
//
//   BB: ...                       BB:   ...; br all(c), T', BB.g
//       br c, T, E        ==>     BB.g: br c, T, E
//   T, E, ... -> Join             T', E', ... -> Join   (copies, c = true)
//
// all(c). The guard is an icmp, or a conjunction of icmps (an `&&` chain
// of branches is merged into one branch first, as SimplifyCFG would), of
// values affine in the local ids: sums, differences, multiples and shifts by
// constants, truncations and extensions of the ids and of uniform values.
// Each such value is followed as a "shadow", an exact integer
// Base + sum c_d * id_d with Base a uniform i128 computed at run time and
// c_d constants. The IR's operations wrap modulo 2^width, and the shadow
// stays congruent to the value through add, sub, mul, shl and trunc; where
// the IR reads a value as a signed or unsigned number (sext, zext, the
// compare) the shadow must lie in that range for every id in [0, L_d) (the
// specialized local size; a smaller last group only narrows it). Being
// affine, it does iff its two extreme corners do. The compare of two exact
// values then holds in every work-item iff it holds at the extreme corner
// of their difference. all(c) is the conjunction of these uniform tests
// (constant-folded where the bases are constants). When it holds, c holds in
// this work-item too, so T' computes what T would: the copy is correct
// whatever the other work-items do; the test adds no poison (i128
// arithmetic without wrap flags) and no trap.
//
// Where it pays: the guard's block is not divergent (so all(c) sends the
// whole group one way), and the guarded code holds a barrier or a loop with
// more than a few constant trips. Straight code (and small loops, which are
// unrolled) stays in the work-item loop, where the vectorizer if-converts
// the test of the whole group like any branch and would run both copies. A budget
// bounds the copies per function and their size.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/VersionGroupGuards.h"
#include "WorkGroup/BarrierUtils.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/UniformityAnalysis.h"

#include "weft/debug.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <cstdlib>
#include <cstring>

#define DEBUG_TYPE "weft-version-group-guards"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace weft {

bool groupGuardVersioningEnabled() {
  return switchEnabled("WEFT_VERSION_GUARDS");
}

namespace {

/// How deep a guard's operands are followed.
constexpr unsigned MaxDepth = 12;
/// Coefficients stay below this and local sizes below MaxLocalSize, so the
/// extreme corners fit an int64_t.
constexpr int64_t MaxCoef = int64_t(1) << 31;
constexpr uint64_t MaxLocalSize = uint64_t(1) << 20;
/// Bases stay below 2^MaxBaseBits in magnitude: i128 never wraps.
constexpr unsigned MaxBaseBits = 120;
/// Copies made in one function, and instructions copied in all.
constexpr unsigned MaxVersions = 4;
constexpr unsigned MaxCopiedInstructions = 20000;
/// Loops of up to this many constant trips are left to unrolling.
constexpr unsigned MaxUnrolledTrips = 32;
/// Instructions an `&&` chain's second block may hold to be merged.
constexpr unsigned MaxChainInstructions = 16;

/// Base + sum Coef[d] * id_d as an exact integer.
struct Shadow {
  Value *Base = nullptr; ///< uniform i128; null for 0
  unsigned BaseBits = 0; ///< |Base| < 2^BaseBits
  std::array<int64_t, 3> Coef = {0, 0, 0};
};

/// Builds all(c), a uniform i1 that implies a guard c in every work-item,
/// before an insertion point; discard() takes back what it emitted.
class GuardTester {
public:
  GuardTester(Function &F, const UniformityInfo &UI,
              const std::array<uint64_t, 3> &LocalSize, Instruction *InsertPt)
      : UI(UI), I128(Type::getInt128Ty(F.getContext())),
        B(F.getContext(), ConstantFolder(),
          IRBuilderCallbackInserter(
              [this](Instruction *I) { Emitted.push_back(I); })) {
    B.SetInsertPoint(InsertPt);
    unsigned N = F.arg_size();
    for (unsigned D = 0; D < 3; ++D) {
      Ids[D] = F.getArg(N - 3 + D);
      IdMax[D] = int64_t(LocalSize[D]) - 1;
    }
  }

  /// all(Cond == Want), or null when it cannot be expressed or never holds.
  Value *build(Value *Cond, bool Want) {
    if (!holdsEverywhere(Cond, Want, 0)) {
      discard();
      return nullptr;
    }
    Value *All = B.getTrue();
    for (Value *C : Tests)
      All = B.CreateAnd(All, C);
    if (auto *C = dyn_cast<ConstantInt>(All); C && C->isZero()) {
      discard();
      return nullptr;
    }
    return All;
  }

  void discard() {
    for (Instruction *I : llvm::reverse(Emitted))
      if (I->use_empty())
        I->eraseFromParent();
    Emitted.clear();
    Tests.clear();
  }

private:
  bool holdsEverywhere(Value *Cond, bool Want, unsigned Depth) {
    if (Depth > MaxDepth)
      return false;
    Value *L, *R;
    if (Want && match(Cond, m_LogicalAnd(m_Value(L), m_Value(R))))
      return holdsEverywhere(L, true, Depth + 1) &&
             holdsEverywhere(R, true, Depth + 1);
    if (!Want && match(Cond, m_LogicalOr(m_Value(L), m_Value(R))))
      return holdsEverywhere(L, false, Depth + 1) &&
             holdsEverywhere(R, false, Depth + 1);
    if (match(Cond, m_Not(m_Value(L))))
      return holdsEverywhere(L, !Want, Depth + 1);
    if (auto *Cmp = dyn_cast<ICmpInst>(Cond))
      return compareEverywhere(*Cmp, Want);
    return false;
  }

  /// Cmp == Want for every id in the box.
  bool compareEverywhere(ICmpInst &Cmp, bool Want) {
    CmpInst::Predicate Pred =
        Want ? Cmp.getPredicate() : Cmp.getInversePredicate();
    Type *Ty = Cmp.getOperand(0)->getType();
    if (!Ty->isIntegerTy() || Ty->getIntegerBitWidth() > 64 ||
        Pred == CmpInst::ICMP_EQ)
      return false;
    bool Signed = ICmpInst::isSigned(Pred);
    std::optional<Shadow> A = exactOperand(Cmp.getOperand(0), Signed);
    std::optional<Shadow> C = exactOperand(Cmp.getOperand(1), Signed);
    if (!A || !C)
      return false;
    std::optional<Shadow> D = combine(*A, *C, -1);
    if (!D)
      return false;
    Value *Max = corner(*D, /*Max=*/true), *Min = corner(*D, /*Max=*/false);
    Value *Zero = ConstantInt::get(I128, 0);
    Value *Test;
    switch (Pred) {
    case CmpInst::ICMP_SLT:
    case CmpInst::ICMP_ULT:
      Test = B.CreateICmpSLT(Max, Zero);
      break;
    case CmpInst::ICMP_SLE:
    case CmpInst::ICMP_ULE:
      Test = B.CreateICmpSLE(Max, Zero);
      break;
    case CmpInst::ICMP_SGT:
    case CmpInst::ICMP_UGT:
      Test = B.CreateICmpSGT(Min, Zero);
      break;
    case CmpInst::ICMP_SGE:
    case CmpInst::ICMP_UGE:
      Test = B.CreateICmpSGE(Min, Zero);
      break;
    case CmpInst::ICMP_NE:
      Test = B.CreateOr(B.CreateICmpSLT(Max, Zero), B.CreateICmpSGT(Min, Zero));
      break;
    default:
      return false;
    }
    return addTest(Test);
  }

  /// The shadow of an operand that equals the number the compare reads.
  std::optional<Shadow> exactOperand(Value *V, bool Signed) {
    if (UI.isUniform(V)) {
      // Read as the compare reads it: exact by construction.
      Shadow S;
      S.Base = Signed ? B.CreateSExt(V, I128) : B.CreateZExt(V, I128);
      S.BaseBits = V->getType()->getIntegerBitWidth() + 1;
      return S;
    }
    std::optional<Shadow> S = shadowOf(V, 0);
    if (!S || !requireRange(*S, V->getType()->getIntegerBitWidth(), Signed))
      return std::nullopt;
    return S;
  }

  /// A shadow congruent to V modulo 2^(V's width).
  std::optional<Shadow> shadowOf(Value *V, unsigned Depth) {
    Type *Ty = V->getType();
    if (!Ty->isIntegerTy() || Ty->getIntegerBitWidth() > 64)
      return std::nullopt;
    for (unsigned D = 0; D < 3; ++D)
      if (V == Ids[D]) {
        Shadow S;
        S.Coef[D] = 1;
        return S;
      }
    if (UI.isUniform(V)) {
      Shadow S;
      S.Base = B.CreateSExt(V, I128);
      S.BaseBits = Ty->getIntegerBitWidth();
      return S;
    }
    auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth >= MaxDepth)
      return std::nullopt;
    switch (I->getOpcode()) {
    case Instruction::Add:
    case Instruction::Sub: {
      std::optional<Shadow> L = shadowOf(I->getOperand(0), Depth + 1);
      if (!L)
        return std::nullopt;
      std::optional<Shadow> R = shadowOf(I->getOperand(1), Depth + 1);
      if (!R)
        return std::nullopt;
      return combine(*L, *R, I->getOpcode() == Instruction::Add ? 1 : -1);
    }
    case Instruction::Or: {
      // Disjoint bits: the sum.
      if (!cast<PossiblyDisjointInst>(I)->isDisjoint())
        return std::nullopt;
      std::optional<Shadow> L = shadowOf(I->getOperand(0), Depth + 1);
      if (!L)
        return std::nullopt;
      std::optional<Shadow> R = shadowOf(I->getOperand(1), Depth + 1);
      if (!R)
        return std::nullopt;
      return combine(*L, *R, 1);
    }
    case Instruction::Mul: {
      // Any representative of the constant modulo 2^width will do.
      Value *Other;
      const APInt *C;
      if (!match(I, m_c_Mul(m_Value(Other), m_APInt(C))) ||
          C->getSignificantBits() > 32)
        return std::nullopt;
      std::optional<Shadow> S = shadowOf(Other, Depth + 1);
      if (!S)
        return std::nullopt;
      return scale(*S, C->getSExtValue());
    }
    case Instruction::Shl: {
      const APInt *C;
      if (!match(I->getOperand(1), m_APInt(C)) || C->uge(31))
        return std::nullopt;
      std::optional<Shadow> S = shadowOf(I->getOperand(0), Depth + 1);
      if (!S)
        return std::nullopt;
      return scale(*S, int64_t(1) << C->getZExtValue());
    }
    case Instruction::Trunc:
      // Congruent modulo the narrower power of two as well.
      return shadowOf(I->getOperand(0), Depth + 1);
    case Instruction::SExt:
    case Instruction::ZExt: {
      Value *Op = I->getOperand(0);
      std::optional<Shadow> S = shadowOf(Op, Depth + 1);
      if (!S || !requireRange(*S, Op->getType()->getIntegerBitWidth(),
                              I->getOpcode() == Instruction::SExt))
        return std::nullopt;
      return S;
    }
    default:
      return std::nullopt;
    }
  }

  /// L + Sign * R.
  std::optional<Shadow> combine(const Shadow &L, const Shadow &R, int Sign) {
    Shadow S;
    for (unsigned D = 0; D < 3; ++D) {
      S.Coef[D] = L.Coef[D] + Sign * R.Coef[D];
      if (S.Coef[D] >= MaxCoef || S.Coef[D] <= -MaxCoef)
        return std::nullopt;
    }
    S.BaseBits = std::max(L.BaseBits, R.BaseBits) + 1;
    if (S.BaseBits > MaxBaseBits)
      return std::nullopt;
    if (!R.Base)
      S.Base = L.Base;
    else if (Sign > 0)
      S.Base = L.Base ? B.CreateAdd(L.Base, R.Base) : R.Base;
    else
      S.Base = B.CreateSub(L.Base ? L.Base : ConstantInt::get(I128, 0), R.Base);
    return S;
  }

  std::optional<Shadow> scale(const Shadow &In, int64_t Factor) {
    Shadow S;
    for (unsigned D = 0; D < 3; ++D) {
      S.Coef[D] = In.Coef[D] * Factor; // both below 2^31
      if (S.Coef[D] >= MaxCoef || S.Coef[D] <= -MaxCoef)
        return std::nullopt;
    }
    S.BaseBits = In.BaseBits + 32;
    if (S.BaseBits > MaxBaseBits)
      return std::nullopt;
    if (In.Base)
      S.Base = B.CreateMul(In.Base, ConstantInt::getSigned(I128, Factor));
    return S;
  }

  /// The shadow's largest (or smallest) value over the ids' box.
  Value *corner(const Shadow &S, bool Max) {
    int64_t Sum = 0;
    for (unsigned D = 0; D < 3; ++D)
      if (S.Coef[D] != 0 && (S.Coef[D] > 0) == Max)
        Sum += S.Coef[D] * IdMax[D];
    Value *C = ConstantInt::getSigned(I128, Sum);
    return S.Base ? B.CreateAdd(S.Base, C) : C;
  }

  /// Requires S to be a signed (or unsigned) Bits-bit number in the whole
  /// box; false when that never holds.
  bool requireRange(const Shadow &S, unsigned Bits, bool Signed) {
    APInt Lo = Signed ? APInt::getSignedMinValue(Bits).sext(128)
                      : APInt::getZero(128);
    APInt Hi = Signed ? APInt::getSignedMaxValue(Bits).sext(128)
                      : APInt::getMaxValue(Bits).zext(128);
    Value *Low = B.CreateICmpSGE(corner(S, false), ConstantInt::get(I128, Lo));
    Value *High = B.CreateICmpSLE(corner(S, true), ConstantInt::get(I128, Hi));
    return addTest(Low) && addTest(High);
  }

  /// Adds a test to the conjunction; false when it is constant false.
  bool addTest(Value *Test) {
    if (auto *C = dyn_cast<ConstantInt>(Test))
      return !C->isZero();
    Tests.push_back(Test);
    return true;
  }

  const UniformityInfo &UI;
  Type *I128;
  std::array<Value *, 3> Ids;
  std::array<int64_t, 3> IdMax;
  SmallVector<Instruction *, 32> Emitted;
  SmallVector<Value *, 8> Tests;
  IRBuilder<ConstantFolder, IRBuilderCallbackInserter> B;
};

/// Whether T, the block BI branches to when the guard holds, is only a
/// second guard of the same `&&` (or `||`) chain: it has BI's block as its
/// one predecessor, computes nothing that may trap or touch memory, and
/// leaves to the same other block with the same incoming values there.
bool isChainedGuard(BranchInst &BI, BasicBlock *T, BasicBlock *Other) {
  if (T->getSinglePredecessor() != BI.getParent() || T == Other)
    return false;
  auto *Next = dyn_cast<BranchInst>(T->getTerminator());
  if (!Next || !Next->isConditional() ||
      (Next->getSuccessor(0) != Other) == (Next->getSuccessor(1) != Other))
    return false;
  if (T->size() > MaxChainInstructions + 1)
    return false;
  for (Instruction &I : *T)
    if (&I != Next && (isa<PHINode>(I) || !isSafeToSpeculativelyExecute(&I)))
      return false;
  for (PHINode &Phi : Other->phis())
    if (Phi.getIncomingValueForBlock(BI.getParent()) !=
        Phi.getIncomingValueForBlock(T))
      return false;
  return true;
}

/// Merges a chained guard T into BI: BI's block computes T's values and
/// branches on (taken && next taken) to where T's branch goes, as
/// SimplifyCFG's FoldBranchToCommonDest would. Returns the new branch.
BranchInst *mergeChainedGuard(BranchInst &BI, bool Want) {
  BasicBlock *BB = BI.getParent();
  BasicBlock *T = BI.getSuccessor(Want ? 0 : 1);
  BasicBlock *Other = BI.getSuccessor(Want ? 1 : 0);
  auto *Next = cast<BranchInst>(T->getTerminator());
  bool NextWant = Next->getSuccessor(1) == Other;
  BasicBlock *Target = Next->getSuccessor(NextWant ? 0 : 1);
  while (&T->front() != Next)
    T->front().moveBefore(&BI);
  IRBuilder<> B(&BI);
  Value *First = Want ? BI.getCondition() : B.CreateNot(BI.getCondition());
  Value *Second =
      NextWant ? Next->getCondition() : B.CreateNot(Next->getCondition());
  Value *Both = B.CreateLogicalAnd(First, Second, "guards");
  BranchInst *New = B.CreateCondBr(Both, Target, Other);
  for (PHINode &Phi : Other->phis())
    Phi.removeIncomingValue(T, /*DeletePHIIfEmpty=*/false);
  Target->replacePhiUsesWith(T, BB);
  BI.eraseFromParent();
  Next->eraseFromParent();
  T->eraseFromParent();
  return New;
}

/// The blocks the copy holds: reachable from Taken without passing Join,
/// the guard's immediate post-dominator (all reachable ones when there is
/// none).
SmallVector<BasicBlock *, 32> guardedBlocks(BasicBlock *Taken,
                                            BasicBlock *Join) {
  SmallVector<BasicBlock *, 32> Region;
  SmallPtrSet<BasicBlock *, 32> Seen;
  SmallVector<BasicBlock *, 16> Stack = {Taken};
  while (!Stack.empty()) {
    BasicBlock *B = Stack.pop_back_val();
    if (B == Join || !Seen.insert(B).second)
      continue;
    Region.push_back(B);
    Stack.append(succ_begin(B), succ_end(B));
  }
  return Region;
}

/// BB's immediate post-dominator, or null.
BasicBlock *joinOf(BasicBlock *BB, const PostDominatorTree &PDT) {
  const DomTreeNode *Node = PDT.getNode(BB);
  return Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
}

/// Whether a copy of Region pays: it holds a barrier, or a loop whose trips
/// are not a small constant (those are unrolled, and the copy of straight
/// code in a work-item loop is only if-converted along with the original:
/// both would run).
bool worthCopying(ArrayRef<BasicBlock *> Region, LoopInfo &LI,
                  ScalarEvolution &SE) {
  for (BasicBlock *B : Region) {
    if (LI.isLoopHeader(B)) {
      unsigned Trips = SE.getSmallConstantTripCount(LI.getLoopFor(B));
      if (!Trips || Trips > MaxUnrolledTrips)
        return true;
    }
    for (Instruction &I : *B)
      if (isBarrierCall(I))
        return true;
  }
  return false;
}

unsigned countInstructions(ArrayRef<BasicBlock *> Region) {
  unsigned N = 0;
  for (BasicBlock *B : Region)
    N += B->size();
  return N;
}

/// Copies Region for the case All holds: BB branches on All to the copy of
/// Taken, and otherwise to a new block with BI, the original guard. In the
/// copy the guard's condition is the constant Want.
void copyForWholeGroup(Function &F, BranchInst &BI, bool Want, Value *All,
                       ArrayRef<BasicBlock *> Region, BasicBlock *Join) {
  BasicBlock *BB = BI.getParent();
  BasicBlock *Taken = BI.getSuccessor(Want ? 0 : 1);
  Value *Cond = BI.getCondition();
  BasicBlock *Guarded = SplitBlock(BB, &BI);
  Guarded->setName(BB->getName() + ".partial");

  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 32> Copies;
  for (BasicBlock *B : Region) {
    BasicBlock *Copy = CloneBasicBlock(B, VMap, ".group", &F);
    VMap[B] = Copy;
    Copies.push_back(Copy);
  }
  // The copy of Taken is entered from BB itself.
  VMap[Guarded] = BB;
  remapInstructionsInBlocks(Copies, VMap);
  BB->getTerminator()->eraseFromParent();
  BranchInst::Create(cast<BasicBlock>(VMap[Taken]), Guarded, All, BB);

  Constant *Known = ConstantInt::getBool(F.getContext(), Want);
  SmallPtrSet<BasicBlock *, 32> CopySet(Copies.begin(), Copies.end());
  Cond->replaceUsesWithIf(Known, [&](Use &U) {
    auto *I = dyn_cast<Instruction>(U.getUser());
    return I && CopySet.count(I->getParent());
  });
  // Incoming values from blocks that do not branch to the copy.
  for (BasicBlock *Copy : Copies)
    for (PHINode &Phi : Copy->phis())
      for (unsigned I = Phi.getNumIncomingValues(); I-- > 0;)
        if (!is_contained(predecessors(Copy), Phi.getIncomingBlock(I)))
          Phi.removeIncomingValue(I, /*DeletePHIIfEmpty=*/false);
  // The join gets the copies' values along the copies' edges.
  if (Join)
    for (BasicBlock *B : Region)
      for (BasicBlock *Succ : successors(cast<BasicBlock>(VMap[B])))
        if (Succ == Join)
          for (PHINode &Phi : Join->phis()) {
            Value *V = Phi.getIncomingValueForBlock(B);
            if (Value *Copy = VMap.lookup(V))
              V = Copy;
            Phi.addIncoming(V,
                            cast<BasicBlock>(VMap[B]));
          }
  // Values of the region used past the join: a PHI of both versions.
  SmallPtrSet<BasicBlock *, 32> RegionSet(Region.begin(), Region.end());
  for (BasicBlock *B : Region)
    for (Instruction &I : *B) {
      SmallVector<Use *, 4> Outside;
      for (Use &U : I.uses()) {
        auto *User = cast<Instruction>(U.getUser());
        BasicBlock *UseBB = User->getParent();
        if (auto *Phi = dyn_cast<PHINode>(User))
          UseBB = Phi->getIncomingBlock(U);
        if (!RegionSet.count(UseBB) && !CopySet.count(UseBB))
          Outside.push_back(&U);
      }
      if (Outside.empty())
        continue;
      SSAUpdater Updater;
      Updater.Initialize(I.getType(), I.getName());
      Updater.AddAvailableValue(B, &I);
      auto *Copy = cast<Instruction>(VMap[&I]);
      Updater.AddAvailableValue(Copy->getParent(), Copy);
      for (Use *U : Outside)
        Updater.RewriteUse(*U);
    }
  removeUnreachableBlocks(F);
}

/// Whether all(c) can be built for BI's guard, leaving no code behind.
bool canTestWholeGroup(Function &F, const UniformityInfo &UI,
                       const std::array<uint64_t, 3> &LocalSize, BranchInst &BI,
                       bool Want) {
  GuardTester Tester(F, UI, LocalSize, &BI);
  bool Can = Tester.build(BI.getCondition(), Want) != nullptr;
  Tester.discard();
  return Can;
}

/// Merges the `&&` chain that follows BI's guard (the `||` chain, when
/// Want is false); returns the branch on the whole conjunction and whether
/// it is to be taken when true.
std::pair<BranchInst *, bool>
mergeGuardChain(Function &F, const UniformityInfo &UI,
                const std::array<uint64_t, 3> &LocalSize, BranchInst *BI,
                bool Want) {
  while (true) {
    BasicBlock *T = BI->getSuccessor(Want ? 0 : 1);
    BasicBlock *Other = BI->getSuccessor(Want ? 1 : 0);
    if (!isChainedGuard(*BI, T, Other))
      break;
    auto *Next = cast<BranchInst>(T->getTerminator());
    if (!canTestWholeGroup(F, UI, LocalSize, *Next,
                           Next->getSuccessor(1) == Other))
      break;
    BI = mergeChainedGuard(*BI, Want);
    Want = true;
  }
  return {BI, Want};
}

/// Versions the first guard worth it. Returns whether the IR changed
/// (a copy, or only a merged chain); Versioned says whether a copy was
/// made.
bool versionOneGuard(Function &F, FunctionAnalysisManager &FAM,
                     const std::array<uint64_t, 3> &LocalSize,
                     DenseSet<BranchInst *> &Tried, unsigned &Copied,
                     bool &Versioned) {
  Versioned = false;
  const UniformityInfo &UI = FAM.getResult<UniformityAnalysis>(F);
  ReversePostOrderTraversal<Function *> RPOT(&F);
  for (BasicBlock *BB : RPOT) {
    auto *BI = dyn_cast<BranchInst>(BB->getTerminator());
    if (!BI || !BI->isConditional() || !Tried.insert(BI).second ||
        UI.isUniform(BI->getCondition()) || UI.isDivergent(BB) ||
        BI->getSuccessor(0) == BI->getSuccessor(1))
      continue;
    // The side to copy: where the guard sends every work-item of the
    // group, and not straight to the join (nothing to copy).
    BasicBlock *FirstJoin = joinOf(BB, PostDominatorTree(F));
    std::optional<bool> Want;
    for (bool W : {true, false})
      if (BI->getSuccessor(W ? 0 : 1) != FirstJoin &&
          canTestWholeGroup(F, UI, LocalSize, *BI, W)) {
        Want = W;
        break;
      }
    if (!Want)
      continue;
    BranchInst *Merged;
    bool MergedWant;
    std::tie(Merged, MergedWant) =
        mergeGuardChain(F, UI, LocalSize, BI, *Want);
    bool Changed = Merged != BI;
    Tried.insert(Merged);
    BasicBlock *Join = joinOf(BB, PostDominatorTree(F));
    BasicBlock *Taken = Merged->getSuccessor(MergedWant ? 0 : 1);
    SmallVector<BasicBlock *, 32> Region = guardedBlocks(Taken, Join);
    DominatorTree DT(F);
    LoopInfo LI(DT);
    ScalarEvolution SE(F, FAM.getResult<TargetLibraryAnalysis>(F),
                       FAM.getResult<AssumptionAnalysis>(F), DT, LI);
    unsigned Size = countInstructions(Region);
    if (Taken == Join || is_contained(Region, BB) ||
        !worthCopying(Region, LI, SE) ||
        Copied + Size > MaxCopiedInstructions) {
      if (Changed)
        return true;
      continue;
    }
    // The moved values keep their operands, so UI still answers for them;
    // the new conjunction and negations are followed through, not asked.
    GuardTester Tester(F, UI, LocalSize, Merged);
    Value *All = Tester.build(Merged->getCondition(), MergedWant);
    if (!All) {
      Tester.discard();
      if (Changed)
        return true;
      continue;
    }
    LLVM_DEBUG(dbgs() << "versioning " << *Merged << " (" << Size
                      << " instructions)\n");
    WEFT_LOG(DebugCompile,
             "%s: guard in %s copied for whole groups (%u instructions)",
             F.getName().str().c_str(), BB->getName().str().c_str(), Size);
    copyForWholeGroup(F, *Merged, MergedWant, All, Region, Join);
    Copied += Size;
    Versioned = true;
    return true;
  }
  return false;
}

} // namespace

PreservedAnalyses VersionGroupGuardsPass::run(Module &M,
                                              ModuleAnalysisManager &MAM) {
  if (!groupGuardVersioningEnabled())
    return PreservedAnalyses::all();
  for (uint64_t L : LocalSize)
    if (L == 0 || L > MaxLocalSize)
      return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  // Registered here too: pipelines built without registerWeftPasses.
  FAM.registerPass([] { return UniformityAnalysis(); });
  bool Changed = false;
  for (Function &F : M) {
    if (!isWorkItemFunctionOf(F, Kernel) || F.arg_size() < 4)
      continue;
    DenseSet<BranchInst *> Tried;
    unsigned Copied = 0, Versions = 0;
    bool Versioned;
    while (Versions < MaxVersions &&
           versionOneGuard(F, FAM, LocalSize, Tried, Copied, Versioned)) {
      FAM.invalidate(F, PreservedAnalyses::none());
      Changed = true;
      Versions += Versioned;
    }
    assert(!verifyFunction(F, &errs()) && "VersionGroupGuards broke the IR");
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
