//===- VectorMathVariants.h - SLEEF vector variants of math calls ---------===//
#ifndef WEFT_LLVMOPENCL_VECTORMATHVARIANTS_H
#define WEFT_LLVMOPENCL_VECTORMATHVARIANTS_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// Marks the float and double calls of llvm.exp/exp2/log/log2/log10/sin/
/// cos/tan/pow (and of the libm functions libm.cl calls) with SLEEF vector
/// variants of SimdBytes-wide registers; in functions that allow
/// approximate math, sin/cos/tan/asin/acos/atan/atan2 variants and direct
/// SLEEF calls use the u35 functions.
struct VectorMathVariantsPass : llvm::PassInfoMixin<VectorMathVariantsPass> {
  explicit VectorMathVariantsPass(unsigned SimdBytes) : SimdBytes(SimdBytes) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  unsigned SimdBytes;
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_VECTORMATHVARIANTS_H
