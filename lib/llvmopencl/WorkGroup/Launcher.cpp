//===- Launcher.cpp - The launcher.h entry point of a work-group function -===//
//
// Emits, for each work-group function K.workgroup, the function every CPU
// driver calls whatever K's prototype (include/weft/launcher.h):
//
//   void __weft_launch_K(void *const *Args, const WorkGroupContext *Ctx)
//
// Args[I] points at kernel argument I: the launcher loads the argument by
// the parameter's IR type (a buffer's pointer, a scalar, a vector), except
// for byval parameters (structs passed by value), which get the pointer
// itself, as clang's calling convention expects a copy in memory.
//
// A kernel built with -cl-denorms-are-zero (its denormal mode is
// preserve-sign or positive-zero) runs with the SSE control register's
// flush-to-zero and denormals-are-zero bits set, restored on return: the
// attribute alone only lets the optimizer assume flushing, the hardware
// does it. The driver's worker threads run other kernels in between, so
// the launcher, not the thread, owns the mode.
//
// K.workgroup is then inlined. The automatic __local variables of the
// kernel (clang makes them internal globals in address space 3) live in the
// worker's local memory, next to its __local arguments, not in the
// launcher's frame: they may take up to CL_DEVICE_LOCAL_MEM_SIZE, more than
// a worker thread's stack may hold. The launcher lays them out in module
// order, each at a multiple of its alignment (BuildProgram.cpp measures
// CL_KERNEL_LOCAL_MEM_SIZE the same way), records the block's size on
// itself (LocalVariablesAttr) and addresses each variable at its offset in
// WorkGroupContext::LocalVariables:
//
//   K.tile = call noalias ptr @__weft_local_variable(ptr %ctx, i64 0, ...)
//   K.sum  = call noalias ptr @__weft_local_variable(ptr %ctx, i64 1024, ...)
//
// Each address comes from a call with a noalias result, as from malloc,
// not from arithmetic on the block: that makes each variable an object of
// its own for alias analysis, as the allocas they replace were, so that
// loop idioms and vectorization still know the variables apart from the
// kernel's buffers and from each other (from one block, MatrixTranspose's
// tile copy was no longer a memcpy and MatrixMultiplicationTiled's tiles
// were gathered). It is true to what the variables are: disjoint memory
// that nothing else the kernel reaches points into, whose contents do not
// outlive the work-group.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/Launcher.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/WorkGroupContextLayout.h"

#include "weft/launcher.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Support/Debug.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cstddef>

#define DEBUG_TYPE "weft-launcher"

using namespace llvm;

// The LLVM struct type in WorkGroupContextLayout.h mirrors these offsets.
static_assert(offsetof(weft::WorkGroupContext, WorkDim) == 0, "layout");
static_assert(offsetof(weft::WorkGroupContext, GroupId) == 8, "layout");
static_assert(offsetof(weft::WorkGroupContext, NumGroups) == 32, "layout");
static_assert(offsetof(weft::WorkGroupContext, GlobalOffset) == 56, "layout");
static_assert(offsetof(weft::WorkGroupContext, GlobalSize) == 80, "layout");
static_assert(offsetof(weft::WorkGroupContext, LocalSize) == 104, "layout");
static_assert(offsetof(weft::WorkGroupContext, EnqueuedLocalSize) == 128,
              "layout");
static_assert(offsetof(weft::WorkGroupContext, PrivateArena) == 152, "layout");
static_assert(offsetof(weft::WorkGroupContext, Printf) == 160, "layout");
static_assert(offsetof(weft::WorkGroupContext, LocalVariables) == 168,
              "layout");
static_assert(offsetof(weft::WorkGroupContext, LocalMemory) == 176 &&
                  offsetof(weft::WorkGroupContext, LocalMemorySize) == 184 &&
                  offsetof(weft::WorkGroupContext, Stack) == 192 &&
                  offsetof(weft::WorkGroupContext, StackSize) == 200 &&
                  offsetof(weft::WorkGroupContext, PrivateArenaSize) == 208 &&
                  offsetof(weft::WorkGroupContext, BlockCounters) == 216 &&
                  sizeof(weft::WorkGroupContext) == 224,
              "layout");
