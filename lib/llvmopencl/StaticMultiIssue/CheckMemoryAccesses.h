//===- CheckMemoryAccesses.h - Bounds checks on every memory access -------===//
//
// The accelerator simulator's out-of-bounds checker, compiler side: every
// access of a kernel to global, constant or local memory takes its address
// from __weft_checked_address (weft/compiler.h). See CheckMemoryAccesses.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_CHECKMEMORYACCESSES_H
#define WEFT_LLVMOPENCL_CHECKMEMORYACCESSES_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace llvm {
class Instruction;
}

namespace weft {

/// I is a call the pass inserted: no operation of the simulated machine,
/// so the static schedule leaves it out.
bool isAccessCheck(const llvm::Instruction &I);

struct CheckMemoryAccessesPass : llvm::PassInfoMixin<CheckMemoryAccessesPass> {
  explicit CheckMemoryAccessesPass(std::string Kernel = "")
      : Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::string Kernel; ///< only this kernel, or all when empty
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_CHECKMEMORYACCESSES_H
