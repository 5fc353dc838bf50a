//===- CheckMemoryAccesses.cpp - Bounds checks on every memory access -----===//
//
// The accelerator simulator owns its device memory, so under
// WEFT_ACCELSIM_CHECK=1 it can tell, as Oclgrind does, which access of a
// kernel leaves the buffers of the launch or the work-group's local memory.
// This pass gives every load, store, atomicrmw, cmpxchg and memory
// intrinsic on global (1), constant (2), local (3) or generic (4) memory a
// checked address:
//
//   %v = load float, ptr addrspace(1) %p
//   becomes
//   %l0 = call i64 @_Z12get_local_idj(i32 0)         ; and 1, 2
//   %c  = call ptr addrspace(1) @__weft_checked_address.p1(
//             ptr addrspace(1) %p, i64 4, i32 257, i64 %l0, i64 %l1, i64 %l2,
//             ptr addrspace(1) %in)
//   %v = load float, ptr addrspace(1) %c
//
// The last operand is the pointer the address derives from (%p is a GEP of
// the kernel argument %in): a global or constant access must stay inside
// the buffer its base points into, not merely inside some buffer, so an
// overrun into the neighbouring buffer is caught too. It is null where the
// base is no kernel argument or program variable (a pointer loaded from
// memory, a select of two buffers) and for local accesses, which are
// checked against the work-group's local memory.
//
// A generic access is sorted out at run time by where its address lies:
// the work-group's local memory, private memory (the stack, the private
// arena), else a buffer; its base is the buffer argument made generic when
// the pointer came from one.
//
// The run-time check (devices/accelsim/AccessChecker.cpp) returns %p when
// the access is in bounds and otherwise memory that nothing else uses, so
// the faulty work-item goes on harmlessly and the others finish their work:
// no branch is added and barriers stay as they are, so the work-group
// passes see the kernel's own control flow. A memset, memcpy or memmove
// also gets a length of 0 when either address came back changed (its
// length may exceed any sink); the llvm.*.inline forms keep their constant
// length, which the sink covers. Private memory (allocas) is not checked:
// it is the work-item's own; nor are __constant tables the program defines,
// which live with the code, not in device memory.
//
// The work-item is named by its local ids, asked for right before each
// access, so the pass runs after FlattenKernels (the builtins' accesses are
// in the kernel by then) and before ResolveWorkItemFunctions, which turns
// those calls into the work-item loops' own variables; the checker adds the
// work-group's position from the WorkGroupContext. Global ids would do as
// well, but each costs context loads and arithmetic that the code would
// not otherwise have (for y and z even where the kernel is 1-D), and O3
// shapes loops around them. The checks are no operations of the simulated
// machine: the scheduler leaves out every call isAccessCheck() recognizes,
// by its callee's name, and what only feeds such calls
// (isAccessCheckWork()), and sees the accesses at the addresses the checks
// were given (BypassAccessChecks).
//
//===----------------------------------------------------------------------===//
#include "StaticMultiIssue/CheckMemoryAccesses.h"
#include "WorkGroup/KernelUtils.h"

#include "weft/compiler.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "weft-check-memory-accesses"

using namespace llvm;

namespace weft {

bool isAccessCheck(const Instruction &I) {
  const auto *Call = dyn_cast<CallBase>(&I);
  if (!Call)
    return false;
  const Function *Callee = Call->getCalledFunction();
  return Callee && Callee->getName().starts_with(CheckedAddressSymbol);
}

/// I's value is used by access checks only, other than as the address they
/// pass on, directly or through other such instructions.
static bool feedsOnlyAccessChecks(const Instruction &I, unsigned Depth) {
  if (Depth == 8 || I.use_empty() || I.isTerminator() ||
      I.mayHaveSideEffects() || isa<PHINode>(I))
    return false;
  for (const Use &U : I.uses()) {
    const auto *User = dyn_cast<Instruction>(U.getUser());
    if (!User)
      return false;
    if (isAccessCheck(*User) ? U.getOperandNo() == 0
                             : !feedsOnlyAccessChecks(*User, Depth + 1))
      return false;
  }
  return true;
}

bool isAccessCheckWork(const Instruction &I) {
  return isAccessCheck(I) || feedsOnlyAccessChecks(I, 0);
}

BypassAccessChecks::BypassAccessChecks(Module &M) {
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      if (!isAccessCheck(I))
        continue;
      Value *Address = cast<CallBase>(I).getArgOperand(0);
      for (Use &U : make_early_inc_range(I.uses())) {
        Bypassed.push_back({&U, &I});
        U.set(Address);
      }
    }
}

