//===- ParallelLoops.cpp - Pieces shared by the work-item loop builders ---===//
#include "ParallelLoops.h"
#include "KernelUtils.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

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

} // namespace weft
