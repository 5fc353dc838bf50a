//===- WidenWorkItemLoops.cpp - Vector work-item loops across work-items --===//
//
// A kernel computing on float4 reaches its work-item loop as <4 x float>
// instructions, one work-item per iteration. LLVM 19's loop vectorizer does
// not widen values that already are vectors, so the loop either runs on a
// quarter of a 512-bit register or, split into scalars by
// ScalarizeWorkItemLoops, turns every float4 access into an interleaved
// group whose deinterleaving shuffles cost more than a streaming loop
// computes. Where work-item x's float4 sits right before work-item x+1's,
// neither is needed: four work-items' float4 are one 64-byte vector.
//
//   for x in 0..256      { <4 x float> v = load p[x]; s = fadd s', v ... }
//   becomes
//   for x in 0..256 by 4 { <16 x float> v = load p[x..x+3]; s = fadd ... }
//
// Every vector value holds VF work-items' vectors side by side, a scalar
// value VF work-items' scalars. Lane-wise operations (arithmetic,
// comparisons, selects, casts, element-wise intrinsics) stay one
// instruction; a shuffle gets the same shuffle in each work-item's part; an
// extractelement becomes a shuffle taking that element of each part (the
// horizontal sum at the end of clpeak's kernels). Values that do not depend
// on the work-item stay as they are and are splatted where a widened
// operation uses them. The integer and pointer code that computes addresses
// from the local id stays scalar too: with the id stepping by VF it
// computes work-item x's address, and work-items x+1..x+VF-1 follow it.
//
// Legality. The loop carries llvm.loop.parallel_accesses (work-items are
// independent between barriers), so running VF of them at once needs no
// dependence proof. Each access must be consecutive across the VF
// work-items of a group, which SCEV does not see through OpenCL's int ids
// (sext(trunc(id)) is folded into `ashr exact (shl id, 32), 28`), so the
// pass follows the address computation itself. The group starts at a
// multiple of VF; with L = log2(VF), an address term whose bits
// [S, S+L) are zero at the group's start and hold j for work-item
// start + j is exact under shifts, sign and zero extension, as long as
// no bit crosses the top, and under adding a value whose low S+L bits are
// zero. Where those low bits are not known (clpeak's global-offset kernel
// adds the global offset and global size), the loop is versioned: a
// run-time test of those bits picks the widened loop or the original one.
// 64-bit additions and multiplications need nothing: addresses wrap modulo
// 2^64 as the original ones do. `x & 7` keeps the work-items' bits (a
// group of at most 8), `x >> 3` drops them: a value common to the group,
// which may then be multiplied by anything. A narrower index is also exact
// under sign extension when every operation on the way has nsw (a wrap
// would have made the address poison, the access undefined).
//
// Interleaved groups. CLBlast's B tile copy (x + 16y split by 8, two
// double4 per work-item) steps by two double4 from one work-item to the
// next: `v[2 * (x & 7) + i]`, i = 0, 1 unrolled. Accesses stepping by K
// elements (K = 2, 4, 8) are kept when K of them, of one type, sit at
// consecutive elements (their distance proved by walking both address
// computations, which differ only by added constants) with nothing in the
// same address space between them: the group is one wide load at its
// first member, each member shuffled out, or one wide store at its last,
// the members shuffled in; a copy's shuffles cancel in InstCombine.
//
// A loop with anything else (a phi besides the id, a call, a store to an
// address every work-item shares, a work-item-dependent value leaving the
// loop, an access neither consecutive nor in a group) is left to the
// other passes.
//
// VF makes the widest access one register (float4 on AVX-512: 4); the trip
// count must be a constant multiple of VF (the fixed-size nest of
// WorkItemLoops). Loops without a vector access are the loop vectorizer's
// job, and loops where most of the work is scalar (after a horizontal
// reduction) keep the vectorizer's 16 lanes for it: those stay as they were.
// Widened loops carry llvm.loop.isvectorized, so loop-vectorize leaves them.
//
// clpeak --global-bandwidth float4 (2-core Zen 4, 512 MiB): see DESIGN.md.
// Runs at the vectorizer-start extension point, before
// ScalarizeWorkItemLoops, which keeps the vectors of a function with a
// widened loop.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/WidenWorkItemLoops.h"

#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/ParallelLoops.h"

#include "weft/debug.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <optional>
#include <string>

#define DEBUG_TYPE "weft-widen-workitem-loops"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace weft {

namespace {

constexpr const char *WidenedMD = "weft.loop.widened";

/// How an integer or pointer computed from the local id changes across the
/// VF work-items of a group (x, x+1, ..., x+VF-1, x a multiple of VF).
struct Progression {
  /// V(x + j) == V(x) + j * Step modulo 2^64 (bytes, for a pointer).
  uint64_t Step = 0;
  /// V(x + j) == V(x) | (j << Shift) exactly, bits [Shift, Shift + L) of
  /// V(x) being zero, provided each (Value, Bits) in Conditions has its low
  /// Bits bits zero (tested at run time).
  bool Disjoint = false;
  unsigned Shift = 0;
  SmallVector<std::pair<Value *, unsigned>, 2> Conditions;
  /// V(x + j) == V(x) + j * Step as integers, Step read as signed: no
  /// work-item's value wrapped on the way (the operations' nsw flags say
  /// so, or the value is a group-invariant sum). A sign extension keeps it.
  bool ExactSigned = false;
};

enum class Kind { Uniform, Address, Varying };

/// K loads (or stores) of one type whose addresses are K consecutive
/// elements, each stepping by K elements from one work-item to the next:
/// together VF * K consecutive elements, one wide access.
struct AccessGroup {
  /// By address: Members[M] accesses the group's base + M elements.
  SmallVector<Instruction *, 8> Members;
  /// The first and last member in the block.
  Instruction *First = nullptr, *Last = nullptr;
};

/// The latch of a loop `for (x = 0; x != TripCount; ++x)` in one block.
struct Latch {
  PHINode *Id = nullptr;
  BinaryOperator *Next = nullptr;
  ICmpInst *Exit = nullptr;
  uint64_t TripCount = 0;
};

std::optional<Latch> matchLatch(Loop &L) {
  BasicBlock *Body = L.getHeader();
  if (L.getNumBlocks() != 1 || L.getLoopLatch() != Body ||
      !L.getLoopPredecessor() || !L.getExitBlock())
    return std::nullopt;
  auto *Br = dyn_cast<BranchInst>(Body->getTerminator());
  if (!Br || !Br->isConditional())
    return std::nullopt;
  Latch Result;
  Result.Exit = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Result.Exit || !Result.Exit->hasOneUse())
    return std::nullopt;
  Value *Next;
  const APInt *Count;
  ICmpInst::Predicate Pred;
  if (!match(Result.Exit, m_ICmp(Pred, m_Value(Next), m_APInt(Count))))
    return std::nullopt;
  bool ExitsOnTrue = Br->getSuccessor(0) != Body;
  if (!(Pred == ICmpInst::ICMP_EQ && ExitsOnTrue) &&
      !((Pred == ICmpInst::ICMP_NE || Pred == ICmpInst::ICMP_ULT) &&
        !ExitsOnTrue))
    return std::nullopt;
  Value *Id;
  if (!match(Next, m_c_Add(m_Value(Id), m_One())))
    return std::nullopt;
  Result.Id = dyn_cast<PHINode>(Id);
  Result.Next = cast<BinaryOperator>(Next);
  if (!Result.Id || Result.Id->getParent() != Body ||
      Result.Id->getNumIncomingValues() != 2 ||
      Result.Id->getIncomingValueForBlock(Body) != Next ||
      !match(Result.Id->getIncomingValueForBlock(L.getLoopPredecessor()),
             m_Zero()) ||
      Count->getActiveBits() > 32)
    return std::nullopt;
  // The increment feeds only the phi and the exit test.
  for (User *U : Next->users())
    if (U != Result.Id && U != Result.Exit)
      return std::nullopt;
  Result.TripCount = Count->getZExtValue();
  return Result;
}

