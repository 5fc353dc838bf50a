//===- WeftPasses.h - Registering the Weft passes with a PassBuilder ------===//
//
// For weft-opt and for the compile pipeline: pass names usable in
// -passes= pipelines, and the work-group generation sequence.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_WEFTPASSES_H
#define WEFT_LLVMOPENCL_WEFTPASSES_H

#include "llvm/IR/PassManager.h"

#include <array>
#include <cstdint>
#include <string>

namespace llvm {
class PassBuilder;
}

namespace weft {

/// How kernels become work-group functions (WEFT_WG_METHOD).
enum class WorkGroupMethod {
  Auto,     ///< regions, or the fallback where the region method declines
  Regions,  ///< regions only: a declined kernel fails to compile
  Fallback, ///< every kernel through the fallback (WorkGroupFibers.h)
};

struct WeftPassOptions {
  std::array<uint64_t, 3> LocalSize = {1, 1, 1};
  std::string Kernel; ///< restrict to this kernel; all when empty
  WorkGroupMethod Method = WorkGroupMethod::Auto;
  /// Why every kernel takes the fallback, for the log (Method Fallback).
  std::string FallbackReason = "WEFT_WG_METHOD=fallback";
  /// Bounds checks on every memory access (TargetDesc::CheckAccesses).
  bool CheckAccesses = false;
};

/// WEFT_WG_METHOD: "regions", "fallback", or unset / "auto" for Auto.
/// Another value is logged and taken as Auto.
WorkGroupMethod workGroupMethodFromEnvironment();

/// The name of M for logs and the kernel cache key.
const char *workGroupMethodName(WorkGroupMethod M);

/// Makes weft-flatten-kernels, weft-resolve-workitem-functions,
/// weft-lower-printf, weft-horizontal-loops, weft-normalize-barriers, weft-fold-local-id-divisions, weft-parallel-regions, weft-workitem-loops,
/// weft-launcher and weft-workgroup (all of them in order) parseable in
/// PB's module pipelines.
void registerWeftPasses(llvm::PassBuilder &PB, const WeftPassOptions &Opts);

/// Adds the work-group generation passes, in order, to MPM.
void addWorkGroupPasses(llvm::ModulePassManager &MPM,
                        const WeftPassOptions &Opts);

} // namespace weft

#endif
