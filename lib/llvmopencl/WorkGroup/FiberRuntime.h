//===- FiberRuntime.h - Run-time support of the fallback work-group method ===//
//
// The fallback work-group method (WorkGroupFibers.cpp) runs every work-item
// of a group as a fiber: the kernel's own code, on a stack of its own carved
// from the worker's private arena, switching to the next work-item at each
// barrier. The generated code calls the two functions below; the in-process
// loader (WorkGroupCompiler.cpp) resolves their names to these addresses.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_FIBERRUNTIME_H
#define WEFT_LLVMOPENCL_FIBERRUNTIME_H

#include "weft/launcher.h"

#include <cstdint>

namespace weft {

/// One work-item of the kernel: the argument frame K.workgroup filled, the
/// group's context and the work-item's local ids.
using FiberBody = void (*)(void *Frame, const WorkGroupContext *Ctx, uint64_t X,
                           uint64_t Y, uint64_t Z);

inline constexpr const char *RunFibersSymbol = "__weft_run_work_group_fibers";
inline constexpr const char *FiberBarrierSymbol = "__weft_fiber_barrier";
inline constexpr const char *FiberSubGroupBarrierSymbol =
    "__weft_fiber_sub_group_barrier";

/// Whether this build has the context switch (x86-64 only for now).
bool fibersAvailable();

/// Bytes of private arena a group of WorkItems fibers needs, each with a
/// StackBytes stack (a multiple of 64).
uint64_t fiberArenaSize(uint64_t WorkItems, uint64_t StackBytes);

/// The addresses the loader gives RunFibersSymbol, FiberBarrierSymbol and
/// FiberSubGroupBarrierSymbol.
void *runFibersAddress();
void *fiberBarrierAddress();
void *fiberSubGroupBarrierAddress();

} // namespace weft

#endif // WEFT_LLVMOPENCL_FIBERRUNTIME_H
