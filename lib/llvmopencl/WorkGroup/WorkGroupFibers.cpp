//===- WorkGroupFibers.cpp - The fallback work-group method ---------------===//
//
// A work-group method that is correct by construction, for the kernels the
// region method (ParallelRegions) declines (RegionMethodLimits.cpp) or
// fails on, and for every kernel under WEFT_WG_METHOD=fallback. The
// work-item function is left as the front end made it; each work-item runs
// it as a fiber with a stack of its own, and a barrier switches to the next
// work-item (FiberRuntime.cpp):
//
//   K.workgroup(args, ctx):                K.fiber(frame, ctx, x, y, z):
//     frame = {args, &__local globals}       args = load frame
//     __weft_run_work_group_fibers(          K.workitem(args, ctx, x, y, z)
//         ctx, K.fiber, frame, stack size)     (inlined; each barrier a
//                                               __weft_fiber_barrier(ctx))
//
// A sub-group barrier (left by ResolveSubGroups.cpp where a group has
// several sub-groups) becomes __weft_fiber_sub_group_barrier(ctx), a switch
// among the work-items of the caller's sub-group only. The non-uniform
// sub-group functions' exchange (left by ResolveNonUniformSubGroups.cpp
// under work-item-dependent control) becomes __weft_fiber_converge(ctx,
// site, value), each call numbered in the blocks' reverse post-order, and
// the group runs with the scheduler that knows which work-items wait at
// which call (FiberRuntime.cpp).
//
// Why fibers rather than a compiler-side continuation method (each barrier a
// resume point, live values saved per work-item): continuations need the
// same analyses the region method has (what is live across which barrier,
// how to re-enter loops and nested control flow), so they would fail where
// it fails; a fiber keeps every live value where the code generator put it,
// on the work-item's own stack, and needs nothing from the control flow.
// The price is a context switch per work-item and barrier, and no
// vectorization across work-items, which is acceptable for a fallback.
//
// The stack is sized from the work-item's static allocations plus a margin
// for spills and the math library (StackMargin); the private arena holds
// one per work-item of the specialized local size, so
// CL_KERNEL_PRIVATE_MEM_SIZE reports the stack and CL_KERNEL_WORK_GROUP_SIZE
// shrinks to what fits the arena budget (WorkGroupCompiler.cpp).
//
// Automatic __local variables are internal globals until the launcher makes
// them allocas of its frame (Launcher.cpp), which only reaches what is
// inlined into the launcher: K.fiber is not, so their addresses travel in
// the frame, taken in K.workgroup.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/WorkGroupFibers.h"
#include "WorkGroup/BarrierUtils.h"
#include "WorkGroup/FiberRuntime.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/ParallelLoops.h"
#include "WorkGroup/ParallelRegions.h"
#include "WorkGroup/ResolveNonUniformSubGroups.h"
#include "WorkGroup/ResolveSubGroups.h"

#include "weft/debug.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/Cloning.h"

#define DEBUG_TYPE "weft-workgroup-fibers"

using namespace llvm;

