//===- LowerPrintf.h - printf calls become records in the printf buffer ---===//
#ifndef WEFT_LLVMOPENCL_LOWERPRINTF_H
#define WEFT_LLVMOPENCL_LOWERPRINTF_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace weft {

/// Name of the global a module defines when its kernel calls printf, so
/// the loader can tell the driver to provide a printf buffer.
inline constexpr const char *UsesPrintfSymbol = "__weft_uses_printf";

struct LowerPrintfPass : llvm::PassInfoMixin<LowerPrintfPass> {
  explicit LowerPrintfPass(std::string Kernel = "")
      : Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::string Kernel; ///< only this kernel, or all when empty
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_LOWERPRINTF_H
