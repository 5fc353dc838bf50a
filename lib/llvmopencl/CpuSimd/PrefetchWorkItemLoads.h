//===- PrefetchWorkItemLoads.h - Prefetch the next trip's global loads ----===//
#ifndef WEFT_LLVMOPENCL_PREFETCHWORKITEMLOADS_H
#define WEFT_LLVMOPENCL_PREFETCHWORKITEMLOADS_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// Before a work-item loop that sits in a kernel loop around barriers (a
/// tiled kernel's k loop), prefetches the global memory that the same
/// work-item loop will load on the kernel loop's next trip: the copy of the
/// next tile then finds its rows in cache instead of waiting for each.
struct PrefetchWorkItemLoadsPass
    : llvm::PassInfoMixin<PrefetchWorkItemLoadsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_PREFETCHWORKITEMLOADS_H
