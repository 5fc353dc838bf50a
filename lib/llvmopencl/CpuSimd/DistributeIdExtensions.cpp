//===- DistributeIdExtensions.cpp - 64-bit index arithmetic on local ids --===//
//
// OpenCL C indexes arrays with int arithmetic on the ids, and clang extends
// the int index to 64 bits at the access:
//
//   a[row * (ld / 2) + get_local_id(0) + off]
//   => gep a, sext (add nsw (add nsw (mul nsw row, ld2), trunc %lid.x), off)
//
// Once the work-item loop runs over %lid.x, the vectorizer (through SCEV)
// must prove the 32-bit sum does not wrap to see consecutive addresses; it
// often cannot, and gathers. Here the extension is pushed through the
// arithmetic to the leaves:
//
//   add nsw (add nsw (mul nsw (sext row), sext ld2), %lid.x), (sext off)
//
// Legality. With nsw (nuw for zext) the narrow operation does not wrap or
// its result is poison; where it does not wrap, extending the operands and
// computing wide gives the same value, and where the result was poison any
// value refines it. The trunc to 32 bits of a 64-bit expression of the local
// ids (sums, products, shifts of ids and non-negative constants, size_t
// arithmetic like get_local_id(0) * 2), extended again, is the expression
// itself when its largest value, from the specialized local size (a smaller
// last group only narrows it), is below 2^31. Other leaves are extended
// where they are. The rewrite is only made for extensions whose operand reaches a
// local id this way.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/DistributeIdExtensions.h"
#include "WorkGroup/KernelUtils.h"

#include "weft/debug.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>

#define DEBUG_TYPE "weft-distribute-id-extensions"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace weft {

namespace {

/// How deep an extended operand is followed.
constexpr unsigned MaxDepth = 8;
/// Local sizes up to this keep a truncated id non-negative in 32 bits.
constexpr uint64_t MaxLocalSize = uint64_t(1) << 30;

class Distributor {
public:
  Distributor(Function &F, const std::array<uint64_t, 3> &LocalSize) {
    unsigned N = F.arg_size();
    for (unsigned D = 0; D < 3; ++D)
      IdMax[F.getArg(N - 3 + D)] = LocalSize[D] - 1;
  }

  /// Whether V is a wide expression of the local ids that lies in
  /// [0, 2^31): the trunc of it, extended again either way, is V.
  bool isSmallIdExpression(Value *V) {
    std::optional<uint64_t> Max = maxOf(V, 0);
    return Max && *Max < (uint64_t(1) << 31);
  }

  /// Whether extending V (signed or not) can reach a local id through
  /// operations that do not wrap.
  bool reachesId(Value *V, Type *WideTy, bool Signed, unsigned Depth) {
    if (Depth > MaxDepth)
      return false;
    Value *X, *Y;
    if (match(V, m_Trunc(m_Value(X))))
      return X->getType() == WideTy && isSmallIdExpression(X);
    auto *I = dyn_cast<BinaryOperator>(V);
    if (!I || !noWrap(*I, Signed))
      return false;
    switch (I->getOpcode()) {
    case Instruction::Add:
    case Instruction::Sub:
      X = I->getOperand(0);
      Y = I->getOperand(1);
      return reachesId(X, WideTy, Signed, Depth + 1) ||
             reachesId(Y, WideTy, Signed, Depth + 1);
    case Instruction::Mul:
    case Instruction::Shl:
      if (!isa<ConstantInt>(I->getOperand(1)))
        return false;
      return reachesId(I->getOperand(0), WideTy, Signed, Depth + 1);
    default:
      return false;
    }
  }

