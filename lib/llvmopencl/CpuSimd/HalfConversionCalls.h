//===- HalfConversionCalls.h - Half conversions at their price --*- C++ -*-===//
//
// Hides float <-> half conversions of innermost loops behind calls with
// vector variants while the loop vectorizer chooses its width, and turns
// them back into conversions afterwards. See HalfConversionCalls.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_HALFCONVERSIONCALLS_H
#define WEFT_LLVMOPENCL_HALFCONVERSIONCALLS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace weft {

/// Whether the pipeline hides half conversions from the vectorizer's cost
/// model: yes unless WEFT_HALF_CONVERSIONS=0 (a kernel cache key field).
bool halfConversionCallsEnabled();

/// Whether TM converts between half and float in vector registers (F16C):
/// only then is one conversion per register the true price.
bool convertsHalvesInRegisters(const llvm::TargetMachine &TM);

struct HalfConversionCallsPass
    : llvm::PassInfoMixin<HalfConversionCallsPass> {
  enum class Phase {
    /// Right before loop-vectorize: scalar fpext half -> float and fptrunc
    /// float -> half of innermost loops become calls with vector variants.
    Form,
    /// After the vectorizers: every such call, scalar or vector, becomes
    /// the conversion again.
    Lower,
  };

  explicit HalfConversionCallsPass(Phase P) : P(P) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);

private:
  Phase P;
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_HALFCONVERSIONCALLS_H
