//===- ResolveNonUniformSubGroups.h - Where sub-groups are whole ----------===//
//
// Answers, per call, whether a non-uniform sub-group function runs with its
// whole sub-group. See ResolveNonUniformSubGroups.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_RESOLVENONUNIFORMSUBGROUPS_H
#define WEFT_LLVMOPENCL_RESOLVENONUNIFORMSUBGROUPS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace weft {

/// lib/kernel/subgroups.cl's declarations for the non-uniform functions:
/// the question this pass answers, and the exchange among the active
/// work-items that the fallback method carries out (WorkGroupFibers.cpp).
inline constexpr llvm::StringLiteral SubGroupUniformHereName =
    "__weft_sub_group_uniform_here";
inline constexpr llvm::StringLiteral SubGroupConvergeName =
    "__weft_sub_group_converge";
inline constexpr llvm::StringLiteral SubGroupConvergedMaskName =
    "__weft_sub_group_converged_mask";
inline constexpr llvm::StringLiteral SubGroupConvergedValueName =
    "__weft_sub_group_converged_value";

struct ResolveNonUniformSubGroupsPass
    : llvm::PassInfoMixin<ResolveNonUniformSubGroupsPass> {
  explicit ResolveNonUniformSubGroupsPass(std::string Kernel = "")
      : Kernel(std::move(Kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::string Kernel; ///< only this kernel's work-item function; "" = all
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_RESOLVENONUNIFORMSUBGROUPS_H
