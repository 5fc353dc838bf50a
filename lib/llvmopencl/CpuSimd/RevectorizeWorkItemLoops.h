//===- RevectorizeWorkItemLoops.h - Rebuild vectors split into lanes ------===//
#ifndef WEFT_LLVMOPENCL_REVECTORIZEWORKITEMLOOPS_H
#define WEFT_LLVMOPENCL_REVECTORIZEWORKITEMLOOPS_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// On a work-item function whose float2/float4 values HorizontalLoops kept
/// whole (only loops left to full unrolling, no horizontal loop): the
/// kernel's per-component code (CLBlast's MultiplyAddVector) is to be
/// rebuilt into vector operations by RevectorizeWorkItemLoopsPass, so that
/// WidenWorkItemLoops can run several work-items' vectors per register.
inline constexpr const char *VectorsKeptAttr = "weft-vectors-kept";

/// Whether HorizontalLoops keeps the vectors of such functions and the
/// pipeline runs RevectorizeWorkItemLoopsPass: yes unless
/// WEFT_REVECTORIZE=0 (a kernel cache key field).
bool revectorizationEnabled();

/// Right before WidenWorkItemLoops, on functions marked VectorsKeptAttr:
/// rebuilds vector operations from scalar operations on the lanes of
/// vectors (extractelement, one scalar op per lane, insertelement) and
/// makes a splat of one element of a loaded vector a splat of a scalar
/// load of that element (a broadcast from memory instead of shuffles).
struct RevectorizeWorkItemLoopsPass
    : llvm::PassInfoMixin<RevectorizeWorkItemLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_REVECTORIZEWORKITEMLOOPS_H
