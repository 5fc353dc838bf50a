//===- GuardIntegerDivision.h - Integer divisions that cannot trap --------===//
#ifndef WEFT_LLVMOPENCL_GUARDINTEGERDIVISION_H
#define WEFT_LLVMOPENCL_GUARDINTEGERDIVISION_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// Gives every integer division and remainder whose divisor may be zero
/// (or -1 under the signed minimum) a divisor of 1 in those cases, so that
/// a kernel's undefined result never becomes the host's SIGFPE.
struct GuardIntegerDivisionPass
    : llvm::PassInfoMixin<GuardIntegerDivisionPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_GUARDINTEGERDIVISION_H
