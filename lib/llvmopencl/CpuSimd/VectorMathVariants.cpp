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
// erf, cbrt, ...) and for SLEEF's own scalar functions the library calls
// by name (Sleef_hypotf_u35: its variants are Sleef_hypotf16_u35avx512f
// and the narrower ones). The JIT resolves them from libsleef.so.3
// (WorkGroupCompiler.cpp).
//
// Accuracy: the OpenCL ULP table, not beyond it. SLEEF's 3.5-ulp (u35)
// functions are within the bounds of sin, cos, tan (4, 4, 5), asin, acos
// (4), atan (5), atan2 (6), sinh, cosh (4), tanh (5) and hypot (4) in
// float and double, and markedly faster than the 1-ulp (u10) ones (hypot's
// only other form is u05): those builtins take them. The rest stay u10 (u15
// for erfc): exp, exp2, exp10, log, log2, log10 (3 ulp), cbrt (2), expm1
// (3), pow, erf, erfc, atanh, whose u35 forms would exceed or do not exist.
// The pi forms (acospi = acos(x) / pi, ...) scale SLEEF's result: an error
// of e ulp of acos can be up to 4e ulp of acospi (the quotient may fall in
// a binade two below), so they call the u10 functions by name
// (Sleef_acosf_u10) and keep them; glibc's sin, cos and tan, which libm.cl
// calls only on sinpi's, cospi's and tanpi's reduced arguments, keep u10
// for the same reason.
//
// In a function built with -cl-fast-relaxed-math or
// -cl-unsafe-math-optimizations ("approx-func-fp-math"), the float calls of
// the u10 acos, asin, atan and atan2 (the pi forms: derived
// implementations in the relaxed table) move to u35, both as variants and
// where lib/kernel/sleef.cl's vector builtins call SLEEF directly. Double
// has no relaxed table and keeps its full bounds.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/VectorMathVariants.h"

#include "llvm/ADT/StringExtras.h"
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

/// SLEEF's name stem and accuracy suffix standing in for an intrinsic
/// ("exp", "_u10" for llvm.exp), or "".
std::pair<StringRef, StringRef> sleefIntrinsicVariant(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::exp:
    return {"exp", "_u10"};
  case Intrinsic::exp2:
    return {"exp2", "_u10"};
  case Intrinsic::log:
    return {"log", "_u10"};
  case Intrinsic::log2:
    return {"log2", "_u10"};
  case Intrinsic::log10:
    return {"log10", "_u10"};
  case Intrinsic::sin:
    return {"sin", "_u35"};
  case Intrinsic::cos:
    return {"cos", "_u35"};
  case Intrinsic::tan:
    return {"tan", "_u35"};
  case Intrinsic::pow:
    return {"pow", "_u10"};
  default:
    return {"", ""};
  }
}

/// SLEEF's stem and accuracy suffix of a double libm function that
/// lib/kernel/libm.cl calls. Not acosh, asinh, log1p: SLEEF's overflow to
/// infinity for huge arguments (MathAccuracy finds it). sin, cos and tan
/// are sinpi's, cospi's and tanpi's, whose reduction adds its own error.
std::pair<StringRef, StringRef> sleefLibmVariant(StringRef Name) {
  return StringSwitch<std::pair<StringRef, StringRef>>(Name)
      .Cases("atan", "atan2", "asin", "acos", "hypot", {Name, "_u35"})
      .Cases("sinh", "cosh", "tanh", {Name, "_u35"})
      .Cases("tan", "erf", "cbrt", "atanh", "expm1", {Name, "_u10"})
      .Cases("exp10", "sin", "cos", "pow", {Name, "_u10"})
      .Case("erfc", {"erfc", "_u15"})
      .Default({"", ""});
}

/// The stem and accuracy suffix of one of SLEEF's scalar functions
/// ("hypot", "_u35" for Sleef_hypotf_u35 of floats or Sleef_hypot_u35 of
/// doubles), or "".
std::pair<StringRef, StringRef> sleefScalarVariant(StringRef Name,
                                                   bool IsFloat) {
  if (!Name.consume_front("Sleef_"))
    return {"", ""};
  size_t Split = Name.rfind('_');
  if (Split == StringRef::npos || Name.size() - Split != 4 ||
      Name[Split + 1] != 'u' || !isDigit(Name[Split + 2]) ||
      !isDigit(Name[Split + 3]))
    return {"", ""};
  StringRef Stem = Name.take_front(Split);
  if (IsFloat && !Stem.consume_back("f"))
    return {"", ""};
  if (Stem.empty())
    return {"", ""};
  return {Stem, Name.drop_front(Split)};
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

/// Whether SLEEF's u35 form of Stem stays within the relaxed bounds of
/// every float builtin that calls its u10 form.
bool hasRelaxedForm(StringRef Stem) {
  return StringSwitch<bool>(Stem)
      .Cases("sin", "cos", "tan", "asin", "acos", "atan", "atan2", true)
      .Default(false);
}

/// The u35 sibling of a u10 float SLEEF function with a relaxed form
/// ("Sleef_acosf16_u35avx512f" for "Sleef_acosf16_u10avx512f",
/// "Sleef_acosf_u35" for "Sleef_acosf_u10"), or "".
std::string relaxedSleefName(StringRef Name) {
  StringRef Rest = Name;
  if (!Rest.consume_front("Sleef_"))
    return "";
  size_t Acc = Rest.find("_u10");
  if (Acc == StringRef::npos)
    return "";
  StringRef Head = Rest.take_front(Acc); // "acosf16", "acosf"
  StringRef Stem = Head.rtrim("0123456789");
  if (!Stem.consume_back("f") || !hasRelaxedForm(Stem))
    return "";
  return (Name.take_front(Name.size() - Rest.size() + Acc) + "_u35" +
          Rest.drop_front(Acc + 4))
      .str();
}

/// Points the direct float SLEEF calls (lib/kernel/sleef.cl's vector
/// builtins and libm.cl's scalar ones, inlined) of functions that allow
/// approximations at the u35 forms.
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
    Type *T = F.getReturnType();
    if (!(T->isFloatTy() || T->isDoubleTy()) || F.arg_empty() ||
        F.arg_size() > 2 ||
        any_of(F.args(), [&](Argument &A) { return A.getType() != T; }))
      continue;
    StringRef Stem, Accuracy;
    if (F.isIntrinsic())
      std::tie(Stem, Accuracy) = sleefIntrinsicVariant(F.getIntrinsicID());
    else if (F.getName().starts_with("Sleef_"))
      std::tie(Stem, Accuracy) =
          sleefScalarVariant(F.getName(), T->isFloatTy());
    else if (T->isDoubleTy())
      std::tie(Stem, Accuracy) = sleefLibmVariant(F.getName());
    if (Stem.empty())
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
        bool Relaxed = T->isFloatTy() && Accuracy == "_u10" &&
                       hasRelaxedForm(Stem) &&
                       allowsApproxFunctions(*CI->getFunction());
        CI->addFnAttr(Attribute::get(M.getContext(),
                                     "vector-function-abi-variant",
                                     Variants(Relaxed ? "_u35" : Accuracy)));
        Changed = true;
      }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
