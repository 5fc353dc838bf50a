//===- VectorMathVariants.cpp - SLEEF vector variants of math calls -------===//
//
// The builtin library's exp, log, sin, cos, pow ... are LLVM intrinsics
// (llvm.exp.f32, ...), which the code generator lowers to the host libm one
// value at a time. Inside a work-item loop the loop vectorizer would then
// scalarize them. This pass attaches to every such call the
// "vector-function-abi-variant" attribute naming SLEEF's vector functions
// for the device's widest registers and each narrower width, e.g.
//
//   call float @llvm.exp.f32(float %x)
//     #{ "vector-function-abi-variant"=
//        "_ZGV_LLVM_N16v_llvm.exp.f32(Sleef_expf16_u10avx512f),
//         _ZGV_LLVM_N8v_llvm.exp.f32(Sleef_expf8_u10avx2),
//         _ZGV_LLVM_N4v_llvm.exp.f32(Sleef_expf4_u10avx2128)" }
//
// and declares them, so loop-vectorize calls them on whole vectors
// (the attribute survives inlining of the builtin into the loop). The same
// goes for the double libm functions lib/kernel/libm.cl calls (tan, atan2,
// erf, cbrt, ...). The variants are SLEEF's u10 ones (u15 for erfc, u05
// for hypot): at most 1.5 ulp, inside every OpenCL bound. The JIT resolves
// them from libsleef.so.3 (WorkGroupCompiler.cpp).
//
// In a function built with -cl-fast-relaxed-math or
// -cl-unsafe-math-optimizations ("approx-func-fp-math"), sin, cos, tan,
// asin, acos, atan and atan2 take SLEEF's faster u35 functions instead, both
// as variants and where lib/kernel/sleef.cl's vector builtins call SLEEF
// directly: 3.5 ulp is inside their relaxed bounds and even their full
// ones (4 to 6 ulp). Not exp2, exp10, log, log2, cbrt, sinh, cosh, tanh or
// hypot, whose u35 forms could exceed a 2 or 3 ulp bound the relaxed table
// keeps near 0 or 1.
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
  case Intrinsic::tan:
    return "tan";
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

/// The ISA suffix of SLEEF's functions of RegBytes-wide vectors on a host
/// whose widest registers are HostBytes wide (16-byte ones use AVX2's FMA
/// where the host has AVX2).
StringRef sleefIsa(unsigned RegBytes, unsigned HostBytes) {
  if (RegBytes >= 64)
    return "avx512f";
  if (RegBytes >= 32)
    return "avx2";
  return HostBytes >= 32 ? "avx2128" : "sse2";
}

/// Whether F's builder allowed approximate math functions.
bool allowsApproxFunctions(const Function &F) {
  return F.getFnAttribute("approx-func-fp-math").getValueAsBool();
}

/// Whether SLEEF's u35 form of Stem stays within the OpenCL bounds.
bool hasRelaxedForm(StringRef Stem) {
  return StringSwitch<bool>(Stem)
      .Cases("sin", "cos", "tan", "asin", "acos", "atan", "atan2", true)
      .Default(false);
}

/// The u35 sibling of a u10 SLEEF vector function with a relaxed form
/// ("Sleef_sinf16_u35avx512f" for "Sleef_sinf16_u10avx512f"), or "".
std::string relaxedSleefName(StringRef Name) {
  StringRef Rest = Name;
  if (!Rest.consume_front("Sleef_"))
    return "";
  size_t Type = Rest.find_first_of("fd");
  if (Type == StringRef::npos || !hasRelaxedForm(Rest.take_front(Type)))
    return "";
  StringRef Width = Rest.drop_front(Type + 1);
  size_t Digits = Width.find_first_not_of("0123456789");
  if (Digits == 0 || Digits == StringRef::npos ||
      !Width.drop_front(Digits).starts_with("_u10"))
    return "";
  return (Name.take_front(Name.size() - Width.size() + Digits) + "_u35" +
          Width.drop_front(Digits + 4))
      .str();
}

/// Points the direct SLEEF calls (lib/kernel/sleef.cl's vector builtins,
/// inlined) of functions that allow approximations at the u35 forms.
bool relaxDirectCalls(Module &M) {
  SmallVector<std::pair<CallInst *, std::string>, 16> Relaxed;
  for (Function &F : M) {
    if (!F.isDeclaration())
      continue;
    std::string Name = relaxedSleefName(F.getName());
    if (Name.empty())
      continue;
    for (User *U : F.users())
      if (auto *CI = dyn_cast<CallInst>(U))
        if (CI->getCalledFunction() == &F &&
            allowsApproxFunctions(*CI->getFunction()))
          Relaxed.push_back({CI, Name});
  }
  for (auto &[CI, Name] : Relaxed) {
    FunctionCallee Callee =
        CI->getModule()->getOrInsertFunction(Name, CI->getFunctionType());
    if (auto *Fn = dyn_cast<Function>(Callee.getCallee()))
      Fn->copyAttributesFrom(CI->getCalledFunction());
    CI->setCalledFunction(Callee);
  }
  return !Relaxed.empty();
}

} // namespace

std::string declareSleefVariants(Module &M, StringRef ScalarName,
                                 StringRef Stem, Type *T, unsigned Arity,
                                 StringRef Accuracy, unsigned SimdBytes) {
  unsigned Bytes = SimdBytes >= 64 ? 64 : SimdBytes >= 32 ? 32 : 16;
  bool IsFloat = T->isFloatTy();
  SmallVector<GlobalValue *, 4> Declared;
  std::string List;
  for (unsigned RegBytes = Bytes; RegBytes >= 16; RegBytes /= 2) {
    unsigned VF = RegBytes / (IsFloat ? 4 : 8);
    auto *VecTy = FixedVectorType::get(T, VF);
    SmallVector<Type *, 2> Params(Arity, VecTy);
    std::string Vector = ("Sleef_" + Stem + (IsFloat ? "f" : "d") + Twine(VF) +
                          Accuracy + sleefIsa(RegBytes, Bytes))
                             .str();
    FunctionCallee Callee =
        M.getOrInsertFunction(Vector, FunctionType::get(VecTy, Params, false));
    if (auto *VecFn = dyn_cast<Function>(Callee.getCallee()))
      Declared.push_back(VecFn);
    List += (Twine(List.empty() ? "" : ",") + "_ZGV_LLVM_N" + Twine(VF) +
             (Arity == 2 ? "vv" : "v") + "_" + ScalarName + "(" + Vector + ")")
                .str();
  }
  // The declarations have no user until the vectorizer makes one.
  appendToCompilerUsed(M, Declared);
  return List;
}

PreservedAnalyses VectorMathVariantsPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  bool Changed = relaxDirectCalls(M);
  SmallVector<Function *, 16> Candidates;
  for (Function &F : M)
    if (F.isDeclaration())
      Candidates.push_back(&F);
  for (Function *FP : Candidates) {
    Function &F = *FP;
    StringRef Stem, Accuracy = "_u10";
    Type *T = F.getReturnType();
    if (F.isIntrinsic()) {
      Stem = sleefStem(F.getIntrinsicID());
    } else if (T->isDoubleTy()) {
      std::tie(Stem, Accuracy) = sleefLibmVariant(F.getName());
    }
    if (Stem.empty() || !(T->isFloatTy() || T->isDoubleTy()) ||
        any_of(F.args(), [&](Argument &A) { return A.getType() != T; }))
      continue;
    // One variant per register width from the widest down to 16 bytes, so
    // that the vectorizer finds one whatever factor it picks (a narrower
    // epilogue loop, a loop that also handles doubles).
    auto Variants = [&](StringRef Acc) {
      return declareSleefVariants(M, F.getName(), Stem, T, F.arg_size(), Acc,
                                  SimdBytes);
    };
    for (User *U : F.users())
      if (auto *CI = dyn_cast<CallInst>(U)) {
        bool Relaxed =
            hasRelaxedForm(Stem) && allowsApproxFunctions(*CI->getFunction());
        CI->addFnAttr(Attribute::get(M.getContext(),
                                     "vector-function-abi-variant",
                                     Variants(Relaxed ? "_u35" : Accuracy)));
        Changed = true;
      }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
