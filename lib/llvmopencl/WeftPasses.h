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

struct WeftPassOptions {
  std::array<uint64_t, 3> LocalSize = {1, 1, 1};
  std::string Kernel; ///< restrict to this kernel; all when empty
};

/// Makes weft-flatten-kernels, weft-resolve-workitem-functions,
/// weft-lower-printf, weft-horizontal-loops, weft-normalize-barriers, weft-parallel-regions, weft-workitem-loops,
/// weft-launcher and weft-workgroup (all of them in order) parseable in
/// PB's module pipelines.
void registerWeftPasses(llvm::PassBuilder &PB, const WeftPassOptions &Opts);

/// Adds the work-group generation passes, in order, to MPM.
void addWorkGroupPasses(llvm::ModulePassManager &MPM,
                        const WeftPassOptions &Opts);

} // namespace weft

#endif
