//===- GuardIntegerDivision.cpp - Integer divisions that cannot trap ------===//
//
// OpenCL C leaves the result of an integer division or remainder by zero,
// and of the signed minimum divided by -1, undefined (OpenCL C 6.15.1); it
// does not allow the kernel to stop the program. x86's div and idiv raise a
// divide error on both, which the kernel sees as SIGFPE: one bad work-item
// in a kernel would take the whole host process down, the application with
// it (the CTS's 64-bit division test did).
//
// Each sdiv, udiv, srem and urem whose divisor is not a constant that rules
// those cases out gets a divisor of 1 where it would trap:
//
//   udiv X, D  ->  udiv X, select(D == 0, 1, D)
//   sdiv X, D  ->  sdiv X, select(D == 0 | (X == MIN & D == -1), 1, D)
//
// so the quotient is X and the remainder 0 there, and every other result
// is unchanged. The divisor is frozen first, so that an undefined divisor
// cannot make the optimizer drop the guard. Vector divisions get the same
// guard lane by lane; x86 has no vector integer division, so the back end
// divides each lane on its own anyway and the compare and select cost a
// few cycles against a division's 20 to 90.
//
// The pass runs first among the work-group passes, after FlattenKernels
// has inlined the builtins into the kernel, so the guards are in place
// before any work-item loop is formed or vectorized.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/GuardIntegerDivision.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace weft {
namespace {

bool isSigned(const BinaryOperator &Div) {
  return Div.getOpcode() == Instruction::SDiv ||
         Div.getOpcode() == Instruction::SRem;
}

/// A constant divisor with no zero lane (and, signed, no -1 lane) cannot
/// trap.
bool cannotTrap(const BinaryOperator &Div) {
  bool Signed = isSigned(Div);
  return match(Div.getOperand(1), m_CheckedInt([Signed](const APInt &V) {
                 return !V.isZero() && !(Signed && V.isAllOnes());
               }));
}

void guard(BinaryOperator &Div) {
  IRBuilder<> B(&Div);
  Value *Num = Div.getOperand(0);
  Value *Den = B.CreateFreeze(Div.getOperand(1), "den.frozen");
  Type *Ty = Den->getType();
  Value *Traps = B.CreateICmpEQ(Den, Constant::getNullValue(Ty), "den.zero");
  if (isSigned(Div)) {
    unsigned Bits = Ty->getScalarSizeInBits();
    Value *NumMin = B.CreateICmpEQ(
        B.CreateFreeze(Num),
        ConstantInt::get(Ty, APInt::getSignedMinValue(Bits)), "num.min");
    Value *DenMinusOne =
        B.CreateICmpEQ(Den, Constant::getAllOnesValue(Ty), "den.minus1");
    Traps = B.CreateOr(Traps, B.CreateAnd(NumMin, DenMinusOne), "overflows");
  }
  Div.setOperand(1, B.CreateSelect(Traps, ConstantInt::get(Ty, 1), Den,
                                   "den.safe"));
}

} // namespace

PreservedAnalyses GuardIntegerDivisionPass::run(Function &F,
                                                FunctionAnalysisManager &) {
  SmallVector<BinaryOperator *, 8> Divisions;
  for (Instruction &I : instructions(F))
    if (auto *Div = dyn_cast<BinaryOperator>(&I))
      if (Div->isIntDivRem() && !cannotTrap(*Div))
        Divisions.push_back(Div);
  for (BinaryOperator *Div : Divisions)
    guard(*Div);
  if (Divisions.empty())
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft
