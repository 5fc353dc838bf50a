//===- WorkGroupContextLayout.h - weft::WorkGroupContext as LLVM sees it --===//
//
// The generated code reads the driver's WorkGroupContext (launcher.h)
// through this struct type; Launcher.cpp checks the offsets against the C++
// definition with static_asserts, so the two cannot drift apart silently.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_WORKGROUPCONTEXTLAYOUT_H
#define WEFT_LLVMOPENCL_WORKGROUPCONTEXTLAYOUT_H

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"

namespace weft {

/// Field indices of the LLVM struct type, in launcher.h order.
enum WorkGroupContextField : unsigned {
  CtxWorkDim = 0,
  CtxReserved,
  CtxGroupId,
  CtxNumGroups,
  CtxGlobalOffset,
  CtxGlobalSize,
  CtxLocalSize,
  CtxEnqueuedLocalSize,
  CtxPrivateArena,
  CtxPrintf,
  CtxLocalVariables,
  CtxLocalMemory,
  CtxLocalMemorySize,
  CtxStack,
  CtxStackSize,
  CtxPrivateArenaSize,
  CtxBlockCounters,
};

inline llvm::StructType *getWorkGroupContextType(llvm::LLVMContext &C) {
  if (auto *T = llvm::StructType::getTypeByName(C, "weft.WorkGroupContext"))
    return T;
  auto *I32 = llvm::Type::getInt32Ty(C);
  auto *Dims = llvm::ArrayType::get(llvm::Type::getInt64Ty(C), 3);
  return llvm::StructType::create(C,
                                  {I32, I32, Dims, Dims, Dims, Dims, Dims, Dims,
                                   llvm::PointerType::get(C, 0),
                                   llvm::PointerType::get(C, 0),
                                   llvm::PointerType::get(C, 0),
                                   llvm::PointerType::get(C, 0),
                                   llvm::Type::getInt64Ty(C),
                                   llvm::PointerType::get(C, 0),
                                   llvm::Type::getInt64Ty(C),
                                   llvm::Type::getInt64Ty(C),
                                   llvm::PointerType::get(C, 0)},
                                  "weft.WorkGroupContext");
}

/// Loads Field[Dim] (or the scalar Field) of the context. The context does
/// not change while a work-group runs, so the load is marked invariant and
/// LICM hoists it out of the work-item loops whatever the kernel stores.
inline llvm::Value *loadContextField(llvm::IRBuilder<> &B, llvm::Value *Ctx,
                                     WorkGroupContextField Field,
                                     unsigned Dim = 0) {
  llvm::LLVMContext &C = B.getContext();
  llvm::StructType *T = getWorkGroupContextType(C);
  llvm::Value *Addr;
  llvm::Type *Ty;
  if (Field == CtxWorkDim || Field == CtxReserved) {
    Addr = B.CreateStructGEP(T, Ctx, Field);
    Ty = B.getInt32Ty();
  } else {
    Addr = B.CreateInBoundsGEP(T, Ctx, {B.getInt32(0), B.getInt32(Field),
                                        B.getInt32(Dim)});
    Ty = B.getInt64Ty();
  }
  llvm::LoadInst *L = B.CreateAlignedLoad(
      Ty, Addr, llvm::Align(Ty->isIntegerTy(64) ? 8 : 4));
  L->setMetadata(llvm::LLVMContext::MD_invariant_load,
                 llvm::MDNode::get(C, {}));
  return L;
}

/// Loads a scalar 64-bit field of the context, a size or an address, as an
/// integer. Invariant like the others.
inline llvm::Value *loadContextWord(llvm::IRBuilder<> &B, llvm::Value *Ctx,
                                    WorkGroupContextField Field) {
  llvm::LLVMContext &C = B.getContext();
  llvm::Value *Addr =
      B.CreateStructGEP(getWorkGroupContextType(C), Ctx, Field);
  llvm::LoadInst *L = B.CreateAlignedLoad(B.getInt64Ty(), Addr, llvm::Align(8));
  L->setMetadata(llvm::LLVMContext::MD_invariant_load,
                 llvm::MDNode::get(C, {}));
  return L;
}

/// Loads the worker's private arena (the context arrays' memory). Invariant
/// for the same reason as the other fields.
inline llvm::Value *loadPrivateArena(llvm::IRBuilder<> &B, llvm::Value *Ctx) {
  llvm::LLVMContext &C = B.getContext();
  llvm::Value *Addr =
      B.CreateStructGEP(getWorkGroupContextType(C), Ctx, CtxPrivateArena);
  llvm::LoadInst *L = B.CreateAlignedLoad(llvm::PointerType::get(C, 0), Addr,
                                          llvm::Align(8), "arena");
  L->setMetadata(llvm::LLVMContext::MD_invariant_load,
                 llvm::MDNode::get(C, {}));
  // The driver promises 64-byte alignment (launcher.h).
  L->setMetadata(llvm::LLVMContext::MD_align,
                 llvm::MDNode::get(C, llvm::ConstantAsMetadata::get(
                                          B.getInt64(64))));
  return L;
}

} // namespace weft

#endif // WEFT_LLVMOPENCL_WORKGROUPCONTEXTLAYOUT_H
