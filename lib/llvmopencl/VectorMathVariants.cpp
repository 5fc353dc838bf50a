//===- VectorMathVariants.cpp - SLEEF vector variants of math calls -------===//
//
// The builtin library's exp, log, sin, cos, pow ... are LLVM intrinsics
// (llvm.exp.f32, ...), which the code generator lowers to the host libm one
// value at a time. Inside a work-item loop the loop vectorizer would then
// scalarize them. This pass attaches to every such call the
// "vector-function-abi-variant" attribute naming SLEEF's vector function
// for the device's widest registers, e.g.
//
//   call float @llvm.exp.f32(float %x)
//     #{ "vector-function-abi-variant"=
//        "_ZGV_LLVM_N16v_llvm.exp.f32(Sleef_expf16_u10avx512f)" }
//
// and declares that function, so loop-vectorize calls it on whole vectors
// (the attribute survives inlining of the builtin into the loop). The same
// goes for the double libm functions lib/kernel/libm.cl calls (tan, atan2,
// erf, cbrt, ...). The variants are SLEEF's u10 ones (u15 for erfc, u05
// for hypot): at most 1.5 ulp, inside every OpenCL bound. The JIT resolves them from libsleef.so.3 (WorkGroupCompiler.cpp).
//
//===----------------------------------------------------------------------===//
#include "VectorMathVariants.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#define DEBUG_TYPE "weft-vector-math-variants"

using namespace llvm;

namespace weft {

namespace {

/// SLEEF's name stem of an intrinsic ("exp" for llvm.exp), or "".
StringRef sleefStem(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::exp:
    return "exp";
  case Intrinsic::exp2:
    return "exp2";
  case Intrinsic::log:
    return "log";
  case Intrinsic::log2:
    return "log2";
  case Intrinsic::log10:
    return "log10";
  case Intrinsic::sin:
    return "sin";
  case Intrinsic::cos:
    return "cos";
  case Intrinsic::pow:
    return "pow";
  default:
    return "";
  }
}

/// SLEEF's stem and accuracy suffix of a double libm function that
/// lib/kernel/libm.cl calls (its float forms call the double ones too).
/// Not acosh, asinh, log1p: SLEEF's overflow to infinity for huge
/// arguments (MathAccuracy finds it).
std::pair<StringRef, StringRef> sleefLibmVariant(StringRef Name) {
  return StringSwitch<std::pair<StringRef, StringRef>>(Name)
      .Cases("tan", "atan", "atan2", "erf", "cbrt", {Name, "_u10"})
      .Cases("sinh", "cosh", "tanh", "asin", "acos", {Name, "_u10"})
      .Cases("atanh", "expm1", {Name, "_u10"})
      .Cases("exp10", "sin", "cos", "pow", {Name, "_u10"})
      .Case("erfc", {"erfc", "_u15"})
      .Case("hypot", {"hypot", "_u05"})
      .Default({"", ""});
}

/// The ISA suffix of SLEEF's function names for a register width.
StringRef sleefIsa(unsigned SimdBytes) {
  return SimdBytes >= 64 ? "avx512f" : SimdBytes >= 32 ? "avx2" : "sse2";
}

} // namespace

PreservedAnalyses VectorMathVariantsPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  unsigned Bytes = SimdBytes >= 64 ? 64 : SimdBytes >= 32 ? 32 : 16;
  SmallVector<GlobalValue *, 16> Declared;
  bool Changed = false;
  for (Function &F : M) {
    StringRef Stem, Accuracy = "_u10";
    Type *T = F.getReturnType();
    if (F.isIntrinsic()) {
      Stem = sleefStem(F.getIntrinsicID());
    } else if (F.isDeclaration() && T->isDoubleTy()) {
      std::tie(Stem, Accuracy) = sleefLibmVariant(F.getName());
    }
    if (Stem.empty() || !(T->isFloatTy() || T->isDoubleTy()) ||
        any_of(F.args(), [&](Argument &A) { return A.getType() != T; }))
      continue;
    bool IsFloat = T->isFloatTy();
    unsigned VF = Bytes / (IsFloat ? 4 : 8);
    unsigned Arity = F.arg_size();
    std::string Vector = ("Sleef_" + Stem + (IsFloat ? "f" : "d") +
                          Twine(VF) + Accuracy + sleefIsa(Bytes))
                             .str();
    auto *VecTy = FixedVectorType::get(T, VF);
    SmallVector<Type *, 2> Params(Arity, VecTy);
    FunctionCallee Callee =
        M.getOrInsertFunction(Vector, FunctionType::get(VecTy, Params, false));
    if (auto *VecFn = dyn_cast<Function>(Callee.getCallee()))
      Declared.push_back(VecFn);
    std::string Mangled = ("_ZGV_LLVM_N" + Twine(VF) +
                           (Arity == 2 ? "vv" : "v") + "_" + F.getName() +
                           "(" + Vector + ")")
                              .str();
    for (User *U : F.users())
      if (auto *CI = dyn_cast<CallInst>(U)) {
        CI->addFnAttr(Attribute::get(M.getContext(),
                                     "vector-function-abi-variant", Mangled));
        Changed = true;
      }
  }
  // The declarations have no user until the vectorizer makes one.
  if (!Declared.empty())
    appendToCompilerUsed(M, Declared);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
