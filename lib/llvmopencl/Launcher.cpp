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
// K.workgroup is then inlined, and the automatic __local variables of the
// kernel (clang makes them internal globals in address space 3) become
// allocas of the launcher's frame: one copy per work-group call, private to
// the worker running it, which is the OpenCL semantics while the work-items
// of a group run on one thread.
//
//===----------------------------------------------------------------------===//
#include "Launcher.h"
#include "KernelUtils.h"
#include "WorkGroupContextLayout.h"

#include "weft/launcher.h"

#include "llvm/ADT/SmallVector.h"
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
  return L;
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

void localsToAllocas(Module &M, Function &L) {
  SmallVector<GlobalVariable *, 4> Locals;
  for (GlobalVariable &GV : M.globals())
    if (GV.getAddressSpace() == LocalAddressSpace && isUsedIn(GV, L))
      Locals.push_back(&GV);
  if (Locals.empty())
    return;
  SmallVector<Constant *, 4> AsConstants(Locals.begin(), Locals.end());
  convertUsersOfConstantsToInstructions(AsConstants, &L);

  BasicBlock &Entry = L.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  const DataLayout &DL = M.getDataLayout();
  for (GlobalVariable *GV : Locals) {
    Align A = std::max(GV->getAlign().valueOrOne(), Align(64));
    AllocaInst *Mem = B.CreateAlloca(GV->getValueType(), DL.getAllocaAddrSpace(),
                                     nullptr, "weft.local." + GV->getName());
    Mem->setAlignment(A);
    Value *AsLocal = B.CreateAddrSpaceCast(Mem, GV->getType());
    // Other functions (the original kernel, other launchers) keep the
    // global; each launcher has its own copy.
    GV->replaceUsesWithIf(AsLocal, [&](Use &U) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      return I && I->getFunction() == &L;
    });
    if (GV->use_empty())
      GV->eraseFromParent();
  }
}

} // namespace

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
    Function *L = createLauncher(*WG, Of);
    if (WG->use_empty())
      WG->eraseFromParent();
    localsToAllocas(M, *L);
  }
  return PreservedAnalyses::none();
}

} // namespace weft
