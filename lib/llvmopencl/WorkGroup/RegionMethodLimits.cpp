//===- RegionMethodLimits.cpp - When the region method declines a kernel --===//
//
// ParallelRegions handles any control flow around barriers by following the
// graph of barriers, but some work-item functions it must not take, because
// the result would be wrong, or because it would be far too large:
//
//  - a private allocation whose size is only known at run time, or one
//    outside the entry block: ParallelRegions gives each alloca of the entry
//    block one context slot per work-item and would share any other one
//    between the work-items;
//  - indirect branches (indirectbr, callbr) and calls that return twice
//    (setjmp): copied blocks cannot keep their addresses or resume points;
//  - a sub-group barrier (ResolveSubGroups.cpp leaves them only where a
//    work-group has several sub-groups): the regions run each step for the
//    whole group, so they could only make it a work-group barrier, which
//    is wrong under a condition that differs between sub-groups;
//  - a non-uniform sub-group function where the group may be divided
//    (ResolveNonUniformSubGroups.cpp): the regions run each step for all
//    work-items, so they cannot tell which of them called it;
//  - more tail duplication than MaxCopyGrowth times the function: each
//    region copies every block it reaches before the next barrier, so k
//    conditional barriers in sequence copy O(k * blocks) blocks, twice (the
//    full and the remainder group), and O3 time follows. Past the limit the
//    fallback method, which compiles the work-item function once, is the
//    better deal even though each barrier then costs a context switch per
//    work-item.
//
// WorkGroupFibers.cpp takes what is declined here. The limits depend only
// on the kernel, never on the local size, so CL_KERNEL_PRIVATE_MEM_SIZE and
// CL_KERNEL_WORK_GROUP_SIZE (measured at build time for one local size) hold
// for every local size; sub-group barriers, which exist only above 128
// work-items, are the exception, and a kernel that has them is measured
// at a local size of several sub-groups too (WorkGroupCompiler.cpp).
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/RegionMethodLimits.h"
#include "WorkGroup/BarrierUtils.h"
#include "WorkGroup/ResolveNonUniformSubGroups.h"
#include "WorkGroup/ResolveSubGroups.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace weft {

namespace {

/// Region copies allowed per block of the work-item function, and the size
/// below which growth does not matter. Measured on the kernels of
/// tests/kernels/barriers.cl: at most 1.33 times (bitonic_sort); the
/// 30-step ladder of tests/kernels/fallback.cl: 6.9.
constexpr size_t MaxCopyGrowth = 4;
constexpr size_t SmallFunction = 512;

/// Blocks the regions of WI would copy in all: for each barrier but the
/// exit one, the blocks reachable from it before the next barrier.
size_t regionCopies(Function &WI) {
  size_t Copies = 0;
  for (BasicBlock &Barrier : WI) {
    if (!isBarrierBlock(Barrier) || isa<ReturnInst>(Barrier.getTerminator()))
      continue;
    SmallPtrSet<BasicBlock *, 32> Seen;
    SmallVector<BasicBlock *, 16> Work(successors(&Barrier));
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (isBarrierBlock(*BB) || !Seen.insert(BB).second)
        continue;
      ++Copies;
      Work.append(succ_begin(BB), succ_end(BB));
    }
  }
  return Copies;
}

} // namespace

std::string whyRegionMethodDeclines(Function &WI) {
  for (BasicBlock &BB : WI)
    for (Instruction &I : BB) {
      if (auto *A = dyn_cast<AllocaInst>(&I)) {
        if (&BB != &WI.getEntryBlock() || !A->isStaticAlloca() ||
            A->getAllocatedType()->isScalableTy())
          return "a private allocation of run-time size or outside the entry "
                 "block";
      }
      if (isa<IndirectBrInst>(I) || isa<CallBrInst>(I))
        return "an indirect branch";
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (CB->hasFnAttr(Attribute::ReturnsTwice))
          return "a call that returns twice";
        Function *Callee = CB->getCalledFunction();
        if (Callee && Callee->getName() == SubGroupBarrierName)
          return "a sub-group barrier in a work-group of several sub-groups";
        if (Callee && Callee->getName() == SubGroupConvergeName)
          return "a non-uniform sub-group function under work-item-dependent "
                 "control";
      }
    }
  size_t Blocks = WI.size(), Copies = regionCopies(WI);
  if (Copies > SmallFunction && Copies > MaxCopyGrowth * Blocks)
    return formatv("tail duplication would copy {0} blocks for a function of "
                   "{1} (limit {2} times)",
                   Copies, Blocks, MaxCopyGrowth)
        .str();
  return "";
}

} // namespace weft
