//===- InterchangeWorkItemLoops.h - y innermost where x would gather ------===//
//
// Swaps the x and y work-item loops of a region when the vectorizer would
// gather across x but not across y. See InterchangeWorkItemLoops.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_INTERCHANGEWORKITEMLOOPS_H
#define WEFT_LLVMOPENCL_INTERCHANGEWORKITEMLOOPS_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// On the inner loop of a swapped nest (CheckParallelLoops does not force
/// its vectorization; see InterchangeWorkItemLoops.cpp).
inline constexpr const char *InterchangedLoopMD = "weft.loop.interchanged";

/// Whether the compile pipeline runs InterchangeWorkItemLoopsPass: yes
/// unless WEFT_INTERCHANGE=0 (a kernel cache key field).
bool workItemInterchangeEnabled();

struct InterchangeWorkItemLoopsPass
    : llvm::PassInfoMixin<InterchangeWorkItemLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_INTERCHANGEWORKITEMLOOPS_H
