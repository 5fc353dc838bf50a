//===- WeftPasses.cpp - Registering the Weft passes with a PassBuilder ----===//

#include "WeftPasses.h"
#include "CpuSimd/CheckParallelLoops.h"
#include "CpuSimd/DistributeIdExtensions.h"
#include "CpuSimd/ExposeIndexExtensions.h"
#include "CpuSimd/GroupWorkItemChains.h"
#include "CpuSimd/HalfConversionCalls.h"
#include "CpuSimd/InterchangeWorkItemLoops.h"
#include "CpuSimd/InterleaveWorkItemLoops.h"
#include "CpuSimd/JamLoopIterations.h"
#include "CpuSimd/LockstepLoops.h"
#include "CpuSimd/PrefetchWorkItemLoads.h"
#include "CpuSimd/PromoteHalfArithmetic.h"
#include "CpuSimd/RevectorizeWorkItemLoops.h"
#include "CpuSimd/RollWorkItemLoops.h"
#include "CpuSimd/ScalarizeWorkItemLoops.h"
#include "CpuSimd/VectorMathVariants.h"
#include "CpuSimd/VersionGathers.h"
#include "CpuSimd/VersionGroupGuards.h"
#include "CpuSimd/WidenWorkItemLoops.h"
#include "StaticMultiIssue/CheckMemoryAccesses.h"
#include "StaticMultiIssue/CountBlockExecutions.h"
#include "StaticMultiIssue/ScheduleBlocks.h"
#include "StaticMultiIssue/UnrollWorkItemLoops.h"
#include "WorkGroup/FlattenKernels.h"
#include "WorkGroup/FoldLocalIdDivisions.h"
#include "WorkGroup/GuardIntegerDivision.h"
#include "WorkGroup/HorizontalLoops.h"
#include "WorkGroup/Launcher.h"
#include "WorkGroup/LowerLocalAtomics.h"
#include "WorkGroup/LowerPrintf.h"
#include "WorkGroup/NormalizeBarriers.h"
#include "WorkGroup/ParallelRegions.h"
#include "WorkGroup/PromotePrivateArrays.h"
#include "WorkGroup/ResolveNonUniformSubGroups.h"
#include "WorkGroup/ResolveSubGroups.h"
#include "WorkGroup/ResolveWorkItemFunctions.h"
#include "WorkGroup/SizeWorkGroupScratch.h"
#include "WorkGroup/UniformityAnalysis.h"
#include "WorkGroup/WidenSubGroupBarriers.h"
#include "WorkGroup/WorkGroupFibers.h"
#include "WorkGroup/WorkItemLoops.h"

#include "weft/debug.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;

