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
#include <utility>
#include <vector>

namespace llvm {
class Instruction;
class Module;
class Use;
class Value;
} // namespace llvm

namespace weft {

/// I is a call the pass inserted.
bool isAccessCheck(const llvm::Instruction &I);

/// I is a check or only computes operands of checks (their work-item ids,
/// after ResolveWorkItemFunctions): no operation of the simulated machine,
/// so the static schedule leaves it out and WEFT_ACCELSIM_CHECK=1 leaves
/// the cycles alone.
bool isAccessCheckWork(const llvm::Instruction &I);

/// While alive, every use of a check's result in M uses the address the
/// check was given instead, what the access reaches when it is in bounds:
/// the static schedule then sees each access's own address (its memory
/// unit, what it may alias, the offsets the Scalarizer added), as without
/// WEFT_ACCELSIM_CHECK. The destructor puts the results back.
class BypassAccessChecks {
public:
  explicit BypassAccessChecks(llvm::Module &M);
  ~BypassAccessChecks();
  BypassAccessChecks(const BypassAccessChecks &) = delete;
  BypassAccessChecks &operator=(const BypassAccessChecks &) = delete;

private:
  std::vector<std::pair<llvm::Use *, llvm::Value *>> Bypassed;
};

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
