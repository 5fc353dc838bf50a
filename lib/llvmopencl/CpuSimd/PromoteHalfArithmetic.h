//===- PromoteHalfArithmetic.h - Half arithmetic as float, in sight -------===//
//
// Writes half arithmetic as the float arithmetic the back end would make of
// it, where the target has no half arithmetic of its own, so that the
// conversions are where HalfConversionCalls prices them. See
// PromoteHalfArithmetic.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_PROMOTEHALFARITHMETIC_H
#define WEFT_LLVMOPENCL_PROMOTEHALFARITHMETIC_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace weft {

/// Whether TM computes on halves itself (AVX512-FP16): then half arithmetic
/// stays half.
bool computesHalvesNatively(const llvm::TargetMachine &TM);

struct PromoteHalfArithmeticPass
    : llvm::PassInfoMixin<PromoteHalfArithmeticPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_PROMOTEHALFARITHMETIC_H
