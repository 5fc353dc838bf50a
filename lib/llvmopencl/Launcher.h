//===- Launcher.h - The launcher.h entry point of a work-group function ---===//
#ifndef WEFT_LLVMOPENCL_LAUNCHER_H
#define WEFT_LLVMOPENCL_LAUNCHER_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace weft {

struct LauncherPass : llvm::PassInfoMixin<LauncherPass> {
  explicit LauncherPass(std::string Kernel = "") : Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::string Kernel; ///< only this kernel, or all when empty
};

} // namespace weft

#endif
