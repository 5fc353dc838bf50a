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
// 2^64 as the original ones do. A loop with anything else (a phi besides
// the id, a call, a store to an address every work-item shares, a
// work-item-dependent value leaving the loop, an access not consecutive)
// is left to the other passes.
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
};

enum class Kind { Uniform, Address, Varying };

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
  std::optional<Progression> addInvariant(const Progression &P, Value *U);
  bool isProfitable() const;
  bool isParallelAccess(const Instruction &I) const;

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

/// P + U for a work-item-independent U: still exact when U's low
/// Shift + L bits are zero, known or tested at run time.
std::optional<Progression> LoopWidener::addInvariant(const Progression &P,
                                                     Value *U) {
  Progression R = P;
  if (!P.Disjoint)
    return R;
  unsigned Bits = P.Shift + LogVF;
  KnownBits Known = computeKnownBits(U, DL);
  if (Known.countMinTrailingZeros() >= Bits)
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
      if (IndexWidth < 64) {
        // The index is sign-extended: exact only without crossing its top.
        if (!requireDisjoint(*P, IndexWidth - 1))
          return fail("narrow index that may wrap: " + GEP->getName());
        Step = uint64_t(1) << P->Shift;
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
      std::optional<Progression> S = addInvariant(PA ? *PA : *PB, PA ? B : A);
      if (!S)
        return false;
      R = *S;
      if (I.getOpcode() == Instruction::Or && !R.Disjoint)
        return fail("or with unknown bits");
    }
    break;
  case Instruction::Sub:
    if (PA && !PB) {
      std::optional<Progression> S = addInvariant(*PA, B);
      if (!S)
        return false;
      R = *S;
    } else {
      R.Step = (PA ? PA->Step : 0) - (PB ? PB->Step : 0);
    }
    break;
  case Instruction::Mul:
  case Instruction::Shl: {
    const Progression *P = PA;
    Value *Factor = B;
    if (I.getOpcode() == Instruction::Mul && !PA) {
      P = PB;
      Factor = A;
    }
    if (!P || Of(Factor) || !match(Factor, m_APInt(C)))
      return fail("multiplication by a non-constant");
    uint64_t Scale = I.getOpcode() == Instruction::Shl
                         ? (C->uge(64) ? 0 : uint64_t(1) << C->getZExtValue())
                         : C->getZExtValue();
    R.Step = P->Step * Scale;
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
    if (PA->Shift < Amount || !requireDisjoint(*PA, Room))
      return fail("right shift that may not be exact: " + I.getName());
    R = *PA;
    R.Shift = PA->Shift - Amount;
    R.Step = uint64_t(1) << R.Shift;
    break;
  }
  case Instruction::SExt:
  case Instruction::ZExt: {
    unsigned From = A->getType()->getIntegerBitWidth();
    unsigned Room = I.getOpcode() == Instruction::SExt ? From - 1 : From;
    if (!requireDisjoint(*PA, Room))
      return fail("extension that may wrap: " + I.getName());
    R = *PA;
    R.Step = uint64_t(1) << R.Shift;
    break;
  }
  case Instruction::Trunc:
    R = *PA;
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
  if (!isPackedAccessType(DL, AccessTy) ||
      It->second.Step != DL.getTypeStoreSize(AccessTy))
    return fail("access not consecutive across work-items: " + I.getName());
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

bool LoopWidener::isProfitable() const {
  return HasVectorAccess && ScalarOps <= VectorOps;
}

bool LoopWidener::analyze() {
  if (!chooseFactor())
    return false;
  for (Instruction &I : Body)
    if (!classify(I))
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
    New->copyMetadata(I, {LLVMContext::MD_tbaa, LLVMContext::MD_alias_scope,
                          LLVMContext::MD_noalias, LLVMContext::MD_access_group,
                          LLVMContext::MD_nontemporal});
    return New;
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
