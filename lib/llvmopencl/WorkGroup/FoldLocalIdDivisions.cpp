//===- FoldLocalIdDivisions.cpp - Divisions of linear local ids -----------===//
//
// Kernels that spread a tile copy over a work-group number the work-items
// linearly and split the number again (CLBlast's GlobalToLocalA/B):
//
//   int tid = get_local_id(0) + MDIMC * get_local_id(1);
//   a[tid / MDIMA][tid % MDIMA] = ...
//
// With MDIMC == MDIMA == Lx, the local size in x, that is a[y][x]: a vector
// load across the x work-item loop. The vectorizer cannot see it: once it
// has widened `x + 8 * y` the remainder and quotient are vector operations
// and the access a gather. Here the work-group function is specialized for
// one local size, so each local id d lies in [0, L_d) (a smaller last
// group of a non-uniform range only narrows that), and the scalar IR of
// the work-item function can be rewritten first.
//
// The dividend of each div/rem by a constant D is written as a linear form
// c0 + sum c_i * id_i with non-negative coefficients (through add, mul and
// shl by constants, disjoint or, trunc, and zext/sext of operands proved
// non-negative). If its largest value fits the type's signed range, the IR
// value equals the form, whatever wrapping flags it has. For a granule g
// dividing D, the terms whose coefficient g divides form High (a multiple
// of g); if the rest, Low, stays below g, then High % D + Low < D, so
//
//   V % D = Low + High % D        V / D = High / D
//
// and with g == D, High % D is 0 and High / D the form divided term by
// term. For x + 8y: by 8, x and y; by 16, x + (8y % 16) and (8y) / 16, both
// uniform in x apart from the x itself. Where no granule keeps Low below
// it (x + 16y by 8, x in [0, 16)), V % D == Low % D and V / D == High / D +
// Low / D still hold with g == D: the division stays, on x alone.
//
// The dividend must be an SSA value: the pass runs SROA first (as
// NormalizeBarriers and WorkItemLoops do anyway).
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/FoldLocalIdDivisions.h"
#include "WorkGroup/KernelUtils.h"

#include "weft/debug.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Local.h"

#include <numeric>
#include <optional>

#define DEBUG_TYPE "weft-fold-local-id-divisions"

using namespace llvm;

namespace weft {

namespace {

/// Coefficients and bounds stay below this, so sums never overflow.
constexpr uint64_t Limit = uint64_t(1) << 62;
/// How deep the dividend's expression is followed.
constexpr unsigned MaxDepth = 8;

/// c0 + sum Coef * Id, each Id a local id in [0, Max].
struct LinearForm {
  struct Term {
    Value *Id;
    uint64_t Coef;
    uint64_t Max;
  };
  SmallVector<Term, 3> Terms;
  uint64_t Const = 0;

  /// The largest value, saturated at Limit.
  uint64_t max() const {
    uint64_t Sum = Const;
    for (const Term &T : Terms)
      Sum = SaturatingAdd(Sum, SaturatingMultiply(T.Coef, T.Max));
    return std::min(Sum, Limit);
  }

  bool add(const LinearForm &Other) {
    Const += Other.Const;
    for (const Term &T : Other.Terms) {
      auto It =
          llvm::find_if(Terms, [&](const Term &U) { return U.Id == T.Id; });
      if (It == Terms.end())
        Terms.push_back(T);
      else
        It->Coef += T.Coef;
    }
    return withinLimit();
  }

  bool scale(uint64_t Factor) {
    bool Overflow = false;
    Const = SaturatingMultiply(Const, Factor, &Overflow);
    for (Term &T : Terms)
      T.Coef = SaturatingMultiply(T.Coef, Factor, &Overflow);
    // A zero factor leaves terms that contribute nothing.
    llvm::erase_if(Terms, [](const Term &T) { return T.Coef == 0; });
    return !Overflow && withinLimit();
  }

