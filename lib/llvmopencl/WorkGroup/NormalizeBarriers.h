//===- NormalizeBarriers.h - Barrier-normal form of work-item functions ---===//
#ifndef WEFT_LLVMOPENCL_NORMALIZEBARRIERS_H
#define WEFT_LLVMOPENCL_NORMALIZEBARRIERS_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace weft {

struct NormalizeBarriersPass : llvm::PassInfoMixin<NormalizeBarriersPass> {
  explicit NormalizeBarriersPass(std::string Kernel = "")
      : Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::string Kernel; ///< only this kernel, or all when empty
};

} // namespace weft

#endif
