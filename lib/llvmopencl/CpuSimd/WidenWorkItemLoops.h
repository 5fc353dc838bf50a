//===- WidenWorkItemLoops.h - Vector work-item loops across work-items ----===//
#ifndef WEFT_LLVMOPENCL_WIDENWORKITEMLOOPS_H
#define WEFT_LLVMOPENCL_WIDENWORKITEMLOOPS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Loop;
} // namespace llvm

namespace weft {

/// Runs a work-item loop whose body computes on explicit vectors (float4)
/// for several consecutive work-items at once, each vector widened to hold
/// theirs side by side (<16 x float> for four float4 work-items), where
/// every operation works lane by lane and every access is consecutive
/// across work-items.
struct WidenWorkItemLoopsPass : llvm::PassInfoMixin<WidenWorkItemLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

/// Whether L is a work-item loop this pass widened (it carries
/// llvm.loop.isvectorized and vectors of several work-items: splitting them
/// into scalars would undo the widening).
bool isWidenedWorkItemLoop(const llvm::Loop &L);

} // namespace weft

#endif // WEFT_LLVMOPENCL_WIDENWORKITEMLOOPS_H