namespace weft {

namespace {

/// Stack beyond the work-item's own allocations: spill slots, the math
/// library's frames, the switch itself.
constexpr uint64_t StackMargin = 32 * 1024;

uint64_t stackBytes(Function &WI) {
  const DataLayout &DL = WI.getParent()->getDataLayout();
  uint64_t Allocas = 0;
  for (BasicBlock &BB : WI)
    for (Instruction &I : BB)
      if (auto *A = dyn_cast<AllocaInst>(&I))
        if (auto Size = A->getAllocationSize(DL); Size && !Size->isScalable())
          Allocas += alignTo(Size->getFixedValue(), A->getAlign());
  // Twice: an allocation may be copied (a struct passed by value).
  return alignTo(2 * Allocas + StackMargin, 4096);
}

/// Whether the barrier call I is one a work-item can skip: the first thing
/// the function does (NormalizeBarriers's implicit entry barrier) or the
/// last (its exit barrier).
bool isImplicitBarrier(CallInst &I) {
  BasicBlock *BB = I.getParent();
  Instruction *Next = I.getNextNode();
  if (isa<ReturnInst>(Next))
    return true;
  Function &F = *BB->getParent();
  BasicBlock &Entry = F.getEntryBlock();
  if (Entry.getSingleSuccessor() != BB ||
      BB->getSinglePredecessor() != &Entry || &BB->front() != &I ||
      !isa<BranchInst>(Next))
    return false;
  for (Instruction &E : Entry)
    if (!isa<AllocaInst>(E) && !E.isTerminator())
      return false;
  return true;
}

bool isSubGroupBarrierCall(const Instruction &I) {
  if (auto *CB = dyn_cast<CallBase>(&I))
    if (const Function *F = CB->getCalledFunction())
      return F->getName() == SubGroupBarrierName;
  return false;
}

/// Barriers become switches to the next work-item, of the group or of the
/// sub-group.
void lowerBarriers(Function &WI, Value *Ctx) {
  Module &M = *WI.getParent();
  LLVMContext &C = M.getContext();
  auto Runtime = [&](const char *Name) {
    FunctionCallee Callee =
        M.getOrInsertFunction(Name, Type::getVoidTy(C), PointerType::get(C, 0));
    if (auto *F = dyn_cast<Function>(Callee.getCallee()))
      F->addFnAttr(Attribute::NoUnwind);
    return Callee;
  };
  FunctionCallee Switch = Runtime(FiberBarrierSymbol);
  SmallVector<CallInst *, 8> Barriers, SubGroupBarriers;
  for (BasicBlock &BB : WI)
    for (Instruction &I : BB)
      if (isBarrierCall(I))
        Barriers.push_back(cast<CallInst>(&I));
      else if (isSubGroupBarrierCall(I))
        SubGroupBarriers.push_back(cast<CallInst>(&I));
  for (CallInst *B : Barriers) {
    if (!isImplicitBarrier(*B)) {
      CallInst *New = CallInst::Create(Switch, {Ctx}, "", B->getIterator());
      New->setDebugLoc(B->getDebugLoc());
    }
    B->eraseFromParent();
  }
  if (SubGroupBarriers.empty())
    return;
  FunctionCallee SubGroupSwitch = Runtime(FiberSubGroupBarrierSymbol);
  for (CallInst *B : SubGroupBarriers) {
    CallInst *New =
        CallInst::Create(SubGroupSwitch, {Ctx}, "", B->getIterator());
    New->setDebugLoc(B->getDebugLoc());
    B->eraseFromParent();
  }
}

/// The blocks of F in an order in which each block comes after the blocks
/// that reach it without going round a loop, and after every block of each
/// loop it leaves. A plain reverse post-order does not give the second:
/// it may put a loop's exit before its body, depending on the order of the
/// header's successors. So: the graph without its back edges (to a block
/// that dominates the source), plus an edge from each latch to every exit
/// of its natural loop, in reverse post-order; blocks the walk does not
/// reach (none in a reducible function) follow in function order.
SmallVector<BasicBlock *, 32> convergeOrder(Function &F) {
  DominatorTree DT(F);
  DenseMap<BasicBlock *, SmallVector<BasicBlock *, 4>> Next;
  for (BasicBlock &BB : F)
    for (BasicBlock *S : successors(&BB)) {
      if (!DT.dominates(S, &BB)) {
        Next[&BB].push_back(S);
        continue;
      }
      // BB -> S closes the natural loop of S: the blocks that reach BB
      // without passing S.
      SmallPtrSet<BasicBlock *, 16> Loop = {S, &BB};
      SmallVector<BasicBlock *, 16> Work = {&BB};
      while (!Work.empty())
        for (BasicBlock *P : predecessors(Work.pop_back_val()))
          if (Loop.insert(P).second)
            Work.push_back(P);
      for (BasicBlock *B : Loop)
        for (BasicBlock *Exit : successors(B))
          if (!Loop.count(Exit))
            Next[&BB].push_back(Exit);
    }
  SmallVector<BasicBlock *, 32> PostOrder;
  SmallPtrSet<BasicBlock *, 32> Seen;
  SmallVector<std::pair<BasicBlock *, unsigned>, 32> Stack;
  auto Visit = [&](BasicBlock *BB) {
    if (Seen.insert(BB).second)
      Stack.push_back({BB, 0});
  };
  Visit(&F.getEntryBlock());
  while (!Stack.empty()) {
    auto &[BB, I] = Stack.back();
    auto &Succs = Next[BB];
    if (I < Succs.size()) {
      BasicBlock *S = Succs[I++];
      Visit(S);
      continue;
    }
    PostOrder.push_back(BB);
    Stack.pop_back();
  }
  SmallVector<BasicBlock *, 32> Order(PostOrder.rbegin(), PostOrder.rend());
  for (BasicBlock &BB : F)
    if (!Seen.count(&BB))
      Order.push_back(&BB);
  return Order;
}

/// The non-uniform sub-group functions' exchange becomes the converging
/// scheduler's, with the context and, for the exchange itself, a site id
/// in convergeOrder: the scheduler lets go the lowest first, so a call in
/// a branch or a loop before the calls after it, which the work-items
/// still on their way will reach too. Whether WI has any.
bool lowerConvergeCalls(Function &WI, Value *Ctx) {
  Module &M = *WI.getParent();
  // Most fiber kernels have none: no dominator tree for them.
  Function *Converge = M.getFunction(SubGroupConvergeName);
  if (!Converge || Converge->use_empty())
    return false;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I32 = Type::getInt32Ty(C),
       *I64 = Type::getInt64Ty(C);
  auto Runtime = [&](const char *Name, Type *Ret, ArrayRef<Type *> Params) {
    FunctionCallee Callee =
        M.getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
    if (auto *F = dyn_cast<Function>(Callee.getCallee()))
      F->addFnAttr(Attribute::NoUnwind);
    return Callee;
  };
  struct Lowering {
    StringRef From;
    FunctionCallee To;
  };
  Lowering Lowerings[] = {
      {SubGroupConvergeName,
       Runtime(FiberConvergeSymbol, Type::getVoidTy(C), {Ptr, I32, I64})},
      {SubGroupConvergedMaskName,
       Runtime(FiberConvergedMaskSymbol, I32, {Ptr, I32})},
      {SubGroupConvergedValueName,
       Runtime(FiberConvergedValueSymbol, I64, {Ptr, I32})}};
  SmallVector<std::pair<CallInst *, FunctionCallee>, 16> Calls;
  for (BasicBlock *BB : convergeOrder(WI))
    for (Instruction &I : *BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *F = CI->getCalledFunction())
          for (const Lowering &L : Lowerings)
            if (F->getName() == L.From)
              Calls.push_back({CI, L.To});
  uint32_t Site = 0;
  for (auto [CI, To] : Calls) {
    SmallVector<Value *, 3> Args = {Ctx};
    if (To.getCallee() == Lowerings[0].To.getCallee())
      Args.push_back(ConstantInt::get(I32, Site++));
    Args.append(CI->arg_begin(), CI->arg_end());
    CallInst *New = CallInst::Create(To, Args, "", CI->getIterator());
    New->setDebugLoc(CI->getDebugLoc());
    CI->replaceAllUsesWith(New);
    CI->eraseFromParent();
  }
  return Site != 0;
}

/// The __local globals WI uses, looking through constant expressions.
SmallVector<GlobalVariable *, 4> localsUsedBy(Function &WI) {
  SmallVector<GlobalVariable *, 4> Locals;
  for (GlobalVariable &GV : WI.getParent()->globals()) {
    if (GV.getAddressSpace() != LocalAddressSpace)
      continue;
    SmallVector<User *, 8> Work(GV.users());
    bool Used = false;
    while (!Work.empty() && !Used) {
      User *U = Work.pop_back_val();
      if (auto *I = dyn_cast<Instruction>(U))
        Used = I->getFunction() == &WI;
      else if (isa<ConstantExpr>(U))
        Work.append(U->user_begin(), U->user_end());
    }
    if (Used)
      Locals.push_back(&GV);
  }
  return Locals;
}

Function *buildFiberBody(Function &WI, StructType *FrameTy,
                         ArrayRef<GlobalVariable *> Locals, StringRef Kernel) {
  Module &M = *WI.getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C);
  auto *FTy =
      FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr, I64, I64, I64}, false);
  Function *Body = Function::Create(FTy, GlobalValue::InternalLinkage,
                                    Kernel + ".fiber", &M);
  for (Attribute A : WI.getAttributes().getFnAttrs())
    if (A.isStringAttribute() && A.getKindAsString() != WorkItemAttr)
      Body->addFnAttr(A);
  Body->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "entry", Body));
  unsigned N = WI.arg_size() - 4;
  SmallVector<Value *, 16> Args;
  for (unsigned I = 0; I < N; ++I)
    Args.push_back(B.CreateLoad(WI.getArg(I)->getType(),
                                B.CreateStructGEP(FrameTy, Body->getArg(0), I),
                                WI.getArg(I)->getName()));
  SmallVector<Value *, 4> LocalAddrs;
  for (unsigned I = 0; I < Locals.size(); ++I)
    LocalAddrs.push_back(
        B.CreateLoad(Locals[I]->getType(),
                     B.CreateStructGEP(FrameTy, Body->getArg(0), N + I),
                     Locals[I]->getName()));
  for (unsigned I = 1; I < 5; ++I)
    Args.push_back(Body->getArg(I));
  CallInst *Call = B.CreateCall(&WI, Args);
  B.CreateRetVoid();
  InlineFunctionInfo IFI;
  if (!InlineFunction(*Call, IFI).isSuccess())
    return nullptr;

  SmallVector<Constant *, 4> AsConstants(Locals.begin(), Locals.end());
  if (!AsConstants.empty())
    convertUsersOfConstantsToInstructions(AsConstants, Body);
  for (unsigned I = 0; I < Locals.size(); ++I)
    Locals[I]->replaceUsesWithIf(LocalAddrs[I], [&](Use &U) {
      auto *UI = dyn_cast<Instruction>(U.getUser());
      return UI && UI->getFunction() == Body;
    });
  return Body;
}

