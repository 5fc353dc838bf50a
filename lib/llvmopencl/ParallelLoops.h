//===- ParallelLoops.h - Pieces shared by the work-item loop builders -----===//
//
// WorkItemLoops (kernels without barriers) and ParallelRegions (kernels with
// barriers) both make a work-group function K.workgroup(<K's parameters>,
// ptr %ctx) and wrap work-item code in loops the vectorizer may treat as
// parallel. What they share lives here.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_PARALLELLOOPS_H
#define WEFT_LLVMOPENCL_PARALLELLOOPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"

namespace weft {

/// A distinct loop ID carrying llvm.loop.parallel_accesses for AccessGroup.
llvm::MDNode *makeParallelLoopID(llvm::LLVMContext &C,
                                 llvm::MDNode *AccessGroup);

/// Whether I reads or writes memory based on an alloca: after work-item
/// code is put into loops, one alloca serves every work-item in turn, so
/// such accesses keep their ordinary dependences.
bool accessesPrivateAlloca(llvm::Instruction &I);

/// Puts every other memory access of Body into the access groups of
/// GroupList: work-items are independent between barriers by the OpenCL
/// execution model (a race on __local or __global memory is undefined).
void tagParallelAccesses(llvm::ArrayRef<llvm::BasicBlock *> Body,
                         llvm::MDNode *GroupList);

/// An empty K.workgroup with WI's kernel parameters and %ctx, and the
/// attributes of WI that apply to the whole group.
llvm::Function *createWorkGroupShell(llvm::Function &WI, llvm::StringRef Kernel);

} // namespace weft

#endif
