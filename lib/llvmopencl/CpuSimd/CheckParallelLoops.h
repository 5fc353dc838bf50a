//===- CheckParallelLoops.h - Parallel loops the vectorizer may trust -----===//
#ifndef WEFT_LLVMOPENCL_CHECKPARALLELLOOPS_H
#define WEFT_LLVMOPENCL_CHECKPARALLELLOOPS_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// Drops llvm.loop.parallel_accesses from the innermost loops in which a
/// work-item may still reload or overwrite what it stored in the same
/// iteration, right before the loop vectorizer.
struct CheckParallelLoopsPass : llvm::PassInfoMixin<CheckParallelLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
  static bool isRequired() { return true; }
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_CHECKPARALLELLOOPS_H
