//===- KernelUtils.h - Naming conventions shared by the Weft passes -------===//
//
// The passes hand functions to each other by attribute, not by position in a
// pipeline, so each pass can run alone in weft-opt on hand-written IR:
//
//   kernel K            spir_kernel calling convention (from clang)
//   K.workitem          "weft-workitem-of"="K"   one work-item; trailing
//                       (ptr %ctx, i64 %lid.x, i64 %lid.y, i64 %lid.z)
//   K.workgroup         "weft-workgroup-of"="K"  all work-items of a group;
//                       trailing (ptr %ctx)
//   __weft_launch_K     the launcher.h ABI
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_KERNELUTILS_H
#define WEFT_LLVMOPENCL_KERNELUTILS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Function.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace weft {

/// Whether the compiler switch in environment variable Name is on: it is
/// unless set to "0" (WEFT_HORIZONTAL, WEFT_LOCKSTEP, ...; each is a kernel
/// cache key field).
inline bool switchEnabled(const char *Name) {
  const char *V = getenv(Name);
  return !V || strcmp(V, "0") != 0;
}

inline constexpr const char *WorkItemAttr = "weft-workitem-of";
inline constexpr const char *WorkGroupAttr = "weft-workgroup-of";
inline constexpr const char *LauncherPrefix = "__weft_launch_";
/// On K.workitem: the region method declined it, for the reason given;
/// WorkGroupFibers.cpp makes its work-group function.
inline constexpr const char *FallbackReasonAttr = "weft-fallback-reason";
/// OpenCL's __global address space under clang's fake address-space map.
inline constexpr unsigned GlobalAddressSpace = 1;
/// OpenCL's __local address space under clang's fake address-space map.
inline constexpr unsigned LocalAddressSpace = 3;

/// Whether memory in address space A can never be memory in B: OpenCL's
/// private (0), global, constant and local spaces are disjoint under
/// clang's fake map; the generic space (4) may be any of them.
inline bool disjointAddressSpaces(unsigned A, unsigned B) {
  return A != B && A <= LocalAddressSpace && B <= LocalAddressSpace;
}

inline bool isKernel(const llvm::Function &F) {
  return !F.isDeclaration() &&
         F.getCallingConv() == llvm::CallingConv::SPIR_KERNEL;
}

/// True when F is a kernel the pass should process: all kernels when Only
/// is empty, else the kernel named Only.
inline bool isSelectedKernel(const llvm::Function &F, llvm::StringRef Only) {
  return isKernel(F) && (Only.empty() || F.getName() == Only);
}

/// The kernel a function made by the passes derives from, or "".
inline llvm::StringRef derivedFrom(const llvm::Function &F,
                                   llvm::StringRef Attr) {
  if (!F.hasFnAttribute(Attr))
    return "";
  return F.getFnAttribute(Attr).getValueAsString();
}

/// True when F is a definition the passes made from a kernel, of the kind
/// Attr names, and derived from the kernel named Only (any when Only is empty).
inline bool isDerivedDefinition(const llvm::Function &F, llvm::StringRef Attr,
                                llvm::StringRef Only) {
  llvm::StringRef Of = derivedFrom(F, Attr);
  return !F.isDeclaration() && !Of.empty() && (Only.empty() || Of == Only);
}

inline bool isWorkItemFunctionOf(const llvm::Function &F,
                                 llvm::StringRef Only) {
  return isDerivedDefinition(F, WorkItemAttr, Only);
}

inline bool isWorkGroupFunctionOf(const llvm::Function &F,
                                  llvm::StringRef Only) {
  return isDerivedDefinition(F, WorkGroupAttr, Only);
}

inline std::string launcherName(llvm::StringRef Kernel) {
  return (LauncherPrefix + Kernel).str();
}

} // namespace weft

#endif // WEFT_LLVMOPENCL_KERNELUTILS_H
