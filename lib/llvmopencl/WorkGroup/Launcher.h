//===- Launcher.h - The launcher.h entry point of a work-group function ---===//
#ifndef WEFT_LLVMOPENCL_LAUNCHER_H
#define WEFT_LLVMOPENCL_LAUNCHER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Alignment.h"

#include <cstdint>
#include <string>

namespace llvm {
class DataLayout;
class GlobalVariable;
} // namespace llvm

namespace weft {

/// On __weft_launch_K: the bytes of WorkGroupContext::LocalVariables it
/// uses (absent when none).
inline constexpr const char *LocalVariablesAttr = "weft-local-variables-size";
/// The internal function a launcher calls for the address of each
/// automatic __local variable (Launcher.cpp says why a call).
inline constexpr const char *LocalVariableFunction = "__weft_local_variable";

/// Where automatic __local variables sit in their block: in the order
/// given, each at the next multiple of its alignment.
struct LocalVariableLayout {
  llvm::SmallVector<uint64_t, 4> Offsets;
  uint64_t Size = 0;    ///< the end of the last variable
  llvm::Align MaxAlign; ///< the strictest variable's alignment
};
LocalVariableLayout
layOutLocalVariables(llvm::ArrayRef<llvm::GlobalVariable *> Locals,
                     const llvm::DataLayout &DL);

struct LauncherPass : llvm::PassInfoMixin<LauncherPass> {
  explicit LauncherPass(std::string Kernel = "") : Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::string Kernel; ///< only this kernel, or all when empty
};

} // namespace weft

#endif