  bool withinLimit() const {
    if (Const >= Limit)
      return false;
    for (const Term &T : Terms)
      if (T.Coef >= Limit)
        return false;
    return max() < Limit;
  }
};

/// Writes values as linear forms of the local ids of one work-item
/// function. The form is congruent to the value modulo 2^(its bit width).
class Decomposer {
public:
  Decomposer(Function &F, const std::array<uint64_t, 3> &LocalSize) {
    // The trailing (ctx, lid.x, lid.y, lid.z) of a work-item function.
    unsigned N = F.arg_size();
    assert(N >= 4 && "a work-item function ends in (ctx, lid.x, lid.y, lid.z)");
    for (unsigned D = 0; D < 3; ++D)
      IdMax[F.getArg(N - 3 + D)] = LocalSize[D] - 1;
  }

  std::optional<LinearForm> decompose(Value *V, unsigned Depth = 0) {
    if (auto *C = dyn_cast<ConstantInt>(V)) {
      const APInt &A = C->getValue();
      if (A.isNegative() || A.uge(Limit))
        return std::nullopt;
      LinearForm L;
      L.Const = A.getZExtValue();
      return L;
    }
    if (auto It = IdMax.find(V); It != IdMax.end()) {
      LinearForm L;
      // A dimension of size 1 has the id 0.
      if (It->second)
        L.Terms.push_back({V, 1, It->second});
      return L;
    }
    auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth >= MaxDepth)
      return std::nullopt;
    switch (I->getOpcode()) {
    case Instruction::Add:
      return sum(I->getOperand(0), I->getOperand(1), Depth);
    case Instruction::Or:
      if (!cast<PossiblyDisjointInst>(I)->isDisjoint())
        return std::nullopt;
      return sum(I->getOperand(0), I->getOperand(1), Depth);
    case Instruction::Mul:
      if (auto *C = dyn_cast<ConstantInt>(I->getOperand(1)))
        return scaled(I->getOperand(0), C->getValue(), Depth);
      if (auto *C = dyn_cast<ConstantInt>(I->getOperand(0)))
        return scaled(I->getOperand(1), C->getValue(), Depth);
      return std::nullopt;
    case Instruction::Shl: {
      auto *C = dyn_cast<ConstantInt>(I->getOperand(1));
      if (!C || C->getValue().uge(62))
        return std::nullopt;
      APInt Factor(64, uint64_t(1) << C->getZExtValue());
      return scaled(I->getOperand(0), Factor, Depth);
    }
    case Instruction::Trunc:
      // Congruent modulo the narrower power of two too.
      return decompose(I->getOperand(0), Depth + 1);
    case Instruction::ZExt:
    case Instruction::SExt: {
      // Exact only for an operand in [0, 2^(width-1)): then the operand
      // equals its form, and both extensions keep it.
      std::optional<LinearForm> L = decompose(I->getOperand(0), Depth + 1);
      if (!L || !fitsSigned(*L, I->getOperand(0)->getType()))
        return std::nullopt;
      return L;
    }
    default:
      return std::nullopt;
    }
  }

  /// Whether every value of L is a non-negative value of Ty, so that a
  /// value of Ty congruent to L equals it.
  static bool fitsSigned(const LinearForm &L, Type *Ty) {
    unsigned Bits = Ty->getIntegerBitWidth();
    return Bits <= 64 && L.max() < Limit &&
           (Bits == 64 || L.max() < (uint64_t(1) << (Bits - 1)));
  }

private:
  std::optional<LinearForm> sum(Value *A, Value *B, unsigned Depth) {
    std::optional<LinearForm> L = decompose(A, Depth + 1);
    if (!L)
      return std::nullopt;
    std::optional<LinearForm> R = decompose(B, Depth + 1);
    if (!R || !L->add(*R))
      return std::nullopt;
    return L;
  }

  std::optional<LinearForm> scaled(Value *V, const APInt &Factor,
                                   unsigned Depth) {
    if (Factor.isNegative() || Factor.uge(Limit))
      return std::nullopt;
    std::optional<LinearForm> L = decompose(V, Depth + 1);
    if (!L || !L->scale(Factor.getZExtValue()))
      return std::nullopt;
    return L;
  }

