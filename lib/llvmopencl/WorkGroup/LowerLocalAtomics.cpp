//===- LowerLocalAtomics.cpp - Plain accesses for __local atomics ---------===//
//
// __local memory belongs to one work-group, and Weft's CPU drivers run a
// work-group on one thread: the region method runs the work-items of a
// region one after another, the fallback method switches fibers only at
// barriers. No two work-items ever execute an atomic operation on __local
// memory at the same time, so its atomicity costs a lock prefix (about 20
// cycles on x86, and a full fence) and buys nothing. Histogram-style
// kernels spend most of their time there.
//
// Each atomicrmw, cmpxchg, atomic load and atomic store on an address-space
// 3 pointer becomes the equivalent non-atomic sequence. Memory ordering is
// not lost: an object that only one thread can reach cannot synchronize
// that thread with any other, and within the thread program order already
// holds. Accesses through other address spaces are left alone.
//
// The new accesses carry no llvm.access.group: the work-item loop around
// them must not be treated as free of dependences, since work-items that
// update the same __local word do depend on each other. Without the group
// the loop vectorizer proves what it can on its own (usually nothing, for
// data-dependent addresses) instead of trusting the parallel annotation.
//
// The pass runs after the work-group passes have tagged the loops'
// accesses. FlattenKernels has inlined every call by then, so no later
// inlining can hand the loop's access group to the new accesses.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/LowerLocalAtomics.h"

#include "WorkGroup/KernelUtils.h"

#include "weft/debug.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

using namespace llvm;

namespace weft {

namespace {

bool isLocal(const Value *Pointer) {
  return Pointer->getType()->getPointerAddressSpace() == LocalAddressSpace;
}

/// The pointer an atomic instruction works on, or null for anything else.
const Value *localAtomicPointer(const Instruction &I) {
  const Value *Pointer = nullptr;
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    Pointer = RMW->getPointerOperand();
  else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    Pointer = CX->getPointerOperand();
  else if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isAtomic())
    Pointer = LI->getPointerOperand();
  else if (auto *SI = dyn_cast<StoreInst>(&I); SI && SI->isAtomic())
    Pointer = SI->getPointerOperand();
  return Pointer && isLocal(Pointer) ? Pointer : nullptr;
}

/// load, op, store. The new accesses keep the alignment but no metadata:
/// neither the access group nor the volatile flag, which only came from
/// the OpenCL prototypes (volatile __local T *).
void lowerRMW(AtomicRMWInst &RMW) {
  IRBuilder<> B(&RMW);
  Value *Pointer = RMW.getPointerOperand();
  LoadInst *Old = B.CreateAlignedLoad(RMW.getType(), Pointer, RMW.getAlign());
  Value *New =
      buildAtomicRMWValue(RMW.getOperation(), B, Old, RMW.getValOperand());
  B.CreateAlignedStore(New, Pointer, RMW.getAlign());
  Old->takeName(&RMW);
  RMW.replaceAllUsesWith(Old);
  RMW.eraseFromParent();
}

/// load, compare, store of the new or the old value: storing the old value
/// back is harmless when no other work-item runs in between.
void lowerCmpXchg(AtomicCmpXchgInst &CX) {
  IRBuilder<> B(&CX);
  Value *Pointer = CX.getPointerOperand();
  Value *NewValue = CX.getNewValOperand();
  LoadInst *Old = B.CreateAlignedLoad(NewValue->getType(), Pointer,
                                      CX.getAlign(), CX.getName() + ".old");
  Value *Equal =
      B.CreateICmpEQ(Old, CX.getCompareOperand(), CX.getName() + ".success");
  B.CreateAlignedStore(B.CreateSelect(Equal, NewValue, Old), Pointer,
                       CX.getAlign());
  Value *Pair = B.CreateInsertValue(PoisonValue::get(CX.getType()), Old, 0);
  Pair = B.CreateInsertValue(Pair, Equal, 1);
  Pair->takeName(&CX);
  CX.replaceAllUsesWith(Pair);
  CX.eraseFromParent();
}

/// An atomic load or store becomes an ordinary one in place.
void makePlain(Instruction &I) {
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    LI->setAtomic(AtomicOrdering::NotAtomic);
    LI->setVolatile(false);
  } else {
    auto *SI = cast<StoreInst>(&I);
    SI->setAtomic(AtomicOrdering::NotAtomic);
    SI->setVolatile(false);
  }
  I.setMetadata(LLVMContext::MD_access_group, nullptr);
}

} // namespace

PreservedAnalyses LowerLocalAtomicsPass::run(Function &F,
                                             FunctionAnalysisManager &) {
  SmallVector<Instruction *, 16> Atomics;
  for (Instruction &I : instructions(F))
    if (localAtomicPointer(I))
      Atomics.push_back(&I);
  if (Atomics.empty())
    return PreservedAnalyses::all();
  for (Instruction *I : Atomics) {
    if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
      lowerRMW(*RMW);
    else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(I))
      lowerCmpXchg(*CX);
    else
      makePlain(*I);
  }
  WEFT_LOG(DebugCompile, "%s: %zu atomic operations on __local memory made "
           "plain", F.getName().str().c_str(), Atomics.size());
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft
