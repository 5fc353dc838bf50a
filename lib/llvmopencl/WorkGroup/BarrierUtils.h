//===- BarrierUtils.h - Recognizing work-group barriers -------------------===//
//
// NormalizeBarriers rewrites every OpenCL barrier of a work-item function
// (barrier(), work_group_barrier(), with any flags or scope) into a call of
// one marker, __weft_barrier(), so the later passes recognize a barrier by
// one name. The fences a barrier implies need no code on a CPU: the
// work-items of a group run one after another on one thread.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_BARRIERUTILS_H
#define WEFT_LLVMOPENCL_BARRIERUTILS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace weft {

inline constexpr const char *BarrierMarker = "__weft_barrier";

/// OpenCL C barrier builtins, by Itanium-mangled name.
inline bool isOpenCLBarrier(llvm::StringRef Name) {
  return Name.starts_with("_Z7barrierj") ||
         Name.starts_with("_Z18work_group_barrierj");
}

inline bool isBarrierCall(const llvm::Instruction &I) {
  if (auto *CB = llvm::dyn_cast<llvm::CallBase>(&I))
    if (const llvm::Function *F = CB->getCalledFunction())
      return F->getName() == BarrierMarker || isOpenCLBarrier(F->getName());
  return false;
}

inline bool hasBarrier(const llvm::Function &F) {
  for (const llvm::BasicBlock &BB : F)
    for (const llvm::Instruction &I : BB)
      if (isBarrierCall(I))
        return true;
  return false;
}

/// Whether F synchronizes sub-groups in a way only the fallback method can:
/// the sub-group barrier that ResolveSubGroups.cpp leaves where a
/// work-group has several sub-groups, or the non-uniform functions'
/// exchange that ResolveNonUniformSubGroups.cpp leaves under
/// work-item-dependent control (lib/kernel/subgroups.cl).
inline bool hasSubGroupBarrier(const llvm::Function &F) {
  for (const llvm::BasicBlock &BB : F)
    for (const llvm::Instruction &I : BB)
      if (auto *CB = llvm::dyn_cast<llvm::CallBase>(&I))
        if (const llvm::Function *Callee = CB->getCalledFunction())
          if (Callee->getName() == "__weft_sub_group_barrier" ||
              Callee->getName() == "__weft_sub_group_converge")
            return true;
  return false;
}

/// A normalized barrier block: the marker first, then the terminator.
inline bool isBarrierBlock(const llvm::BasicBlock &BB) {
  const llvm::Instruction *First = BB.getFirstNonPHI();
  return First && isBarrierCall(*First);
}

inline llvm::FunctionCallee getBarrierMarker(llvm::Module &M) {
  llvm::FunctionCallee Marker = M.getOrInsertFunction(
      BarrierMarker, llvm::Type::getVoidTy(M.getContext()));
  if (auto *F = llvm::dyn_cast<llvm::Function>(Marker.getCallee())) {
    F->addFnAttr(llvm::Attribute::NoUnwind);
    F->addFnAttr(llvm::Attribute::Convergent);
  }
  return Marker;
}

} // namespace weft

#endif
