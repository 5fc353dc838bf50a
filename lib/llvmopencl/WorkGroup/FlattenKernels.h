//===- FlattenKernels.h - Inline every call inside the kernels ------------===//
#ifndef WEFT_LLVMOPENCL_FLATTENKERNELS_H
#define WEFT_LLVMOPENCL_FLATTENKERNELS_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace weft {

struct FlattenKernelsPass : llvm::PassInfoMixin<FlattenKernelsPass> {
  explicit FlattenKernelsPass(std::string Kernel = "") : Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::string Kernel; ///< only this kernel, or all when empty
};

} // namespace weft

#endif
