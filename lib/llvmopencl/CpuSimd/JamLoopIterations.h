//===- JamLoopIterations.h - Two iterations' chains side by side ---------===//
#ifndef WEFT_LLVMOPENCL_JAMLOOPITERATIONS_H
#define WEFT_LLVMOPENCL_JAMLOOPITERATIONS_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// Unrolls twice a sequential loop whose header is one long dependence
/// chain, and computes the second iteration's header beside the first's.
struct JamLoopIterationsPass : llvm::PassInfoMixin<JamLoopIterationsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_JAMLOOPITERATIONS_H
