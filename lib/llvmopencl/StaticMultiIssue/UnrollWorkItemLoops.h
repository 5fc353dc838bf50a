//===- UnrollWorkItemLoops.h - Unroll requests for parallel loops ---------===//
//
// Asks LLVM's loop unroller to unroll each parallel work-item loop by a
// factor, and tags the loop's memory accesses so that the list scheduler
// can tell the copies of different work-items apart. See the .cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_UNROLLWORKITEMLOOPS_H
#define WEFT_LLVMOPENCL_UNROLLWORKITEMLOOPS_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// Metadata on a memory access of a parallel loop: !{AccessGroup, i32 Seq},
/// Seq its position among the loop's accesses in program order.
inline constexpr const char *WorkItemAccessMD = "weft.workitem.access";

/// The factor WEFT_ACCELSIM_UNROLL asks for (default 8; 1 turns unrolling
/// off; values that are not positive integers give the default).
unsigned workItemUnrollFactor();

struct UnrollWorkItemLoopsPass : llvm::PassInfoMixin<UnrollWorkItemLoopsPass> {
  explicit UnrollWorkItemLoopsPass(unsigned Factor) : Factor(Factor) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);

private:
  unsigned Factor;
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_UNROLLWORKITEMLOOPS_H