bool isWidenableElement(Type *T) {
  return T->isFloatingPointTy() ||
         (T->isIntegerTy() && T->getIntegerBitWidth() <= 64);
}

/// Lanes a value of type T has per work-item (1 for a scalar).
unsigned lanesOf(Type *T) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return VT->getNumElements();
  return 1;
}

Type *elementOf(Type *T) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return VT->getElementType();
  return T;
}

bool isWidenableType(Type *T) {
  if (isa<ScalableVectorType>(T))
    return false;
  return isWidenableElement(elementOf(T));
}

/// A type whose memory image is its values back to back, so that VF of
/// them in a row are one vector of VF times the lanes.
bool isPackedAccessType(const DataLayout &DL, Type *T) {
  if (!isWidenableType(T) || elementOf(T)->getScalarSizeInBits() % 8 != 0)
    return false;
  uint64_t Size = DL.getTypeStoreSize(T);
  return Size == DL.getTypeAllocSize(T) &&
         Size * 8 == lanesOf(T) * elementOf(T)->getScalarSizeInBits();
}

/// The widened access keeps what the original one said about aliasing,
/// parallelism and caching.
Instruction *copyAccessMetadata(Instruction *New, const Instruction &From) {
  New->copyMetadata(From,
                    {LLVMContext::MD_tbaa, LLVMContext::MD_alias_scope,
                     LLVMContext::MD_noalias, LLVMContext::MD_access_group,
                     LLVMContext::MD_nontemporal});
  return New;
}

/// What an integer distance must survive: an extension after it is exact
/// only when no operation on the way wrapped (their flags say so: a wrap
/// would have made the access's address poison).
enum class Wrap { Modular, Signed, Unsigned };

bool keepsExact(const Instruction &I, Wrap W) {
  if (W == Wrap::Modular)
    return true;
  if (auto *Or = dyn_cast<PossiblyDisjointInst>(&I))
    return Or->isDisjoint();
  return W == Wrap::Signed ? I.hasNoSignedWrap() : I.hasNoUnsignedWrap();
}

/// B - A for two integers computed alike but for constants added on the
/// way (CLBlast's `_nib + lb0 * 2`, unrolled: the same sum with 0 and 1).
std::optional<int64_t> integerDistance(Value *A, Value *B, Wrap W,
                                       unsigned Depth = 0) {
  if (A == B)
    return 0;
  if (Depth > 8)
    return std::nullopt;
  auto *CA = dyn_cast<ConstantInt>(A), *CB = dyn_cast<ConstantInt>(B);
  if (CA && CB && CA->getBitWidth() <= 64)
    return CB->getSExtValue() - CA->getSExtValue();
  auto *IA = dyn_cast<Instruction>(A), *IB = dyn_cast<Instruction>(B);
  // B == A + C (or A == B + C).
  auto PlusConstant = [&](Instruction *I, Value *Other,
                          int64_t Sign) -> std::optional<int64_t> {
    Value *X;
    const APInt *C;
    if (!I ||
        !(match(I, m_Add(m_Value(X), m_APInt(C))) ||
          match(I, m_DisjointOr(m_Value(X), m_APInt(C)))) ||
        C->getBitWidth() > 64 || !keepsExact(*I, W))
      return std::nullopt;
    std::optional<int64_t> D = Sign > 0
                                   ? integerDistance(Other, X, W, Depth + 1)
                                   : integerDistance(X, Other, W, Depth + 1);
    if (!D)
      return std::nullopt;
    return *D + Sign * C->getSExtValue();
  };
  if (auto D = PlusConstant(IB, A, 1))
    return D;
  if (auto D = PlusConstant(IA, B, -1))
    return D;
  if (!IA || !IB || IA->getOpcode() != IB->getOpcode() ||
      IA->getType() != IB->getType() || !keepsExact(*IA, W) ||
      !keepsExact(*IB, W))
    return std::nullopt;
  switch (IA->getOpcode()) {
  case Instruction::Add:
  case Instruction::Or:
  case Instruction::Sub: {
    if (IA->getOpcode() == Instruction::Or &&
        !(cast<PossiblyDisjointInst>(IA)->isDisjoint() &&
          cast<PossiblyDisjointInst>(IB)->isDisjoint()))
      return std::nullopt;
    Value *A0 = IA->getOperand(0), *A1 = IA->getOperand(1);
    Value *B0 = IB->getOperand(0), *B1 = IB->getOperand(1);
    if (A1 == B1)
      return integerDistance(A0, B0, W, Depth + 1);
    if (A0 == B0) {
      std::optional<int64_t> D = integerDistance(A1, B1, W, Depth + 1);
      if (D && IA->getOpcode() == Instruction::Sub)
        return -*D;
      return D;
    }
    if (IA->getOpcode() == Instruction::Sub)
      return std::nullopt;
    if (A0 == B1)
      return integerDistance(A1, B0, W, Depth + 1);
    if (A1 == B0)
      return integerDistance(A0, B1, W, Depth + 1);
    return std::nullopt;
  }
  case Instruction::Shl:
  case Instruction::Mul: {
    const APInt *C;
    if (IA->getOperand(1) != IB->getOperand(1) ||
        !match(IA->getOperand(1), m_APInt(C)) || C->uge(63))
      return std::nullopt;
    std::optional<int64_t> D =
        integerDistance(IA->getOperand(0), IB->getOperand(0), W, Depth + 1);
    if (!D)
      return std::nullopt;
    int64_t Scale = IA->getOpcode() == Instruction::Shl
                        ? int64_t(1) << C->getZExtValue()
                        : C->getSExtValue();
    return *D * Scale;
  }
  case Instruction::SExt:
  case Instruction::ZExt:
    if (IA->getOperand(0)->getType() != IB->getOperand(0)->getType())
      return std::nullopt;
    return integerDistance(IA->getOperand(0), IB->getOperand(0),
                           isa<SExtInst>(IA) ? Wrap::Signed : Wrap::Unsigned,
                           Depth + 1);
  case Instruction::Trunc:
    if (W != Wrap::Modular ||
        IA->getOperand(0)->getType() != IB->getOperand(0)->getType())
      return std::nullopt;
    return integerDistance(IA->getOperand(0), IB->getOperand(0), W, Depth + 1);
  default:
    return std::nullopt;
  }
}

