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
// The automatic __local variables of the kernel (clang makes them internal
// globals in address space 3) live in the worker's local memory, next to
// its __local arguments, not in the launcher's frame: they may take up to
// CL_DEVICE_LOCAL_MEM_SIZE, more than a worker thread's stack may hold.
// The launcher lays them out in module order, each at a multiple of its
// alignment (BuildProgram.cpp measures CL_KERNEL_LOCAL_MEM_SIZE the same
// way), records the block's size on itself (LocalVariablesAttr) and
// addresses each variable at its offset in WorkGroupContext::LocalVariables:
//
//   K.workgroup(args..., ctx)          uses @K.tile, @K.sum
//   becomes
//   K.workgroup(args..., ctx, ptr noalias %locals)
//     K.tile = %locals + 0, K.sum = %locals + 1024
//
// The block reaches K.workgroup as a noalias parameter so that inlining
// turns it into scoped alias metadata: the variables stay known not to
// alias the kernel's buffers, as they were when they were allocas.
// K.workgroup is then inlined into the launcher.
//
//===----------------------------------------------------------------------===//
#include "Launcher.h"
#include "KernelUtils.h"
#include "WorkGroupContextLayout.h"

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
#include <tuple>

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

/// WG with one more parameter, a noalias pointer to the block of Locals
/// laid out as Layout says, which replaces the globals in its body. WG is
/// left an empty declaration.
Function *withLocalVariableBlock(Function &WG,
                                 ArrayRef<GlobalVariable *> Locals,
                                 const LocalVariableLayout &Layout) {
  LLVMContext &C = WG.getContext();
  SmallVector<Type *, 8> Params(WG.getFunctionType()->params());
  Params.push_back(PointerType::get(C, 0));
  auto *FTy = FunctionType::get(WG.getReturnType(), Params, false);
  Function *NF = Function::Create(FTy, WG.getLinkage(), WG.getAddressSpace(),
                                  "", WG.getParent());
  NF->copyAttributesFrom(&WG);
  NF->copyMetadata(&WG, 0);
  NF->takeName(&WG);
  NF->splice(NF->begin(), &WG);
  for (auto [Old, New] : zip(WG.args(), NF->args())) {
    Old.replaceAllUsesWith(&New);
    New.takeName(&Old);
  }
  Argument *Block = NF->getArg(WG.arg_size());
  Block->setName("locals");
  NF->addParamAttr(Block->getArgNo(), Attribute::NoAlias);

  // Constant-expression uses become instructions first, so that the
  // globals' uses in NF can be told from those elsewhere.
  SmallVector<Constant *, 4> AsConstants(Locals.begin(), Locals.end());
  convertUsersOfConstantsToInstructions(AsConstants, NF);
  BasicBlock &Entry = NF->getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  for (auto [GV, Offset] : zip(Locals, Layout.Offsets)) {
    Value *Addr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Block, Offset,
                                               "weft.local." + GV->getName());
    Value *AsLocal = B.CreateAddrSpaceCast(Addr, GV->getType());
    GV->replaceUsesWithIf(AsLocal, [&](Use &U) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      return I && I->getFunction() == NF;
    });
  }
  return NF;
}

/// Loads WorkGroupContext::LocalVariables, aligned to Layout.MaxAlign;
/// returns it and the bytes the driver must provide there.
std::pair<Value *, uint64_t>
loadLocalVariableBlock(IRBuilder<> &B, Value *Ctx,
                       const LocalVariableLayout &Layout) {
  LLVMContext &C = B.getContext();
  Value *Addr =
      B.CreateStructGEP(getWorkGroupContextType(C), Ctx, CtxLocalVariables);
  LoadInst *Block = B.CreateAlignedLoad(PointerType::get(C, 0), Addr,
                                        Align(8), "locals");
  // The context does not change while the group runs, and the driver
  // provides the block as launcher.h promises.
  auto Int64MD = [&](uint64_t V) {
    return MDNode::get(C, ConstantAsMetadata::get(B.getInt64(V)));
  };
  Block->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(C, {}));
  Block->setMetadata(LLVMContext::MD_nonnull, MDNode::get(C, {}));
  Block->setMetadata(LLVMContext::MD_align, Int64MD(LocalVariablesAlignment));
  uint64_t Size = Layout.Size;
  if (Layout.MaxAlign.value() <= LocalVariablesAlignment) {
    Block->setMetadata(LLVMContext::MD_dereferenceable, Int64MD(Size));
    return {Block, Size};
  }
  // A variable declared with a stricter alignment: round the block up
  // within the slack the launcher asks for.
  uint64_t A = Layout.MaxAlign.value();
  Size += A - LocalVariablesAlignment;
  Block->setMetadata(LLVMContext::MD_dereferenceable, Int64MD(Size));
  Value *Up = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Block, A - 1);
  Value *Aligned = B.CreateIntrinsic(Intrinsic::ptrmask,
                                     {Block->getType(), B.getInt64Ty()},
                                     {Up, B.getInt64(~(A - 1))}, nullptr,
                                     "locals.aligned");
  return {Aligned, Size};
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
  SmallVector<GlobalVariable *, 4> Locals = localsUsedBy(WG);
  Function *Callee = &WG;
  Value *LocalBlock = nullptr;
  if (!Locals.empty()) {
    LocalVariableLayout Layout = layOutLocalVariables(Locals, M.getDataLayout());
    Callee = withLocalVariableBlock(WG, Locals, Layout);
    uint64_t Size;
    std::tie(LocalBlock, Size) = loadLocalVariableBlock(B, Ctx, Layout);
    L->addFnAttr(LocalVariablesAttr, utostr(Size));
    LLVM_DEBUG(dbgs() << Kernel << ": " << Locals.size()
                      << " automatic __local variables, " << Size
                      << " bytes of WorkGroupContext::LocalVariables\n");
  }
  SmallVector<Value *, 8> CallArgs;
  unsigned NumKernelArgs = WG.arg_size() - 1;
  for (unsigned I = 0; I < NumKernelArgs; ++I) {
    Argument *P = Callee->getArg(I);
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
  if (LocalBlock)
    CallArgs.push_back(LocalBlock);
  Value *SavedMXCSR = flushesDenormals(*Callee) ? setFlushToZero(B) : nullptr;
  CallInst *Call = B.CreateCall(Callee, CallArgs);
  if (SavedMXCSR)
    B.CreateIntrinsic(Intrinsic::x86_sse_ldmxcsr, {}, {SavedMXCSR});
  B.CreateRetVoid();

  InlineFunctionInfo IFI;
  if (!InlineFunction(*Call, IFI).isSuccess())
    LLVM_DEBUG(dbgs() << "could not inline " << Callee->getName() << "\n");
  if (Callee != &WG && Callee->use_empty())
    Callee->eraseFromParent();
  // Other functions (other launchers) may still use a variable.
  for (GlobalVariable *GV : Locals)
    if (GV->use_empty())
      GV->eraseFromParent();
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
    StringRef Of = derivedFrom(F, WorkGroupAttr);
    if (!F.isDeclaration() && !Of.empty() && (Kernel.empty() || Of == Kernel))
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
  return PreservedAnalyses::none();
}

} // namespace weft
