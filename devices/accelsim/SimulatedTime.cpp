//===- SimulatedTime.cpp - Cycles of kernels and transfers on the model ---===//
//
// A kernel's time is the sum over its basic blocks of (times the block ran)
// x (the block's scheduled length): the schedule is static, so a block
// takes the same cycles every time. A block that ends in a conditional
// branch also pays the model's BranchPenalty on every execution. That is a
// simplification: the machine has no branch prediction, so only taken
// branches would stall, but the counters say how often a block ran, not
// which way it left, and charging every conditional branch keeps the
// figure an upper bound rather than a guess.
//
// The critical resource is the unit class whose units were busiest:
// operations x (1 for a pipelined unit, its latency for one that is not)
// over units x cycles. On a machine that issues every unit each cycle it
// names what to add to make the kernel faster.
//
//===----------------------------------------------------------------------===//
#include "accelsim/SimulatedTime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace weft {

uint64_t KernelCycles::totalOps() const {
  uint64_t Total = 0;
  for (uint64_t N : Ops)
    Total += N;
  return Total;
}

KernelCycles kernelCycles(const MachineModel &Model,
                          const StaticSchedule &Schedule,
                          const uint64_t *Counters) {
  KernelCycles K;
  for (size_t I = 0; I < Schedule.Blocks.size(); ++I) {
    const StaticSchedule::Block &B = Schedule.Blocks[I];
    const uint64_t Runs = Counters[I];
    if (!Runs)
      continue;
    uint64_t PerRun = B.Cycles;
    if (B.ConditionalBranch)
      PerRun += Model.BranchPenalty;
    K.Cycles += Runs * PerRun;
    for (unsigned C = 0; C < NumUnitClasses; ++C)
      K.Ops[C] += Runs * B.Ops[C];
  }
  if (!K.Cycles)
    return K;
  for (unsigned C = 0; C < NumUnitClasses; ++C) {
    const UnitDesc &U = Model.Units[C];
    if (!K.Ops[C] || !U.Count)
      continue;
    const double Busy =
        double(K.Ops[C]) * (U.Pipelined ? 1 : std::max(1u, U.Latency));
    const double Utilization = Busy / (double(U.Count) * double(K.Cycles));
    if (K.CriticalClass < 0 || Utilization > K.CriticalUtilization) {
      K.CriticalClass = static_cast<int>(C);
      K.CriticalUtilization = Utilization;
    }
  }
  return K;
}

uint64_t transferCycles(const MachineModel &Model, uint64_t Bytes) {
  const double Rate = Model.DmaBytesPerCycle > 0 ? Model.DmaBytesPerCycle : 1;
  return Model.DmaSetupCycles +
         static_cast<uint64_t>(std::ceil(double(Bytes) / Rate));
}

uint64_t cyclesToNanoseconds(const MachineModel &Model, uint64_t Cycles) {
  return static_cast<uint64_t>(
      std::llround(double(Cycles) * 1000.0 / Model.ClockMHz));
}

std::string describeKernelCycles(const MachineModel &Model,
                                 const KernelCycles &K) {
  std::string Out = "ops";
  char Part[96];
  for (unsigned C = 0; C < NumUnitClasses; ++C) {
    snprintf(Part, sizeof(Part), " %s %llu",
             unitClassName(static_cast<UnitClass>(C)),
             static_cast<unsigned long long>(K.Ops[C]));
    Out += Part;
  }
  const double PerCycle = K.Cycles ? double(K.totalOps()) / K.Cycles : 0;
  snprintf(Part, sizeof(Part), "; %.2f ops/cycle of %u issue slots", PerCycle,
           Model.IssueSlots);
  Out += Part;
  if (K.CriticalClass >= 0) {
    snprintf(Part, sizeof(Part), "; critical resource %s (%.0f%% busy)",
             unitClassName(static_cast<UnitClass>(K.CriticalClass)),
             100 * K.CriticalUtilization);
    Out += Part;
  } else
    Out += "; critical resource none";
  return Out;
}

} // namespace weft