static_assert(offsetof(weft::PrintfBuffer, Used) == 0 &&
                  offsetof(weft::PrintfBuffer, Capacity) == 8 &&
                  offsetof(weft::PrintfBuffer, Data) == 16,
              "layout");

namespace weft {

namespace {

/// Whether WG was compiled to flush float denormals (-cl-denorms-are-zero),
/// on a target whose control register the launcher knows how to set.
bool flushesDenormals(Function &WG) {
  if (!Triple(WG.getParent()->getTargetTriple()).isX86())
    return false;
  DenormalMode Mode = WG.getDenormalMode(APFloat::IEEEsingle());
  return Mode.Output == DenormalMode::PreserveSign ||
         Mode.Output == DenormalMode::PositiveZero;
}

/// Sets MXCSR's FTZ and DAZ bits; returns the slot holding the old value.
Value *setFlushToZero(IRBuilder<> &B) {
  constexpr uint32_t FlushToZero = 1u << 15, DenormalsAreZero = 1u << 6;
  Type *I32 = B.getInt32Ty();
  AllocaInst *Saved = B.CreateAlloca(I32, nullptr, "mxcsr.saved");
  AllocaInst *Flushing = B.CreateAlloca(I32, nullptr, "mxcsr.flush");
  B.CreateIntrinsic(Intrinsic::x86_sse_stmxcsr, {}, {Saved});
  Value *Old = B.CreateLoad(I32, Saved, "mxcsr");
  B.CreateStore(B.CreateOr(Old, FlushToZero | DenormalsAreZero), Flushing);
  B.CreateIntrinsic(Intrinsic::x86_sse_ldmxcsr, {}, {Flushing});
  return Saved;
}

/// Whether F uses GV, looking through constant expressions.
bool isUsedIn(GlobalVariable &GV, Function &F) {
  SmallVector<User *, 8> Work(GV.users());
  while (!Work.empty()) {
    User *U = Work.pop_back_val();
    if (auto *I = dyn_cast<Instruction>(U)) {
      if (I->getFunction() == &F)
        return true;
    } else if (isa<ConstantExpr>(U)) {
      Work.append(U->user_begin(), U->user_end());
    }
  }
  return false;
}

/// The automatic __local variables F uses, in module order.
SmallVector<GlobalVariable *, 4> localsUsedBy(Function &F) {
  SmallVector<GlobalVariable *, 4> Locals;
  for (GlobalVariable &GV : F.getParent()->globals())
    if (GV.getAddressSpace() == LocalAddressSpace && isUsedIn(GV, F))
      Locals.push_back(&GV);
  return Locals;
}

/// The function a launcher calls for the address of each variable:
///
///   __weft_local_variable(Ctx, Offset, Mask)
///     = round_up(Ctx->LocalVariables, Mask + 1) + Offset
///
/// Its noalias result makes each variable an object of its own (see
/// above); noinline keeps it a call (a few per work-group) so that the
/// attribute stays, and reading the context inside keeps interprocedural
/// constant propagation from reducing it to an argument it returns.
Function *getLocalVariableFunction(Module &M) {
  if (Function *F = M.getFunction(LocalVariableFunction))
    return F;
  LLVMContext &C = M.getContext();
  auto *Ptr = PointerType::get(C, 0);
  auto *I64 = Type::getInt64Ty(C);
  auto *F =
      Function::Create(FunctionType::get(Ptr, {Ptr, I64, I64}, false),
                       GlobalValue::InternalLinkage, LocalVariableFunction, M);
  F->addRetAttr(Attribute::NoAlias);
  F->addRetAttr(Attribute::NonNull);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::WillReturn);
  F->setMemoryEffects(MemoryEffects::argMemOnly(ModRefInfo::Ref));
  F->addParamAttr(0, Attribute::ReadOnly);
  F->addParamAttr(0, Attribute::NoCapture);
  F->addDereferenceableParamAttr(0, sizeof(WorkGroupContext));
  Argument *Ctx = F->getArg(0), *Offset = F->getArg(1), *Mask = F->getArg(2);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Field =
      B.CreateStructGEP(getWorkGroupContextType(C), Ctx, CtxLocalVariables);
  Value *Block = B.CreateAlignedLoad(Ptr, Field, Align(8), "locals");
  Value *Up = B.CreateInBoundsGEP(B.getInt8Ty(), Block, Mask);
  Value *Aligned = B.CreateIntrinsic(Intrinsic::ptrmask, {Ptr, I64},
                                     {Up, B.CreateNot(Mask)});
  B.CreateRet(B.CreateInBoundsGEP(B.getInt8Ty(), Aligned, Offset));
  return F;
}

/// Addresses each of Locals (laid out as Layout says) in L's block of
/// WorkGroupContext::LocalVariables instead of the globals; returns the
/// bytes the driver must provide there.
uint64_t localsToContextBlock(Function &L, ArrayRef<GlobalVariable *> Locals,
                              const LocalVariableLayout &Layout) {
  Module &M = *L.getParent();
  LLVMContext &C = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  // A variable declared with an alignment stricter than the driver's
  // promise: round the block up, within slack the launcher asks for.
  uint64_t Mask = 0, Size = Layout.Size;
  if (Layout.MaxAlign.value() > LocalVariablesAlignment) {
    Mask = Layout.MaxAlign.value() - 1;
    Size += Layout.MaxAlign.value() - LocalVariablesAlignment;
  }
  BasicBlock &Entry = L.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  Function *AddressOf = getLocalVariableFunction(M);
  // Constant-expression uses become instructions first, so that the
  // globals' uses in L can be told from those elsewhere.
  SmallVector<Constant *, 4> AsConstants(Locals.begin(), Locals.end());
  convertUsersOfConstantsToInstructions(AsConstants, &L);
  for (auto [GV, Offset] : zip(Locals, Layout.Offsets)) {
    CallInst *Addr = B.CreateCall(
        AddressOf, {L.getArg(1), B.getInt64(Offset), B.getInt64(Mask)},
        "weft.local." + GV->getName());
    // What the block's alignment and the offset guarantee, at least the
    // variable's own alignment.
    Type *T = GV->getValueType();
    Align Block(std::max<uint64_t>(LocalVariablesAlignment, Mask + 1));
    Addr->addRetAttr(
        Attribute::getWithAlignment(C, commonAlignment(Block, Offset)));
    Addr->addRetAttr(
        Attribute::getWithDereferenceableBytes(C, DL.getTypeAllocSize(T)));
    Value *AsLocal = B.CreateAddrSpaceCast(Addr, GV->getType());
    // Other functions (other launchers) keep the global.
    GV->replaceUsesWithIf(AsLocal, [&](Use &U) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      return I && I->getFunction() == &L;
    });
  }
  return Size;
}

