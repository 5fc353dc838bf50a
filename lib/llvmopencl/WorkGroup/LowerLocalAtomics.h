//===- LowerLocalAtomics.h - Plain accesses for __local atomics -----------===//
#ifndef WEFT_LLVMOPENCL_LOWERLOCALATOMICS_H
#define WEFT_LLVMOPENCL_LOWERLOCALATOMICS_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// Turns atomic operations on __local memory into ordinary loads and
/// stores: a CPU driver runs all work-items of a work-group on one thread,
/// switching between them only at barriers.
struct LowerLocalAtomicsPass : llvm::PassInfoMixin<LowerLocalAtomicsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_LOWERLOCALATOMICS_H
