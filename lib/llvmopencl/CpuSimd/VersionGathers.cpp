//===- VersionGathers.cpp - Gathers that turn out consecutive -------------===//
//
// The loop vectorizer turns an access whose address it cannot prove
// consecutive across work-items into a gather (a load) or a scatter (a
// store). Many such addresses are consecutive all the same for most
// vectors, or for most launches: a bitonic or FFT pass inserts a bit into
// the id (`((i >> p) << (p + 1)) | (i & (2^p - 1))`), which walks
// consecutive elements whenever 2^p is at least the vector width; an
// index read from memory is often the identity. A gather costs one memory
// access per lane (a vpgatherdd of 16 lanes on Zen 4 runs for dozens of
// cycles, a scatter for longer); a vector load or store is one access.
//
// So each gather and scatter of four or more lanes becomes a branch on a
// run-time test: if every active lane addresses the element one past the
// lane before (lane k at lane 0's address plus k elements), a masked
// vector load or store from lane 0's address with the same mask does the
// same accesses in one instruction; otherwise the original gather or
// scatter runs. Lanes whose mask is off may hold any address (the test
// ignores them, after a freeze: if-converted code computes them from
// values that were never loaded). Scatters to consecutive addresses never
// overlap, so the order in which lanes write does not matter.
//
// The test is a vector compare and a reduction, a few cycles; it is shared
// by the accesses of one block with the same addresses and mask, and a
// test without a mask serves the masked accesses that follow. Table
// lookups in constant data (the math library's) are left alone: their
// lanes are consecutive only by chance. The pass runs last in the
// optimization pipeline, after the vectorizer made the gathers.
// WEFT_VERSION_GATHERS=0 turns it off.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/VersionGathers.h"

#include "weft/debug.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "weft-version-gathers"

using namespace llvm;

namespace weft {

namespace {

/// Narrower gathers and scatters gain too little to pay for the test.
constexpr unsigned MinLanes = 4;

bool isGather(const IntrinsicInst *II) {
  return II->getIntrinsicID() == Intrinsic::masked_gather;
}

Value *addressesOf(IntrinsicInst *II) {
  return II->getArgOperand(isGather(II) ? 0 : 1);
}

Value *maskOf(IntrinsicInst *II) {
  return II->getArgOperand(isGather(II) ? 2 : 3);
}

Type *dataTypeOf(IntrinsicInst *II) {
  return isGather(II) ? II->getType() : II->getArgOperand(0)->getType();
}

Align alignmentOf(IntrinsicInst *II) {
  auto *A = cast<ConstantInt>(II->getArgOperand(isGather(II) ? 1 : 2));
  return Align(std::max<uint64_t>(1, A->getZExtValue()));
}

bool allLanesOn(Value *Mask) {
  auto *C = dyn_cast<Constant>(Mask);
  return C && C->isAllOnesValue();
}

/// Values an address computation may visit before it is taken to be too
/// involved to judge.
constexpr unsigned MaxAddressValues = 128;

/// Appends to Work the values stored into private array Alloca (the
/// context arrays that carry a work-item's values across a barrier, the
/// lockstep arrays); false if the array is used otherwise.
bool appendStoredValues(AllocaInst *Alloca, SmallVectorImpl<Value *> &Work) {
  SmallVector<Value *, 8> Pointers{Alloca};
  SmallPtrSet<Value *, 8> SeenPointers{Alloca};
  while (!Pointers.empty()) {
    Value *Ptr = Pointers.pop_back_val();
    for (User *U : Ptr->users()) {
      if (isa<LoadInst>(U))
        continue;
      if (auto *SI = dyn_cast<StoreInst>(U);
          SI && SI->getPointerOperand() == Ptr) {
        Work.push_back(SI->getValueOperand());
        continue;
      }
      auto *II = dyn_cast<IntrinsicInst>(U);
      if (II && (II->getIntrinsicID() == Intrinsic::masked_load ||
                 II->isLifetimeStartOrEnd()))
        continue;
      if (II && II->getIntrinsicID() == Intrinsic::masked_store &&
          II->getArgOperand(1) == Ptr) {
        Work.push_back(II->getArgOperand(0));
        continue;
      }
      if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U)) {
        if (SeenPointers.insert(U).second)
          Pointers.push_back(U);
        continue;
      }
      return false;
    }
  }
  return true;
}