Function *createLauncher(Function &WG, StringRef Kernel) {
  LLVMContext &C = WG.getContext();
  Module &M = *WG.getParent();
  auto *Ptr = PointerType::get(C, 0);
  auto *FTy = FunctionType::get(Type::getVoidTy(C), {Ptr, Ptr}, false);
  std::string Name = launcherName(Kernel);
  if (Function *Old = M.getFunction(Name)) {
    Old->setName(Name + ".old");
  }
  Function *L = Function::Create(FTy, GlobalValue::ExternalLinkage, Name, &M);
  for (Attribute A : WG.getAttributes().getFnAttrs())
    if (A.isStringAttribute() && A.getKindAsString() != WorkGroupAttr)
      L->addFnAttr(A);
  L->addFnAttr(Attribute::NoUnwind);
  for (unsigned I = 0; I < 2; ++I) {
    L->addParamAttr(I, Attribute::NoAlias);
    L->addParamAttr(I, Attribute::NoCapture);
    L->addParamAttr(I, Attribute::ReadOnly);
  }
  Argument *Args = L->getArg(0);
  Argument *Ctx = L->getArg(1);
  Args->setName("args");
  Ctx->setName("ctx");
  L->addDereferenceableParamAttr(1, sizeof(WorkGroupContext));

  IRBuilder<> B(BasicBlock::Create(C, "entry", L));
  SmallVector<Value *, 8> CallArgs;
  unsigned NumKernelArgs = WG.arg_size() - 1;
  for (unsigned I = 0; I < NumKernelArgs; ++I) {
    Argument *P = WG.getArg(I);
    Value *Slot = B.CreateConstInBoundsGEP1_64(Ptr, Args, I);
    auto *ArgPtr = B.CreateAlignedLoad(Ptr, Slot, Align(8), P->getName() + ".ptr");
    ArgPtr->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(C, {}));
    if (P->hasByValAttr()) {
      CallArgs.push_back(ArgPtr);
      continue;
    }
    // The runtime copies values into its argument table with the
    // alignment KernelArgDesc asks for; trusting only 1 costs nothing here.
    CallArgs.push_back(B.CreateAlignedLoad(P->getType(), ArgPtr, Align(1),
                                           P->getName()));
  }
  CallArgs.push_back(Ctx);
  Value *SavedMXCSR = flushesDenormals(WG) ? setFlushToZero(B) : nullptr;
  CallInst *Call = B.CreateCall(&WG, CallArgs);
  if (SavedMXCSR)
    B.CreateIntrinsic(Intrinsic::x86_sse_ldmxcsr, {}, {SavedMXCSR});
  B.CreateRetVoid();

  InlineFunctionInfo IFI;
  if (!InlineFunction(*Call, IFI).isSuccess())
    LLVM_DEBUG(dbgs() << "could not inline " << WG.getName() << "\n");

  SmallVector<GlobalVariable *, 4> Locals = localsUsedBy(*L);
  if (!Locals.empty()) {
    LocalVariableLayout Layout =
        layOutLocalVariables(Locals, M.getDataLayout());
    uint64_t Size = localsToContextBlock(*L, Locals, Layout);
    L->addFnAttr(LocalVariablesAttr, utostr(Size));
    LLVM_DEBUG(dbgs() << Kernel << ": " << Locals.size()
                      << " automatic __local variables, " << Size
                      << " bytes of WorkGroupContext::LocalVariables\n");
  }
  return L;
}

} // namespace

