//===- SpirvFrontEnd.h - SPIR-V to an LLVM module, with llvm-spirv --------===//
//
// clCreateProgramWithIL's programs. The Khronos SPIR-V/LLVM translator
// (Debian's llvm-spirv-15) turns SPIR-V into LLVM bitcode in a process of
// its own, so that no second LLVM is ever loaded into the application;
// LLVM 19 reads the older bitcode, and the module is then adopted: the
// SPIR target's conventions become the device's, and the translator's
// spelling of OpenCL builtins becomes the builtin library's.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_SPIRVFRONTEND_H
#define WEFT_LLVMOPENCL_SPIRVFRONTEND_H

#include "weft/compiler.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace weft {

struct BuiltinLibrary;

/// Translates the SPIR-V module IL, with the specialization constants
/// SpecConstants fixed, and returns it as LLVM IR for the device: triple
/// and data layout of Lib, C calling conventions, builtin calls named as
/// Lib names them. Null on failure, with the reason appended to Log (a
/// missing translator, a module it refuses).
std::unique_ptr<llvm::Module>
translateSpirv(llvm::LLVMContext &Context, const std::string &IL,
               const SpecializationConstants &SpecConstants,
               const BuiltinLibrary &Lib, std::string &Log);

} // namespace weft

#endif // WEFT_LLVMOPENCL_SPIRVFRONTEND_H
