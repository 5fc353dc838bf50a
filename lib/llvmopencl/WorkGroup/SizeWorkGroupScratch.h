//===- SizeWorkGroupScratch.h - The collectives' work-group memory --------===//
//
// Resizes the builtin library's __local scratch of the work-group
// collectives to the local size a work-group function is compiled for.
// See SizeWorkGroupScratch.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_SIZEWORKGROUPSCRATCH_H
#define WEFT_LLVMOPENCL_SIZEWORKGROUPSCRATCH_H

#include "llvm/IR/PassManager.h"

#include <array>
#include <cstdint>

namespace weft {

/// The scratch's name (lib/kernel/work-group-scratch.ll).
inline constexpr const char *WorkGroupScratchName =
    "__weft_work_group_scratch.slots";

struct SizeWorkGroupScratchPass
    : llvm::PassInfoMixin<SizeWorkGroupScratchPass> {
  explicit SizeWorkGroupScratchPass(std::array<uint64_t, 3> LocalSize)
      : LocalSize(LocalSize) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::array<uint64_t, 3> LocalSize; ///< the local size compiled for
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_SIZEWORKGROUPSCRATCH_H