BypassAccessChecks::~BypassAccessChecks() {
  for (auto &[U, Check] : Bypassed)
    U->set(Check);
}

namespace {

/// One pointer operand to check.
struct Access {
  Instruction *I;
  unsigned OperandNo;
  Value *Bytes; ///< i64, or the intrinsic's length of any integer type
  uint32_t Flags;
};

bool isCheckedSpace(const Value *Ptr) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  return AS == 1 || AS == 2 || AS == 3 || AS == 4;
}

/// Ptr points into data the program defines in the global or constant
/// address space (a __constant table): it is part of the code, not of the
/// device memory the checker knows. Program-scope __global variables are
/// declarations here (the loader places them in device memory), __local
/// ones are laid out in local memory by the launcher: both are checked.
bool isIntoProgramData(const Value *Ptr) {
  if (Ptr->getType()->getPointerAddressSpace() == 3)
    return false;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  return all_of(Objects, [](const Value *O) {
    const auto *GV = dyn_cast<GlobalVariable>(O);
    return GV && GV->hasInitializer();
  });
}

/// The kernel argument or program variable Ptr derives from, or null.
/// The kernel is not yet optimized here: clang's code keeps each parameter
/// in a stack slot and reloads it, so a load from a slot whose only store
/// is of such a base (and which is used for nothing else) is looked
/// through.
Value *baseObject(Value *Ptr, unsigned Depth = 0) {
  Value *Object = getUnderlyingObject(Ptr, /*MaxLookup=*/0);
  if (isa<Argument>(Object) || isa<GlobalVariable>(Object))
    return Object;
  auto *Reload = dyn_cast<LoadInst>(Object);
  if (!Reload || Depth == 4)
    return nullptr;
  auto *Slot = dyn_cast<AllocaInst>(Reload->getPointerOperand());
  if (!Slot)
    return nullptr;
  StoreInst *Only = nullptr;
  for (User *U : Slot->users()) {
    if (auto *S = dyn_cast<StoreInst>(U)) {
      if (S->getPointerOperand() != Slot || Only)
        return nullptr;
      Only = S;
    } else if (auto *II = dyn_cast<IntrinsicInst>(U)) {
      if (!II->isLifetimeStartOrEnd())
        return nullptr;
    } else if (!isa<LoadInst>(U)) {
      return nullptr;
    }
  }
  return Only ? baseObject(Only->getValueOperand(), Depth + 1) : nullptr;
}

/// The base operand of Ptr's check: baseObject, or null where there is
/// none and for local memory (checked as a whole).
Value *baseOf(Value *Ptr, IRBuilder<> &B) {
  auto *Null = ConstantPointerNull::get(cast<PointerType>(Ptr->getType()));
  if (Ptr->getType()->getPointerAddressSpace() == 3)
    return Null;
  Value *Object = baseObject(Ptr);
  if (!Object)
    return Null;
  if (Object->getType() == Ptr->getType())
    return Object;
  // A generic access to a buffer: the buffer's pointer, made generic.
  if (Ptr->getType()->getPointerAddressSpace() == 4 &&
      Object->getType()->getPointerAddressSpace() == 1)
    return B.CreateAddrSpaceCast(Object, Ptr->getType());
  return Null;
}

uint32_t flagsFor(const Value *Ptr, uint32_t Kind) {
  return Kind |
         (Ptr->getType()->getPointerAddressSpace() << CheckedAccessSpaceShift);
}

/// The accesses of F to check, in program order.
SmallVector<Access, 16> findAccesses(Function &F) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  IntegerType *I64 = Type::getInt64Ty(F.getContext());
  SmallVector<Access, 16> Found;
  auto Add = [&](Instruction &I, unsigned OperandNo, Value *Bytes,
                 uint32_t Kind) {
    Value *Ptr = I.getOperand(OperandNo);
    if (isCheckedSpace(Ptr) && !isIntoProgramData(Ptr))
      Found.push_back({&I, OperandNo, Bytes, flagsFor(Ptr, Kind)});
  };
  auto SizeOf = [&](Type *T) {
    return ConstantInt::get(I64, DL.getTypeStoreSize(T).getFixedValue());
  };
  const uint32_t ReadWrite = CheckedRead | CheckedWrite;
  for (Instruction &I : instructions(F)) {
    if (auto *L = dyn_cast<LoadInst>(&I))
      Add(I, L->getPointerOperandIndex(), SizeOf(L->getType()), CheckedRead);
    else if (auto *S = dyn_cast<StoreInst>(&I))
      Add(I, S->getPointerOperandIndex(),
          SizeOf(S->getValueOperand()->getType()), CheckedWrite);
    else if (auto *A = dyn_cast<AtomicRMWInst>(&I))
      Add(I, A->getPointerOperandIndex(), SizeOf(A->getValOperand()->getType()),
          ReadWrite);
    else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
      Add(I, X->getPointerOperandIndex(),
          SizeOf(X->getNewValOperand()->getType()), ReadWrite);
    else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
      // Operand 0 is the destination, 1 the source of a transfer (the
      // value of a memset), 2 the length.
      Add(I, 0, MI->getLength(), CheckedWrite);
      if (isa<MemTransferInst>(MI))
        Add(I, 1, MI->getLength(), CheckedRead);
    }
  }
  return Found;
}

