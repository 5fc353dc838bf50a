//===- PromotePrivateArrays.h - Private arrays into registers -------------===//
//
// Fully unrolls the short constant-trip loops of a work-item function that
// index a private array, so that SROA turns the array into scalars before
// the work-group passes see it. See PromotePrivateArrays.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_PROMOTEPRIVATEARRAYS_H
#define WEFT_LLVMOPENCL_PROMOTEPRIVATEARRAYS_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace weft {

struct PromotePrivateArraysPass
    : llvm::PassInfoMixin<PromotePrivateArraysPass> {
  explicit PromotePrivateArraysPass(std::string Kernel = "")
      : Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::string Kernel; ///< only this kernel, or all when empty
};

} // namespace weft

#endif
