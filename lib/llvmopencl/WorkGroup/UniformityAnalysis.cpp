//===- UniformityAnalysis.cpp - Values equal in every work-item of a group ===//
//
// A value is uniform when every work-item of a work-group computes the same
// one. ParallelRegions needs this to keep such a value, when it is live
// across a barrier, as one scalar rather than a context array with a slot
// per work-item; horizontal inner-loop parallelization needs it to know a
// loop runs the same trips in every work-item.
//
// The analysis is a forward propagation of "varying" to a fixed point,
// starting from the work-item function's local-id parameters (its last
// three; get_global_id and friends are already expressed through them):
//
//  - kernel arguments, the context pointer, constants and globals are
//    uniform;
//  - an instruction with a varying operand is varying;
//  - a load is uniform only from a uniform address in memory no work-item
//    writes: the work-group context (loads based on the %ctx parameter) or
//    a load marked !invariant.load. Global, local and private memory may
//    hold what another work-item stored, or what this one stored under
//    varying control, so their loads are varying;
//  - a call is uniform only when it touches no memory and its arguments are
//    uniform;
//  - control: when a branch (or switch) on a varying condition splits the
//    work-items, the blocks between it and its immediate post-dominator run
//    for some work-items only, or a different number of times (a loop with a
//    varying exit). PHIs in those blocks and at the post-dominator are
//    varying, and so is any value defined there and used outside them.
//    Those blocks are divergent (UniformityInfo::isDivergent): they may run
//    for some work-items only, which is where no implicit barrier may go.
//
// Everything is varying in a function that is not a work-item function.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/UniformityAnalysis.h"
#include "WorkGroup/KernelUtils.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace weft {

AnalysisKey UniformityAnalysis::Key;

bool UniformityInfo::isUniform(const Value *V) const {
  if (!IsWorkItemFunction)
    return false;
  if (isa<Constant>(V) || isa<MetadataAsValue>(V))
    return true;
  return !Varying.count(V);
}

namespace {

/// Whether I's result, given uniform operands, is the same in every
/// work-item.
bool uniformWithUniformOperands(const Instruction &I, const Argument *Ctx) {
  if (auto *L = dyn_cast<LoadInst>(&I)) {
    if (L->isVolatile() || L->isAtomic())
      return false;
    if (L->hasMetadata(LLVMContext::MD_invariant_load))
      return true;
    return Ctx && getUnderlyingObject(L->getPointerOperand()) == Ctx;
  }
  if (auto *CB = dyn_cast<CallBase>(&I))
    return CB->doesNotAccessMemory() && !CB->isConvergent();
  if (isa<AllocaInst>(&I) || isa<AtomicRMWInst>(&I) ||
      isa<AtomicCmpXchgInst>(&I) || isa<VAArgInst>(&I) ||
      isa<LandingPadInst>(&I))
    return false;
  return !I.mayReadOrWriteMemory();
}

} // namespace

UniformityInfo UniformityAnalysis::run(Function &F,
                                       FunctionAnalysisManager &FAM) {
  UniformityInfo Info;
  if (!isWorkItemFunctionOf(F, /*Only=*/"") || F.arg_size() < 4)
    return Info;
  Info.IsWorkItemFunction = true;
  const Argument *Ctx = F.getArg(F.arg_size() - 4);
  PostDominatorTree &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);

  SmallVector<const Value *, 32> Work;
  auto MarkVarying = [&](const Value *V) {
    if (isa<Constant>(V))
      return;
    if (Info.Varying.insert(V).second)
      Work.push_back(V);
  };
  for (unsigned D = 1; D <= 3; ++D)
    MarkVarying(F.getArg(F.arg_size() - D));
  for (Instruction &I : instructions(F))
    if (!uniformWithUniformOperands(I, Ctx))
      MarkVarying(&I);

  SmallPtrSet<const BasicBlock *, 8> SplitDone;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I || I->getFunction() != &F)
        continue;
      MarkVarying(I);
      // A varying condition splits the work-items: sync dependence.
      const BasicBlock *BB = I->getParent();
      bool Splits = (isa<BranchInst>(I) && cast<BranchInst>(I)->isConditional()) ||
                    isa<SwitchInst>(I) || isa<IndirectBrInst>(I);
      if (!Splits || !SplitDone.insert(BB).second)
        continue;
      const DomTreeNode *Node = PDT.getNode(BB);
      const DomTreeNode *IPDomNode = Node ? Node->getIDom() : nullptr;
      const BasicBlock *Join = IPDomNode ? IPDomNode->getBlock() : nullptr;
      // The blocks reachable from the split before the join.
      SmallPtrSet<const BasicBlock *, 16> Region;
      SmallVector<const BasicBlock *, 16> Stack(succ_begin(BB), succ_end(BB));
      while (!Stack.empty()) {
        const BasicBlock *B = Stack.pop_back_val();
        if (B == Join || !Region.insert(B).second)
          continue;
        Stack.append(succ_begin(B), succ_end(B));
      }
      // The split block itself runs under the branch's own control, unless
      // the split lies on a cycle it controls (a loop with a varying exit).
      for (const BasicBlock *B : Region)
        Info.DivergentBlocks.insert(B);
      Region.insert(BB);
      for (const BasicBlock *B : Region)
        for (const Instruction &In : *B) {
          if (isa<PHINode>(In) && B != BB) {
            MarkVarying(&In);
            continue;
          }
          for (const User *InUser : In.users())
            if (auto *UI = dyn_cast<Instruction>(InUser);
                UI && !Region.count(UI->getParent())) {
              MarkVarying(&In);
              break;
            }
        }
      if (Join)
        for (const PHINode &Phi : Join->phis())
          MarkVarying(&Phi);
    }
  }
  return Info;
}

PreservedAnalyses UniformityPrinterPass::run(Function &F,
                                             FunctionAnalysisManager &FAM) {
  if (derivedFrom(F, WorkItemAttr).empty())
    return PreservedAnalyses::all();
  const UniformityInfo &Info = FAM.getResult<UniformityAnalysis>(F);
  OS << "uniformity of " << F.getName() << ":\n";
  auto Print = [&](const Value &V) {
    OS << (Info.isUniform(&V) ? "  uniform: " : "  varying: ");
    V.printAsOperand(OS, /*PrintType=*/true);
    OS << "\n";
  };
  for (const Argument &A : F.args())
    Print(A);
  for (const Instruction &I : instructions(F))
    if (!I.getType()->isVoidTy())
      Print(I);
  return PreservedAnalyses::all();
}

} // namespace weft