/// B - A in bytes for two addresses computed alike, or nothing.
std::optional<int64_t> addressDistance(Value *A, Value *B, const DataLayout &DL,
                                       unsigned Depth = 0) {
  unsigned Bits = DL.getIndexTypeSizeInBits(A->getType());
  if (Bits > 64 || A->getType() != B->getType())
    return std::nullopt;
  APInt OffA(Bits, 0), OffB(Bits, 0);
  A = A->stripAndAccumulateConstantOffsets(DL, OffA, true);
  B = B->stripAndAccumulateConstantOffsets(DL, OffB, true);
  int64_t Constant = OffB.getSExtValue() - OffA.getSExtValue();
  if (A == B)
    return Constant;
  auto *GA = dyn_cast<GetElementPtrInst>(A),
       *GB = dyn_cast<GetElementPtrInst>(B);
  if (!GA || !GB || Depth > 4 ||
      GA->getSourceElementType() != GB->getSourceElementType() ||
      GA->getNumOperands() != GB->getNumOperands())
    return std::nullopt;
  std::optional<int64_t> Distance = addressDistance(
      GA->getPointerOperand(), GB->getPointerOperand(), DL, Depth + 1);
  if (!Distance)
    return std::nullopt;
  gep_type_iterator TA = gep_type_begin(GA);
  for (unsigned Op = 1; Op < GA->getNumOperands(); ++Op, ++TA) {
    Value *IA = GA->getOperand(Op), *IB = GB->getOperand(Op);
    if (TA.isStruct()) {
      if (IA != IB)
        return std::nullopt;
      continue;
    }
    // A narrower index is sign-extended to the address's width.
    Wrap W = IA->getType()->getIntegerBitWidth() < Bits ? Wrap::Signed
                                                        : Wrap::Modular;
    std::optional<int64_t> D = integerDistance(IA, IB, W);
    if (!D)
      return std::nullopt;
    *Distance +=
        *D * int64_t(TA.getSequentialElementStride(DL).getFixedValue());
  }
  return *Distance + Constant;
}

class LoopWidener {
public:
  LoopWidener(Loop &L, const Latch &Latch, unsigned RegisterBytes)
      : L(L), Body(*L.getHeader()), TheLatch(Latch), DL(Body.getDataLayout()),
        RegisterBytes(RegisterBytes) {}

  /// Whether the loop can and should be widened; Reason says why not.
  bool analyze();
  /// Widens the loop, versioning it first when some address needs a
  /// run-time test. Returns VF.
  unsigned widen(LoopInfo &LI, DominatorTree &DT);

  std::string Reason;

private:
  bool fail(const Twine &Why) {
    Reason = Why.str();
    return false;
  }
  bool isInLoop(const Value *V) const {
    const auto *I = dyn_cast<Instruction>(V);
    return I && I->getParent() == &Body;
  }
  Kind kindOf(const Value *V) const {
    auto It = Kinds.find(V);
    return It == Kinds.end() ? Kind::Uniform : It->second;
  }
  bool chooseFactor();
  bool classify(Instruction &I);
  bool classifyAddress(Instruction &I);
  bool classifyAccess(Instruction &I, Value *Ptr, Type *AccessTy);
  bool classifyVarying(Instruction &I);
  bool requireDisjoint(const Progression &P, unsigned Bits);
  bool requireExactSigned(const Progression &P, unsigned Width);
  std::optional<Progression> addInvariant(const Progression &P, Value *U,
                                          bool NoCarry);
  bool isProfitable() const;
  bool isParallelAccess(const Instruction &I) const;
  bool formGroups();
  bool mayReorderAcross(const Instruction &Member,
                        const Instruction &Other) const;
  void widenGroup(const struct AccessGroup &G, IRBuilder<> &B);

  void version(LoopInfo &LI, DominatorTree &DT);
  Value *wide(Value *V);
  Value *splat(Value *V);
  Value *widenInstruction(Instruction &I, IRBuilder<> &B);

  Loop &L;
  BasicBlock &Body;
  Latch TheLatch;
  const DataLayout &DL;
  unsigned RegisterBytes;
  unsigned VF = 0, LogVF = 0;
  DenseMap<const Value *, Kind> Kinds;
  DenseMap<const Value *, Progression> Progressions;
  /// Loop-invariant values whose low bits must be zero for the widened
  /// loop to be right.
  SmallVector<std::pair<Value *, unsigned>, 4> RuntimeConditions;
  unsigned VectorOps = 0, ScalarOps = 0;
  bool HasVectorAccess = false;
  DenseMap<Value *, Value *> Wide;
  /// Accesses K elements apart across work-items, and the groups of K
  /// accesses at consecutive addresses they form.
  SmallVector<Instruction *, 8> Strided;
  SmallVector<AccessGroup, 4> Groups;
  DenseMap<const Instruction *, unsigned> GroupOf;
};

/// VF puts the widest access of the body in one register.
bool LoopWidener::chooseFactor() {
  uint64_t Widest = 0;
  for (Instruction &I : Body) {
    Type *T = nullptr;
    if (auto *Load = dyn_cast<LoadInst>(&I))
      T = Load->getType();
    else if (auto *Store = dyn_cast<StoreInst>(&I))
      T = Store->getValueOperand()->getType();
    if (T && isInLoop(getLoadStorePointerOperand(&I)))
      Widest = std::max<uint64_t>(Widest, DL.getTypeStoreSize(T));
  }
  if (Widest == 0 || !isPowerOf2_64(Widest) || Widest * 2 > RegisterBytes)
    return fail("no access narrower than half a register");
  VF = RegisterBytes / Widest;
  LogVF = Log2_32(VF);
  if (TheLatch.TripCount % VF != 0)
    return fail("trip count not a multiple of " + Twine(VF));
  return true;
}

/// Records that P must be exact (Disjoint) with its first Bits bits above
/// Shift still inside the value.
bool LoopWidener::requireDisjoint(const Progression &P, unsigned Bits) {
  if (!P.Disjoint || P.Shift + LogVF > Bits)
    return false;
  RuntimeConditions.append(P.Conditions.begin(), P.Conditions.end());
  return true;
}

/// Whether P is exact as a signed value of Width bits, recording the
/// run-time conditions that makes it so.
bool LoopWidener::requireExactSigned(const Progression &P, unsigned Width) {
  return P.Step == 0 || P.ExactSigned || requireDisjoint(P, Width - 1);
}