Function *buildWorkGroup(Function &WI, Function &Body, StructType *FrameTy,
                         ArrayRef<GlobalVariable *> Locals, StringRef Kernel,
                         uint64_t StackBytes, bool Converging) {
  Module &M = *WI.getParent();
  LLVMContext &C = M.getContext();
  Function *WG = createWorkGroupShell(WI, Kernel);
  unsigned N = WI.arg_size() - 4;
  IRBuilder<> B(BasicBlock::Create(C, "entry", WG));
  Value *Frame = B.CreateAlloca(FrameTy, nullptr, "frame");
  for (unsigned I = 0; I < N; ++I)
    B.CreateStore(WG->getArg(I), B.CreateStructGEP(FrameTy, Frame, I));
  for (unsigned I = 0; I < Locals.size(); ++I)
    B.CreateStore(Locals[I], B.CreateStructGEP(FrameTy, Frame, N + I));
  Type *Ptr = PointerType::get(C, 0);
  FunctionCallee Run =
      M.getOrInsertFunction(RunFibersSymbol, Type::getVoidTy(C), Ptr, Ptr, Ptr,
                            B.getInt64Ty(), B.getInt64Ty());
  if (auto *F = dyn_cast<Function>(Run.getCallee()))
    F->addFnAttr(Attribute::NoUnwind);
  B.CreateCall(Run, {WG->getArg(N), &Body, Frame, B.getInt64(StackBytes),
                     B.getInt64(Converging)});
  B.CreateRetVoid();
  return WG;
}

} // namespace

