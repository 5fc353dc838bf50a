//===- WeftPasses.cpp - Registering the Weft passes with a PassBuilder ----===//

#include "WeftPasses.h"
#include "FlattenKernels.h"
#include "HorizontalLoops.h"
#include "Launcher.h"
#include "LowerPrintf.h"
#include "NormalizeBarriers.h"
#include "ParallelRegions.h"
#include "ResolveWorkItemFunctions.h"
#include "UniformityAnalysis.h"
#include "VectorMathVariants.h"
#include "WorkItemLoops.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace weft {

void addWorkGroupPasses(ModulePassManager &MPM, const WeftPassOptions &Opts) {
  MPM.addPass(FlattenKernelsPass(Opts.Kernel));
  MPM.addPass(ResolveWorkItemFunctionsPass(Opts.Kernel));
  MPM.addPass(LowerPrintfPass(Opts.Kernel));
  if (horizontalLoopsEnabled())
    MPM.addPass(HorizontalLoopsPass(Opts.LocalSize, Opts.Kernel));
  MPM.addPass(NormalizeBarriersPass(Opts.Kernel));
  MPM.addPass(ParallelRegionsPass(Opts.LocalSize, Opts.Kernel));
  MPM.addPass(WorkItemLoopsPass(Opts.LocalSize, Opts.Kernel));
  MPM.addPass(LauncherPass(Opts.Kernel));
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
        return false;
      });
  PB.registerPipelineParsingCallback(
      [Opts](StringRef Name, ModulePassManager &MPM,
             ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "weft-flatten-kernels") {
          MPM.addPass(FlattenKernelsPass(Opts.Kernel));
          return true;
        }
        if (Name == "weft-resolve-workitem-functions") {
          MPM.addPass(ResolveWorkItemFunctionsPass(Opts.Kernel));
          return true;
        }
        if (Name == "weft-lower-printf") {
          MPM.addPass(LowerPrintfPass(Opts.Kernel));
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
        if (Name == "weft-parallel-regions") {
          MPM.addPass(ParallelRegionsPass(Opts.LocalSize, Opts.Kernel));
          return true;
        }
        if (Name == "weft-workitem-loops") {
          MPM.addPass(WorkItemLoopsPass(Opts.LocalSize, Opts.Kernel));
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
