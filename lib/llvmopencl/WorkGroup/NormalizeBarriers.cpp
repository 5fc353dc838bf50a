//===- NormalizeBarriers.cpp - Barrier-normal form of work-item functions -===//
//
// Brings each work-item function K.workitem that contains a barrier into the
// shape ParallelRegions works on:
//
//   entry:            allocas only
//   barrier.entry:    __weft_barrier()        implicit barrier at entry
//   ...               the kernel, every barrier alone in its block:
//   barrier:          __weft_barrier(); br succ
//   ...
//   exit:             __weft_barrier(); ret   single exit, implicit barrier
//
// Before that, private variables are promoted to SSA values (SROA): clang's
// front end leaves every variable in memory, and an alloca still live
// across a barrier costs a context-array slot per work-item, while an SSA
// value that is not live across one costs nothing.
//
// The barrier builtins become calls of one marker (BarrierUtils.h); their
// flags need no code on a CPU, where a group's work-items share one thread.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/NormalizeBarriers.h"
#include "WorkGroup/BarrierUtils.h"
#include "WorkGroup/KernelUtils.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "weft-normalize-barriers"

using namespace llvm;

namespace weft {

namespace {

/// Replaces every OpenCL barrier call with the marker.
void useMarker(Function &F) {
  FunctionCallee Marker = getBarrierMarker(*F.getParent());
  SmallVector<CallBase *, 8> Barriers;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (isBarrierCall(I) &&
          cast<CallBase>(I).getCalledFunction()->getName() != BarrierMarker)
        Barriers.push_back(cast<CallBase>(&I));
  for (CallBase *CB : Barriers) {
    CallInst *New = CallInst::Create(Marker, "", CB->getIterator());
    New->setDebugLoc(CB->getDebugLoc());
    CB->eraseFromParent();
  }
}

/// Makes one exit block holding an implicit barrier before the return.
void addExitBarrier(Function &F) {
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : F)
    if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(R);
  LLVMContext &C = F.getContext();
  BasicBlock *Exit = BasicBlock::Create(C, "exit", &F);
  IRBuilder<> B(Exit);
  B.CreateCall(getBarrierMarker(*F.getParent()));
  B.CreateRetVoid();
  for (ReturnInst *R : Returns) {
    // Kernels return void.
    BranchInst::Create(Exit, R->getIterator());
    R->eraseFromParent();
  }
}

/// Puts an implicit barrier after the entry block's allocas.
void addEntryBarrier(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock::iterator It = Entry.begin();
  while (isa<AllocaInst>(*It))
    ++It;
  BasicBlock *Body = Entry.splitBasicBlock(It, "barrier.entry");
  CallInst::Create(getBarrierMarker(*F.getParent()), "",
                   Body->getFirstInsertionPt());
}

/// Gives every barrier a block of its own: the marker and a branch.
void isolateBarriers(Function &F) {
  SmallVector<Instruction *, 8> Barriers;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (isBarrierCall(I))
        Barriers.push_back(&I);
  for (Instruction *I : Barriers) {
    BasicBlock *BB = I->getParent();
    if (&BB->front() != I)
      BB = BB->splitBasicBlock(I->getIterator(), "barrier");
    // Split even before a lone branch: the barrier block must stay free of
    // the stores that demoting PHIs puts at the end of their predecessors,
    // as barrier blocks belong to no region.
    Instruction *Next = I->getNextNode();
    if (!isa<ReturnInst>(Next))
      BB->splitBasicBlock(Next->getIterator(), BB->getName() + ".after");
  }
}

} // namespace

PreservedAnalyses NormalizeBarriersPass::run(Module &M,
                                             ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (!isWorkItemFunctionOf(F, Kernel) || !hasBarrier(F))
      continue;
    LLVM_DEBUG(dbgs() << "normalizing " << F.getName() << "\n");
    SROAPass(SROAOptions::ModifyCFG).run(F, FAM);
    removeUnreachableBlocks(F);
    useMarker(F);
    addExitBarrier(F);
    addEntryBarrier(F);
    isolateBarriers(F);
    FAM.invalidate(F, PreservedAnalyses::none());
    assert(!verifyFunction(F, &errs()) && "NormalizeBarriers broke the IR");
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
