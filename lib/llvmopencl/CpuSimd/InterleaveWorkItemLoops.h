//===- InterleaveWorkItemLoops.h - Independent work-items in flight ------===//
#ifndef WEFT_LLVMOPENCL_INTERLEAVEWORKITEMLOOPS_H
#define WEFT_LLVMOPENCL_INTERLEAVEWORKITEMLOOPS_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// Asks loop-vectorize to interleave work-item loops whose body is one long
/// chain of dependent floating-point operations.
struct InterleaveWorkItemLoopsPass
    : llvm::PassInfoMixin<InterleaveWorkItemLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_INTERLEAVEWORKITEMLOOPS_H
