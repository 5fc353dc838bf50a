//===- WorkItemLoops.h - Work-item loops around a barrier-free kernel -----===//
#ifndef WEFT_LLVMOPENCL_WORKITEMLOOPS_H
#define WEFT_LLVMOPENCL_WORKITEMLOOPS_H

#include "llvm/IR/PassManager.h"

#include <array>
#include <cstdint>
#include <string>

namespace weft {

struct WorkItemLoopsPass : llvm::PassInfoMixin<WorkItemLoopsPass> {
  WorkItemLoopsPass(std::array<uint64_t, 3> LocalSize, std::string Kernel = "")
      : LocalSize(LocalSize), Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::array<uint64_t, 3> LocalSize; ///< the local size specialized for
  std::string Kernel;                ///< only this kernel, or all when empty
};

} // namespace weft

#endif
