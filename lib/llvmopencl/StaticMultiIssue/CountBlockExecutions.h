//===- CountBlockExecutions.h - Counting how often each block runs --------===//
//
// The static multi-issue back half's run-time half of the cost model: each
// counted block adds one to its counter in WorkGroupContext::BlockCounters
// (weft/launcher.h) when it starts. See CountBlockExecutions.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_COUNTBLOCKEXECUTIONS_H
#define WEFT_LLVMOPENCL_COUNTBLOCKEXECUTIONS_H

#include "llvm/IR/PassManager.h"

#include <vector>

namespace llvm {
class BasicBlock;
class Instruction;
} // namespace llvm

namespace weft {

/// Where the launcher leaves WorkGroupContext::BlockCounters for the other
/// functions of the module.
inline constexpr const char *BlockCountersVariable = "__weft_block_counters";

/// Metadata on the instructions this pass adds, so that scheduling a
/// dump of the final IR (print<weft-static-schedule>) leaves them out as
/// the schedule made before them did.
inline constexpr const char *BlockCounterMD = "weft.block.counter";

/// Whether I is part of a block counter's increment (or the counters'
/// pointer): instrumentation, not an operation of the machine.
bool isBlockCounting(const llvm::Instruction &I);

/// The blocks that get counters, in counter order: every block of every
/// defined function of M, functions in module order, blocks in layout
/// order. The schedule (scheduleModule) lists its blocks in the same order.
std::vector<llvm::BasicBlock *> countedBlocks(llvm::Module &M);

struct CountBlockExecutionsPass
    : llvm::PassInfoMixin<CountBlockExecutionsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_COUNTBLOCKEXECUTIONS_H