FunctionCallee checkFunction(Module &M, unsigned AddressSpace) {
  LLVMContext &C = M.getContext();
  PointerType *Ptr = PointerType::get(C, AddressSpace);
  Type *I64 = Type::getInt64Ty(C);
  auto *Ty = FunctionType::get(
      Ptr, {Ptr, I64, Type::getInt32Ty(C), I64, I64, I64, Ptr}, false);
  std::string Name =
      (Twine(CheckedAddressSymbol) + ".p" + Twine(AddressSpace)).str();
  FunctionCallee Callee = M.getOrInsertFunction(Name, Ty);
  if (auto *Fn = dyn_cast<Function>(Callee.getCallee())) {
    // Only the checker's own state changes: the kernel's memory is neither
    // read nor written by the call, so loads and stores around it move and
    // combine as they would without it.
    Fn->setDoesNotThrow();
    Fn->setWillReturn();
    Fn->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
  }
  return Callee;
}

bool isInlineForm(const Instruction &I) {
  return isa<MemCpyInlineInst>(I) || isa<MemSetInlineInst>(I);
}

bool checkKernel(Function &F) {
  SmallVector<Access, 16> Accesses = findAccesses(F);
  if (Accesses.empty())
    return false;
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  FunctionCallee LocalId = M.getOrInsertFunction(
      "_Z12get_local_idj", Type::getInt64Ty(C), Type::getInt32Ty(C));
  // The intrinsic whose length drops to 0, and whether each checked
  // address came back unchanged.
  SmallVector<std::pair<Instruction *, Value *>, 4> Unchanged;
  for (const Access &A : Accesses) {
    IRBuilder<> B(A.I);
    Value *Ptr = A.I->getOperand(A.OperandNo);
    Value *Ids[3];
    for (unsigned D = 0; D < 3; ++D)
      Ids[D] = B.CreateCall(LocalId, {B.getInt32(D)}, "lid");
    Value *Bytes = B.CreateZExtOrTrunc(A.Bytes, B.getInt64Ty());
    FunctionCallee Check =
        checkFunction(M, Ptr->getType()->getPointerAddressSpace());
    Value *Checked =
        B.CreateCall(Check,
                     {Ptr, Bytes, B.getInt32(A.Flags), Ids[0], Ids[1], Ids[2],
                      baseOf(Ptr, B)},
                     Ptr->hasName() ? Ptr->getName() + ".checked" : "checked");
    A.I->setOperand(A.OperandNo, Checked);
    if (isa<MemIntrinsic>(A.I) && !isInlineForm(*A.I))
      Unchanged.push_back({A.I, B.CreateICmpEQ(Checked, Ptr)});
  }
  // Both addresses of a transfer are in by now, so its condition is whole.
  DenseMap<Instruction *, Value *> AllUnchanged;
  for (auto &[I, Same] : Unchanged) {
    auto [It, New] = AllUnchanged.try_emplace(I, Same);
    if (!New)
      It->second = IRBuilder<>(I).CreateAnd(It->second, Same);
  }
  for (auto &[I, Same] : AllUnchanged) {
    auto *MI = cast<MemIntrinsic>(I);
    IRBuilder<> B(MI);
    Value *Length = MI->getLength();
    MI->setLength(
        B.CreateSelect(Same, Length, ConstantInt::get(Length->getType(), 0)));
  }
  LLVM_DEBUG(dbgs() << "checked " << Accesses.size() << " accesses of "
                    << F.getName() << "\n");
  return true;
}

} // namespace

PreservedAnalyses CheckMemoryAccessesPass::run(Module &M,
                                               ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M)
    if (isSelectedKernel(F, Kernel))
      Changed |= checkKernel(F);
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft
