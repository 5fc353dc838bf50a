//===- WorkItemLoops.cpp - Work-item loops around a barrier-free kernel ---===//
//
// Turns each work-item function K.workitem (ResolveWorkItemFunctions) into
// the work-group function K.workgroup(<K's parameters>, ptr %ctx) that runs
// every work-item of a group, x innermost:
//
//   entry:  full = (Ctx->LocalSize == the specialized local size)
//           br full, fixed, remainder
//   fixed:      for z < LZ, y < LY, x < LX   { K.workitem(..., x, y, z) }
//   remainder:  for z < Ctx->LocalSize[2] ... { K.workitem(..., x, y, z) }
//   exit:   ret void
//
// The fixed nest has constant trip counts, which is what lets the loop
// vectorizer pick its factor without a runtime check; the remainder nest
// only runs for the last, smaller work-group of a non-uniform NDRange.
//
// Each loop carries llvm.loop.parallel_accesses, and every memory access of
// the inlined body belongs to the three loops' access groups: work-items are
// independent by the OpenCL execution model (this kernel has no barrier), so
// the vectorizer needs no dependence proof. The exception is private memory
// that survived as an alloca: after inlining, one alloca serves every
// work-item in turn, so its accesses keep their ordinary dependences. And a
// body where a work-item may reload memory it stored in the same iteration
// gets no annotation at all (mayReadAfterWriteInIteration in ParallelLoops.h
// says why).
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/WorkItemLoops.h"
#include "WorkGroup/BarrierUtils.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/ParallelLoops.h"
#include "WorkGroup/WorkGroupContextLayout.h"

#include "weft/debug.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"

#define DEBUG_TYPE "weft-workitem-loops"

using namespace llvm;

namespace weft {

namespace {

/// One loop nest being built: its call of the work-item function and the
/// x loop's latch branch, which identifies the innermost body after
/// inlining splits blocks.
struct LoopNest {
  CallInst *Call = nullptr;
  BranchInst *InnerLatch = nullptr;
  BranchInst *Latches[3] = {};
  BasicBlock *InnerHeader = nullptr;
};

/// Emits, from the end of Pred, the loops z, y, x over [0, Bound[d]) (every
/// bound is at least 1, so the loops are bottom-tested) around a call of WI,
/// continuing to Exit. Returns what tagging needs after inlining.
LoopNest emitLoopNest(Function &WG, BasicBlock *Pred, StringRef Prefix,
                      Value *const Bound[3], Function &WI, BasicBlock *Exit,
                      MDNode *const Groups[3]) {
  LLVMContext &C = WG.getContext();
  const char *DimName[3] = {"x", "y", "z"};
  BasicBlock *Header[3], *Latch[3];
  // Headers outermost first, so the blocks read top-down.
  for (int D = 2; D >= 0; --D)
    Header[D] = BasicBlock::Create(C, Prefix + "." + DimName[D] + ".loop", &WG);
  for (int D = 0; D < 3; ++D)
    Latch[D] = D == 0 ? Header[0]
                      : BasicBlock::Create(C, Prefix + "." + DimName[D] + ".latch",
                                           &WG);
  // The latches in order y, z after the innermost header.
  Latch[1]->moveAfter(Header[0]);
  Latch[2]->moveAfter(Latch[1]);

  IRBuilder<> B(Pred);
  B.CreateBr(Header[2]);

  PHINode *Id[3];
  Type *I64 = Type::getInt64Ty(C);
  for (int D = 2; D >= 0; --D) {
    B.SetInsertPoint(Header[D]);
    Id[D] = B.CreatePHI(I64, 2, Prefix + ".lid." + DimName[D]);
    BasicBlock *Entering = D == 2 ? Pred : Header[D + 1];
    Id[D]->addIncoming(B.getInt64(0), Entering);
    if (D > 0)
      B.CreateBr(Header[D - 1]);
  }

  // The body: one work-item.
  B.SetInsertPoint(Header[0]);
  SmallVector<Value *, 8> Args;
  for (Argument &A : WG.args())
    Args.push_back(&A);
  Args.push_back(Id[0]);
  Args.push_back(Id[1]);
  Args.push_back(Id[2]);
  LoopNest Nest;
  Nest.Call = B.CreateCall(&WI, Args);
  Nest.InnerHeader = Header[0];

  for (int D = 0; D < 3; ++D) {
    BasicBlock *Continue = D == 2 ? Exit : Latch[D + 1];
    B.SetInsertPoint(Latch[D]);
    Value *Next = B.CreateAdd(Id[D], B.getInt64(1), Prefix + ".next." + DimName[D],
                              /*HasNUW=*/true, /*HasNSW=*/true);
    Value *More = B.CreateICmpULT(Next, Bound[D]);
    BranchInst *Br = B.CreateCondBr(More, Header[D], Continue);
    Br->setMetadata(LLVMContext::MD_loop, makeParallelLoopID(C, Groups[D]));
    Id[D]->addIncoming(Next, Latch[D]);
    Nest.Latches[D] = Br;
    if (D == 0)
      Nest.InnerLatch = Br;
  }
  return Nest;
}

/// The blocks of the innermost loop once the call has been inlined: from
/// the header to the block holding the latch branch.
SmallVector<BasicBlock *, 16> innermostBody(const LoopNest &Nest) {
  SmallVector<BasicBlock *, 16> Body;
  SmallPtrSet<BasicBlock *, 16> Seen;
  SmallVector<BasicBlock *, 16> Work = {Nest.InnerHeader};
  BasicBlock *LatchBB = Nest.InnerLatch->getParent();
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second)
      continue;
    Body.push_back(BB);
    if (BB == LatchBB)
      continue;
    for (BasicBlock *Succ : successors(BB))
      Work.push_back(Succ);
  }
  return Body;
}

Function *createWorkGroupFunction(Function &WI, StringRef Kernel,
                                  std::array<uint64_t, 3> LocalSize) {
  LLVMContext &C = WI.getContext();
  unsigned NumKernelArgs = WI.arg_size() - 4;
  Function *WG = createWorkGroupShell(WI, Kernel);

  BasicBlock *Entry = BasicBlock::Create(C, "entry", WG);
  BasicBlock *Exit = BasicBlock::Create(C, "exit", WG);
  IRBuilder<> B(Exit);
  B.CreateRetVoid();

  B.SetInsertPoint(Entry);
  Value *Ctx = WG->getArg(NumKernelArgs);
  Value *Actual[3], *Fixed[3];
  Value *IsFull = B.getTrue();
  for (unsigned D = 0; D < 3; ++D) {
    Actual[D] = loadContextField(B, Ctx, CtxLocalSize, D);
    Fixed[D] = B.getInt64(LocalSize[D]);
    IsFull = B.CreateAnd(IsFull, B.CreateICmpEQ(Actual[D], Fixed[D]));
  }
  BasicBlock *FixedPre = BasicBlock::Create(C, "fixed", WG, Exit);
  BasicBlock *RemainderPre = BasicBlock::Create(C, "remainder", WG, Exit);
  B.CreateCondBr(IsFull, FixedPre, RemainderPre);

  MDNode *Groups[3];
  for (MDNode *&G : Groups)
    G = MDNode::getDistinct(C, {});
  MDNode *GroupList = MDNode::get(C, {Groups[0], Groups[1], Groups[2]});

  LoopNest Nests[2] = {
      emitLoopNest(*WG, FixedPre, "fixed", Fixed, WI, Exit, Groups),
      emitLoopNest(*WG, RemainderPre, "remainder", Actual, WI, Exit, Groups)};
  Exit->moveAfter(&WG->back());

  for (LoopNest &Nest : Nests) {
    InlineFunctionInfo IFI;
    InlineResult R = InlineFunction(*Nest.Call, IFI);
    if (!R.isSuccess()) {
      LLVM_DEBUG(dbgs() << "cannot inline " << WI.getName() << ": "
                        << R.getFailureReason() << "\n");
      continue;
    }
    // Whether a work-item reloads what it stored is decided once O3 has
    // unrolled the body's short loops (CheckParallelLoops).
    tagParallelAccesses(innermostBody(Nest), GroupList);
  }
  return WG;
}

} // namespace

PreservedAnalyses WorkItemLoopsPass::run(Module &M,
                                         ModuleAnalysisManager &MAM) {
  SmallVector<Function *, 4> WorkItemFunctions;
  for (Function &F : M) {
    // Kernels with barriers are ParallelRegions's: loops around the whole
    // body would ignore their barriers.
    if (isWorkItemFunctionOf(F, Kernel) && !hasBarrier(F))
      WorkItemFunctions.push_back(&F);
  }
  if (WorkItemFunctions.empty())
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function *WI : WorkItemFunctions) {
    // clang's front end leaves every variable in memory, kernel arguments
    // included: every global access would go through a pointer reloaded
    // from an alloca, which mayReadAfterWriteInIteration can only take for
    // one object, so two stores to distinct buffers would cost the kernel
    // its parallel annotation. SSA form first, as NormalizeBarriers does
    // for kernels with barriers.
    SROAPass(SROAOptions::ModifyCFG).run(*WI, FAM);
    FAM.invalidate(*WI, PreservedAnalyses::none());
    std::string Of = derivedFrom(*WI, WorkItemAttr).str();
    Function *WG = createWorkGroupFunction(*WI, Of, LocalSize);
    LLVM_DEBUG(dbgs() << "made " << WG->getName() << "\n");
    if (WI->use_empty())
      WI->eraseFromParent();
    assert(!verifyFunction(*WG, &errs()) && "WorkItemLoops broke the IR");
    (void)WG;
  }
  return PreservedAnalyses::none();
}

} // namespace weft
