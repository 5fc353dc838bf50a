//===- StaticMultiIssuePipeline.h - The static multi-issue back half ------===//
//
// What WorkGroupCompiler.cpp runs, after the work-group passes every device
// shares, for a device whose TargetDesc::Back is StaticMultiIssue (the
// accelerator simulator). See StaticMultiIssuePipeline.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_STATICMULTIISSUEPIPELINE_H
#define WEFT_LLVMOPENCL_STATICMULTIISSUEPIPELINE_H

#include "weft/machine.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"

namespace weft {

/// O3's options for a machine without SIMD: no loop or SLP vectorization.
llvm::PipelineTuningOptions staticMultiIssueTuning();

/// Registers the back half's passes at O3's extension points.
void registerStaticMultiIssuePasses(llvm::PassBuilder &PB);

/// The passes to run after the work-group passes and before O3.
void addStaticMultiIssuePassesBeforeO3(llvm::ModulePassManager &MPM);

/// After O3: schedules every block of M on Machine and makes the code count
/// the blocks' executions (CountBlockExecutions.h); returns the schedule.
StaticSchedule scheduleAndCountBlocks(llvm::Module &M,
                                      const MachineModel &Machine,
                                      llvm::ModuleAnalysisManager &MAM,
                                      llvm::FunctionAnalysisManager &FAM);

} // namespace weft

#endif // WEFT_LLVMOPENCL_STATICMULTIISSUEPIPELINE_H
