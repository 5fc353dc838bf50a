//===- HorizontalLoops.h - Implicit barriers in uniform loops -------------===//
//
// Horizontal inner-loop parallelization: an implicit barrier at the top of
// each barrier-free loop that every work-item runs the same trips of, so
// that ParallelRegions puts the work-item loop inside the kernel's loop.
// See HorizontalLoops.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_HORIZONTALLOOPS_H
#define WEFT_LLVMOPENCL_HORIZONTALLOOPS_H

#include "llvm/IR/PassManager.h"

#include <array>
#include <cstdint>
#include <string>

namespace weft {

/// Whether the compile pipeline runs HorizontalLoopsPass: yes unless
/// WEFT_HORIZONTAL=0 (a kernel cache key field).
bool horizontalLoopsEnabled();

struct HorizontalLoopsPass : llvm::PassInfoMixin<HorizontalLoopsPass> {
  HorizontalLoopsPass(std::array<uint64_t, 3> LocalSize,
                      std::string Kernel = "")
      : LocalSize(LocalSize), Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::array<uint64_t, 3> LocalSize; ///< the local size specialized for
  std::string Kernel; ///< only this kernel, or all when empty
};

} // namespace weft

#endif
