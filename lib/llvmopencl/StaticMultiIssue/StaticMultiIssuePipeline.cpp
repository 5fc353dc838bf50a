//===- StaticMultiIssuePipeline.cpp - The static multi-issue back half ----===//
//
// The compiler's back half for a static multi-issue machine without SIMD
// (weft/machine.h), after the passes every device shares have formed the
// parallel regions and their work-item loops:
//
//   work-item loops tagged and asked to unroll (UnrollWorkItemLoops.cpp)
//   -> O3 without loop or SLP vectorization, unrolling only what is asked
//      for and loops of small constant trip counts (whole)
//        at vectorizer start: LLVM's Scalarizer, so that source-level
//        vectors (float4...) become the scalar operations the machine has,
//        before the unroller copies them
//        at the end: the Scalarizer again, for vectors O3 rebuilt
//   -> every block list-scheduled on the model (ScheduleBlocks.cpp)
//   -> every block counts its executions (CountBlockExecutions.cpp)
//   -> native code for the host, as for a CPU, so that the results are
//      exact; the schedule and the counts give the simulated time.
//
// Unrolling is how this back half maps the parallelism of the regions onto
// the machine (the pocl paper's §6.4): the CPU back half maps it onto SIMD
// lanes with the loop vectorizer instead.
//
//===----------------------------------------------------------------------===//
#include "StaticMultiIssue/StaticMultiIssuePipeline.h"
#include "StaticMultiIssue/CountBlockExecutions.h"
#include "StaticMultiIssue/ScheduleBlocks.h"
#include "StaticMultiIssue/UnrollWorkItemLoops.h"

#include "weft/debug.h"

#include "llvm/Transforms/Scalar/LoopUnrollPass.h"

#include "llvm/Transforms/Scalar/Scalarizer.h"
#include <chrono>

using namespace llvm;

namespace weft {

PipelineTuningOptions staticMultiIssueTuning() {
  PipelineTuningOptions Tuning;
  Tuning.LoopVectorization = false;
  Tuning.SLPVectorization = false;
  // O3's partial and runtime unrolling follow the host CPU (its loop
  // buffer): the machine's code must not change with the host. Only what
  // UnrollWorkItemLoops and the source ask for, and full unrolling of
  // loops of small constant trip counts (registerStaticMultiIssuePasses).
  Tuning.LoopUnrolling = false;
  return Tuning;
}

static ScalarizerPass scalarizer() {
  ScalarizerPassOptions Options;
  Options.ScalarizeLoadStore = true;
  Options.ScalarizeVariableInsertExtract = true;
  return ScalarizerPass(Options);
}

void registerStaticMultiIssuePasses(PassBuilder &PB) {
  // What LoopUnrolling = false leaves out of the loop pipeline: a kernel
  // loop of a few constant trips inside a work-item loop (DCT's 8-trip
  // products without WEFT_HORIZONTAL) unrolled whole, so that the work-item
  // loop around it becomes innermost and UnrollWorkItemLoops' request
  // puts several work-items' products in one block.
  PB.registerLoopOptimizerEndEPCallback(
      [](LoopPassManager &LPM, OptimizationLevel Level) {
        LPM.addPass(LoopFullUnrollPass(Level.getSpeedupLevel(),
                                       /*OnlyWhenForced=*/false,
                                       /*ForgetSCEV=*/false));
      });
  PB.registerVectorizerStartEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel) {
        FPM.addPass(scalarizer());
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(createModuleToFunctionPassAdaptor(scalarizer()));
      });
}

void addStaticMultiIssuePassesBeforeO3(ModulePassManager &MPM) {
  unsigned Factor = workItemUnrollFactor();
  WEFT_LOG(DebugCompile, "static multi-issue: work-item loops unrolled by %u",
           Factor);
  MPM.addPass(
      createModuleToFunctionPassAdaptor(UnrollWorkItemLoopsPass(Factor)));
}

StaticSchedule scheduleAndCountBlocks(Module &M, const MachineModel &Machine,
                                      ModuleAnalysisManager &MAM,
                                      FunctionAnalysisManager &FAM) {
  auto Start = std::chrono::steady_clock::now();
  StaticSchedule Schedule = scheduleModule(M, Machine, FAM);
  WEFT_LOG(
      DebugCompile, "static schedule of %zu blocks: %.3f s",
      Schedule.Blocks.size(),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count());
  ModulePassManager MPM;
  MPM.addPass(CountBlockExecutionsPass());
  MPM.run(M, MAM);
  return Schedule;
}

} // namespace weft
