//===- UniformityAnalysis.h - Values equal in every work-item of a group --===//
//
// Which values of a work-item function K.workitem (ResolveWorkItemFunctions)
// are uniform: the same in every work-item of a work-group. See
// UniformityAnalysis.cpp for the rules.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_UNIFORMITYANALYSIS_H
#define WEFT_LLVMOPENCL_UNIFORMITYANALYSIS_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Value.h"

namespace llvm {
class raw_ostream;
}

namespace weft {

class UniformityInfo {
public:
  /// Whether V has one value for the whole work-group. Values of functions
  /// that are not work-item functions are never uniform.
  bool isUniform(const llvm::Value *V) const;
  bool isVarying(const llvm::Value *V) const { return !isUniform(V); }

  /// Whether BB may run for some work-items only, or a different number of
  /// times in different work-items: it lies between a branch on a varying
  /// condition and that branch's immediate post-dominator (or on a cycle
  /// through such a branch). A barrier placed in a block that is not
  /// divergent is reached by every work-item equally often.
  bool isDivergent(const llvm::BasicBlock *BB) const {
    return !IsWorkItemFunction || DivergentBlocks.count(BB);
  }

private:
  friend class UniformityAnalysis;
  bool IsWorkItemFunction = false;
  llvm::DenseSet<const llvm::Value *> Varying;
  llvm::DenseSet<const llvm::BasicBlock *> DivergentBlocks;
};

class UniformityAnalysis : public llvm::AnalysisInfoMixin<UniformityAnalysis> {
  friend llvm::AnalysisInfoMixin<UniformityAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = UniformityInfo;
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

/// print<weft-uniformity>: every argument and value-producing instruction
/// of each work-item function, as "uniform" or "varying".
class UniformityPrinterPass
    : public llvm::PassInfoMixin<UniformityPrinterPass> {
  llvm::raw_ostream &OS;

public:
  explicit UniformityPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
};

} // namespace weft

#endif
