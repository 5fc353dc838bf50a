//===- weft/launcher.h - The fixed ABI between CPU drivers and kernels ----===//
//
// Every work-group function the compiler emits for a CPU device is reached
// through one launcher with this signature, whatever the kernel's own
// arguments are. Drivers therefore never need to know a kernel's prototype:
// they fill an argument table once per enqueue and a WorkGroupContext per
// work-group, and call the launcher.
//
// The layout is shared with generated code (lib/llvmopencl/WorkGroup/Launcher.cpp
// builds the matching LLVM struct type), so fields may only be appended.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LAUNCHER_H
#define WEFT_LAUNCHER_H

#include <cstdint>

namespace weft {

/// Where printf (OpenCL C 6.15.14) leaves its records during one NDRange:
/// generated code claims Size bytes with an atomic add on Used and writes
/// its record only when the claim ends within Capacity; the driver formats
/// the records once every work-group has finished. Records are 8-byte
/// aligned: u64 RecordSize, format pointer, u64 NumArgs, then per argument
/// a u64 tag (byte size in bits 0-31; for a pointer, its address space + 1
/// in bits 32-39) and the bytes padded to 8. A RecordSize of 0 ends the
/// records early (a claim that did not fit).
struct PrintfBuffer {
  uint64_t Used;
  uint64_t Capacity;
  unsigned char *Data;
};

/// What a work-group needs to know about the NDRange it belongs to. One per
/// work-group call; the driver may reuse it between calls.
struct WorkGroupContext {
  uint32_t WorkDim;
  uint32_t Reserved;
  uint64_t GroupId[3];
  uint64_t NumGroups[3];
  uint64_t GlobalOffset[3];
  uint64_t GlobalSize[3];
  /// Size of this work-group: equal to EnqueuedLocalSize except for the
  /// remainder group of a non-uniform NDRange.
  uint64_t LocalSize[3];
  uint64_t EnqueuedLocalSize[3];
  /// Scratch owned by the calling worker, at least WorkGroupFunction::
  /// PrivateArenaSize bytes, 64-byte aligned, reused across work-groups.
  void *PrivateArena;
  /// The NDRange's printf records; null unless the kernel calls printf.
  PrintfBuffer *Printf;
  /// The automatic __local variables of the kernel (those declared in its
  /// body): at least WorkGroupFunction::LocalVariablesSize bytes, aligned
  /// to LocalVariablesAlignment, owned by the calling worker like the
  /// memory of its __local arguments and reused across work-groups (the
  /// contents need not survive from one call to the next). Null when the
  /// size is 0. Never the worker's stack: the variables may take up to
  /// CL_DEVICE_LOCAL_MEM_SIZE.
  void *LocalVariables;
  /// Where the calling worker's memory lies, so that a generic pointer's
  /// address space can be told from its value (to_local, to_private,
  /// get_fence): all of the work-group's __local memory (variables and
  /// arguments) in [LocalMemory, LocalMemory + LocalMemorySize); private
  /// memory in the calling thread's stack [Stack, Stack + StackSize) and in
  /// the private arena [PrivateArena, PrivateArena + PrivateArenaSize).
  /// Anything else is global (or constant) memory. Zero sizes: no such
  /// memory.
  const void *LocalMemory;
  uint64_t LocalMemorySize;
  const void *Stack;
  uint64_t StackSize;
  uint64_t PrivateArenaSize;
  /// Code of the static multi-issue back half (weft/machine.h) adds one to
  /// BlockCounters[I] each time its block I runs; unused (may be null) for
  /// other code.
  uint64_t *BlockCounters;
};

/// The alignment drivers give WorkGroupContext::LocalVariables, the widest
/// OpenCL C type's (double16); the launcher realigns for stricter
/// __attribute__((aligned)) variables itself, within the size it asks for.
inline constexpr uint64_t LocalVariablesAlignment = 128;

/// The largest sub-group: consecutive runs of this many work-items of the
/// local linear id form a work-group's sub-groups, the last one possibly
/// smaller (lib/kernel/subgroups.cl). The compiler answers the library's
/// __weft_sub_group_max() with it and the runtime's sub-group queries count
/// with it, so both always agree. 128: a group of up to 128 work-items, the
/// local sizes most kernels use, stays one sub-group and keeps the
/// vectorized work-item loops; the Khronos CTS holds a sub-group's
/// work-items in a 128-bit mask, so no larger size is portable.
inline constexpr uint32_t SubGroupSize = 128;

/// Args[I] points at the value of kernel argument I as clSetKernelArg
/// describes it: for a buffer, at a pointer holding the buffer's address in
/// the device's address space; for a __local pointer, at a pointer holding
/// the worker's local memory for it; for anything else, at its bytes.
using LauncherFn = void (*)(void *const *Args, const WorkGroupContext *Ctx);

} // namespace weft

#endif // WEFT_LAUNCHER_H
