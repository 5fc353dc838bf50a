//===- PromoteHalfArithmetic.cpp - Half arithmetic as float, in sight -----===//
//
// The builtin library's mad(half) is half arithmetic (lib/kernel/half.cl),
// and so is what a kernel writes on halves: `fadd half`, `llvm.fmuladd` of
// halves. A CPU with AVX512-FP16 computes that itself, at twice the lanes
// of float; any other x86 CPU has none, and the back end promotes each
// operation to float between conversions. That promotion comes after the
// loop vectorizer has chosen its width, and the cost model prices a vector
// of half operations as if each lane were converted alone, so it picks a
// narrow width (a kernel of half mad chains ran at half the speed of the
// same chains computed in float).
//
// So, where the target has no half arithmetic, this pass does the back
// end's promotion itself, before the vectorizer: each half fadd, fsub,
// fmul, fdiv, frem, fma and fmuladd becomes fpext of its operands, the
// float operation and an fptrunc of the result. That is exactly what the
// back end would compute (each result rounded to half before the next
// operation reads it), and HalfConversionCalls.cpp then prices the
// conversions as what they are with F16C, one instruction a register.
// Where the target has AVX512-FP16 nothing changes, and the half
// operations run as such (clpeak's half mad chains: 43 -> 515 GFLOPS on a
// 2-core Sapphire Rapids guest, float 246).
//
// Runs first at the vectorizer's start, on every target without half
// arithmetic. The promotion is also what makes mad(half) right there: the
// back end splits a half fmuladd into a multiply and an add each rounded
// to half (with FMA or without), where the float ones round the exact
// product of two halves only once, with the sum. So the static multi-issue
// back half, whose code runs on the host too, runs it after its schedule
// (WorkGroupCompiler.cpp): the machine model still sees half operations.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/PromoteHalfArithmetic.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Target/TargetMachine.h"

#define DEBUG_TYPE "weft-promote-half-arithmetic"

using namespace llvm;

namespace weft {

bool computesHalvesNatively(const TargetMachine &TM) {
  const MCSubtargetInfo *STI = TM.getMCSubtargetInfo();
  return STI && STI->checkFeatures("+avx512fp16");
}

namespace {

bool isHalf(Type *T) { return T->getScalarType()->isHalfTy(); }

/// The operations the back end would promote.
bool promotes(Instruction &I) {
  if (!isHalf(I.getType()))
    return false;
  switch (I.getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
  case Instruction::FDiv:
  case Instruction::FRem:
    return true;
  default:
    break;
  }
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->getIntrinsicID() == Intrinsic::fmuladd ||
           II->getIntrinsicID() == Intrinsic::fma;
  return false;
}

Type *floatFor(Type *Half) {
  Type *Float = Type::getFloatTy(Half->getContext());
  if (auto *VT = dyn_cast<VectorType>(Half))
    return VectorType::get(Float, VT->getElementCount());
  return Float;
}

void promote(Instruction &I) {
  IRBuilder<> B(&I);
  Type *Wide = floatFor(I.getType());
  SmallVector<Value *, 3> Operands;
  auto *II = dyn_cast<IntrinsicInst>(&I);
  unsigned N = II ? II->arg_size() : I.getNumOperands();
  for (unsigned K = 0; K < N; ++K)
    Operands.push_back(B.CreateFPExt(I.getOperand(K), Wide));
  Value *Result;
  if (II)
    Result = B.CreateIntrinsic(II->getIntrinsicID(), {Wide}, Operands, &I);
  else
    Result = B.CreateBinOp(cast<BinaryOperator>(I).getOpcode(), Operands[0],
                           Operands[1], "", nullptr);
  if (auto *R = dyn_cast<Instruction>(Result))
    R->copyIRFlags(&I);
  Value *Narrow = B.CreateFPTrunc(Result, I.getType());
  Narrow->takeName(&I);
  I.replaceAllUsesWith(Narrow);
  I.eraseFromParent();
}

} // namespace

PreservedAnalyses PromoteHalfArithmeticPass::run(Function &F,
                                                 FunctionAnalysisManager &) {
  SmallVector<Instruction *, 32> Work;
  for (Instruction &I : instructions(F))
    if (promotes(I))
      Work.push_back(&I);
  for (Instruction *I : Work)
    promote(*I);
  if (Work.empty())
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft
