//===- LockstepLoops.h - Divergent loops run across work-items ------------===//
//
// A kernel loop whose trip count differs between work-items keeps the
// work-item loop around it scalar. This pass splits such a work-item loop
// so that the kernel loop runs in lockstep: one trip of every still-active
// work-item per pass of a vectorizable work-item loop. See LockstepLoops.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_LOCKSTEPLOOPS_H
#define WEFT_LLVMOPENCL_LOCKSTEPLOOPS_H

#include "llvm/IR/PassManager.h"

#include <array>
#include <cstdint>
#include <string>

namespace weft {

/// Metadata on the allocas LockstepLoopsPass makes: [W x T] arrays with
/// one element per work-item in x.
inline constexpr const char *LockstepArrayMD = "weft.lockstep.array";

/// Whether the compile pipeline runs LockstepLoopsPass: yes unless
/// WEFT_LOCKSTEP=0 (a kernel cache key field).
bool lockstepLoopsEnabled();

struct LockstepLoopsPass : llvm::PassInfoMixin<LockstepLoopsPass> {
  LockstepLoopsPass(std::array<uint64_t, 3> LocalSize, std::string Kernel = "")
      : LocalSize(LocalSize), Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::array<uint64_t, 3> LocalSize; ///< the local size specialized for
  std::string Kernel;                ///< only this kernel, or all when empty
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_LOCKSTEPLOOPS_H
