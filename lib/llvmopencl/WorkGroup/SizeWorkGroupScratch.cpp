//===- SizeWorkGroupScratch.cpp - The collectives' work-group memory ------===//
//
// The work-group collectives (lib/kernel/collectives.cl) pass their values
// through one __local array of 8-byte slots, a result slot and one per
// work-item; when a group has several sub-groups, the sub-group
// collectives (lib/kernel/subgroups.cl) add a result slot per sub-group.
// The library defines it (work-group-scratch.ll) for the largest
// work-group a device allows, 4096 + 1 + 4096 / 128 = 4129 slots, which is
// what the build-time CL_KERNEL_LOCAL_MEM_SIZE counts; a work-group
// function is compiled for one local size, so here the array is replaced
// by one of N + 1 slots, N = L0 * L1 * L2, or N + 1 + ceil(N / 128) with
// several sub-groups, before the launcher lays out the local variables (a
// group of 64 takes 520 bytes of the worker's local memory, not 32 KiB).
// A smaller last group uses a prefix of it. The new array takes the old
// one's place in module order, so the launcher's layout keeps its order.
//
// Without a known local size (0 in a dimension, which no caller passes
// today) the array is left as the library made it.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/SizeWorkGroupScratch.h"
#include "WorkGroup/ResolveSubGroups.h"

#include "weft/launcher.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "weft-size-work-group-scratch"

using namespace llvm;

namespace weft {

PreservedAnalyses SizeWorkGroupScratchPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  GlobalVariable *Old =
      M.getGlobalVariable(WorkGroupScratchName, /*AllowInternal=*/true);
  if (!Old || LocalSize[0] == 0 || LocalSize[1] == 0 || LocalSize[2] == 0)
    return PreservedAnalyses::all();
  uint64_t WorkItems = LocalSize[0] * LocalSize[1] * LocalSize[2];
  uint64_t Slots = WorkItems + 1;
  if (hasSeveralSubGroups(LocalSize))
    Slots += (WorkItems + SubGroupSize - 1) / SubGroupSize;
  auto *Ty = ArrayType::get(Type::getInt64Ty(M.getContext()), Slots);
  if (Old->getValueType() == Ty)
    return PreservedAnalyses::all();
  auto *New = new GlobalVariable(
      M, Ty, /*isConstant=*/false, Old->getLinkage(), UndefValue::get(Ty), "",
      Old, Old->getThreadLocalMode(), Old->getAddressSpace());
  New->copyAttributesFrom(Old);
  New->takeName(Old);
  // Opaque pointers: the users' GEPs index bytes or i64s, never past the
  // slots of the compiled group.
  Old->replaceAllUsesWith(New);
  Old->eraseFromParent();
  LLVM_DEBUG(dbgs() << "work-group scratch: " << Slots << " slots\n");
  return PreservedAnalyses::none();
}

} // namespace weft
