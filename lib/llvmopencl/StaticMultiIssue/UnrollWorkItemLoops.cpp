//===- UnrollWorkItemLoops.cpp - Unroll requests for parallel loops -------===//
//
// The pocl paper's §6.4: forming parallel regions (the work-item loops) is
// one step, mapping their parallelism onto a machine another. A CPU maps it
// onto SIMD lanes (the loop vectorizer); a static multi-issue machine has
// none, and maps it onto its function units by scheduling operations of
// several work-items in one block. So each innermost work-item loop (a
// loop whose ID carries llvm.loop.parallel_accesses and that holds no other
// such loop, normally the x loop) is asked to be unrolled by Factor
// (llvm.loop.unroll.count, replacing any other unroll request such as
// RollWorkItemLoops' disable): O3's loop unroller does it, with a remainder
// loop when the trip count is not known to be a multiple. The work-item
// loops around it stay loops (llvm.loop.unroll.disable).
//
// The copies of one access in the unrolled body are accesses of different
// work-items, independent by the loop's annotation, but AA cannot tell
// that: buffers reached through the launcher's argument table may alias
// for all it knows. So before unrolling each access in one of the loop's
// parallel access groups is tagged !weft.workitem.access !{Group, i32 Seq},
// Seq counting the loop's accesses in block order. Unrolling clones the tag
// with the access; in a block of the unrolled body the sequence starts
// again where the next copy starts, which is how ScheduleBlocks.cpp tells
// the copies apart. Metadata some transform drops only costs an ordering
// that was not needed; it never removes one that was.
//
//===----------------------------------------------------------------------===//
#include "StaticMultiIssue/UnrollWorkItemLoops.h"

#include "weft/debug.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"

#include <cstdlib>

#define DEBUG_TYPE "weft-unroll-workitem-loops"

using namespace llvm;