/// P + U for a work-item-independent U: still exact when U's low
/// Shift + L bits are zero, known or tested at run time.
std::optional<Progression> LoopWidener::addInvariant(const Progression &P,
                                                     Value *U, bool NoCarry) {
  Progression R = P;
  if (!P.Disjoint)
    return R;
  unsigned Bits = P.Shift + LogVF;
  KnownBits Known = computeKnownBits(U, DL);
  if (Known.countMinTrailingZeros() >= Bits)
    return R;
  // An `or disjoint` carries nowhere: only the work-items' bits matter.
  if (NoCarry && Bits <= Known.getBitWidth() &&
      APInt::getBitsSet(Known.getBitWidth(), P.Shift, Bits)
          .isSubsetOf(Known.Zero))
    return R;
  if (isInLoop(U) || !U->getType()->isIntegerTy())
    R.Disjoint = false;
  else
    R.Conditions.push_back({U, Bits});
  return R;
}

/// Integer and pointer arithmetic on the local id: stays scalar, computing
/// the address of the group's first work-item.
bool LoopWidener::classifyAddress(Instruction &I) {
  auto Of = [&](Value *V) -> const Progression * {
    auto It = Progressions.find(V);
    return It == Progressions.end() ? nullptr : &It->second;
  };
  unsigned Width = I.getType()->getScalarSizeInBits();
  Progression R;
  if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
    if (GEP->getType()->isVectorTy())
      return fail("vector of pointers");
    if (const Progression *P = Of(GEP->getPointerOperand()))
      R.Step = P->Step;
    for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
         GTI != E; ++GTI) {
      const Progression *P = Of(GTI.getOperand());
      if (!P)
        continue;
      if (GTI.isStruct())
        return fail("work-item-dependent struct index");
      unsigned IndexWidth = GTI.getOperand()->getType()->getIntegerBitWidth();
      uint64_t Step = P->Step;
      if (IndexWidth < 64 && Step != 0) {
        // The index is sign-extended: exact only without crossing its top.
        if (requireDisjoint(*P, IndexWidth - 1))
          Step = uint64_t(1) << P->Shift;
        else if (P->ExactSigned)
          Step = uint64_t(SignExtend64(P->Step, IndexWidth));
        else
          return fail("narrow index that may wrap: " + GEP->getName());
      }
      R.Step += Step * GTI.getSequentialElementStride(DL).getFixedValue();
    }
    Progressions[&I] = R;
    return true;
  }
  if (!I.getType()->isIntegerTy() || Width > 64)
    return fail("work-item id used as data");
  uint64_t Mask = Width == 64 ? ~uint64_t(0) : (uint64_t(1) << Width) - 1;
  Value *A = I.getNumOperands() > 0 ? I.getOperand(0) : nullptr;
  Value *B = I.getNumOperands() > 1 ? I.getOperand(1) : nullptr;
  const Progression *PA = A ? Of(A) : nullptr, *PB = B ? Of(B) : nullptr;
  const APInt *C = nullptr;
  switch (I.getOpcode()) {
  case Instruction::Add:
  case Instruction::Or:
    if (I.getOpcode() == Instruction::Or &&
        !cast<PossiblyDisjointInst>(I).isDisjoint()) {
      // A plain `or` adds only where the id's bits meet zeros.
      const Progression *P = PA ? PA : PB;
      if ((PA && PB) || !P || !P->Disjoint)
        return fail("or of work-item-dependent values");
    }
    if (PA && PB) {
      R.Step = PA->Step + PB->Step;
    } else {
      std::optional<Progression> S = addInvariant(
          PA ? *PA : *PB, PA ? B : A, I.getOpcode() == Instruction::Or);
      if (!S)
        return false;
      R = *S;
      if (I.getOpcode() == Instruction::Or &&
          !cast<PossiblyDisjointInst>(I).isDisjoint() && !R.Disjoint)
        return fail("or with unknown bits");
    }
    R.ExactSigned = keepsExact(I, Wrap::Signed) &&
                    (!PA || requireExactSigned(*PA, Width)) &&
                    (!PB || requireExactSigned(*PB, Width));
    break;
  case Instruction::Sub:
    if (PA && !PB) {
      std::optional<Progression> S = addInvariant(*PA, B, false);
      if (!S)
        return false;
      R = *S;
    } else {
      R.Step = (PA ? PA->Step : 0) - (PB ? PB->Step : 0);
    }
    R.ExactSigned = keepsExact(I, Wrap::Signed) &&
                    (!PA || requireExactSigned(*PA, Width)) &&
                    (!PB || requireExactSigned(*PB, Width));
    break;
  case Instruction::Mul:
  case Instruction::Shl: {
    const Progression *P = PA;
    Value *Factor = B;
    if (I.getOpcode() == Instruction::Mul && !PA) {
      P = PB;
      Factor = A;
    }
    // A value common to the group stays so, whatever it is multiplied by.
    if ((!PA || PA->Step == 0) && (!PB || PB->Step == 0))
      break;
    if (!P || Of(Factor) || !match(Factor, m_APInt(C)))
      return fail("multiplication by a non-constant");
    uint64_t Scale = I.getOpcode() == Instruction::Shl
                         ? (C->uge(64) ? 0 : uint64_t(1) << C->getZExtValue())
                         : C->getZExtValue();
    R.Step = P->Step * Scale;
    R.ExactSigned = keepsExact(I, Wrap::Signed) && C->isNonNegative() &&
                    requireExactSigned(*P, Width);
    if (P->Disjoint && isPowerOf2_64(Scale)) {
      unsigned NewShift = P->Shift + Log2_64(Scale);
      if (NewShift + LogVF <= Width) {
        R.Disjoint = true;
        R.Shift = NewShift;
        R.Conditions = P->Conditions;
      }
    }
    break;
  }
  case Instruction::AShr:
  case Instruction::LShr: {
    if (!PA || PB || !match(B, m_APInt(C)) || C->uge(Width))
      return fail("shift of the id by a non-constant");
    unsigned Amount = C->getZExtValue();
    unsigned Room = I.getOpcode() == Instruction::AShr ? Width - 1 : Width;
    if (PA->Step == 0)
      break; // the same value for the whole group
    if (PA->Disjoint && PA->Shift + LogVF <= Amount &&
        requireDisjoint(*PA, Room))
      break; // the work-items' bits fall out: x >> 3 for 8 | x's group
    if (PA->Shift < Amount || !requireDisjoint(*PA, Room))
      return fail("right shift that may not be exact: " + I.getName());
    R = *PA;
    R.Shift = PA->Shift - Amount;
    R.Step = uint64_t(1) << R.Shift;
    R.ExactSigned = false;
    break;
  }
  case Instruction::And: {
    // x & 7 keeps the work-items' bits of a group of at most 8; a mask
    // without them leaves the group's common part.
    if (!PA || PB || !match(B, m_APInt(C)))
      return fail("and of work-item-dependent values");
    if (PA->Step == 0)
      break;
    APInt Lanes = APInt::getBitsSet(Width, PA->Shift, PA->Shift + LogVF);
    if (!PA->Disjoint || PA->Shift + LogVF > Width)
      return fail("and of an inexact progression: " + I.getName());
    if (Lanes.isSubsetOf(*C)) {
      R = *PA;
      R.ExactSigned = false; // exact through Disjoint, not through flags
    } else if (Lanes.intersects(*C) || !requireDisjoint(*PA, Width))
      return fail("mask splitting the work-items' bits: " + I.getName());
    break;
  }
  case Instruction::SExt:
  case Instruction::ZExt: {
    unsigned From = A->getType()->getIntegerBitWidth();
    unsigned Room = I.getOpcode() == Instruction::SExt ? From - 1 : From;
    if (PA->Step == 0)
      break;
    if (requireDisjoint(*PA, Room)) {
      R = *PA;
      R.Step = uint64_t(1) << R.Shift;
      break;
    }
    if (I.getOpcode() == Instruction::ZExt || !PA->ExactSigned)
      return fail("extension that may wrap: " + I.getName());
    R.Step = uint64_t(SignExtend64(PA->Step, From));
    R.ExactSigned = true;
    break;
  }
  case Instruction::Trunc:
    R = *PA;
    R.ExactSigned = false;
    if (R.Disjoint && R.Shift + LogVF > Width)
      R.Disjoint = false;
    break;
  default:
    return fail("work-item id used as data");
  }
  R.Step &= Mask;
  Progressions[&I] = R;
  return true;
}