  DenseMap<Value *, uint64_t> IdMax;
};

/// The largest granule g >= 2 dividing D for which the terms g does not
/// divide (and c0 % g) stay below g, with at least one such term.
std::optional<uint64_t> chooseGranule(const LinearForm &L, uint64_t D) {
  SmallVector<uint64_t, 4> Candidates = {D};
  for (const LinearForm::Term &T : L.Terms)
    Candidates.push_back(std::gcd(D, T.Coef));
  llvm::sort(Candidates, std::greater<uint64_t>());
  for (uint64_t G : Candidates) {
    if (G < 2)
      break;
    uint64_t LowMax = L.Const % G;
    unsigned LowTerms = 0;
    for (const LinearForm::Term &T : L.Terms)
      if (T.Coef % G) {
        LowMax += T.Coef * T.Max;
        ++LowTerms;
      }
    if (LowTerms && LowMax < G)
      return G;
  }
  return std::nullopt;
}

/// Emits sum Coef / Divisor * Id (+ Const) for the terms Pick accepts, in
/// Ty. Every partial sum lies in [0, the form's max], which fits Ty's signed
/// range, so the arithmetic is exact (nuw, nsw).
template <typename PickFn>
Value *emitTerms(IRBuilder<> &B, const LinearForm &L, Type *Ty, uint64_t Const,
                 uint64_t Divisor, PickFn Pick) {
  Value *Sum = nullptr;
  auto Add = [&](Value *V) {
    Sum = Sum ? B.CreateAdd(Sum, V, "", /*HasNUW=*/true, /*HasNSW=*/true) : V;
  };
  for (const LinearForm::Term &T : L.Terms) {
    if (!Pick(T))
      continue;
    Value *Id = B.CreateZExtOrTrunc(T.Id, Ty);
    uint64_t Coef = T.Coef / Divisor;
    Add(Coef == 1 ? Id
                  : B.CreateMul(Id, ConstantInt::get(Ty, Coef), "",
                                /*HasNUW=*/true, /*HasNSW=*/true));
  }
  if (Const || !Sum)
    Add(ConstantInt::get(Ty, Const));
  return Sum;
}

/// When the terms D does not divide may reach D (x + 16y by 8 with x in
/// [0, 16)), the division still splits: with High the terms D divides,
/// V % D == Low % D and V / D == High / D + Low / D. What stays divided is
/// a form of fewer ids, often one id alone (x & 7, x >> 3 once InstCombine
/// has seen the unsigned division by a power of two), which the work-item
/// loop's vectorizers follow where they cannot follow x + 16y.
Value *splitDivision(BinaryOperator &I, const LinearForm &L, uint64_t D) {
  auto InLow = [D](const LinearForm::Term &T) { return T.Coef % D != 0; };
  auto InHigh = [D](const LinearForm::Term &T) { return T.Coef % D == 0; };
  if (llvm::none_of(L.Terms, InLow) || llvm::none_of(L.Terms, InHigh))
    return nullptr;
  bool IsRem =
      I.getOpcode() == Instruction::SRem || I.getOpcode() == Instruction::URem;
  Type *Ty = I.getType();
  Value *Divisor = I.getOperand(1);
  uint64_t LowConst = L.Const % D, HighConst = L.Const - LowConst;
  IRBuilder<> B(&I);
  Value *Low = emitTerms(B, L, Ty, LowConst, 1, InLow);
  if (IsRem)
    return B.CreateURem(Low, Divisor);
  Value *High = emitTerms(B, L, Ty, HighConst / D, D, InHigh);
  return B.CreateAdd(High, B.CreateUDiv(Low, Divisor), "", /*HasNUW=*/true,
                     /*HasNSW=*/true);
}

/// The replacement of a div/rem by a constant of a linear form of the
/// local ids, or null.
Value *foldDivision(BinaryOperator &I, Decomposer &Dec) {
  auto Op = I.getOpcode();
  bool IsRem = Op == Instruction::SRem || Op == Instruction::URem;
  if (!IsRem && Op != Instruction::SDiv && Op != Instruction::UDiv)
    return nullptr;
  auto *C = dyn_cast<ConstantInt>(I.getOperand(1));
  Type *Ty = I.getType();
  if (!C || !Ty->isIntegerTy() || Ty->getIntegerBitWidth() > 64)
    return nullptr;
  // The divisor as the operation reads it: positive, for sdiv/srem too.
  const APInt &DA = C->getValue();
  bool Signed = Op == Instruction::SRem || Op == Instruction::SDiv;
  if ((Signed && DA.isNegative()) || DA.ult(2) || DA.uge(Limit))
    return nullptr;
  uint64_t D = DA.getZExtValue();
  std::optional<LinearForm> L = Dec.decompose(I.getOperand(0));
  // Non-negative and within the signed range: signed and unsigned
  // division agree, and the dividend is exactly the form.
  if (!L || !Decomposer::fitsSigned(*L, Ty))
    return nullptr;
  std::optional<uint64_t> G = chooseGranule(*L, D);
  if (!G)
    return splitDivision(I, *L, D);
  uint64_t LowConst = L->Const % *G, HighConst = L->Const - LowConst;
  auto InLow = [G](const LinearForm::Term &T) { return T.Coef % *G != 0; };
  auto InHigh = [G](const LinearForm::Term &T) { return T.Coef % *G == 0; };
  IRBuilder<> B(&I);
  if (*G == D) {
    if (IsRem)
      return emitTerms(B, *L, Ty, LowConst, 1, InLow);
    return emitTerms(B, *L, Ty, HighConst / D, D, InHigh);
  }
  Value *High = emitTerms(B, *L, Ty, HighConst, 1, InHigh);
  if (!IsRem)
    return B.CreateUDiv(High, C);
  Value *Low = emitTerms(B, *L, Ty, LowConst, 1, InLow);
  return B.CreateAdd(Low, B.CreateURem(High, C), "", /*HasNUW=*/true,
                     /*HasNSW=*/true);
}

unsigned foldDivisions(Function &F, const std::array<uint64_t, 3> &LocalSize) {
  Decomposer Dec(F, LocalSize);
  SmallVector<BinaryOperator *, 16> Candidates;
  for (Instruction &I : instructions(F))
    if (auto *BO = dyn_cast<BinaryOperator>(&I); BO && BO->isIntDivRem())
      Candidates.push_back(BO);
  unsigned Folded = 0;
  for (BinaryOperator *I : Candidates) {
    Value *New = foldDivision(*I, Dec);
    if (!New)
      continue;
    LLVM_DEBUG(dbgs() << "folded " << *I << " into " << *New << "\n");
    if (isa<Instruction>(New))
      New->takeName(I);
    I->replaceAllUsesWith(New);
    RecursivelyDeleteTriviallyDeadInstructions(I);
    ++Folded;
  }
  return Folded;
}

} // namespace

PreservedAnalyses FoldLocalIdDivisionsPass::run(Module &M,
                                                ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (!isWorkItemFunctionOf(F, Kernel) || F.arg_size() < 4)
      continue;
    // The linear id is often a private variable still in memory.
    PreservedAnalyses PA = SROAPass(SROAOptions::ModifyCFG).run(F, FAM);
    FAM.invalidate(F, PA);
    Changed |= !PA.areAllPreserved();
    if (unsigned Folded = foldDivisions(F, LocalSize)) {
      WEFT_LOG(
          DebugCompile,
          "%s: %u divisions of local ids folded for %llux%llux%llu",
          F.getName().str().c_str(), Folded, (unsigned long long)LocalSize[0],
          (unsigned long long)LocalSize[1], (unsigned long long)LocalSize[2]);
      FAM.invalidate(F, PreservedAnalyses::none());
      Changed = true;
    }
    assert(!verifyFunction(F, &errs()) && "FoldLocalIdDivisions broke the IR");
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