namespace weft {

unsigned workItemUnrollFactor() {
  // A whole x row of the usual 8-wide work-group: enough independent
  // operations to keep the pocl paper's machine (23 issue slots, 3-cycle
  // loads and float units) busy between a block's first load and its last
  // store. With 4, a block of the horizontally parallelized DCT was bound
  // by that latency (tools/accelsim/dct-table.sh 256: 2.0x over no
  // horizontal parallelization; 5.0x with 8; 16 adds little).
  constexpr unsigned Default = 8;
  const char *V = getenv("WEFT_ACCELSIM_UNROLL");
  if (!V || !*V)
    return Default;
  char *End = nullptr;
  long N = strtol(V, &End, 10);
  if (*End || N < 1 || N > 1024) {
    WEFT_LOG(DebugCompile,
             "WEFT_ACCELSIM_UNROLL=%s is not a factor from 1 to 1024; "
             "unrolling by %u",
             V, Default);
    return Default;
  }
  return unsigned(N);
}

namespace {

/// The access groups whose accesses L's iterations do not order.
SmallPtrSet<const MDNode *, 4> parallelGroups(const Loop &L) {
  SmallPtrSet<const MDNode *, 4> Groups;
  MDNode *ID = L.getLoopID();
  if (!ID)
    return Groups;
  for (const MDOperand &Op : drop_begin(ID->operands())) {
    auto *Option = dyn_cast<MDNode>(Op);
    if (!Option || Option->getNumOperands() == 0)
      continue;
    auto *Name = dyn_cast<MDString>(Option->getOperand(0));
    if (!Name || Name->getString() != "llvm.loop.parallel_accesses")
      continue;
    for (const MDOperand &G : drop_begin(Option->operands()))
      if (auto *Group = dyn_cast<MDNode>(G))
        Groups.insert(Group);
  }
  return Groups;
}

/// The group of I (a group, or a list of groups) that Groups holds.
const MDNode *groupIn(const Instruction &I,
                      const SmallPtrSetImpl<const MDNode *> &Groups) {
  MDNode *AG = I.getMetadata(LLVMContext::MD_access_group);
  if (!AG)
    return nullptr;
  if (Groups.count(AG))
    return AG;
  for (const MDOperand &Op : AG->operands())
    if (auto *G = dyn_cast<MDNode>(Op); G && Groups.count(G))
      return G;
  return nullptr;
}

/// L's loop ID with its unroll options replaced by unroll.count Factor
/// (unroll.disable for a factor of 1).
MDNode *withUnrollCount(Loop &L, unsigned Factor) {
  LLVMContext &C = L.getHeader()->getContext();
  SmallVector<Metadata *, 8> Ops = {nullptr};
  if (MDNode *ID = L.getLoopID())
    for (const MDOperand &Op : drop_begin(ID->operands())) {
      if (auto *Option = dyn_cast<MDNode>(Op))
        if (Option->getNumOperands() > 0)
          if (auto *Name = dyn_cast<MDString>(Option->getOperand(0)))
            if (Name->getString().starts_with("llvm.loop.unroll."))
              continue;
      Ops.push_back(Op);
    }
  if (Factor > 1)
    Ops.push_back(MDNode::get(C, {MDString::get(C, "llvm.loop.unroll.count"),
                                  ConstantAsMetadata::get(ConstantInt::get(
                                      Type::getInt32Ty(C), Factor))}));
  else
    Ops.push_back(
        MDNode::get(C, {MDString::get(C, "llvm.loop.unroll.disable")}));
  MDNode *ID = MDNode::getDistinct(C, Ops);
  ID->replaceOperandWith(0, ID);
  return ID;
}

} // namespace

PreservedAnalyses UnrollWorkItemLoopsPass::run(Function &F,
                                               FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  LLVMContext &C = F.getContext();
  bool Changed = false;
  DenseMap<const MDNode *, unsigned> NextSeq;
  for (BasicBlock &BB : F) {
    Loop *Innermost = LI.getLoopFor(&BB);
    if (!Innermost)
      continue;
    for (Instruction &I : BB) {
      if (!I.mayReadOrWriteMemory())
        continue;
      // The innermost enclosing loop that declares I's group parallel.
      const MDNode *Group = nullptr;
      for (Loop *L = Innermost; L && !Group; L = L->getParentLoop())
        Group = groupIn(I, parallelGroups(*L));
      if (!Group)
        continue;
      unsigned Seq = NextSeq[Group]++;
      I.setMetadata(WorkItemAccessMD,
                    MDNode::get(C, {const_cast<MDNode *>(Group),
                                    ConstantAsMetadata::get(ConstantInt::get(
                                        Type::getInt32Ty(C), Seq))}));
      Changed = true;
    }
  }
  // Only the innermost work-item loops: unrolling the y loop around an x
  // loop only copies the x loop, so the y and z loops are kept rolled
  // (unroll.disable: O3's full unrolling would take 8-trip ones whole, 8
  // copies of the x loop for no operation more per block). A kernel loop
  // inside the x loop does not stop the x loop's unrolling: O3 may unroll
  // that one whole (DCT's 8-trip products); if it stays (a trip count known
  // only at run time, WEFT_HORIZONTAL=0), the copies are only more code,
  // each block still counted for what it runs.
  SmallPtrSet<const Loop *, 8> HasParallelInside;
  for (Loop *L : LI.getLoopsInPreorder())
    if (!parallelGroups(*L).empty())
      for (Loop *Outer = L->getParentLoop(); Outer;
           Outer = Outer->getParentLoop())
        HasParallelInside.insert(Outer);
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (parallelGroups(*L).empty())
      continue;
    unsigned Count = HasParallelInside.count(L) ? 1 : Factor;
    L->setLoopID(withUnrollCount(*L, Count));
    LLVM_DEBUG(dbgs() << "unroll by " << Count << ": "
                      << L->getHeader()->getName() << "\n");
    Changed = true;
  }
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft
