//===- DistributeIdExtensions.h - 64-bit index arithmetic on local ids ----===//
//
// Rewrites `sext (add nsw (i32 ...), trunc %lid.x)` as 64-bit arithmetic on
// the id itself, so that an int index is visibly consecutive across the
// work-item loop. See DistributeIdExtensions.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_DISTRIBUTEIDEXTENSIONS_H
#define WEFT_LLVMOPENCL_DISTRIBUTEIDEXTENSIONS_H

#include "llvm/IR/PassManager.h"

#include <array>
#include <cstdint>
#include <string>

namespace weft {

struct DistributeIdExtensionsPass
    : llvm::PassInfoMixin<DistributeIdExtensionsPass> {
  DistributeIdExtensionsPass(std::array<uint64_t, 3> LocalSize,
                             std::string Kernel = "")
      : LocalSize(LocalSize), Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::array<uint64_t, 3> LocalSize; ///< the local size specialized for
  std::string Kernel;                ///< only this kernel, or all when empty
};

} // namespace weft

#endif
