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
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"

namespace llvm {
class Loop;
class TargetTransformInfo;
} // namespace llvm

namespace weft {

/// A distinct loop ID carrying llvm.loop.parallel_accesses for AccessGroup.
llvm::MDNode *makeParallelLoopID(llvm::LLVMContext &C,
                                 llvm::MDNode *AccessGroup);

/// Whether I reads or writes memory based on an alloca: after work-item
/// code is put into loops, one alloca serves every work-item in turn, so
/// such accesses keep their ordinary dependences.
bool accessesPrivateAlloca(llvm::Instruction &I);

/// Bytes in one of the target's fixed-width vector registers: what the
/// vectorizer fills with work-items.
unsigned vectorRegisterBytes(const llvm::TargetTransformInfo &TTI);

/// Whether L is an innermost loop carrying llvm.loop.parallel_accesses: a
/// work-item loop the loop vectorizer takes without a dependence proof.
bool isInnermostParallelLoop(const llvm::Loop &L);

/// Marks I as one of ParallelRegions's copies between a context slot and
/// the value's alloca at the start or end of a region. Only that copy
/// touches its slot in the region, so it never conflicts with anything.
void markContextSlotCopy(llvm::Instruction &I);
bool isContextSlotCopy(const llvm::Instruction &I);
inline constexpr const char *ContextSlotCopyMD = "weft.context.slot";

/// Whether some work-item of Body may store to memory and later, in the same
/// pass through Body, read or write memory based on the same object. Body's
/// first block is the loop header; edges back into it are not followed.
///
/// llvm.loop.parallel_accesses only promises that different iterations are
/// independent, but LLVM 19's interleaved-access vectorization takes the
/// annotation as licence to hoist strided loads and sink strided stores
/// past anything (LoopAccessAnalysis skips its dependence checker for such
/// loops, so no dependence forbids the motion). A load that follows a store
/// to the same place in one iteration can then read the stale value, so a
/// body where this may happen must stay unannotated and let LLVM prove what
/// it can. Objects are compared by identity: two different kernel arguments
/// are taken not to alias (before the launcher is inlined, two different
/// arguments; after, two pointers loaded from different offsets of one
/// function argument, the argument buffer), every other unidentifiable
/// pointer (a select, a phi, a call result) is taken to alias everything.
/// Accesses to the same object are apart when they are at a known constant
/// distance that does not overlap, or when ProvedApart says so.
bool mayReadAfterWriteInIteration(
    llvm::ArrayRef<llvm::BasicBlock *> Body,
    llvm::function_ref<bool(llvm::Instruction &Store, llvm::Instruction &Later)>
        ProvedApart = nullptr);

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