/// A load or store at a work-item-dependent address: consecutive across
/// work-items, or the loop stays as it is.
bool LoopWidener::classifyAccess(Instruction &I, Value *Ptr, Type *AccessTy) {
  auto It = Progressions.find(Ptr);
  if (It == Progressions.end())
    return fail("access at a computed address");
  uint64_t Size = DL.getTypeStoreSize(AccessTy);
  if (!isPackedAccessType(DL, AccessTy))
    return fail("access not consecutive across work-items: " + I.getName());
  uint64_t Step = It->second.Step;
  if (Step != Size) {
    // Part of an interleaved group, if formGroups finds its partners.
    if (Step % Size || !isPowerOf2_64(Step / Size) || Step / Size > 8)
      return fail("access not consecutive across work-items: " + I.getName());
    Strided.push_back(&I);
  }
  HasVectorAccess |= AccessTy->isVectorTy();
  ++(AccessTy->isVectorTy() ? VectorOps : ScalarOps);
  return true;
}

/// An operation on loaded (work-item-dependent) data.
bool LoopWidener::classifyVarying(Instruction &I) {
  for (Value *Op : I.operands())
    if (kindOf(Op) == Kind::Address)
      return fail("work-item id used as data");
  if (!isWidenableType(I.getType()))
    return fail("value of a type that cannot be widened");
  if (auto *Extract = dyn_cast<ExtractElementInst>(&I)) {
    if (!isa<ConstantInt>(Extract->getIndexOperand()))
      return fail("extractelement at a variable index");
  } else if (auto *Insert = dyn_cast<InsertElementInst>(&I)) {
    if (!isa<ConstantInt>(Insert->getOperand(2)))
      return fail("insertelement at a variable index");
  } else if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    Intrinsic::ID ID = II->getIntrinsicID();
    if (!isTriviallyVectorizable(ID))
      return fail("call of " + II->getCalledFunction()->getName());
    for (unsigned Arg = 0; Arg < II->arg_size(); ++Arg)
      if (isVectorIntrinsicWithScalarOpAtArg(ID, Arg))
        return fail("intrinsic with a scalar operand");
  } else if (auto *Cast = dyn_cast<CastInst>(&I)) {
    if (isa<PtrToIntInst>(Cast) || isa<IntToPtrInst>(Cast) ||
        isa<AddrSpaceCastInst>(Cast))
      return fail("pointer cast of data");
  } else if (!isa<BinaryOperator>(I) && !isa<UnaryOperator>(I) &&
             !isa<CmpInst>(I) && !isa<FreezeInst>(I) &&
             !isa<ShuffleVectorInst>(I) && !isa<SelectInst>(I)) {
    return fail(Twine("cannot widen ") + I.getOpcodeName());
  }
  auto Operands = isa<CallBase>(I) ? cast<CallBase>(I).args() : I.operands();
  for (Value *Op : Operands)
    if (!isWidenableType(Op->getType()))
      return fail("operand of a type that cannot be widened");
  // Work done per work-item part: lane-wise vector operations run on full
  // registers, scalars (after a horizontal step) on VF lanes only.
  if (isa<ExtractElementInst>(I) || !I.getType()->isVectorTy())
    ++ScalarOps;
  else
    ++VectorOps;
  return true;
}

bool LoopWidener::classify(Instruction &I) {
  if (&I == TheLatch.Id) {
    Progression P;
    P.Step = 1;
    P.Disjoint = true;
    P.ExactSigned = true;
    Kinds[&I] = Kind::Address;
    Progressions[&I] = P;
    return true;
  }
  if (&I == TheLatch.Next || &I == TheLatch.Exit || I.isTerminator() ||
      isa<DbgInfoIntrinsic>(I))
    return true;
  if (isa<PHINode>(I))
    return fail("a phi besides the id");
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    if (II->getIntrinsicID() == Intrinsic::experimental_noalias_scope_decl)
      return true;
  bool AnyAddress = false, AnyVarying = false;
  for (Value *Op : I.operands()) {
    AnyAddress |= kindOf(Op) == Kind::Address;
    AnyVarying |= kindOf(Op) == Kind::Varying;
  }
  if ((isa<LoadInst>(I) || isa<StoreInst>(I)) && !isParallelAccess(I))
    return fail("access outside the loop's parallel access groups");
  if (auto *Load = dyn_cast<LoadInst>(&I)) {
    if (!Load->isSimple())
      return fail("volatile or atomic load");
    if (kindOf(Load->getPointerOperand()) == Kind::Uniform)
      return true;
    if (AnyVarying)
      return fail("load at a loaded address");
    Kinds[&I] = Kind::Varying;
    return classifyAccess(I, Load->getPointerOperand(), Load->getType());
  }
  if (auto *Store = dyn_cast<StoreInst>(&I)) {
    Value *Ptr = Store->getPointerOperand();
    if (!Store->isSimple() || kindOf(Ptr) != Kind::Address ||
        kindOf(Store->getValueOperand()) == Kind::Address)
      return fail("store not at a work-item's own address");
    Kinds[&I] = Kind::Varying;
    return classifyAccess(I, Ptr, Store->getValueOperand()->getType());
  }
  if (I.mayReadOrWriteMemory() || I.mayHaveSideEffects())
    return fail(Twine("cannot widen ") + I.getOpcodeName());
  if (AnyVarying) {
    Kinds[&I] = Kind::Varying;
    return classifyVarying(I);
  }
  if (AnyAddress) {
    Kinds[&I] = Kind::Address;
    return classifyAddress(I);
  }
  return true;
}

