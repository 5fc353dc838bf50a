//===- HalfConversionCalls.cpp - Half conversions priced as instructions --===//
//
// x86 computes half in float: each OpenCL half operation is an fpext of its
// operands, the float operation and an fptrunc of the result (half.cl's
// builtins say so in IR; the back end promotes `fadd half` the same way).
// With F16C a register of halves converts in one instruction (vcvtph2ps,
// vcvtps2ph), but LLVM 19's X86 cost model knows only the 4-lane forms: it
// prices `fpext <8 x half>` at 22 and `fpext <16 x half>` at 46, as if each
// lane were converted alone, and the fptrunc likewise. In a work-item loop
// of half mad chains the conversions outweigh everything else, and
// loop-vectorize chooses 4 lanes where the same loop in float gets 16
// (clpeak's half kernels ran at 5% of the float ones on an AVX-512 Xeon).
//
// So the conversions stay out of the cost model's sight while the
// vectorizer decides. Right before loop-vectorize (Phase::Form) each scalar
// fpext half -> float and fptrunc float -> half in an innermost loop
// becomes a call of __weft_half_to_float / __weft_float_to_half, functions
// without memory effects whose call sites name vector variants (the
// "vector-function-abi-variant" attribute, as for SLEEF's functions). LLVM
// 19 prices a call at 10 whatever its width, so the widths compare as the
// rest of the loop does, and the vectorizer widens the calls into the
// variants. At the end of the optimizer (Phase::Lower) every call, scalar
// or vector, becomes its conversion again: the code computes exactly what
// it did, each operation's result still rounded to half before the next
// one uses it, only wider. The loop of x = mad(y, x, y) on halves becomes
// fmuladd <32 x float> (two registers a value, see maxLanes) between
// vcvtph2ps and vcvtps2ph on AVX-512, <8 x float> on AVX2.
//
// Only where the target has F16C (the pipeline decides, through
// convertsHalvesInRegisters): without it every lane is a call of libgcc's
// __extendhfsf2 or __truncsfhf2, which is what the cost model charges.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/HalfConversionCalls.h"

#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/ParallelLoops.h"

#include "weft/debug.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Target/TargetMachine.h"

#define DEBUG_TYPE "weft-half-conversion-calls"

using namespace llvm;

