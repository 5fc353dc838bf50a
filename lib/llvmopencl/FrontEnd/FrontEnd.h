//===- FrontEnd.h - OpenCL C to an LLVM module, with clang in-process -----===//
//
// The only file of Weft that includes clang headers (their compile time is
// long); everything else sees this small interface.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_FRONTEND_H
#define WEFT_LLVMOPENCL_FRONTEND_H

#include "weft/compiler.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace weft {

/// The name the source has in diagnostics.
inline constexpr const char *SourceFileName = "input.cl";

/// Runs clang's cc1 with CC1Args (no input file: the source is appended as
/// SourceFileName, from memory) and returns the module, or null when clang
/// failed. Diagnostics, warnings included, are appended to Log. Headers
/// (clCompileProgram's embedded headers) are files in memory, found by
/// `#include "<IncludeName>"`. Deps, when given, receives what the
/// preprocessor looked for outside the source.
std::unique_ptr<llvm::Module>
compileOpenCLSource(llvm::LLVMContext &Context, const std::string &Source,
                    const std::vector<std::string> &CC1Args, std::string &Log,
                    const std::vector<HeaderSource> &Headers = {},
                    SourceDependencies *Deps = nullptr);

} // namespace weft

#endif