/// Whether I is in one of the access groups the loop's
/// llvm.loop.parallel_accesses names: no other work-item's access depends
/// on it.
bool LoopWidener::isParallelAccess(const Instruction &I) const {
  MDNode *Groups = I.getMetadata(LLVMContext::MD_access_group);
  MDNode *Parallel = findOptionMDForLoop(&L, "llvm.loop.parallel_accesses");
  if (!Groups || !Parallel)
    return false;
  auto Listed = [&](const MDOperand &Group) {
    return is_contained(drop_begin(Parallel->operands()), Group.get());
  };
  if (Groups->getNumOperands() == 0)
    return is_contained(drop_begin(Parallel->operands()), Groups);
  return any_of(Groups->operands(), Listed);
}

/// Whether Other, between two members of a group, may trade places with
/// Member: it does not touch memory the way that would matter, or it does
/// so in another of OpenCL's disjoint address spaces (private, global,
/// constant, local; not generic).
bool LoopWidener::mayReorderAcross(const Instruction &Member,
                                   const Instruction &Other) const {
  if (!Other.mayReadOrWriteMemory())
    return true;
  if (isa<LoadInst>(Member) && !Other.mayWriteToMemory())
    return true;
  const Value *OtherPtr = getLoadStorePointerOperand(&Other);
  if (!OtherPtr)
    return false;
  return disjointAddressSpaces(
      getLoadStorePointerOperand(&Member)->getType()->getPointerAddressSpace(),
      OtherPtr->getType()->getPointerAddressSpace());
}

/// Puts every strided access into a group of K accesses of one type at
/// consecutive elements (the unrolled `v[2 * x + i]`, i = 0..K-1), or
/// fails: alone, a strided access is a gather.
bool LoopWidener::formGroups() {
  for (Instruction *S : Strided) {
    if (GroupOf.count(S))
      continue;
    Value *Ptr = getLoadStorePointerOperand(S);
    Type *Ty = getLoadStoreType(S);
    uint64_t Size = DL.getTypeStoreSize(Ty);
    uint64_t K = Progressions.lookup(Ptr).Step / Size;
    SmallVector<std::pair<int64_t, Instruction *>, 8> Near;
    for (Instruction *T : Strided) {
      if (T->getOpcode() != S->getOpcode() || getLoadStoreType(T) != Ty ||
          Progressions.lookup(getLoadStorePointerOperand(T)).Step != K * Size)
        continue;
      std::optional<int64_t> D =
          addressDistance(Ptr, getLoadStorePointerOperand(T), DL);
      if (D && *D > -int64_t(K * Size) && *D < int64_t(K * Size))
        Near.push_back({*D, T});
    }
    llvm::sort(Near,
               [](const auto &A, const auto &B) { return A.first < B.first; });
    if (Near.size() != K)
      return fail("strided access without its interleaved partners: " +
                  S->getName());
    AccessGroup G;
    for (unsigned M = 0; M < K; ++M) {
      if (Near[M].first - Near[0].first != int64_t(M * Size) ||
          GroupOf.count(Near[M].second))
        return fail("strided accesses that do not tile: " + S->getName());
      G.Members.push_back(Near[M].second);
    }
    G.First = G.Last = Near[0].second;
    for (Instruction *M : G.Members) {
      if (M->comesBefore(G.First))
        G.First = M;
      if (G.Last->comesBefore(M))
        G.Last = M;
    }
    // The wide access happens at the first load, at the last store.
    Instruction *At = isa<LoadInst>(S) ? G.First : G.Last;
    if (auto *Base =
            dyn_cast<Instruction>(getLoadStorePointerOperand(G.Members[0]));
        Base && isInLoop(Base) && !Base->comesBefore(At))
      return fail("interleaved group's address computed too late");
    for (Instruction *I = G.First->getNextNode(); I != G.Last;
         I = I->getNextNode())
      if (!is_contained(G.Members, I) && !mayReorderAcross(*S, *I))
        return fail("memory access between interleaved accesses");
    for (Instruction *M : G.Members)
      GroupOf[M] = Groups.size();
    Groups.push_back(std::move(G));
  }
  return true;
}

/// One wide load for the whole group, each member's part shuffled out; or
/// the members' values shuffled together into one wide store.
void LoopWidener::widenGroup(const AccessGroup &G, IRBuilder<> &B) {
  Instruction *Base = G.Members[0];
  Type *Ty = getLoadStoreType(Base);
  unsigned K = G.Members.size(), N = lanesOf(Ty);
  Type *WideTy = FixedVectorType::get(elementOf(Ty), VF * K * N);
  Value *Ptr = getLoadStorePointerOperand(Base);
  auto Copy = [&](Instruction *New) { copyAccessMetadata(New, *Base); };
  if (auto *Load = dyn_cast<LoadInst>(Base)) {
    B.SetInsertPoint(G.First);
    LoadInst *All = B.CreateAlignedLoad(WideTy, Ptr, Load->getAlign(),
                                        Load->getName() + ".group");
    Copy(All);
    for (unsigned M = 0; M < K; ++M) {
      SmallVector<int, 64> Mask;
      for (unsigned J = 0; J < VF; ++J)
        for (unsigned L = 0; L < N; ++L)
          Mask.push_back((J * K + M) * N + L);
      Value *Part = B.CreateShuffleVector(All, Mask);
      Part->takeName(G.Members[M]);
      Wide[G.Members[M]] = Part;
    }
    return;
  }
  B.SetInsertPoint(G.Last);
  SmallVector<Value *, 8> Parts;
  for (Instruction *M : G.Members)
    Parts.push_back(wide(cast<StoreInst>(M)->getValueOperand()));
  // Indices into the members' values one after the other; two members are
  // one shuffle's two operands.
  SmallVector<int, 64> Mask;
  for (unsigned J = 0; J < VF; ++J)
    for (unsigned M = 0; M < K; ++M)
      for (unsigned L = 0; L < N; ++L)
        Mask.push_back((M * VF + J) * N + L);
  Value *All = K == 2
                   ? B.CreateShuffleVector(Parts[0], Parts[1], Mask)
                   : B.CreateShuffleVector(concatenateVectors(B, Parts), Mask);
  Copy(B.CreateAlignedStore(All, Ptr, cast<StoreInst>(Base)->getAlign()));
}

bool LoopWidener::isProfitable() const {
  return HasVectorAccess && ScalarOps <= VectorOps;
}

