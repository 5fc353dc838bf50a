//===- CountBlockExecutions.cpp - Counting how often each block runs ------===//
//
// A static multi-issue machine's time is the sum over basic blocks of how
// often each ran times the length of its schedule (ScheduleBlocks.cpp). The
// lengths are known at compile time; this pass makes the code count the
// executions. Block I of countedBlocks() starts with
//
//   %slot = getelementptr i64, ptr %counters, i64 I
//   %n    = load i64, ptr %slot
//   store i64 (%n + 1), ptr %slot
//
// The launcher (__weft_launch_K) reads %counters from its context
// (WorkGroupContext::BlockCounters). The other defined functions of the
// module never see the context, so the launcher also stores the pointer in
// the internal variable __weft_block_counters, which they read at their
// entry. That variable is one per loaded object, not per thread: the code
// of this back half must run one work-group at a time, as the accelerator
// simulator's device thread does. (After O3 the launcher is normally the
// only definition left and the variable is not made at all.)
//
// The pass runs after all IR optimization and after scheduling, just before
// code generation. Code generation may still split, merge or duplicate
// blocks; the counts stay exact because the increments are side effects of
// the IR blocks, executed once per execution of the block they were placed
// in, whatever machine blocks end up holding them. The increments are
// instrumentation, not part of the schedule.
//
//===----------------------------------------------------------------------===//
#include "StaticMultiIssue/CountBlockExecutions.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/WorkGroupContextLayout.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "weft-count-block-executions"

using namespace llvm;

namespace weft {

std::vector<BasicBlock *> countedBlocks(Module &M) {
  std::vector<BasicBlock *> Blocks;
  for (Function &F : M)
    if (!F.isDeclaration())
      for (BasicBlock &BB : F)
        Blocks.push_back(&BB);
  return Blocks;
}

bool isBlockCounting(const Instruction &I) {
  return I.hasMetadata(BlockCounterMD);
}

/// Tags V, an instruction the pass made, as counting.
static Value *counting(Value *V) {
  if (auto *I = dyn_cast<Instruction>(V))
    I->setMetadata(BlockCounterMD, MDNode::get(I->getContext(), {}));
  return V;
}

static bool isLauncher(const Function &F) {
  return F.getName().starts_with(LauncherPrefix) && F.arg_size() == 2 &&
         F.getArg(1)->getType()->isPointerTy();
}

PreservedAnalyses CountBlockExecutionsPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  std::vector<BasicBlock *> Blocks = countedBlocks(M);
  if (Blocks.empty())
    return PreservedAnalyses::all();
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C);
  PointerType *Ptr = PointerType::get(C, 0);

  bool OnlyLaunchers = true;
  for (Function &F : M)
    if (!F.isDeclaration() && !isLauncher(F))
      OnlyLaunchers = false;
  GlobalVariable *Shared = nullptr;
  if (!OnlyLaunchers)
    Shared = new GlobalVariable(
        M, Ptr, /*isConstant=*/false, GlobalValue::InternalLinkage,
        ConstantPointerNull::get(Ptr), BlockCountersVariable);

  // Each function's counters pointer, loaded once at its entry.
  DenseMap<Function *, Value *> Counters;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    BasicBlock &Entry = F.getEntryBlock();
    IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
    Value *P;
    if (isLauncher(F)) {
      Value *Addr = counting(B.CreateStructGEP(getWorkGroupContextType(C),
                                               F.getArg(1), CtxBlockCounters));
      P = counting(B.CreateAlignedLoad(Ptr, Addr, Align(8), "block.counters"));
      if (Shared)
        counting(B.CreateAlignedStore(P, Shared, Align(8)));
    } else {
      P = counting(
          B.CreateAlignedLoad(Ptr, Shared, Align(8), "block.counters"));
    }
    Counters[&F] = P;
  }

  for (unsigned I = 0, E = Blocks.size(); I != E; ++I) {
    BasicBlock *BB = Blocks[I];
    Value *P = Counters.lookup(BB->getParent());
    IRBuilder<> B(BB, BB->getFirstInsertionPt());
    // In the entry block, after the pointer's load.
    if (auto *Load = dyn_cast<Instruction>(P); Load && Load->getParent() == BB)
      B.SetInsertPoint(Load->getNextNode());
    if (Shared && BB == &BB->getParent()->getEntryBlock() &&
        isLauncher(*BB->getParent()))
      B.SetInsertPoint(cast<Instruction>(P)->getNextNode()->getNextNode());
    Value *Slot =
        counting(B.CreateConstInBoundsGEP1_64(I64, P, I, "block.slot"));
    Value *N =
        counting(B.CreateAlignedLoad(I64, Slot, Align(8), "block.count"));
    counting(B.CreateAlignedStore(
        counting(B.CreateAdd(N, ConstantInt::get(I64, 1))), Slot, Align(8)));
  }
  return PreservedAnalyses::none();
}

} // namespace weft