/// Whether the lanes of Addresses are computed from the lane's position
/// (the vector induction variable, through arithmetic the vectorizer could
/// not see through) and uniform values alone, possibly carried through a
/// private array across a barrier. An address that depends on per-lane
/// data read from the kernel's buffers (a search probe, an index array)
/// rarely has consecutive lanes, and the test would only cost.
bool computedFromPosition(Value *Addresses) {
  SmallPtrSet<Value *, 32> Seen;
  SmallVector<Value *, 32> Work{Addresses};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !Seen.insert(I).second)
      continue;
    if (Seen.size() > MaxAddressValues)
      return false;
    if (isa<CallBase>(I) && !isa<IntrinsicInst>(I))
      return false;
    if (!I->mayReadFromMemory()) {
      append_range(Work, I->operands());
      continue;
    }
    // A scalar load is a uniform value (a kernel argument): a leaf.
    if (!I->getType()->isVectorTy())
      continue;
    auto *Load = dyn_cast<LoadInst>(I);
    auto *Alloca = Load ? dyn_cast<AllocaInst>(
                              getUnderlyingObject(Load->getPointerOperand()))
                        : nullptr;
    if (!Alloca) {
      // Private memory that is not an array of this function is the
      // work-group arena, where a work-item's values wait across a
      // barrier; what it holds was computed before the barrier and is
      // taken to be like the rest. Per-lane data read from global or
      // local memory is not.
      if (Load && Load->getPointerAddressSpace() == 0)
        continue;
      return false;
    }
    if (!Seen.insert(Alloca).second)
      continue;
    if (!appendStoredValues(Alloca, Work))
      return false;
  }
  return true;
}

/// The object the lanes of Addresses point into, if one base pointer is
/// visible under its GEPs; else Addresses.
const Value *baseObject(Value *Addresses) {
  Value *V = Addresses;
  while (auto *GEP = dyn_cast<GEPOperator>(V))
    V = GEP->getPointerOperand();
  if (V->getType()->isVectorTy())
    if (Value *Splat = getSplatValue(V))
      V = Splat;
  return V->getType()->isVectorTy() ? V : getUnderlyingObject(V);
}

/// Whether the lanes of Addresses are a constant distance apart that is
/// not ElementBytes: under GEPs with scalar offsets (the same for every
/// lane), a GEP of a scalar pointer by a constant vector of indices. The
/// context slots of a y loop InterchangeWorkItemLoops made innermost are
/// such: lanes the local size in x apart, never consecutive.
bool lanesApartByConstants(Value *Addresses, uint64_t ElementBytes,
                           const DataLayout &DL) {
  auto *GEP = dyn_cast<GEPOperator>(Addresses);
  while (GEP && none_of(GEP->indices(), [](const Use &U) {
           return U->getType()->isVectorTy();
         }))
    GEP = dyn_cast<GEPOperator>(GEP->getPointerOperand());
  if (!GEP || GEP->getPointerOperandType()->isVectorTy() ||
      GEP->getNumIndices() != 1)
    return false;
  auto *Index = dyn_cast<ConstantDataVector>(GEP->idx_begin()->get());
  if (!Index || !Index->getElementType()->isIntegerTy())
    return false;
  uint64_t Scale = DL.getTypeAllocSize(GEP->getSourceElementType());
  int64_t First = Index->getElementAsAPInt(0).getSExtValue();
  for (unsigned K = 1; K < Index->getNumElements(); ++K)
    if ((Index->getElementAsAPInt(K).getSExtValue() - First) * int64_t(Scale) !=
        int64_t(K * ElementBytes))
      return true;
  return false;
}

/// Whether II is a gather or scatter whose lanes may well be consecutive.
bool isCandidate(IntrinsicInst *II, const DataLayout &DL) {
  Intrinsic::ID ID = II->getIntrinsicID();
  if (ID != Intrinsic::masked_gather && ID != Intrinsic::masked_scatter)
    return false;
  auto *DataTy = dyn_cast<FixedVectorType>(dataTypeOf(II));
  if (!DataTy || DataTy->getNumElements() < MinLanes)
    return false;
  // Lanes are elements apart only if elements fill whole bytes.
  Type *EltTy = DataTy->getElementType();
  if (!DL.typeSizeEqualsStoreSize(EltTy) ||
      DL.getTypeStoreSize(EltTy) != DL.getTypeAllocSize(EltTy))
    return false;
  Value *Addresses = addressesOf(II);
  // All lanes at one address: never consecutive.
  if (getSplatValue(Addresses))
    return false;
  if (!computedFromPosition(Addresses) ||
      lanesApartByConstants(Addresses, DL.getTypeStoreSize(EltTy), DL))
    return false;
  if (auto *GV = dyn_cast<GlobalVariable>(baseObject(Addresses));
      GV && GV->isConstant())
    return false;
  return true;
}

/// The lanes' addresses as Base plus Index[K] elements of ElementBytes,
/// read off a GEP with one vector index (through a sign or zero extension
/// of a narrower index): testing the index is cheaper than the 64-bit
/// addresses, and keeps the gather's base-plus-index form.
struct IndexedAddresses {
  Value *Base = nullptr;      ///< a scalar pointer
  Value *WideIndex = nullptr; ///< the GEP's index vector
  Value *Index = nullptr;     ///< WideIndex before the extension, if any
  Instruction::CastOps Extension = Instruction::CastOpsEnd;
};