PreservedAnalyses WorkGroupFibersPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 4> WorkItemFunctions;
  for (Function &F : M) {
    if (isWorkItemFunctionOf(F, Kernel) &&
        (All || F.hasFnAttribute(FallbackReasonAttr)))
      WorkItemFunctions.push_back(&F);
  }
  if (WorkItemFunctions.empty())
    return PreservedAnalyses::all();
  LLVMContext &C = M.getContext();
  for (Function *WI : WorkItemFunctions) {
    std::string Of = derivedFrom(*WI, WorkItemAttr).str();
    std::string Reason =
        All ? AllReason
            : WI->getFnAttribute(FallbackReasonAttr).getValueAsString().str();
    // The reason is for the log; the fiber and the group need not carry it.
    WI->removeFnAttr(FallbackReasonAttr);
    if (!fibersAvailable()) {
      // Left alone: no work-group function, so the compile fails loudly.
      WEFT_LOG(DebugCompile,
               "kernel '%s': the fallback work-group method is not available "
               "on this host (%s)",
               Of.c_str(), Reason.c_str());
      continue;
    }
    uint64_t StackBytes = stackBytes(*WI);
    unsigned N = WI->arg_size() - 4;
    // A restrict (noalias) buffer would let LLVM assume that a barrier,
    // which is a call not given the pointer, cannot change what it points
    // to, and keep values in registers across it; here the barrier is
    // where the other work-items write.
    for (unsigned I = 0; I < N; ++I)
      WI->removeParamAttr(I, Attribute::NoAlias);
    lowerBarriers(*WI, WI->getArg(N));
    bool Converging = lowerConvergeCalls(*WI, WI->getArg(N));
    SmallVector<GlobalVariable *, 4> Locals = localsUsedBy(*WI);
    SmallVector<Type *, 16> Fields;
    for (unsigned I = 0; I < N; ++I)
      Fields.push_back(WI->getArg(I)->getType());
    for (GlobalVariable *GV : Locals)
      Fields.push_back(GV->getType());
    StructType *FrameTy = StructType::get(C, Fields);
    Function *Body = buildFiberBody(*WI, FrameTy, Locals, Of);
    if (!Body) {
      WEFT_LOG(DebugCompile, "kernel '%s': cannot inline %s into its fiber",
               Of.c_str(), WI->getName().str().c_str());
      continue;
    }
    Function *WG =
        buildWorkGroup(*WI, *Body, FrameTy, Locals, Of, StackBytes, Converging);
    uint64_t WorkItems = LocalSize[0] * LocalSize[1] * LocalSize[2];
    uint64_t Arena = fiberArenaSize(WorkItems, StackBytes);
    WG->addFnAttr(PrivateArenaAttr, std::to_string(Arena));
    WEFT_LOG(DebugCompile,
             "kernel '%s': method fallback (work-items as fibers, %llu-byte "
             "stacks, %llu bytes of private arena), because: %s",
             Of.c_str(), (unsigned long long)StackBytes,
             (unsigned long long)Arena, Reason.c_str());
    WI->eraseFromParent();
    assert(!verifyFunction(*WG, &errs()) && !verifyFunction(*Body, &errs()) &&
           "WorkGroupFibers broke the IR");
    (void)WG;
  }
  return PreservedAnalyses::none();
}

} // namespace weft
