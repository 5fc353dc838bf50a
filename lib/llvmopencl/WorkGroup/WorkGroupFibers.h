//===- WorkGroupFibers.h - The fallback work-group method -----------------===//
#ifndef WEFT_LLVMOPENCL_WORKGROUPFIBERS_H
#define WEFT_LLVMOPENCL_WORKGROUPFIBERS_H

#include "llvm/IR/PassManager.h"

#include <array>
#include <cstdint>
#include <string>

namespace weft {

/// Makes K.workgroup run each work-item of K.workitem as a fiber
/// (FiberRuntime.h), for the work-item functions the region method declined
/// (FallbackReasonAttr), or for all of them when All is set.
struct WorkGroupFibersPass : llvm::PassInfoMixin<WorkGroupFibersPass> {
  WorkGroupFibersPass(std::array<uint64_t, 3> LocalSize, std::string Kernel,
                      bool All, std::string AllReason)
      : LocalSize(LocalSize), Kernel(std::move(Kernel)), All(All),
        AllReason(std::move(AllReason)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  std::array<uint64_t, 3> LocalSize;
  std::string Kernel;
  bool All;
  std::string AllReason; ///< for the log, when All
};

} // namespace weft

#endif
