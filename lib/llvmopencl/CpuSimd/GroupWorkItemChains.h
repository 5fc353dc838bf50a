//===- GroupWorkItemChains.h - Independent chains a few at a time --------===//
#ifndef WEFT_LLVMOPENCL_GROUPWORKITEMCHAINS_H
#define WEFT_LLVMOPENCL_GROUPWORKITEMCHAINS_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// Reorders the body of a work-item loop whose many independent dependence
/// chains would together hold more values than the vector registers, so
/// that the chains run a few at a time.
struct GroupWorkItemChainsPass : llvm::PassInfoMixin<GroupWorkItemChainsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_GROUPWORKITEMCHAINS_H