namespace weft {

void addWorkGroupPasses(ModulePassManager &MPM, const WeftPassOptions &Opts) {
  MPM.addPass(FlattenKernelsPass(Opts.Kernel));
  // Before anything looks at barriers: it deletes the sub-group functions'
  // form that the local size does not use.
  MPM.addPass(ResolveSubGroupsPass(Opts.LocalSize));
  MPM.addPass(SizeWorkGroupScratchPass(Opts.LocalSize));
  MPM.addPass(createModuleToFunctionPassAdaptor(GuardIntegerDivisionPass()));
  // Everything is inlined and get_global_id not yet resolved: the checks
  // name the work-item by the calls they add.
  if (Opts.CheckAccesses)
    MPM.addPass(CheckMemoryAccessesPass(Opts.Kernel));
  MPM.addPass(ResolveWorkItemFunctionsPass(Opts.Kernel));
  // Both need the work-item function and come before anything that looks
  // at barriers; the first leaves barriers that the second may widen.
  MPM.addPass(ResolveNonUniformSubGroupsPass(Opts.Kernel));
  MPM.addPass(WidenSubGroupBarriersPass(Opts.Kernel));
  MPM.addPass(LowerPrintfPass(Opts.Kernel));
  MPM.addPass(PromotePrivateArraysPass(Opts.Kernel));
  // Before the horizontal loops: the copy for whole groups has uniform
  // loops where the guarded original has divergent ones.
  if (Opts.Method != WorkGroupMethod::Fallback)
    MPM.addPass(VersionGroupGuardsPass(Opts.LocalSize, Opts.Kernel));
  // Implicit barriers only help the region method; fibers would switch at
  // each one.
  if (horizontalLoopsEnabled() && Opts.Method != WorkGroupMethod::Fallback)
    MPM.addPass(HorizontalLoopsPass(Opts.LocalSize, Opts.Kernel));
  MPM.addPass(NormalizeBarriersPass(Opts.Kernel));
  MPM.addPass(FoldLocalIdDivisionsPass(Opts.LocalSize, Opts.Kernel));
  MPM.addPass(DistributeIdExtensionsPass(Opts.LocalSize, Opts.Kernel));
  bool AllFibers = Opts.Method == WorkGroupMethod::Fallback;
  if (!AllFibers)
    MPM.addPass(ParallelRegionsPass(Opts.LocalSize, Opts.Kernel));
  // What the region method declined (FallbackReasonAttr); every kernel,
  // barriers or not, when forced. Nothing under WEFT_WG_METHOD=regions, so
  // a declined kernel has no work-group function and fails to compile.
  if (Opts.Method != WorkGroupMethod::Regions)
    MPM.addPass(WorkGroupFibersPass(Opts.LocalSize, Opts.Kernel, AllFibers,
                                    Opts.FallbackReason));
  MPM.addPass(WorkItemLoopsPass(Opts.LocalSize, Opts.Kernel));
  // Splits the work-item loops both methods build; fibers have none.
  if (lockstepLoopsEnabled() && Opts.Method != WorkGroupMethod::Fallback)
    MPM.addPass(LockstepLoopsPass(Opts.LocalSize, Opts.Kernel));
  // y innermost where x would gather; before RollWorkItemLoops marks the
  // loop that ends up innermost.
  if (workItemInterchangeEnabled())
    MPM.addPass(
        createModuleToFunctionPassAdaptor(InterchangeWorkItemLoopsPass()));
  // Before O3's full unrolling takes the short x loops whole.
  MPM.addPass(createModuleToFunctionPassAdaptor(RollWorkItemLoopsPass()));
  // After the work-item loops have tagged their accesses as parallel: the
  // plain accesses that replace __local atomics must stay untagged.
  MPM.addPass(createModuleToFunctionPassAdaptor(LowerLocalAtomicsPass()));
  MPM.addPass(LauncherPass(Opts.Kernel));
}

WorkGroupMethod workGroupMethodFromEnvironment() {
  const char *V = getenv("WEFT_WG_METHOD");
  if (!V || !*V || !strcmp(V, "auto"))
    return WorkGroupMethod::Auto;
  if (!strcmp(V, "regions"))
    return WorkGroupMethod::Regions;
  if (!strcmp(V, "fallback"))
    return WorkGroupMethod::Fallback;
  WEFT_LOG(DebugCompile,
           "WEFT_WG_METHOD=%s is not auto, regions or fallback; using auto", V);
  return WorkGroupMethod::Auto;
}

const char *workGroupMethodName(WorkGroupMethod M) {
  switch (M) {
  case WorkGroupMethod::Auto:
    return "auto";
  case WorkGroupMethod::Regions:
    return "regions";
  case WorkGroupMethod::Fallback:
    return "fallback";
  }
  return "auto";
}

void registerWeftPasses(PassBuilder &PB, const WeftPassOptions &Opts) {
  PB.registerAnalysisRegistrationCallback([](FunctionAnalysisManager &FAM) {
    FAM.registerPass([] { return UniformityAnalysis(); });
  });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "print<weft-uniformity>") {
          FPM.addPass(UniformityPrinterPass(outs()));
          return true;
        }
        if (Name == "weft-check-parallel-loops") {
          FPM.addPass(CheckParallelLoopsPass());
          return true;
        }
        if (Name == "weft-group-workitem-chains") {
          FPM.addPass(GroupWorkItemChainsPass());
          return true;
        }
        if (Name == "weft-guard-integer-division") {
          FPM.addPass(GuardIntegerDivisionPass());
          return true;
        }
        if (Name == "weft-lower-local-atomics") {
          FPM.addPass(LowerLocalAtomicsPass());
          return true;
        }
        if (Name == "weft-interchange-workitem-loops") {
          FPM.addPass(InterchangeWorkItemLoopsPass());
          return true;
        }
        if (Name == "weft-roll-workitem-loops") {
          FPM.addPass(RollWorkItemLoopsPass());
          return true;
        }
        if (Name == "weft-interleave-workitem-loops") {
          FPM.addPass(InterleaveWorkItemLoopsPass());
          return true;
        }
        if (Name == "weft-scalarize-workitem-loops") {
          FPM.addPass(ScalarizeWorkItemLoopsPass());
          return true;
        }
        if (Name == "weft-prefetch-workitem-loads") {
          FPM.addPass(PrefetchWorkItemLoadsPass());
          return true;
        }
        if (Name == "weft-revectorize-workitem-loops") {
          FPM.addPass(RevectorizeWorkItemLoopsPass());
          return true;
        }
        if (Name == "weft-widen-workitem-loops") {
          FPM.addPass(WidenWorkItemLoopsPass());
          return true;
        }
        if (Name == "weft-expose-index-extensions") {
          FPM.addPass(ExposeIndexExtensionsPass());
          return true;
        }
        if (Name == "weft-promote-half-arithmetic") {
          FPM.addPass(PromoteHalfArithmeticPass());
          return true;
        }
        if (Name == "weft-form-half-conversion-calls") {
          FPM.addPass(
              HalfConversionCallsPass(HalfConversionCallsPass::Phase::Form));
          return true;
        }
        if (Name == "weft-lower-half-conversion-calls") {
          FPM.addPass(
              HalfConversionCallsPass(HalfConversionCallsPass::Phase::Lower));
          return true;
        }
        // The static multi-issue back half (StaticMultiIssue/).
        if (Name == "weft-unroll-workitem-loops") {
          FPM.addPass(UnrollWorkItemLoopsPass(workItemUnrollFactor()));
          return true;
        }
        if (Name == "print<weft-static-schedule>") {
          FPM.addPass(StaticSchedulePrinterPass(outs()));
          return true;
        }
        if (Name == "weft-version-gathers") {
          FPM.addPass(VersionGathersPass());
          return true;
        }
        if (Name == "weft-jam-loop-iterations") {
          FPM.addPass(JamLoopIterationsPass());
          return true;
        }
        return false;
      });
  PB.registerPipelineParsingCallback(
      [Opts](StringRef Name, ModulePassManager &MPM,
             ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "weft-flatten-kernels") {
          MPM.addPass(FlattenKernelsPass(Opts.Kernel));
          return true;
        }
        if (Name == "weft-check-memory-accesses") {
          MPM.addPass(CheckMemoryAccessesPass(Opts.Kernel));
          return true;
        }
        if (Name == "weft-resolve-sub-groups") {
          MPM.addPass(ResolveSubGroupsPass(Opts.LocalSize));
          return true;
        }
        if (Name == "weft-size-work-group-scratch") {
          MPM.addPass(SizeWorkGroupScratchPass(Opts.LocalSize));
          return true;
        }
        if (Name == "weft-resolve-workitem-functions") {
          MPM.addPass(ResolveWorkItemFunctionsPass(Opts.Kernel));
          return true;
        }
        if (Name == "weft-resolve-non-uniform-sub-groups") {
          MPM.addPass(ResolveNonUniformSubGroupsPass(Opts.Kernel));
          return true;
        }
        if (Name == "weft-widen-sub-group-barriers") {
          MPM.addPass(WidenSubGroupBarriersPass(Opts.Kernel));
          return true;
        }
        if (Name == "weft-lower-printf") {
          MPM.addPass(LowerPrintfPass(Opts.Kernel));
          return true;
        }
        if (Name == "weft-promote-private-arrays") {
          MPM.addPass(PromotePrivateArraysPass(Opts.Kernel));
          return true;
        }
        if (Name == "weft-version-group-guards") {
          MPM.addPass(VersionGroupGuardsPass(Opts.LocalSize, Opts.Kernel));
          return true;
        }
        if (Name == "weft-horizontal-loops") {
          MPM.addPass(HorizontalLoopsPass(Opts.LocalSize, Opts.Kernel));
          return true;
        }
        if (Name == "weft-normalize-barriers") {
          MPM.addPass(NormalizeBarriersPass(Opts.Kernel));
          return true;
        }
        if (Name == "weft-fold-local-id-divisions") {
          MPM.addPass(FoldLocalIdDivisionsPass(Opts.LocalSize, Opts.Kernel));
          return true;
        }
        if (Name == "weft-distribute-id-extensions") {
          MPM.addPass(DistributeIdExtensionsPass(Opts.LocalSize, Opts.Kernel));
          return true;
        }
        if (Name == "weft-parallel-regions") {
          MPM.addPass(ParallelRegionsPass(Opts.LocalSize, Opts.Kernel));
          return true;
        }
        if (Name == "weft-workgroup-fibers") {
          MPM.addPass(WorkGroupFibersPass(
              Opts.LocalSize, Opts.Kernel,
              Opts.Method == WorkGroupMethod::Fallback, Opts.FallbackReason));
          return true;
        }
        if (Name == "weft-workitem-loops") {
          MPM.addPass(WorkItemLoopsPass(Opts.LocalSize, Opts.Kernel));
          return true;
        }
        if (Name == "weft-lockstep-loops") {
          MPM.addPass(LockstepLoopsPass(Opts.LocalSize, Opts.Kernel));
          return true;
        }
        if (Name == "weft-count-block-executions") {
          MPM.addPass(CountBlockExecutionsPass());
          return true;
        }
        if (Name == "weft-launcher") {
          MPM.addPass(LauncherPass(Opts.Kernel));
          return true;
        }
        // AVX-512's widths: the lit tests name their SLEEF functions.
        if (Name == "weft-vector-math-variants") {
          MPM.addPass(VectorMathVariantsPass(64));
          return true;
        }
        if (Name == "weft-workgroup") {
          addWorkGroupPasses(MPM, Opts);
          return true;
        }
        return false;
      });
}

} // namespace weft
