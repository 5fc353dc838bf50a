//===- ProgramBinary.h - CL_PROGRAM_BINARIES and clCreateProgramWithBinary ===//
//
// A program binary is a successful build for one device, wrapped so that a
// later process can tell whether it may use it:
//
//   magic "WEFTBIN\0" | format version | payload size | FNV-1a of payload
//   payload: Weft version, target triple/CPU/features/SIMD width, build
//            options, binary type (executable, compiled object, library),
//            kernel descriptions (executables only), LLVM bitcode, and the
//            kernels compiled so far (kernel, local size, native code)
//
// The native code lets a reloaded program run its first kernels without
// compiling; the driver uses it only if it fits its own build exactly
// (DeviceDriver::adoptKernelCode), and compiles from the bitcode otherwise.
//
// Every field is read with bounds checks, so a truncated, corrupted or
// foreign binary is refused (CL_INVALID_BINARY) rather than crashing, and a
// binary for another CPU is refused rather than producing wrong code.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_CL_PROGRAMBINARY_H
#define WEFT_LIB_CL_PROGRAMBINARY_H

#include "weft/compiler.h"

#include <memory>
#include <string>
#include <vector>

namespace weft {

/// The binary of Build (successful, of any BinaryKind) for a device
/// targeting Target, with the kernels compiled so far.
std::string serializeProgramBinary(const ProgramBuild &Build,
                                   const std::string &Options,
                                   const TargetDesc &Target,
                                   const std::vector<KernelCode> &Code = {});

/// Reads a binary for a device targeting Target. On failure returns null
/// and says why in Why. The compiled kernels it carries go to Code;
/// Sealed says whether this build of Weft wrote it (sealOfBinary).
std::shared_ptr<const ProgramBuild> deserializeProgramBinary(
    const unsigned char *Data, size_t Size, const TargetDesc &Target,
    std::string &Options, std::string &Why,
    std::vector<KernelCode> *Code = nullptr, bool *Sealed = nullptr);

} // namespace weft

#endif // WEFT_LIB_CL_PROGRAMBINARY_H
