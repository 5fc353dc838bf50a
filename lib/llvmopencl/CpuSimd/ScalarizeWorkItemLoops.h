//===- ScalarizeWorkItemLoops.h - Explicit vectors of work-item loops -----===//
#ifndef WEFT_LLVMOPENCL_SCALARIZEWORKITEMLOOPS_H
#define WEFT_LLVMOPENCL_SCALARIZEWORKITEMLOOPS_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// Splits the float4/int8/... values of a kernel into scalars when all of
/// its vector code inside loops is in innermost work-item loops, so the loop
/// vectorizer can widen those loops across work-items.
struct ScalarizeWorkItemLoopsPass
    : llvm::PassInfoMixin<ScalarizeWorkItemLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_SCALARIZEWORKITEMLOOPS_H
