//===- ResolveWorkItemFunctions.h - get_*_id() from context and ids -------===//
#ifndef WEFT_LLVMOPENCL_RESOLVEWORKITEMFUNCTIONS_H
#define WEFT_LLVMOPENCL_RESOLVEWORKITEMFUNCTIONS_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace weft {

struct ResolveWorkItemFunctionsPass
    : llvm::PassInfoMixin<ResolveWorkItemFunctionsPass> {
  explicit ResolveWorkItemFunctionsPass(std::string Kernel = "")
      : Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::string Kernel; ///< only this kernel, or all when empty
};

} // namespace weft

#endif
