//===- VersionGroupGuards.h - Whole-group copies of bounds guards ---------===//
//
// Gives a branch on a local-id bounds guard (`if (gid < n)`) a copy of the
// code it guards, taken when the guard holds in every work-item of the
// group, so that code runs under uniform control. See
// VersionGroupGuards.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_VERSIONGROUPGUARDS_H
#define WEFT_LLVMOPENCL_VERSIONGROUPGUARDS_H

#include "llvm/IR/PassManager.h"

#include <array>
#include <cstdint>
#include <string>

namespace weft {

/// False under WEFT_VERSION_GUARDS=0.
bool groupGuardVersioningEnabled();

struct VersionGroupGuardsPass : llvm::PassInfoMixin<VersionGroupGuardsPass> {
  VersionGroupGuardsPass(std::array<uint64_t, 3> LocalSize,
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