bool matchIndexed(Value *Addresses, uint64_t EltBytes, const DataLayout &DL,
                  IndexedAddresses &Out) {
  auto *GEP = dyn_cast<GetElementPtrInst>(Addresses);
  if (!GEP || GEP->getNumIndices() != 1 ||
      DL.getTypeAllocSize(GEP->getSourceElementType()) != EltBytes)
    return false;
  Value *Base = GEP->getPointerOperand();
  if (Base->getType()->isVectorTy())
    Base = getSplatValue(Base);
  Value *Index = GEP->getOperand(1);
  if (!Base || !Index->getType()->isVectorTy())
    return false;
  Out.Base = Base;
  Out.WideIndex = Out.Index = Index;
  if (auto *Ext = dyn_cast<CastInst>(Index);
      Ext && (isa<ZExtInst>(Ext) || isa<SExtInst>(Ext))) {
    Out.Index = Ext->getOperand(0);
    Out.Extension = Ext->getOpcode();
  }
  return true;
}

/// An i1 that is true when every lane K of Ints whose Mask bit is on
/// (every lane, for a null Mask) holds lane 0's value plus K * Step; First
/// is set to lane 0's value.
Value *emitStepTest(IRBuilder<> &B, Value *Ints, Value *Mask, uint64_t Step,
                    Value *&First) {
  auto *Ty = cast<FixedVectorType>(Ints->getType());
  unsigned Lanes = Ty->getNumElements();
  // Inactive lanes may be poison; a branch on poison is undefined.
  Ints = B.CreateFreeze(Ints);
  First = B.CreateExtractElement(Ints, uint64_t(0));
  SmallVector<Constant *, 16> Steps;
  for (unsigned K = 0; K < Lanes; ++K)
    Steps.push_back(ConstantInt::get(Ty->getElementType(), K * Step));
  Value *Want = B.CreateAdd(B.CreateVectorSplat(Lanes, First),
                            ConstantVector::get(Steps));
  Value *Match = B.CreateICmpEQ(Ints, Want, "lanes.consecutive");
  if (Mask)
    Match = B.CreateOr(Match, B.CreateNot(B.CreateFreeze(Mask)));
  return B.CreateAndReduce(Match);
}

/// An i1 that is true when every active lane of Addresses (every lane for
/// a null Mask) holds lane 0's address plus its index times EltBytes.
Value *emitConsecutiveTest(IRBuilder<> &B, Value *Addresses, Value *Mask,
                           uint64_t EltBytes, const DataLayout &DL) {
  auto *PtrsTy = cast<FixedVectorType>(Addresses->getType());
  IndexedAddresses Indexed;
  if (!matchIndexed(Addresses, EltBytes, DL, Indexed)) {
    auto *IntTy = DL.getIntPtrType(PtrsTy->getElementType());
    Value *Ints = B.CreatePtrToInt(
        Addresses, FixedVectorType::get(IntTy, PtrsTy->getNumElements()));
    Value *First;
    return emitStepTest(B, Ints, Mask, EltBytes, First);
  }
  Value *First;
  Value *Test = emitStepTest(B, Indexed.Index, Mask, 1, First);
  if (Indexed.Extension == Instruction::CastOpsEnd)
    return Test;
  // Index[K] = Index[0] + K in the narrow type gives consecutive addresses
  // only if the sum does not wrap before the extension.
  auto *NarrowTy = cast<IntegerType>(
      cast<VectorType>(Indexed.Index->getType())->getElementType());
  unsigned Bits = NarrowTy->getBitWidth();
  uint64_t Last = PtrsTy->getNumElements() - 1;
  Value *NoWrap =
      Indexed.Extension == Instruction::ZExt
          ? B.CreateICmpULE(
                First,
                ConstantInt::get(NarrowTy, APInt::getMaxValue(Bits) - Last))
          : B.CreateICmpSLE(
                First, ConstantInt::get(NarrowTy,
                                        APInt::getSignedMaxValue(Bits) - Last));
  return B.CreateAnd(Test, NoWrap);
}

/// Lane 0's address, as the fast access's base.
Value *emitFirstAddress(IRBuilder<> &B, Value *Addresses, uint64_t EltBytes,
                        const DataLayout &DL) {
  IndexedAddresses Indexed;
  if (!matchIndexed(Addresses, EltBytes, DL, Indexed))
    return B.CreateExtractElement(Addresses, uint64_t(0));
  auto *GEP = cast<GetElementPtrInst>(Addresses);
  Value *Index = B.CreateExtractElement(Indexed.WideIndex, uint64_t(0));
  return GEP->isInBounds()
             ? B.CreateInBoundsGEP(GEP->getSourceElementType(), Indexed.Base,
                                   Index)
             : B.CreateGEP(GEP->getSourceElementType(), Indexed.Base, Index);
}

