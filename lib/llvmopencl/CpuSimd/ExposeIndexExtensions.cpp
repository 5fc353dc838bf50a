//===- ExposeIndexExtensions.cpp - Extensions SCEV can read again ---------===//
//
// OpenCL C kernels index with int arithmetic on size_t ids:
//
//   int id = get_group_id(0) * get_local_size(0) * 16 + get_local_id(0);
//   sum += A[id]; id += get_local_size(0); sum += A[id]; ...
//
// Clang truncates each 64-bit sum to int and sign-extends it at the access.
// InstCombine writes sext (trunc x) as ashr (shl x, 32), 32, folds the
// element size into the shift, and pushes the shl into the sum, so in the
// work-item loop of a specialized local size the address becomes
//
//   ashr exact (add (shl %group, 44), (shl %lid.x, 32)), 30
//
// Scalar evolution reads `ashr (shl x, n), m` (and `ashr (add (shl x, n),
// c), m`) as the sign extension of a truncation of x, and from there the
// loop vectorizer proves the accesses consecutive under a run-time check
// that the 32-bit index does not wrap. It does not read a sum of shifts:
// the access would be a gather, and the cost model leaves the loop scalar
// (clpeak's float global-bandwidth kernel with a local offset).
// Indices of explicit vector accesses are left alone (see indexesVectors).
//
// So, right before the loop vectorizer, an ashr whose operand is a sum of
// terms that are all multiples of 2^n (values shifted left by n or more,
// constants with n trailing zero bits), n at least the ashr's amount,
// becomes `ashr (shl (sum of the terms divided by 2^n), n), m`. The two are
// equal modulo 2^64, so the rewrite is always legal; the flags of the old
// sum are not carried over.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/ExposeIndexExtensions.h"

#include "weft/debug.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "weft-expose-index-extensions"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace weft {

namespace {

/// Sums with more terms are left alone.
constexpr unsigned MaxTerms = 16;

/// One addend: Value shifted left by Shift, or the constant Const (Value
/// null; Shift is then its number of trailing zero bits).
struct Term {
  Value *V;
  unsigned Shift;
  APInt Const;
};

/// Appends the addends of the sum V to Terms; false if one is neither a
/// constant nor a shift left by a constant.
bool collectTerms(Value *V, SmallVectorImpl<Term> &Terms) {
  if (Terms.size() >= MaxTerms)
    return false;
  Value *A, *B;
  const APInt *Amount;
  if (auto *C = dyn_cast<ConstantInt>(V)) {
    Terms.push_back({nullptr, C->getValue().countr_zero(), C->getValue()});
    return true;
  }
  if (match(V, m_Add(m_Value(A), m_Value(B))))
    return collectTerms(A, Terms) && collectTerms(B, Terms);
  if (match(V, m_Shl(m_Value(A), m_APInt(Amount))) &&
      Amount->ult(V->getType()->getScalarSizeInBits())) {
    Terms.push_back({A, unsigned(Amount->getZExtValue()), APInt()});
    return true;
  }
  return false;
}

/// Whether an address computed from Index is used to access an explicit
/// vector (float2...). Consecutive across work-items, those accesses
/// become interleaved groups in the loop vectorizer, whose shuffles cost a
/// streaming loop more than the scalar loop over whole vectors (clpeak's
/// float2 kernel with a local offset: 13 instead of 19 GB/s).
bool indexesVectors(Value *Index) {
  for (User *U : Index->users()) {
    auto *GEP = dyn_cast<GetElementPtrInst>(U);
    if (!GEP)
      continue;
    for (User *Access : GEP->users())
      if (auto *LI = dyn_cast<LoadInst>(Access);
          LI && LI->getType()->isVectorTy())
        return true;
      else if (auto *SI = dyn_cast<StoreInst>(Access);
               SI && SI->getValueOperand()->getType()->isVectorTy())
        return true;
  }
  return false;
}

/// Rewrites AShr if its operand is a sum of multiples of a power of two at
/// least its amount; true if it did.
bool exposeExtension(BinaryOperator &AShr) {
  const APInt *Amount;
  Value *Sum = AShr.getOperand(0);
  if (indexesVectors(&AShr) || !match(AShr.getOperand(1), m_APInt(Amount)) ||
      !match(Sum, m_Add(m_Value(), m_Value())))
    return false;
  SmallVector<Term, 8> Terms;
  if (!collectTerms(Sum, Terms))
    return false;
  unsigned BitWidth = Sum->getType()->getScalarSizeInBits();
  unsigned Shift = BitWidth;
  unsigned Shifted = 0;
  for (const Term &T : Terms) {
    Shift = std::min(Shift, T.Shift);
    Shifted += T.V != nullptr;
  }
  // A single shifted term plus a constant is a form SCEV reads already.
  if (Shift >= BitWidth || Amount->ugt(Shift) || Shifted < 2)
    return false;
  IRBuilder<> B(&AShr);
  Value *Quotient = nullptr;
  for (const Term &T : Terms) {
    Value *Part;
    if (!T.V)
      Part = ConstantInt::get(Sum->getType(), T.Const.lshr(Shift));
    else if (T.Shift > Shift)
      Part = B.CreateShl(T.V, T.Shift - Shift);
    else
      Part = T.V;
    Quotient = Quotient ? B.CreateAdd(Quotient, Part) : Part;
  }
  Value *Multiple = B.CreateShl(Quotient, Shift, Sum->getName() + ".exposed");
  Value *New = B.CreateAShr(Multiple, AShr.getOperand(1), "", AShr.isExact());
  New->takeName(&AShr);
  AShr.replaceAllUsesWith(New);
  return true;
}

} // namespace

PreservedAnalyses ExposeIndexExtensionsPass::run(Function &F,
                                                 FunctionAnalysisManager &) {
  SmallVector<BinaryOperator *, 16> Shifts;
  for (Instruction &I : instructions(F))
    if (I.getOpcode() == Instruction::AShr && I.getType()->isIntegerTy())
      Shifts.push_back(cast<BinaryOperator>(&I));
  SmallVector<WeakTrackingVH, 16> Replaced;
  for (BinaryOperator *AShr : Shifts)
    if (exposeExtension(*AShr))
      Replaced.push_back(AShr);
  unsigned Exposed = Replaced.size();
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Replaced);
  if (!Exposed)
    return PreservedAnalyses::all();
  WEFT_LOG(DebugCompile, "%s: %u index extensions exposed to SCEV",
           F.getName().str().c_str(), Exposed);
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft
