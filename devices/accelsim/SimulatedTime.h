//===- SimulatedTime.h - Cycles of kernels and transfers on the model -----===//
//
// The accelerator's clock: what a command would take on the machine model,
// computed from the static schedule and the block counts a launch left
// (kernels) or from the bytes moved (transfers).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ACCELSIM_SIMULATEDTIME_H
#define WEFT_ACCELSIM_SIMULATEDTIME_H

#include "weft/machine.h"

#include <cstdint>
#include <string>

namespace weft {

/// What one kernel launch did on the model.
struct KernelCycles {
  uint64_t Cycles = 0;
  /// Operations issued, per UnitClass.
  uint64_t Ops[NumUnitClasses] = {};
  /// The unit class busiest relative to its units (the resource that bounds
  /// the schedule) and its utilization in [0, 1]; no class when nothing ran.
  int CriticalClass = -1;
  double CriticalUtilization = 0;

  uint64_t totalOps() const;
};

/// Cycles of a launch whose blocks ran Counters[I] times each.
KernelCycles kernelCycles(const MachineModel &Model,
                          const StaticSchedule &Schedule,
                          const uint64_t *Counters);

/// Cycles of one DMA transfer of Bytes between host and device memory (or
/// within device memory): the set-up cost and the bytes at the model's
/// bandwidth, a partial last cycle counted whole.
uint64_t transferCycles(const MachineModel &Model, uint64_t Bytes);

/// Cycles at the model's clock in nanoseconds, rounded to nearest.
uint64_t cyclesToNanoseconds(const MachineModel &Model, uint64_t Cycles);

/// The log line's account of a launch: ops per unit class, ops per cycle
/// and the critical resource.
std::string describeKernelCycles(const MachineModel &Model,
                                 const KernelCycles &K);

} // namespace weft

#endif // WEFT_ACCELSIM_SIMULATEDTIME_H
