//===- weft/machine.h - A static multi-issue machine and its schedules ----===//
//
// The accelerator simulator (devices/accelsim) describes the machine its
// kernels would run on with a MachineModel, read from a model file
// (devices/accelsim/machines/*.json). The compiler's static multi-issue back
// half (lib/llvmopencl/StaticMultiIssue) list-schedules every basic block of
// a work-group function onto the model's function units and returns the
// schedule; the generated code counts how often each block runs
// (WorkGroupContext::BlockCounters), so the driver computes the cycles a
// launch would take as the sum over blocks of executions x scheduled length.
//
// LLVM-free, like compiler.h: drivers include it.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_MACHINE_H
#define WEFT_MACHINE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace weft {

/// What an operation occupies. Every IR instruction that does work maps to
/// one class; phis, bitcasts and other free instructions to none.
enum class UnitClass : unsigned {
  IntAlu,          ///< integer arithmetic, logic, compares, address math
  FloatAdd,        ///< fadd, fsub, fcmp, float conversions
  FloatMul,        ///< fmul, fma
  FloatDiv,        ///< fdiv, frem, sqrt and other special functions
  LoadStoreGlobal, ///< loads and stores of global and constant memory
  LoadStoreLocal,  ///< loads and stores of local and private memory
  Branch,          ///< br, switch, ret
};
inline constexpr unsigned NumUnitClasses = 7;

/// The name a model file uses for a class ("int_alu", "float_add", ...).
const char *unitClassName(UnitClass Class);

/// The function units of one class.
struct UnitDesc {
  unsigned Count = 1;   ///< units of this class
  unsigned Latency = 1; ///< cycles from issue until the result is ready
  /// A pipelined unit accepts a new operation every cycle; otherwise it is
  /// busy for Latency cycles.
  bool Pipelined = true;
};

/// A static multi-issue (VLIW/TTA-like) machine with memory of its own.
struct MachineModel {
  std::string Name = "default";
  double ClockMHz = 100;
  /// Operations the machine can start in one cycle, over all classes.
  unsigned IssueSlots = 4;
  UnitDesc Units[NumUnitClasses];
  /// Register files (informational: the schedule assumes enough registers).
  unsigned RegisterFiles = 4;
  unsigned RegistersPerFile = 32;
  /// Device memory: the global region and the local memory of a core.
  uint64_t GlobalMemBytes = 256ull << 20;
  uint64_t LocalMemBytes = 64ull << 10;
  /// Cycles lost when a conditional branch is taken (no prediction).
  unsigned BranchPenalty = 0;
  /// Host <-> device transfers: a fixed set-up cost and the bandwidth.
  unsigned DmaSetupCycles = 100;
  double DmaBytesPerCycle = 8;

  const UnitDesc &unit(UnitClass C) const {
    return Units[static_cast<unsigned>(C)];
  }
};

/// The machine of the pocl paper's Table 2 (100 MHz; 4 integer ALUs, 4
/// float add/sub units, 4 float multipliers, 9 load-store units, 4 integer
/// register files of 32 registers): the model used without a model file.
MachineModel defaultMachineModel();

/// Reads a model file's text (JSON; devices/accelsim/machines/README.md
/// lists the keys). Keys left out keep defaultMachineModel()'s values.
/// False, with the reason in Error, for malformed text or bad values.
bool parseMachineModel(const std::string &Text, MachineModel &Out,
                       std::string &Error);

/// The static schedule of a work-group function: one entry per counted
/// basic block, in the order of WorkGroupContext::BlockCounters.
struct StaticSchedule {
  struct Block {
    std::string Name; ///< function and block, for logs
    /// Cycles from the block's first issue until its last result and its
    /// branch are done (the schedule's length).
    uint32_t Cycles = 0;
    /// Operations the block issues, per UnitClass.
    uint32_t Ops[NumUnitClasses] = {};
    /// Ends in a conditional branch (BranchPenalty may apply).
    bool ConditionalBranch = false;
  };
  std::vector<Block> Blocks;
};

} // namespace weft

#endif // WEFT_MACHINE_H
