//===- FlattenKernels.cpp - Inline every call inside the kernels ----------===//
//
// The work-item functions (get_global_id, ...) can only be resolved where the
// local ids are known, which is in the kernel's own body once it is wrapped
// in work-item loops. So every defined function a kernel calls is inlined
// into it first, transitively, including other kernels called as functions
// and the builtin library. OpenCL C forbids recursion; a recursive call is
// left alone (and reported) rather than unrolled forever.
//
// clang marks everything noinline/optnone under -cl-opt-disable; those
// attributes are dropped here, since the kernel's correctness depends on the
// flattening, not only its speed.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/FlattenKernels.h"
#include "WorkGroup/KernelUtils.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"

#define DEBUG_TYPE "weft-flatten-kernels"

using namespace llvm;

namespace weft {

static SmallVector<CallBase *, 16> findInlinableCalls(Function &F) {
  SmallVector<CallBase *, 16> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction())
        if (!Callee->isDeclaration() && Callee != &F)
          Calls.push_back(CB);
  return Calls;
}

static void dropInliningBlockers(Function &F) {
  F.removeFnAttr(Attribute::NoInline);
  F.removeFnAttr(Attribute::OptimizeNone);
}

PreservedAnalyses FlattenKernelsPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M)
    if (!F.isDeclaration())
      dropInliningBlockers(F);
  for (Function &F : M) {
    if (!isSelectedKernel(F, Kernel))
      continue;
    // Each round inlines the calls present at its start; calls exposed by
    // inlining are picked up by the next round. The bound only guards
    // against recursion through several functions.
    for (unsigned Round = 0; Round < 64; ++Round) {
      SmallVector<CallBase *, 16> Calls = findInlinableCalls(F);
      if (Calls.empty())
        break;
      for (CallBase *CB : Calls) {
        CB->removeFnAttr(Attribute::NoInline);
        InlineFunctionInfo IFI;
        InlineResult R = InlineFunction(*CB, IFI);
        if (!R.isSuccess()) {
          LLVM_DEBUG(dbgs() << "cannot inline into " << F.getName() << ": "
                            << R.getFailureReason() << "\n");
          continue;
        }
        Changed = true;
      }
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
