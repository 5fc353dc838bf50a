//===- RollWorkItemLoops.h - Keep short work-item loops for the vectorizer ===//
//
// Marks the innermost work-item loops of a few constant trips
// llvm.loop.unroll.disable, so O3 vectorizes them instead of unrolling
// them first. See RollWorkItemLoops.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_ROLLWORKITEMLOOPS_H
#define WEFT_LLVMOPENCL_ROLLWORKITEMLOOPS_H

#include "llvm/IR/PassManager.h"

namespace weft {

struct RollWorkItemLoopsPass : llvm::PassInfoMixin<RollWorkItemLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace weft

#endif
