//===- CompilerInternals.h - Helpers shared by the compiler entry points --===//
#ifndef WEFT_LLVMOPENCL_COMPILERINTERNALS_H
#define WEFT_LLVMOPENCL_COMPILERINTERNALS_H

#include "weft/compiler.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace weft {

/// Registers LLVM's native target once, from any thread.
void initializeNativeTarget();

/// Gives every function definition the device's CPU and features, replacing
/// what clang or the builtin library's build put there, so that builtins
/// inline into kernels and the code generator uses all of the CPU.
void retargetFunctions(llvm::Module &M, const TargetDesc &Target);

/// Module flag set by -cl-opt-disable.
inline constexpr const char *OptDisableFlag = "weft.opt-disable";

/// Steps 1 and 2 of BuildProgram.cpp: validates Options (clBuildProgram's),
/// runs clang on Source with Headers as in-memory include files. On failure
/// returns null with Build.Result and Build.Log saying why.
std::unique_ptr<llvm::Module>
compileToModule(llvm::LLVMContext &Context, const std::string &Source,
                const std::string &Options,
                const std::vector<HeaderSource> &Headers,
                const TargetDesc &Target, ProgramBuild &Build);

/// Steps 3 and 4: makes M an executable for Target (builtins linked,
/// functions nobody defines refused, kernels described) and stores it in
/// Build. On failure returns false with Build.Result and Build.Log set.
bool linkExecutable(llvm::Module &M, const TargetDesc &Target,
                    ProgramBuild &Build);

/// Serializes M into Build.Bitcode and marks Build successful.
void writeBitcode(const llvm::Module &M, ProgramBuild &Build);

/// Writes M to $WEFT_DUMP_IR/<Stem>.ll when WEFT_DUMP_IR is set.
void dumpIR(const llvm::Module &M, llvm::StringRef Stem);

/// WEFT_DISABLE_VECTORIZE=1: O3 without the loop and SLP vectorizers, to
/// measure what vectorization buys (tools/vector-bench). Part of the
/// kernel cache key.
bool vectorizationDisabled();

/// False under WEFT_SCALARIZE=0: explicit vector code of work-item loops
/// stays vectors (ScalarizeWorkItemLoops.cpp), to measure what splitting
/// buys. Part of the kernel cache key.
bool scalarizationEnabled();

/// False under WEFT_WIDEN=0: work-item loops over explicit vectors are not
/// widened across work-items (WidenWorkItemLoops.cpp). Part of the kernel
/// cache key.
bool wideningEnabled();

/// False under WEFT_SLP=0: O3 runs without the SLP vectorizer (as LLVM's
/// pipeline does unless asked), to measure what it buys. Part of the
/// kernel cache key.
bool slpVectorizationEnabled();

/// Whether the next trip's global loads are prefetched before work-item
/// loops in kernel loops (PrefetchWorkItemLoads.cpp) for CPU: on AMD Zen,
/// where it was measured to pay; WEFT_PREFETCH=0 or 1 overrides. Part of
/// the kernel cache key.
bool prefetchEnabled(llvm::StringRef CPU);

/// False under WEFT_EXPOSE_INDEX=0: sums of shifted index terms under an
/// ashr are left as InstCombine wrote them (ExposeIndexExtensions.cpp).
/// Part of the kernel cache key.
bool indexExtensionsExposed();

/// False under WEFT_VERSION_GATHERS=0: gathers and scatters get no vector
/// access for consecutive lanes (VersionGathers.cpp). Part of the kernel
/// cache key.
bool gatherVersioningEnabled();

/// False under WEFT_JAM=0: sequential loops whose header is one long
/// dependence chain are not run two trips at a time
/// (JamLoopIterations.cpp). Part of the kernel cache key.
bool iterationJamEnabled();

/// Fills K.PrivateMemSize and K.MaxWorkGroupSize by putting a copy of M
/// (builtins linked) through the work-group passes for K, or from the
/// kernel cache, where the figures of Bitcode (M's) for Target are kept.
void describeKernelMemory(const llvm::Module &M, const std::string &Bitcode,
                          const TargetDesc &Target, KernelDesc &K);

} // namespace weft

#endif
