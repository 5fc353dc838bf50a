//===- CompilerInternals.h - Helpers shared by the compiler entry points --===//
#ifndef WEFT_LLVMOPENCL_COMPILERINTERNALS_H
#define WEFT_LLVMOPENCL_COMPILERINTERNALS_H

#include "weft/compiler.h"

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Module;
}

namespace weft {

/// Registers LLVM's native target once, from any thread.
void initializeNativeTarget();

/// Gives every function definition the device's CPU and features, replacing
/// what clang or the builtin library's build put there, so that builtins
/// inline into kernels and the code generator uses all of the CPU.
void retargetFunctions(llvm::Module &M, const TargetDesc &Target);

/// Module flag set by -cl-opt-disable.
inline constexpr const char *OptDisableFlag = "weft.opt-disable";

/// Writes M to $WEFT_DUMP_IR/<Stem>.ll when WEFT_DUMP_IR is set.
void dumpIR(const llvm::Module &M, llvm::StringRef Stem);

} // namespace weft

#endif
