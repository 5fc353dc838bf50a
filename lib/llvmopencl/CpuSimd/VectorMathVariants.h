//===- VectorMathVariants.h - SLEEF vector variants of math calls ---------===//
#ifndef WEFT_LLVMOPENCL_VECTORMATHVARIANTS_H
#define WEFT_LLVMOPENCL_VECTORMATHVARIANTS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace llvm {
class Module;
class Type;
} // namespace llvm

namespace weft {

/// Marks the float and double calls of llvm.exp/exp2/log/log2/log10/sin/
/// cos/tan/pow, of the libm functions libm.cl calls and of SLEEF's scalar
/// functions with SLEEF vector variants of SimdBytes-wide registers, each
/// of the accuracy the OpenCL bounds allow; in functions that allow
/// approximate math, float u10 calls of acos/asin/atan/atan2 (the pi forms')
/// move to the u35 functions, direct SLEEF calls and variants alike.
struct VectorMathVariantsPass : llvm::PassInfoMixin<VectorMathVariantsPass> {
  explicit VectorMathVariantsPass(unsigned SimdBytes) : SimdBytes(SimdBytes) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  unsigned SimdBytes;
};

/// Declares SLEEF's Arity-argument vector forms of Stem ("exp") for T
/// (float or double) at Accuracy ("_u10"), one per register width from
/// SimdBytes down to 16 bytes, keeps them in llvm.compiler.used, and returns
/// the "vector-function-abi-variant" list naming them for calls of
/// ScalarName.
std::string declareSleefVariants(llvm::Module &M, llvm::StringRef ScalarName,
                                 llvm::StringRef Stem, llvm::Type *T,
                                 unsigned Arity, llvm::StringRef Accuracy,
                                 unsigned SimdBytes);

} // namespace weft

#endif // WEFT_LLVMOPENCL_VECTORMATHVARIANTS_H
