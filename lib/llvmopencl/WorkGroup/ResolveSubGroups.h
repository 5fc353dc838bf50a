//===- ResolveSubGroups.h - Sub-groups for the compiled local size --------===//
//
// Answers the builtin library's sub-group questions for the local size a
// work-group function is compiled for. See ResolveSubGroups.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_RESOLVESUBGROUPS_H
#define WEFT_LLVMOPENCL_RESOLVESUBGROUPS_H

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/PassManager.h"

#include <array>
#include <cstdint>

namespace weft {

/// lib/kernel/subgroups.cl's declarations that nothing defines.
inline constexpr llvm::StringLiteral SubGroupMaxName = "__weft_sub_group_max";
inline constexpr llvm::StringLiteral SeveralSubGroupsName =
    "__weft_several_sub_groups";
/// A barrier among the work-items of the caller's sub-group only; left for
/// the fallback method (WorkGroupFibers.cpp) when a group has several.
inline constexpr llvm::StringLiteral SubGroupBarrierName =
    "__weft_sub_group_barrier";

/// Whether a work-group of LocalSize holds more than one sub-group (an
/// unknown size, 0 somewhere, is taken as several: the general code).
bool hasSeveralSubGroups(const std::array<uint64_t, 3> &LocalSize);

/// Folds what the constants that replaced resolved calls decide, starting
/// from their users Work, then deletes from the functions Touched the
/// blocks that can no longer run and the instructions left dead.
void foldResolvedCalls(llvm::SmallVectorImpl<llvm::Instruction *> &Work,
                       const llvm::SetVector<llvm::Function *> &Touched);

struct ResolveSubGroupsPass : llvm::PassInfoMixin<ResolveSubGroupsPass> {
  explicit ResolveSubGroupsPass(std::array<uint64_t, 3> LocalSize)
      : LocalSize(LocalSize) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  std::array<uint64_t, 3> LocalSize; ///< the local size compiled for
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_RESOLVESUBGROUPS_H
