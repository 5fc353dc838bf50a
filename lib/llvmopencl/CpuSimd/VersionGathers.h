//===- VersionGathers.h - Gathers that turn out consecutive ----*- C++ -*-===//
//
// Gives each vector gather and scatter a run-time test of whether its
// active lanes address consecutive elements, and a plain vector load or
// store for when they do. See VersionGathers.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_VERSIONGATHERS_H
#define WEFT_LLVMOPENCL_VERSIONGATHERS_H

#include "llvm/IR/PassManager.h"

namespace weft {

struct VersionGathersPass : llvm::PassInfoMixin<VersionGathersPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_VERSIONGATHERS_H
