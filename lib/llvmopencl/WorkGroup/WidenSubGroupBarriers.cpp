//===- WidenSubGroupBarriers.cpp - Uniform sub-group barriers -------------===//
//
// Where a work-group has several sub-groups, the sub-group functions
// synchronize on __weft_sub_group_barrier() (lib/kernel/subgroups.cl,
// ResolveSubGroups.cpp), which only the fallback method can run: fibers,
// a context switch per work-item and barrier, no vectorization. Most
// kernels, though, call their sub-group functions where every work-item of
// the group gets: outside any condition, or under one that is the same for
// the whole group. There a work-group barrier is legal, and it is a valid
// sub-group barrier, stronger than needed: no work-item of the sub-group
// passes it before all have reached it. So each sub-group barrier in a
// block that is not divergent (UniformityAnalysis: every work-item runs it
// equally often) becomes a work-group barrier, and a kernel left with none
// keeps the region method and its vectorized work-item loops.
//
// The collectives' steps stay those of the several-sub-groups form (per
// sub-group slots, combined by each sub-group's first work-item), which
// are correct under either barrier. A sub-group barrier under a condition
// that may differ between sub-groups (get_sub_group_id() == 0, a loaded
// value) stays, and takes the kernel to the fallback method.
//
// Runs on the work-item functions, after ResolveWorkItemFunctions (the
// analysis reads the local ids as its parameters) and before anything
// that looks at barriers.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/WidenSubGroupBarriers.h"
#include "WorkGroup/BarrierUtils.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/ResolveSubGroups.h"
#include "WorkGroup/UniformityAnalysis.h"

#include "weft/debug.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "weft-widen-sub-group-barriers"

using namespace llvm;

namespace weft {

PreservedAnalyses WidenSubGroupBarriersPass::run(Module &M,
                                                 ModuleAnalysisManager &MAM) {
  Function *SubGroupBarrier = M.getFunction(SubGroupBarrierName);
  if (!SubGroupBarrier || SubGroupBarrier->use_empty())
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  FAM.registerPass([] { return UniformityAnalysis(); });
  bool Changed = false;
  for (Function &F : M) {
    if (!isWorkItemFunctionOf(F, Kernel))
      continue;
    SmallVector<CallInst *, 8> Uniform;
    unsigned Divergent = 0;
    {
      const UniformityInfo &UI = FAM.getResult<UniformityAnalysis>(F);
      for (BasicBlock &BB : F)
        for (Instruction &I : BB)
          if (auto *CI = dyn_cast<CallInst>(&I);
              CI && CI->getCalledFunction() == SubGroupBarrier) {
            if (UI.isDivergent(&BB))
              ++Divergent;
            else
              Uniform.push_back(CI);
          }
    }
    if (Uniform.empty())
      continue;
    FunctionCallee Marker = getBarrierMarker(M);
    for (CallInst *CI : Uniform) {
      CallInst *New = CallInst::Create(Marker, {}, "", CI->getIterator());
      New->setDebugLoc(CI->getDebugLoc());
      CI->eraseFromParent();
    }
    FAM.invalidate(F, PreservedAnalyses::none());
    Changed = true;
    WEFT_LOG(DebugCompile,
             "kernel '%s': %zu sub-group barriers reached by the whole group "
             "became work-group barriers, %u under sub-group-dependent "
             "control stay",
             derivedFrom(F, WorkItemAttr).str().c_str(), Uniform.size(),
             Divergent);
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
