//===- ResolveSubGroups.cpp - Sub-groups for the compiled local size ------===//
//
// The builtin library's sub-group functions (lib/kernel/subgroups.cl) have
// two forms, chosen by __weft_several_sub_groups(): one sub-group per
// work-group, where each is the work-group function of the same name, and
// several, where they synchronize on __weft_sub_group_barrier(). Whether a
// group has several depends only on the local size (more than
// weft::SubGroupSize work-items), which is fixed when a work-group function
// is compiled; so, once FlattenKernels has inlined the library into the
// kernel, this pass
//
//   - replaces __weft_sub_group_max() by weft::SubGroupSize and
//     __weft_several_sub_groups() by 0 or 1,
//   - folds what those constants decide and deletes the blocks of the form
//     not taken, before any pass looks at barriers: on one sub-group the
//     kernel is then exactly what it would be had it called the work-group
//     functions, and the region method takes it as before; on several its
//     only barriers inside sub-group functions are sub-group barriers,
//   - on one sub-group, turns any sub-group barrier left (none, from the
//     library as written) into a work-group barrier, which is the same
//     thing there.
//
// A kernel left with sub-group barriers is declined by the region method
// (RegionMethodLimits.cpp) and run as fibers (WorkGroupFibers.cpp).
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/ResolveSubGroups.h"
#include "WorkGroup/BarrierUtils.h"

#include "weft/launcher.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "weft-resolve-sub-groups"

using namespace llvm;

namespace weft {

bool hasSeveralSubGroups(const std::array<uint64_t, 3> &LocalSize) {
  if (LocalSize[0] == 0 || LocalSize[1] == 0 || LocalSize[2] == 0)
    return true;
  return LocalSize[0] * LocalSize[1] * LocalSize[2] > SubGroupSize;
}

namespace {

/// Replaces every call of the declaration Name by V; returns the functions
/// that held one.
void replaceCalls(Module &M, StringRef Name, uint64_t V,
                  SetVector<Function *> &Touched,
                  SmallVectorImpl<Instruction *> &Seeds) {
  Function *F = M.getFunction(Name);
  if (!F)
    return;
  SmallVector<CallInst *, 16> Calls;
  for (User *U : F->users())
    if (auto *CI = dyn_cast<CallInst>(U); CI && CI->getCalledFunction() == F)
      Calls.push_back(CI);
  for (CallInst *CI : Calls) {
    Touched.insert(CI->getFunction());
    Constant *C = ConstantInt::get(CI->getType(), V);
    for (User *U : CI->users())
      if (auto *I = dyn_cast<Instruction>(U))
        Seeds.push_back(I);
    CI->replaceAllUsesWith(C);
    CI->eraseFromParent();
  }
}

} // namespace

void foldResolvedCalls(SmallVectorImpl<Instruction *> &Work,
                       const SetVector<Function *> &Touched) {
  // Nothing is erased while the list may still name it: the dead code goes
  // at the end.
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (I->isTerminator()) {
      ConstantFoldTerminator(I->getParent());
      continue;
    }
    if (I->use_empty())
      continue;
    Value *V = simplifyInstruction(I, SimplifyQuery(I->getDataLayout()));
    if (!V || V == I)
      continue;
    for (User *U : I->users())
      if (auto *UI = dyn_cast<Instruction>(U))
        Work.push_back(UI);
    I->replaceAllUsesWith(V);
  }
  for (Function *F : Touched) {
    // A branch whose condition became constant through a phi or a select
    // the list did not reach: one sweep over every block.
    for (BasicBlock &BB : *F)
      ConstantFoldTerminator(&BB);
    removeUnreachableBlocks(*F);
    SmallVector<Instruction *, 32> Dead;
    for (BasicBlock &BB : *F)
      for (Instruction &I : BB)
        if (isInstructionTriviallyDead(&I))
          Dead.push_back(&I);
    for (Instruction *I : llvm::reverse(Dead))
      RecursivelyDeleteTriviallyDeadInstructions(I);
  }
}

PreservedAnalyses ResolveSubGroupsPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  bool Several = hasSeveralSubGroups(LocalSize);
  SetVector<Function *> Touched;
  SmallVector<Instruction *, 32> Seeds;
  replaceCalls(M, SubGroupMaxName, SubGroupSize, Touched, Seeds);
  replaceCalls(M, SeveralSubGroupsName, Several ? 1 : 0, Touched, Seeds);
  if (Touched.empty())
    return PreservedAnalyses::all();
  foldResolvedCalls(Seeds, Touched);
  if (!Several)
    if (Function *SGB = M.getFunction(SubGroupBarrierName)) {
      SmallVector<CallInst *, 4> Calls;
      for (User *U : SGB->users())
        if (auto *CI = dyn_cast<CallInst>(U))
          Calls.push_back(CI);
      FunctionCallee Marker = getBarrierMarker(M);
      for (CallInst *CI : Calls) {
        CallInst *New = CallInst::Create(Marker, {}, "", CI->getIterator());
        New->setDebugLoc(CI->getDebugLoc());
        CI->eraseFromParent();
      }
    }
  LLVM_DEBUG(dbgs() << "sub-groups: " << (Several ? "several" : "one")
                    << " per work-group\n");
  return PreservedAnalyses::none();
}

} // namespace weft
