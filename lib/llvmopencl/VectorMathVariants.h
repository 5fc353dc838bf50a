//===- VectorMathVariants.h - SLEEF vector variants of math calls ---------===//
#ifndef WEFT_LLVMOPENCL_VECTORMATHVARIANTS_H
#define WEFT_LLVMOPENCL_VECTORMATHVARIANTS_H

#include "llvm/IR/PassManager.h"

namespace weft {

/// Marks the float and double calls of llvm.exp/exp2/log/log2/log10/sin/
/// cos/pow with SLEEF vector variants of SimdBytes-wide registers.
struct VectorMathVariantsPass : llvm::PassInfoMixin<VectorMathVariantsPass> {
  explicit VectorMathVariantsPass(unsigned SimdBytes) : SimdBytes(SimdBytes) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  unsigned SimdBytes;
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_VECTORMATHVARIANTS_H
