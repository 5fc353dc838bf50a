//===- ExposeIndexExtensions.h - Extensions SCEV can read again -*- C++ -*-===//
//
// Rewrites `ashr (add (shl a, n), (shl b, n)), m` into
// `ashr (shl (add a, b), n), m`, the form in which scalar evolution sees
// a sign extension. See ExposeIndexExtensions.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_EXPOSEINDEXEXTENSIONS_H
#define WEFT_LLVMOPENCL_EXPOSEINDEXEXTENSIONS_H

#include "llvm/IR/PassManager.h"

namespace weft {

struct ExposeIndexExtensionsPass
    : llvm::PassInfoMixin<ExposeIndexExtensionsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_EXPOSEINDEXEXTENSIONS_H
