//===- FoldLocalIdDivisions.h - Divisions of linear local ids -------------===//
//
// Rewrites `(x + Lx * y) % Lx` as `x` and `(x + Lx * y) / Lx` as `y` in
// work-item functions, from the local size the work-group function is
// specialized for. See FoldLocalIdDivisions.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_FOLDLOCALIDDIVISIONS_H
#define WEFT_LLVMOPENCL_FOLDLOCALIDDIVISIONS_H

#include "llvm/IR/PassManager.h"

#include <array>
#include <cstdint>
#include <string>

namespace weft {

struct FoldLocalIdDivisionsPass
    : llvm::PassInfoMixin<FoldLocalIdDivisionsPass> {
  FoldLocalIdDivisionsPass(std::array<uint64_t, 3> LocalSize,
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
