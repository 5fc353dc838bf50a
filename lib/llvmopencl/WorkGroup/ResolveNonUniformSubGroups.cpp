//===- ResolveNonUniformSubGroups.cpp - Where sub-groups are whole --------===//
//
// The non-uniform sub-group functions (cl_khr_subgroup_non_uniform_vote,
// _ballot, _non_uniform_arithmetic; lib/kernel/subgroups.cl) may be called
// where only some work-items of a sub-group get, and then act on those
// only. Each asks __weft_sub_group_uniform_here() which of its two forms to
// take, and this pass answers per call, once the kernel is one work-item
// function:
//
//  - 1 where the call's block is not divergent (UniformityAnalysis: every
//    work-item of the group runs it equally often). Every work-item of
//    every sub-group is then active, and the form is the uniform one:
//    values through the work-group scratch between sub-group barriers,
//    which both work-group methods take (WidenSubGroupBarriers.cpp makes
//    those work-group barriers where a group has several sub-groups);
//  - 0 elsewhere: the form exchanges values through
//    __weft_sub_group_converge(), which only the fallback method runs
//    (RegionMethodLimits.cpp, WorkGroupFibers.cpp): its scheduler knows
//    which work-items of a sub-group wait at the same call, which is the
//    active set the extensions define.
//
// The analysis is conservative (a condition it cannot prove uniform is
// divergent), so a kernel may take the fallback method where all
// work-items were in fact active: slower, never wrong, since the fallback
// form finds the whole sub-group waiting then.
//
// Runs after ResolveWorkItemFunctions (the analysis reads the local ids as
// the work-item function's parameters) and before WidenSubGroupBarriers.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/ResolveNonUniformSubGroups.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/ResolveSubGroups.h"
#include "WorkGroup/UniformityAnalysis.h"

#include "weft/debug.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "weft-resolve-non-uniform-sub-groups"

using namespace llvm;

namespace weft {

PreservedAnalyses
ResolveNonUniformSubGroupsPass::run(Module &M, ModuleAnalysisManager &MAM) {
  Function *Here = M.getFunction(SubGroupUniformHereName);
  if (!Here || Here->use_empty())
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  FAM.registerPass([] { return UniformityAnalysis(); });

  // Every answer first: the analysis must see the function as it was.
  SmallVector<std::pair<CallInst *, bool>, 16> Answers;
  for (Function &F : M) {
    bool Selected = isWorkItemFunctionOf(F, Kernel);
    // Another kernel's work-item function gets its answers when that
    // kernel is compiled.
    if (!Selected && isWorkItemFunctionOf(F, ""))
      continue;
    SmallVector<CallInst *, 8> Calls;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *CI = dyn_cast<CallInst>(&I);
            CI && CI->getCalledFunction() == Here)
          Calls.push_back(CI);
    if (Calls.empty())
      continue;
    if (!Selected) {
      for (CallInst *CI : Calls)
        Answers.push_back({CI, false});
      continue;
    }
    const UniformityInfo &UI = FAM.getResult<UniformityAnalysis>(F);
    unsigned Whole = 0;
    for (CallInst *CI : Calls) {
      bool Uniform = !UI.isDivergent(CI->getParent());
      Whole += Uniform;
      Answers.push_back({CI, Uniform});
    }
    WEFT_LOG(DebugCompile,
             "kernel '%s': %u non-uniform sub-group calls reached by the "
             "whole group, %zu under work-item-dependent control",
             derivedFrom(F, WorkItemAttr).str().c_str(), Whole,
             Calls.size() - Whole);
  }
  if (Answers.empty())
    return PreservedAnalyses::all();

  SetVector<Function *> Touched;
  SmallVector<Instruction *, 32> Seeds;
  for (auto [CI, Uniform] : Answers) {
    Touched.insert(CI->getFunction());
    for (User *U : CI->users())
      if (auto *I = dyn_cast<Instruction>(U))
        Seeds.push_back(I);
    CI->replaceAllUsesWith(ConstantInt::get(CI->getType(), Uniform));
    CI->eraseFromParent();
  }
  foldResolvedCalls(Seeds, Touched);
  for (Function *F : Touched)
    FAM.invalidate(*F, PreservedAnalyses::none());
  return PreservedAnalyses::none();
}

} // namespace weft