  /// V extended to WideTy, computed wide where the rules allow.
  Value *extend(IRBuilder<> &B, Value *V, Type *WideTy, bool Signed,
                unsigned Depth) {
    Value *X;
    if (match(V, m_Trunc(m_Value(X))) && X->getType() == WideTy &&
        isSmallIdExpression(X))
      return X;
    auto *I = dyn_cast<BinaryOperator>(V);
    if (Depth > MaxDepth || !I || !noWrap(*I, Signed) ||
        !reachesId(V, WideTy, Signed, Depth))
      return Signed ? B.CreateSExt(V, WideTy) : B.CreateZExt(V, WideTy);
    Value *L = extend(B, I->getOperand(0), WideTy, Signed, Depth + 1);
    Value *R;
    if (I->getOpcode() == Instruction::Shl)
      R = B.CreateZExt(I->getOperand(1), WideTy);
    else
      R = extend(B, I->getOperand(1), WideTy, Signed, Depth + 1);
    Value *New = B.CreateBinOp(I->getOpcode(), L, R, I->getName() + ".wide");
    if (auto *NewI = dyn_cast<BinaryOperator>(New)) {
      NewI->setHasNoSignedWrap(Signed);
      NewI->setHasNoUnsignedWrap(!Signed);
    }
    return New;
  }

private:
  /// The largest value of V, an expression of the ids and non-negative
  /// constants through operations that cannot wrap below 2^62; none when V
  /// is anything else.
  std::optional<uint64_t> maxOf(Value *V, unsigned Depth) {
    constexpr uint64_t Limit = uint64_t(1) << 62;
    if (auto It = IdMax.find(V); It != IdMax.end())
      return It->second;
    if (auto *C = dyn_cast<ConstantInt>(V)) {
      if (C->getValue().isNegative() || C->getValue().uge(Limit))
        return std::nullopt;
      return C->getZExtValue();
    }
    auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > MaxDepth || I->getType()->getIntegerBitWidth() < 63)
      return std::nullopt;
    std::optional<uint64_t> L, R;
    switch (I->getOpcode()) {
    case Instruction::Add:
    case Instruction::Mul:
    case Instruction::Shl:
    case Instruction::Or:
      L = maxOf(I->getOperand(0), Depth + 1);
      R = maxOf(I->getOperand(1), Depth + 1);
      break;
    default:
      return std::nullopt;
    }
    if (!L || !R)
      return std::nullopt;
    uint64_t Max;
    bool Overflow = false;
    switch (I->getOpcode()) {
    case Instruction::Add:
      Max = SaturatingAdd(*L, *R, &Overflow);
      break;
    case Instruction::Or:
      // At most the sum of the operands, whatever bits they share.
      Max = SaturatingAdd(*L, *R, &Overflow);
      break;
    case Instruction::Mul:
      Max = SaturatingMultiply(*L, *R, &Overflow);
      break;
    default: // Shl
      if (*R >= 32)
        return std::nullopt;
      Max = SaturatingMultiply(*L, uint64_t(1) << *R, &Overflow);
      break;
    }
    if (Overflow || Max >= Limit)
      return std::nullopt;
    return Max;
  }

  static bool noWrap(const BinaryOperator &I, bool Signed) {
    if (!isa<OverflowingBinaryOperator>(I))
      return false;
    return Signed ? I.hasNoSignedWrap() : I.hasNoUnsignedWrap();
  }

  DenseMap<Value *, uint64_t> IdMax;
};

unsigned distributeExtensions(Function &F,
                              const std::array<uint64_t, 3> &LocalSize) {
  Distributor Dist(F, LocalSize);
  SmallVector<CastInst *, 32> Candidates;
  for (Instruction &I : instructions(F))
    if (auto *Ext = dyn_cast<CastInst>(&I);
        Ext && (isa<SExtInst>(Ext) || isa<ZExtInst>(Ext)) &&
        Ext->getType()->isIntegerTy() &&
        Dist.reachesId(Ext->getOperand(0), Ext->getType(), isa<SExtInst>(Ext),
                       0))
      Candidates.push_back(Ext);
  for (CastInst *Ext : Candidates) {
    IRBuilder<> B(Ext);
    Value *New = Dist.extend(B, Ext->getOperand(0), Ext->getType(),
                             isa<SExtInst>(Ext), 0);
    LLVM_DEBUG(dbgs() << "distributed " << *Ext << " into " << *New << "\n");
    Ext->replaceAllUsesWith(New);
    RecursivelyDeleteTriviallyDeadInstructions(Ext);
  }
  return Candidates.size();
}

} // namespace

PreservedAnalyses DistributeIdExtensionsPass::run(Module &M,
                                                  ModuleAnalysisManager &) {
  for (uint64_t L : LocalSize)
    if (L == 0 || L > MaxLocalSize)
      return PreservedAnalyses::all();
  bool Changed = false;
  for (Function &F : M) {
    if (!isWorkItemFunctionOf(F, Kernel) || F.arg_size() < 4)
      continue;
    if (unsigned N = distributeExtensions(F, LocalSize)) {
      WEFT_LOG(DebugCompile, "%s: %u extensions of id arithmetic made wide",
               F.getName().str().c_str(), N);
      Changed = true;
    }
    assert(!verifyFunction(F, &errs()) &&
           "DistributeIdExtensions broke the IR");
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
