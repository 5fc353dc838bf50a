//===- ParallelRegions.h - Work-group functions of kernels with barriers --===//
#ifndef WEFT_LLVMOPENCL_PARALLELREGIONS_H
#define WEFT_LLVMOPENCL_PARALLELREGIONS_H

#include "llvm/IR/PassManager.h"

#include <array>
#include <cstdint>
#include <string>

namespace weft {

/// Function attribute of K.workgroup (copied to the launcher): bytes of
/// WorkGroupContext::PrivateArena the context arrays need.
inline constexpr const char *PrivateArenaAttr = "weft-private-arena-size";

struct ParallelRegionsPass : llvm::PassInfoMixin<ParallelRegionsPass> {
  ParallelRegionsPass(std::array<uint64_t, 3> LocalSize, std::string Kernel = "")
      : LocalSize(LocalSize), Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::array<uint64_t, 3> LocalSize; ///< the local size specialized for
  std::string Kernel;                ///< only this kernel, or all when empty
};

} // namespace weft

#endif