LocalVariableLayout layOutLocalVariables(ArrayRef<GlobalVariable *> Locals,
                                         const DataLayout &DL) {
  LocalVariableLayout Layout;
  for (GlobalVariable *GV : Locals) {
    Type *T = GV->getValueType();
    Align A = std::max(GV->getAlign().valueOrOne(), DL.getABITypeAlign(T));
    uint64_t Offset = alignTo(Layout.Size, A);
    Layout.Offsets.push_back(Offset);
    Layout.Size = Offset + DL.getTypeAllocSize(T);
    Layout.MaxAlign = std::max(Layout.MaxAlign, A);
  }
  return Layout;
}

PreservedAnalyses LauncherPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 4> WorkGroupFunctions;
  for (Function &F : M) {
    if (isWorkGroupFunctionOf(F, Kernel))
      WorkGroupFunctions.push_back(&F);
  }
  if (WorkGroupFunctions.empty())
    return PreservedAnalyses::all();
  for (Function *WG : WorkGroupFunctions) {
    std::string Of = derivedFrom(*WG, WorkGroupAttr).str();
    createLauncher(*WG, Of);
    if (WG->use_empty())
      WG->eraseFromParent();
  }
  // The variables every launcher now addresses in its own block.
  for (GlobalVariable &GV : make_early_inc_range(M.globals()))
    if (GV.getAddressSpace() == LocalAddressSpace) {
      GV.removeDeadConstantUsers();
      if (GV.use_empty())
        GV.eraseFromParent();
    }
  return PreservedAnalyses::none();
}

} // namespace weft
