//===- FiberRuntime.h - Run-time support of the fallback work-group method ===//
//
// The fallback work-group method (WorkGroupFibers.cpp) runs every work-item
// of a group as a fiber: the kernel's own code, on a stack of its own carved
// from the worker's private arena, switching to the next work-item at each
// barrier. The generated code calls the functions named below; the
// in-process loader (WorkGroupCompiler.cpp) resolves their names to these
// addresses.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_FIBERRUNTIME_H
#define WEFT_LLVMOPENCL_FIBERRUNTIME_H

#include "weft/launcher.h"

#include <cstdint>
#include <vector>

namespace weft {

/// One work-item of the kernel: the argument frame K.workgroup filled, the
/// group's context and the work-item's local ids.
using FiberBody = void (*)(void *Frame, const WorkGroupContext *Ctx, uint64_t X,
                           uint64_t Y, uint64_t Z);

inline constexpr const char *RunFibersSymbol = "__weft_run_work_group_fibers";
inline constexpr const char *FiberBarrierSymbol = "__weft_fiber_barrier";
inline constexpr const char *FiberSubGroupBarrierSymbol =
    "__weft_fiber_sub_group_barrier";
/// The non-uniform sub-group functions' exchange among the work-items of a
/// sub-group waiting at the same call (lib/kernel/subgroups.cl).
inline constexpr const char *FiberConvergeSymbol = "__weft_fiber_converge";
inline constexpr const char *FiberConvergedMaskSymbol =
    "__weft_fiber_converged_mask";
inline constexpr const char *FiberConvergedValueSymbol =
    "__weft_fiber_converged_value";

/// A name the generated code calls and the address the loader gives it.
struct FiberRuntimeSymbol {
  const char *Name;
  void *Address;
};

/// Whether this build has the context switch (x86-64 only for now).
bool fibersAvailable();

/// Bytes of private arena a group of WorkItems fibers needs, each with a
/// StackBytes stack (a multiple of 64).
uint64_t fiberArenaSize(uint64_t WorkItems, uint64_t StackBytes);

/// Every symbol above with its address; empty without fibersAvailable().
std::vector<FiberRuntimeSymbol> fiberRuntimeSymbols();

} // namespace weft

#endif // WEFT_LLVMOPENCL_FIBERRUNTIME_H