namespace weft {

namespace {

constexpr const char *HalfToFloat = "__weft_half_to_float";
constexpr const char *FloatToHalf = "__weft_float_to_half";

/// Whether I is a conversion F16C does: half to float or float to half.
bool isHalfConversion(const Instruction &I) {
  if (isa<FPExtInst>(I))
    return I.getOperand(0)->getType()->isHalfTy() && I.getType()->isFloatTy();
  if (isa<FPTruncInst>(I))
    return I.getOperand(0)->getType()->isFloatTy() && I.getType()->isHalfTy();
  return false;
}

/// Declares Name, From -> To, without memory effects: LICM and the
/// vectorizers may move, drop or duplicate its calls as they would the
/// conversion it stands for.
FunctionCallee declareConversion(Module &M, const Twine &Name, Type *From,
                                 Type *To) {
  FunctionCallee Callee = M.getOrInsertFunction(
      Name.str(), FunctionType::get(To, {From}, /*isVarArg=*/false));
  if (auto *Fn = dyn_cast<Function>(Callee.getCallee())) {
    Fn->setDoesNotAccessMemory();
    Fn->setDoesNotThrow();
    Fn->setWillReturn();
    Fn->addFnAttr(Attribute::Speculatable);
  }
  return Callee;
}

/// Declares the vector variants of the scalar conversion Scalar, of 2 to
/// MaxLanes lanes, and returns the attribute that offers them to the
/// vectorizers.
Attribute declareVariants(Module &M, StringRef Scalar, Type *From, Type *To,
                          unsigned MaxLanes) {
  std::string List;
  for (unsigned Lanes = 2; Lanes <= MaxLanes; Lanes *= 2) {
    std::string Vector = (Scalar + "_v" + Twine(Lanes)).str();
    declareConversion(M, Vector, FixedVectorType::get(From, Lanes),
                      FixedVectorType::get(To, Lanes));
    List += (Twine(List.empty() ? "" : ",") + "_ZGV_LLVM_N" + Twine(Lanes) +
             "v_" + Scalar + "(" + Vector + ")")
                .str();
  }
  return Attribute::get(M.getContext(), "vector-function-abi-variant", List);
}

/// The widest variant: a register of halves (two of floats) where the
/// target has 32 vector registers, a register of floats otherwise. The
/// vectorizer sizes a loop whose memory holds only halves by the halves,
/// and a variant prices each conversion as one call whatever its width, so
/// it takes the widest one offered. A float value in two registers is one
/// more chain in flight for the FMA and conversion latencies: clpeak's half
/// kernels ran 10-20% faster on AVX-512 (zmm, 32 registers). AVX2's 16
/// registers spill instead: its half2..half8 kernels ran 10% slower (90
/// ymm spills and reloads in half4's loop against 22).
unsigned maxLanes(const TargetTransformInfo &TTI) {
  unsigned Floats = vectorRegisterBytes(TTI) / 4;
  unsigned Registers =
      TTI.getNumberOfRegisters(TTI.getRegisterClassForType(/*Vector=*/true));
  return Registers >= 32 ? 2 * Floats : Floats;
}

/// Innermost loops only: the loop vectorizer takes no other.
unsigned formCalls(Function &F, LoopInfo &LI, unsigned MaxLanes) {
  SmallVector<Instruction *, 32> Conversions;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost())
      for (BasicBlock *BB : L->blocks())
        for (Instruction &I : *BB)
          if (isHalfConversion(I))
            Conversions.push_back(&I);
  if (Conversions.empty())
    return 0;
  Module &M = *F.getParent();
  Type *Half = Type::getHalfTy(M.getContext());
  Type *Float = Type::getFloatTy(M.getContext());
  FunctionCallee Extend = declareConversion(M, HalfToFloat, Half, Float);
  FunctionCallee Truncate = declareConversion(M, FloatToHalf, Float, Half);
  Attribute ExtendVariants =
      declareVariants(M, HalfToFloat, Half, Float, MaxLanes);
  Attribute TruncateVariants =
      declareVariants(M, FloatToHalf, Float, Half, MaxLanes);
  for (Instruction *I : Conversions) {
    bool IsExtend = isa<FPExtInst>(I);
    IRBuilder<> B(I);
    CallInst *Call =
        B.CreateCall(IsExtend ? Extend : Truncate, {I->getOperand(0)});
    Call->addFnAttr(IsExtend ? ExtendVariants : TruncateVariants);
    Call->takeName(I);
    I->replaceAllUsesWith(Call);
    I->eraseFromParent();
  }
  return Conversions.size();
}

unsigned lowerCalls(Function &F) {
  SmallVector<CallInst *, 32> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && (Callee->getName().starts_with(HalfToFloat) ||
                     Callee->getName().starts_with(FloatToHalf)))
        Calls.push_back(Call);
  for (CallInst *Call : Calls) {
    IRBuilder<> B(Call);
    Value *Arg = Call->getArgOperand(0);
    Value *Converted =
        Call->getCalledFunction()->getName().starts_with(HalfToFloat)
            ? B.CreateFPExt(Arg, Call->getType())
            : B.CreateFPTrunc(Arg, Call->getType());
    Converted->takeName(Call);
    Call->replaceAllUsesWith(Converted);
    Call->eraseFromParent();
  }
  return Calls.size();
}

} // namespace

bool halfConversionCallsEnabled() {
  return switchEnabled("WEFT_HALF_CONVERSIONS");
}

bool convertsHalvesInRegisters(const TargetMachine &TM) {
  const MCSubtargetInfo *STI = TM.getMCSubtargetInfo();
  return STI && STI->checkFeatures("+f16c");
}

PreservedAnalyses HalfConversionCallsPass::run(Function &F,
                                               FunctionAnalysisManager &AM) {
  unsigned Changed = 0;
  if (P == Phase::Lower) {
    Changed = lowerCalls(F);
  } else {
    unsigned Lanes = maxLanes(AM.getResult<TargetIRAnalysis>(F));
    if (Lanes >= 2)
      Changed = formCalls(F, AM.getResult<LoopAnalysis>(F), Lanes);
  }
  if (!Changed)
    return PreservedAnalyses::all();
  WEFT_LOG(DebugCompile, "%s: %u half conversions %s",
           F.getName().str().c_str(), Changed,
           P == Phase::Form ? "hidden from the vectorizer's cost model"
                            : "restored");
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft
