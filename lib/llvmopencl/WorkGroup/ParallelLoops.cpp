//===- ParallelLoops.cpp - Pieces shared by the work-item loop builders ---===//
#include "WorkGroup/ParallelLoops.h"
#include "WorkGroup/KernelUtils.h"

#include "weft/debug.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <algorithm>

using namespace llvm;

namespace weft {

MDNode *makeParallelLoopID(LLVMContext &C, MDNode *AccessGroup) {
  Metadata *Parallel[] = {MDString::get(C, "llvm.loop.parallel_accesses"),
                          AccessGroup};
  MDNode *Props = MDNode::get(C, Parallel);
  auto Temp = MDNode::getTemporary(C, {});
  Metadata *Ops[] = {Temp.get(), Props};
  MDNode *ID = MDNode::getDistinct(C, Ops);
  ID->replaceOperandWith(0, ID);
  return ID;
}

bool accessesPrivateAlloca(Instruction &I) {
  Value *Ptr = nullptr;
  if (auto *L = dyn_cast<LoadInst>(&I))
    Ptr = L->getPointerOperand();
  else if (auto *S = dyn_cast<StoreInst>(&I))
    Ptr = S->getPointerOperand();
  else if (auto *MI = dyn_cast<MemIntrinsic>(&I))
    Ptr = MI->getDest();
  if (!Ptr)
    return false;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  for (const Value *O : Objects)
    if (isa<AllocaInst>(O))
      return true;
  if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
    Objects.clear();
    getUnderlyingObjects(MT->getSource(), Objects);
    for (const Value *O : Objects)
      if (isa<AllocaInst>(O))
        return true;
  }
  return false;
}

namespace {

/// One object in the sense of mayReadAfterWriteInIteration: an argument, a
/// global or an alloca (Depth 0); or a pointer loaded through a chain of
/// at most MaxChain loads at constant offsets from a function argument
/// (the launcher reads each kernel argument through its argument buffer,
/// args[i] -> value -> pointer: one object per kernel argument); or
/// {nullptr}, every other loaded pointer.
constexpr unsigned MaxChain = 3;
struct ObjectKey {
  const Value *Base = nullptr;
  unsigned Depth = 0;
  int64_t Offsets[MaxChain] = {};
  bool operator==(const ObjectKey &O) const {
    return Base == O.Base && Depth == O.Depth &&
           std::equal(Offsets, Offsets + Depth, O.Offsets);
  }
};

/// The objects an access may touch; Unknown when one cannot be named.
struct AccessObjects {
  SmallVector<ObjectKey, 2> Objects;
  bool Unknown = false;
};

ObjectKey loadedPointerKey(const LoadInst &L) {
  const DataLayout &DL = L.getModule()->getDataLayout();
  ObjectKey Key;
  const LoadInst *Load = &L;
  while (Load && !Load->isVolatile() && Key.Depth < MaxChain) {
    int64_t Offset = 0;
    const Value *Base = GetPointerBaseWithConstantOffset(
        Load->getPointerOperand(), Offset, DL);
    Key.Offsets[Key.Depth++] = Offset;
    if (isa<Argument>(Base)) {
      Key.Base = Base;
      return Key;
    }
    Load = dyn_cast<LoadInst>(Base);
  }
  return ObjectKey(); // a loaded pointer like any other
}

bool addObjectsOf(const Value *Ptr, AccessObjects &Out) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  for (const Value *O : Objects) {
    if (isa<Argument>(O) || isa<GlobalValue>(O) || isa<AllocaInst>(O))
      Out.Objects.push_back({O, 0, {}});
    else if (auto *L = dyn_cast<LoadInst>(O))
      Out.Objects.push_back(loadedPointerKey(*L));
    else
      Out.Unknown = true;
  }
  return true;
}

/// The objects I reads (Reads) or writes (Writes); false when I touches
/// no memory the check cares about.
bool objectsOf(Instruction &I, AccessObjects &Reads, AccessObjects &Writes) {
  if (!I.mayReadOrWriteMemory())
    return false;
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic() ||
        isa<DbgInfoIntrinsic>(II))
      return false;
  if (auto *L = dyn_cast<LoadInst>(&I))
    return addObjectsOf(L->getPointerOperand(), Reads);
  if (auto *S = dyn_cast<StoreInst>(&I))
    return addObjectsOf(S->getPointerOperand(), Writes);
  if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    addObjectsOf(MI->getDest(), Writes);
    if (auto *MT = dyn_cast<MemTransferInst>(MI))
      addObjectsOf(MT->getSource(), Reads);
    return true;
  }
  if (I.mayReadFromMemory())
    Reads.Unknown = true;
  if (I.mayWriteToMemory())
    Writes.Unknown = true;
  return true;
}

bool overlap(const AccessObjects &A, const AccessObjects &B) {
  if ((A.Unknown && (B.Unknown || !B.Objects.empty())) ||
      (B.Unknown && !A.Objects.empty()))
    return true;
  for (const ObjectKey &O : A.Objects)
    if (is_contained(B.Objects, O))
      return true;
  return false;
}

/// Two simple accesses at a known constant distance that do not overlap.
bool provablyDisjoint(Instruction &A, Instruction &B) {
  std::optional<MemoryLocation> LA = MemoryLocation::getOrNone(&A),
                                LB = MemoryLocation::getOrNone(&B);
  if (!LA || !LB || !LA->Size.hasValue() || !LB->Size.hasValue() ||
      LA->Size.isScalable() || LB->Size.isScalable())
    return false;
  const DataLayout &DL = A.getModule()->getDataLayout();
  int64_t OffsetA = 0, OffsetB = 0;
  const Value *BaseA = GetPointerBaseWithConstantOffset(LA->Ptr, OffsetA, DL);
  const Value *BaseB = GetPointerBaseWithConstantOffset(LB->Ptr, OffsetB, DL);
  if (BaseA != BaseB)
    return false;
  int64_t Diff = OffsetB - OffsetA; // B starts Diff bytes after A
  return Diff >= int64_t(LA->Size.getValue()) ||
         -Diff >= int64_t(LB->Size.getValue());
}

} // namespace

void markContextSlotCopy(Instruction &I) {
  I.setMetadata(ContextSlotCopyMD, MDNode::get(I.getContext(), {}));
}

bool isContextSlotCopy(const Instruction &I) {
  return I.getMetadata(ContextSlotCopyMD) != nullptr;
}

bool mayReadAfterWriteInIteration(
    ArrayRef<BasicBlock *> Body,
    function_ref<bool(Instruction &, Instruction &)> ProvedApart) {
  if (Body.empty())
    return false;
  BasicBlock *Header = Body.front();
  SmallPtrSet<BasicBlock *, 32> InBody(Body.begin(), Body.end());
  for (BasicBlock *BB : Body) {
    for (Instruction &S : *BB) {
      AccessObjects Reads, Writes;
      if (accessesPrivateAlloca(S) || !objectsOf(S, Reads, Writes) ||
          (Writes.Objects.empty() && !Writes.Unknown))
        continue;
      // Whether an access after S may touch what S wrote.
      auto Conflicts = [&](Instruction &I) {
        AccessObjects R, W;
        if (accessesPrivateAlloca(I) || !objectsOf(I, R, W) ||
            isContextSlotCopy(S) || isContextSlotCopy(I) ||
            provablyDisjoint(S, I))
          return false;
        if (ProvedApart && ProvedApart(S, I))
          return false;
        if (!overlap(Writes, R) && !overlap(Writes, W))
          return false;
        if (debugEnabled(DebugCompile)) {
          std::string Text;
          raw_string_ostream OS(Text);
          OS << S << "\n  then" << I;
          WEFT_LOG(DebugCompile, "in %s, a work-item may store and then "
                   "touch the same object:\n%s",
                   S.getFunction()->getName().str().c_str(), Text.c_str());
        }
        return true;
      };
      for (Instruction &I :
           make_range(std::next(S.getIterator()), BB->end()))
        if (Conflicts(I))
          return true;
      SmallPtrSet<BasicBlock *, 32> Seen;
      SmallVector<BasicBlock *, 16> Work(successors(BB));
      while (!Work.empty()) {
        BasicBlock *Next = Work.pop_back_val();
        if (Next == Header || !InBody.count(Next) || !Seen.insert(Next).second)
          continue;
        for (Instruction &I : *Next)
          if (Conflicts(I))
            return true;
        Work.append(succ_begin(Next), succ_end(Next));
      }
    }
  }
  return false;
}

void tagParallelAccesses(ArrayRef<BasicBlock *> Body, MDNode *GroupList) {
  for (BasicBlock *BB : Body)
    for (Instruction &I : *BB) {
      if (!I.mayReadOrWriteMemory() || accessesPrivateAlloca(I))
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
          continue;
      I.setMetadata(LLVMContext::MD_access_group, GroupList);
    }
}

Function *createWorkGroupShell(Function &WI, StringRef Kernel) {
  LLVMContext &C = WI.getContext();
  Module &M = *WI.getParent();
  unsigned NumKernelArgs = WI.arg_size() - 4;
  SmallVector<Type *, 8> Params;
  for (unsigned I = 0; I <= NumKernelArgs; ++I) // kernel args and ctx
    Params.push_back(WI.getArg(I)->getType());
  auto *FTy = FunctionType::get(Type::getVoidTy(C), Params, false);
  Function *WG = Function::Create(FTy, GlobalValue::InternalLinkage,
                                  Kernel + ".workgroup", &M);
  WG->addFnAttr(WorkGroupAttr, Kernel);
  // The target and math attributes of the kernel apply to the group.
  for (Attribute A : WI.getAttributes().getFnAttrs())
    if (A.isStringAttribute() && A.getKindAsString() != WorkItemAttr)
      WG->addFnAttr(A);
  WG->addFnAttr(Attribute::NoUnwind);
  for (unsigned I = 0; I <= NumKernelArgs; ++I) {
    WG->getArg(I)->setName(WI.getArg(I)->getName());
    AttributeSet PA = WI.getAttributes().getParamAttrs(I);
    WG->addParamAttrs(I, AttrBuilder(C, PA));
  }

  WG->addParamAttr(NumKernelArgs, Attribute::NoAlias);
  WG->addParamAttr(NumKernelArgs, Attribute::NoCapture);
  WG->addParamAttr(NumKernelArgs, Attribute::ReadOnly);
  return WG;
}

unsigned vectorRegisterBytes(const TargetTransformInfo &TTI) {
  return TTI.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector)
             .getFixedValue() /
         8;
}

bool isInnermostParallelLoop(const Loop &L) {
  return L.isInnermost() &&
         findOptionMDForLoop(&L, "llvm.loop.parallel_accesses");
}

} // namespace weft