bool LoopWidener::analyze() {
  if (!chooseFactor())
    return false;
  for (Instruction &I : Body)
    if (!classify(I))
      return false;
  if (!formGroups())
    return false;
  // Nothing work-item-dependent leaves the loop; an address used other
  // than by a load or store (say, compared) is data.
  for (Instruction &I : Body) {
    Kind K = kindOf(&I);
    if (K == Kind::Uniform)
      continue;
    for (User *U : I.users()) {
      auto *UI = cast<Instruction>(U);
      if (!isInLoop(UI))
        return fail("work-item value used after the loop");
      if (K != Kind::Address || UI == TheLatch.Next)
        continue;
      if (kindOf(UI) == Kind::Address)
        continue;
      if (getLoadStorePointerOperand(UI) == &I)
        continue;
      if (isa<DbgInfoIntrinsic>(UI))
        continue;
      return fail("work-item id used as data");
    }
  }
  if (!RuntimeConditions.empty()) {
    BasicBlock *Exit = L.getExitBlock();
    if (Exit->getSinglePredecessor() != &Body || isa<PHINode>(Exit->front()))
      return fail("exit block shared or with phis: cannot version");
  }
  if (!isProfitable())
    return fail("no vector access, or mostly scalar work (" + Twine(ScalarOps) +
                " scalar, " + Twine(VectorOps) + " vector operations)");
  return true;
}

/// Runs the original loop instead when a run-time condition fails:
///
///   pre: br (conds hold), widened.pre, original.pre
///   widened.pre -> loop (widened) -> exit
///   original.pre -> loop.original -> exit
void LoopWidener::version(LoopInfo &LI, DominatorTree &DT) {
  BasicBlock *Pre = L.getLoopPreheader();
  BasicBlock *Exit = L.getExitBlock();
  BasicBlock *WidePre = SplitBlock(Pre, Pre->getTerminator(), &DT, &LI);
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 4> Blocks;
  Loop *Original = cloneLoopWithPreheader(WidePre, Pre, &L, VMap, ".original",
                                          &LI, &DT, Blocks);
  remapInstructionsInBlocks(Blocks, VMap);
  (void)Original;
  IRBuilder<> B(Pre->getTerminator());
  // One test per value, of the most bits any address needs.
  MapVector<Value *, unsigned> Tests;
  for (auto [V, Bits] : RuntimeConditions)
    Tests[V] = std::max(Tests.lookup(V), Bits);
  Value *Holds = nullptr;
  for (auto [V, Bits] : Tests) {
    uint64_t LowBits = (uint64_t(1) << Bits) - 1;
    Value *Low =
        B.CreateAnd(V, ConstantInt::get(V->getType(), LowBits), "widen.low");
    Value *Zero = B.CreateICmpEQ(Low, ConstantInt::get(V->getType(), 0));
    Holds = Holds ? B.CreateAnd(Holds, Zero) : Zero;
  }
  Holds->setName("widen.check");
  Instruction *OldBr = Pre->getTerminator();
  B.CreateCondBr(Holds, WidePre, cast<BasicBlock>(VMap[WidePre]));
  OldBr->eraseFromParent();
  DT.changeImmediateDominator(Exit, Pre);
}

Value *LoopWidener::splat(Value *V) {
  auto It = Wide.find(V);
  if (It != Wide.end())
    return It->second;
  IRBuilder<> B(L.getLoopPreheader()->getTerminator());
  if (auto *I = dyn_cast<Instruction>(V); I && isInLoop(I))
    B.SetInsertPoint(I->getNextNode());
  Value *Result;
  if (auto *VT = dyn_cast<FixedVectorType>(V->getType())) {
    SmallVector<int, 64> Mask;
    for (unsigned J = 0; J < VF; ++J)
      for (unsigned K = 0; K < VT->getNumElements(); ++K)
        Mask.push_back(K);
    Result = B.CreateShuffleVector(V, Mask, V->getName() + ".splat");
  } else {
    Result = B.CreateVectorSplat(VF, V, V->getName() + ".splat");
  }
  Wide[V] = Result;
  return Result;
}

Value *LoopWidener::wide(Value *V) {
  if (kindOf(V) == Kind::Varying)
    return Wide.lookup(V);
  return splat(V);
}

Type *widenedType(Type *T, unsigned VF) {
  return FixedVectorType::get(elementOf(T), lanesOf(T) * VF);
}