/// Bytes between consecutive lanes' elements.
uint64_t elementBytes(IntrinsicInst *II, const DataLayout &DL) {
  return DL.getTypeStoreSize(
      cast<FixedVectorType>(dataTypeOf(II))->getElementType());
}

/// The same accesses as II, for addresses known consecutive, before
/// InsertPt: a vector load or store from lane 0's address.
Instruction *emitContiguousAccess(IntrinsicInst *II, Instruction *InsertPt,
                                  const DataLayout &DL) {
  IRBuilder<> B(InsertPt);
  Value *Base = emitFirstAddress(B, addressesOf(II), elementBytes(II, DL), DL);
  Value *Mask = maskOf(II);
  Align Alignment = alignmentOf(II);
  Instruction *New;
  if (isGather(II) && allLanesOn(Mask))
    New = B.CreateAlignedLoad(II->getType(), Base, Alignment);
  else if (isGather(II))
    New = B.CreateMaskedLoad(II->getType(), Base, Alignment, Mask,
                             II->getArgOperand(3));
  else if (allLanesOn(Mask))
    New = B.CreateAlignedStore(II->getArgOperand(0), Base, Alignment);
  else
    New = B.CreateMaskedStore(II->getArgOperand(0), Base, Alignment, Mask);
  New->copyMetadata(*II, {LLVMContext::MD_tbaa, LLVMContext::MD_alias_scope,
                          LLVMContext::MD_noalias, LLVMContext::MD_access_group,
                          LLVMContext::MD_nontemporal});
  return New;
}

/// Tests already emitted in one original block: with a mask (or null for
/// all lanes) per address vector. The block's later accesses sit in blocks
/// split off below the test, so it dominates them.
using TestCache = DenseMap<std::pair<Value *, Value *>, Value *>;

Value *testFor(IntrinsicInst *II, TestCache &Tests, const DataLayout &DL) {
  Value *Addresses = addressesOf(II);
  Value *Mask = allLanesOn(maskOf(II)) ? nullptr : maskOf(II);
  // Every lane consecutive implies every active lane is.
  for (Value *Key : {Mask, static_cast<Value *>(nullptr)})
    if (Value *Test = Tests.lookup({Addresses, Key}))
      return Test;
  IRBuilder<> B(II);
  Value *Test =
      emitConsecutiveTest(B, Addresses, Mask, elementBytes(II, DL), DL);
  Tests[{Addresses, Mask}] = Test;
  return Test;
}

/// Puts II on the slow side of a branch on Test, with the contiguous
/// access on the fast side.
void versionAccess(IntrinsicInst *II, Value *Test, const DataLayout &DL) {
  Instruction *FastTerm, *SlowTerm;
  SplitBlockAndInsertIfThenElse(Test, II, &FastTerm, &SlowTerm);
  FastTerm->getParent()->setName("gather.consecutive");
  SlowTerm->getParent()->setName("gather.scattered");
  Instruction *Fast = emitContiguousAccess(II, FastTerm, DL);
  BasicBlock *Join = II->getParent();
  II->moveBefore(SlowTerm);
  if (!isGather(II))
    return;
  PHINode *Phi = PHINode::Create(II->getType(), 2, "", Join->begin());
  II->replaceAllUsesWith(Phi);
  Phi->addIncoming(Fast, Fast->getParent());
  Phi->addIncoming(II, II->getParent());
  Phi->takeName(II);
}

} // namespace

PreservedAnalyses VersionGathersPass::run(Function &F,
                                          FunctionAnalysisManager &) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  const DataLayout &DL = F.getDataLayout();
  // Per original block, in order: versioning splits the block, and the
  // accesses after the first move into the split-off parts.
  SmallVector<SmallVector<IntrinsicInst *, 8>, 8> Blocks;
  for (BasicBlock &BB : F) {
    SmallVector<IntrinsicInst *, 8> Accesses;
    for (Instruction &I : BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I); II && isCandidate(II, DL))
        Accesses.push_back(II);
    if (!Accesses.empty())
      Blocks.push_back(std::move(Accesses));
  }
  if (Blocks.empty())
    return PreservedAnalyses::all();
  unsigned Gathers = 0, Scatters = 0;
  for (auto &Accesses : Blocks) {
    TestCache Tests;
    for (IntrinsicInst *II : Accesses) {
      versionAccess(II, testFor(II, Tests, DL), DL);
      ++(isGather(II) ? Gathers : Scatters);
    }
  }
  WEFT_LOG(DebugCompile,
           "%s: %u gathers and %u scatters get a vector access for "
           "consecutive lanes",
           F.getName().str().c_str(), Gathers, Scatters);
  return PreservedAnalyses::none();
}

} // namespace weft
