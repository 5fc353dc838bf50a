//===- ScheduleBlocks.h - List scheduling onto a static multi-issue machine
//===//
//
// The static multi-issue back half's cost model: every basic block is
// list-scheduled onto the function units of a MachineModel (weft/machine.h)
// and the length of its schedule is what one execution of the block costs.
// See ScheduleBlocks.cpp for the operation classes, the dependences and the
// definition of a schedule's length.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_SCHEDULEBLOCKS_H
#define WEFT_LLVMOPENCL_SCHEDULEBLOCKS_H

#include "weft/machine.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"

#include <optional>

namespace llvm {
class AAResults;
class BasicBlock;
class Instruction;
class raw_ostream;
} // namespace llvm

namespace weft {

/// Cycles at least of a call that stays a call (a math library function):
/// a software routine on the machine, so a long-latency FloatDiv-class
/// operation unless the model's FloatDiv latency is longer still.
inline constexpr unsigned LibraryCallLatency = 40;

/// The unit class I occupies; none for free instructions (phis, no-op
/// casts, constant-offset-free GEPs, debug and lifetime intrinsics...).
std::optional<UnitClass> unitClassOf(const llvm::Instruction &I);

/// Cycles from I's issue until its result is ready on Machine; 0 for free
/// instructions.
unsigned latencyOf(const llvm::Instruction &I, const MachineModel &Machine);

/// List-schedules BB onto Machine. AA answers whether two memory accesses
/// may touch the same bytes. When IssueCycles is given it receives the
/// cycle each instruction of BB issues in, in block order (free ones too).
StaticSchedule::Block
scheduleBlock(llvm::BasicBlock &BB, const MachineModel &Machine,
              llvm::AAResults &AA,
              llvm::SmallVectorImpl<unsigned> *IssueCycles = nullptr);

/// Schedules every block countedBlocks(M) lists (CountBlockExecutions.h),
/// in that order, so Blocks[I] describes the block whose counter is I.
/// Logs each block's length and operations under WEFT_DEBUG=compile.
StaticSchedule scheduleModule(llvm::Module &M, const MachineModel &Machine,
                              llvm::FunctionAnalysisManager &FAM);

/// print<weft-static-schedule>: each block's schedule on the default
/// machine (defaultMachineModel()): its length, operations per class and
/// the issue cycle of every instruction.
class StaticSchedulePrinterPass
    : public llvm::PassInfoMixin<StaticSchedulePrinterPass> {
  llvm::raw_ostream &OS;

public:
  explicit StaticSchedulePrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_SCHEDULEBLOCKS_H