Value *LoopWidener::widenInstruction(Instruction &I, IRBuilder<> &B) {
  Type *WideTy = widenedType(I.getType(), VF);
  auto CopyAccessMetadata = [&](Instruction *New) {
    return copyAccessMetadata(New, I);
  };
  if (auto *Load = dyn_cast<LoadInst>(&I))
    return CopyAccessMetadata(B.CreateAlignedLoad(
        WideTy, Load->getPointerOperand(), Load->getAlign(), I.getName()));
  if (auto *Store = dyn_cast<StoreInst>(&I))
    return CopyAccessMetadata(
        B.CreateAlignedStore(wide(Store->getValueOperand()),
                             Store->getPointerOperand(), Store->getAlign()));
  if (auto *Shuffle = dyn_cast<ShuffleVectorInst>(&I)) {
    unsigned In = lanesOf(Shuffle->getOperand(0)->getType());
    unsigned Out = lanesOf(I.getType());
    SmallVector<int, 64> Mask;
    for (unsigned J = 0; J < VF; ++J)
      for (unsigned K = 0; K < Out; ++K) {
        int M = Shuffle->getMaskValue(K);
        if (M == PoisonMaskElem)
          Mask.push_back(PoisonMaskElem);
        else if (unsigned(M) < In)
          Mask.push_back(J * In + M);
        else
          Mask.push_back(VF * In + J * In + (M - In));
      }
    return B.CreateShuffleVector(wide(Shuffle->getOperand(0)),
                                 wide(Shuffle->getOperand(1)), Mask,
                                 I.getName());
  }
  if (auto *Extract = dyn_cast<ExtractElementInst>(&I)) {
    unsigned N = lanesOf(Extract->getVectorOperandType());
    unsigned Index =
        cast<ConstantInt>(Extract->getIndexOperand())->getZExtValue();
    SmallVector<int, 16> Mask;
    for (unsigned J = 0; J < VF; ++J)
      Mask.push_back(Index < N ? J * N + Index : PoisonMaskElem);
    return B.CreateShuffleVector(wide(Extract->getVectorOperand()), Mask,
                                 I.getName());
  }
  if (isa<InsertElementInst>(I)) {
    unsigned N = lanesOf(I.getType());
    unsigned Index = cast<ConstantInt>(I.getOperand(2))->getZExtValue();
    Value *Scalars = wide(I.getOperand(1)); // <VF x T>
    SmallVector<int, 64> Grow, Mask;
    for (unsigned K = 0; K < VF * N; ++K)
      Grow.push_back(K < VF ? int(K) : PoisonMaskElem);
    Value *Grown = B.CreateShuffleVector(Scalars, Grow);
    for (unsigned J = 0; J < VF; ++J)
      for (unsigned K = 0; K < N; ++K)
        Mask.push_back(K == Index ? int(VF * N + J) : int(J * N + K));
    return B.CreateShuffleVector(wide(I.getOperand(0)), Grown, Mask,
                                 I.getName());
  }
  if (auto *Select = dyn_cast<SelectInst>(&I)) {
    Value *Cond = Select->getCondition();
    Value *WideCond;
    if (kindOf(Cond) != Kind::Varying && !Cond->getType()->isVectorTy()) {
      WideCond = Cond; // one condition for every work-item
    } else {
      WideCond = wide(Cond);
      unsigned N = lanesOf(I.getType());
      if (!Cond->getType()->isVectorTy() && N > 1) {
        // Work-item j's condition for each of its N lanes.
        SmallVector<int, 64> Mask;
        for (unsigned J = 0; J < VF; ++J)
          for (unsigned K = 0; K < N; ++K)
            Mask.push_back(J);
        WideCond = B.CreateShuffleVector(WideCond, Mask);
      }
    }
    auto *New = B.CreateSelect(WideCond, wide(Select->getTrueValue()),
                               wide(Select->getFalseValue()), I.getName());
    if (auto *NewI = dyn_cast<Instruction>(New))
      NewI->copyIRFlags(&I);
    return New;
  }
  if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    Intrinsic::ID ID = II->getIntrinsicID();
    SmallVector<Type *, 2> Tys;
    if (isVectorIntrinsicWithOverloadTypeAtArg(ID, -1))
      Tys.push_back(WideTy);
    SmallVector<Value *, 4> Args;
    for (unsigned Arg = 0; Arg < II->arg_size(); ++Arg) {
      Args.push_back(wide(II->getArgOperand(Arg)));
      if (isVectorIntrinsicWithOverloadTypeAtArg(ID, Arg))
        Tys.push_back(Args.back()->getType());
    }
    Function *Decl = Intrinsic::getDeclaration(I.getModule(), ID, Tys);
    CallInst *New = B.CreateCall(Decl, Args, I.getName());
    New->copyIRFlags(&I);
    return New;
  }
  Value *New = nullptr;
  if (auto *Cast = dyn_cast<CastInst>(&I))
    New = B.CreateCast(Cast->getOpcode(), wide(I.getOperand(0)), WideTy,
                       I.getName());
  else if (auto *Cmp = dyn_cast<CmpInst>(&I))
    New = B.CreateCmp(Cmp->getPredicate(), wide(I.getOperand(0)),
                      wide(I.getOperand(1)), I.getName());
  else if (auto *Un = dyn_cast<UnaryOperator>(&I))
    New = B.CreateUnOp(Un->getOpcode(), wide(I.getOperand(0)), I.getName());
  else if (auto *Bin = dyn_cast<BinaryOperator>(&I))
    New = B.CreateBinOp(Bin->getOpcode(), wide(I.getOperand(0)),
                        wide(I.getOperand(1)), I.getName());
  else if (isa<FreezeInst>(I))
    New = B.CreateFreeze(wide(I.getOperand(0)), I.getName());
  if (auto *NewI = dyn_cast_or_null<Instruction>(New))
    NewI->copyIRFlags(&I);
  assert(New && "classifyVarying admitted an instruction widen cannot do");
  return New;
}

unsigned LoopWidener::widen(LoopInfo &LI, DominatorTree &DT) {
  // SimplifyCFG may have folded an empty preheader into a branch.
  if (!L.getLoopPreheader())
    InsertPreheaderForLoop(&L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false);
  if (!RuntimeConditions.empty())
    version(LI, DT);
  SmallVector<Instruction *, 64> Replaced;
  IRBuilder<> B(&Body);
  for (Instruction &I : Body) {
    if (kindOf(&I) != Kind::Varying)
      continue;
    if (auto It = GroupOf.find(&I); It != GroupOf.end()) {
      const AccessGroup &G = Groups[It->second];
      if (&I == (isa<LoadInst>(I) ? G.First : G.Last))
        widenGroup(G, B);
      Replaced.push_back(&I);
      continue;
    }
    B.SetInsertPoint(&I);
    Value *New = widenInstruction(I, B);
    if (!I.getType()->isVoidTy() && isa<Instruction>(New))
      New->takeName(&I);
    Wide[&I] = New;
    Replaced.push_back(&I);
  }
  for (Instruction *I : reverse(Replaced)) {
    if (!I->getType()->isVoidTy())
      I->replaceAllUsesWith(PoisonValue::get(I->getType()));
    I->eraseFromParent();
  }
  // The id now steps over groups of VF work-items.
  unsigned StepOperand = TheLatch.Next->getOperand(0) == TheLatch.Id ? 1 : 0;
  TheLatch.Next->setOperand(StepOperand,
                            ConstantInt::get(TheLatch.Id->getType(), VF));
  addStringMetadataToLoop(&L, "llvm.loop.isvectorized", 1);
  addStringMetadataToLoop(&L, WidenedMD, VF);
  return VF;
}

} // namespace

bool isWidenedWorkItemLoop(const Loop &L) {
  return findOptionMDForLoop(&L, WidenedMD) != nullptr;
}

PreservedAnalyses WidenWorkItemLoopsPass::run(Function &F,
                                              FunctionAnalysisManager &AM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  unsigned RegisterBytes =
      vectorRegisterBytes(AM.getResult<TargetIRAnalysis>(F));
  if (RegisterBytes < 16)
    return PreservedAnalyses::all();
  LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
  DominatorTree &DT = AM.getResult<DominatorTreeAnalysis>(F);
  SmallVector<Loop *, 4> Candidates;
  for (Loop *L : LI.getLoopsInPreorder())
    if (isInnermostParallelLoop(*L) && !isWidenedWorkItemLoop(*L))
      Candidates.push_back(L);
  bool Changed = false;
  for (Loop *L : Candidates) {
    std::optional<Latch> TheLatch = matchLatch(*L);
    if (!TheLatch)
      continue;
    LoopWidener Widener(*L, *TheLatch, RegisterBytes);
    if (!Widener.analyze()) {
      LLVM_DEBUG(dbgs() << F.getName() << ": " << L->getName()
                        << " not widened: " << Widener.Reason << "\n");
      WEFT_LOG(DebugCompile, "%s: work-item loop %s not widened: %s",
               F.getName().str().c_str(), L->getName().str().c_str(),
               Widener.Reason.c_str());
      continue;
    }
    unsigned VF = Widener.widen(LI, DT);
    WEFT_LOG(DebugCompile,
             "%s: work-item loop %s widened across %u "
             "work-items",
             F.getName().str().c_str(), L->getName().str().c_str(), VF);
    Changed = true;
  }
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserve<LoopAnalysis>();
  PA.preserve<DominatorTreeAnalysis>();
  return PA;
}

} // namespace weft
