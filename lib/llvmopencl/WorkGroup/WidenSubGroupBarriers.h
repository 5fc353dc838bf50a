//===- WidenSubGroupBarriers.h - Uniform sub-group barriers ---------------===//
//
// Makes a sub-group barrier that every work-item of the group reaches
// equally often a work-group barrier. See WidenSubGroupBarriers.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_WIDENSUBGROUPBARRIERS_H
#define WEFT_LLVMOPENCL_WIDENSUBGROUPBARRIERS_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace weft {

struct WidenSubGroupBarriersPass
    : llvm::PassInfoMixin<WidenSubGroupBarriersPass> {
  explicit WidenSubGroupBarriersPass(std::string Kernel = "")
      : Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::string Kernel; ///< the kernel to work on; "" for all
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_WIDENSUBGROUPBARRIERS_H
