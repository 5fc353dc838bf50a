//===- LowerPrintf.cpp - printf calls become records in the printf buffer -===//
//
// OpenCL C's printf (6.15.14) prints when the command completes, never in
// the middle of another work-item's line. So a printf call in K.workitem
// does not print: it appends one record to the NDRange's PrintfBuffer
// (launcher.h), reached through WorkGroupContext::Printf, and the driver
// formats the records with the host's snprintf once every work-group has
// finished.
//
//   %r = call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @fmt, ...)
//   becomes
//   %start = atomicrmw add ptr %buf.used, i64 <record size> monotonic
//   br (%start + size <= capacity), write, nofit
//   write:  store size, @fmt, #args, then each argument's size and bytes
//   nofit:  store 0 at %start if 8 bytes fit there (the records end here)
//   done:   %r = phi [0, write], [-1, nofit]
//
// The record keeps the format pointer, not a copy: formats and %s strings
// are constants of the kernel's code (or of a __constant buffer), alive
// until the command completes. Arguments are stored as the call passes
// them, with their byte size (and a pointer's address space), because the x86-64 calling convention has
// already coerced some of them (float2 arrives as a double, char3 as an
// i32, float8 by pointer with byval): the formatter reads elements by the
// conversion's length modifier and checks them against the stored size.
// One atomic add per call keeps every record whole and contiguous, whatever
// worker runs the work-group; the order between work-items is unspecified
// by the specification and is the order of the claims.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/LowerPrintf.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/WorkGroupContextLayout.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "weft-lower-printf"

using namespace llvm;

namespace weft {

namespace {

/// Offsets of the PrintfBuffer fields (launcher.h; checked in Launcher.cpp).
constexpr uint64_t UsedOffset = 0, CapacityOffset = 8, DataOffset = 16;
/// RecordSize, format pointer, number of arguments.
constexpr uint64_t RecordHeaderSize = 24;

struct PrintfArg {
  Value *V;
  Type *Ty;      ///< the type of the bytes stored
  uint64_t Size; ///< their store size
  bool ByVal;    ///< V points at the bytes
};

/// The u64 before an argument's bytes: its size, and for a pointer its
/// address space + 1 in bits 32-39, so that the formatter reads %s strings
/// only from constant memory (a private or local array is gone, or reused,
/// by the time the records are formatted).
uint64_t argumentTag(const PrintfArg &A) {
  uint64_t Tag = A.Size;
  if (!A.ByVal && A.Ty->isPointerTy())
    Tag |= uint64_t(A.Ty->getPointerAddressSpace() + 1) << 32;
  return Tag;
}

void lowerPrintfCall(CallInst &CI, Value *Ctx) {
  Function &F = *CI.getFunction();
  LLVMContext &C = F.getContext();
  const DataLayout &DL = F.getParent()->getDataLayout();

  SmallVector<PrintfArg, 8> Args;
  uint64_t RecordSize = RecordHeaderSize;
  for (unsigned I = 1; I < CI.arg_size(); ++I) {
    PrintfArg A;
    A.V = CI.getArgOperand(I);
    A.ByVal = CI.isByValArgument(I);
    A.Ty = A.ByVal ? CI.getParamByValType(I) : A.V->getType();
    A.Size = DL.getTypeStoreSize(A.Ty);
    RecordSize += 8 + alignTo(A.Size, 8);
    Args.push_back(A);
  }

  BasicBlock *Before = CI.getParent();
  BasicBlock *Done = Before->splitBasicBlock(&CI, "printf.done");
  BasicBlock *Write = BasicBlock::Create(C, "printf.write", &F, Done);
  BasicBlock *NoFit = BasicBlock::Create(C, "printf.nofit", &F, Done);
  BasicBlock *End = BasicBlock::Create(C, "printf.end", &F, Done);
  Before->getTerminator()->eraseFromParent();

  IRBuilder<> B(Before);
  Type *I64 = B.getInt64Ty(), *Ptr = B.getPtrTy();
  Value *BufAddr = B.CreateStructGEP(getWorkGroupContextType(C), Ctx,
                                     CtxPrintf, "printf.buf.addr");
  LoadInst *Buf = B.CreateAlignedLoad(Ptr, BufAddr, Align(8), "printf.buf");
  Buf->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(C, {}));
  Value *Size = B.getInt64(RecordSize);
  Value *Start =
      B.CreateAtomicRMW(AtomicRMWInst::Add, B.CreateConstGEP1_64(
                            B.getInt8Ty(), Buf, UsedOffset),
                        Size, MaybeAlign(8), AtomicOrdering::Monotonic);
  Value *Capacity = B.CreateAlignedLoad(
      I64, B.CreateConstGEP1_64(B.getInt8Ty(), Buf, CapacityOffset), Align(8),
      "printf.capacity");
  Value *Data = B.CreateAlignedLoad(
      Ptr, B.CreateConstGEP1_64(B.getInt8Ty(), Buf, DataOffset), Align(8),
      "printf.data");
  Value *Record = B.CreateGEP(B.getInt8Ty(), Data, Start, "printf.record");
  B.CreateCondBr(B.CreateICmpULE(B.CreateAdd(Start, Size), Capacity), Write,
                 NoFit);

  // The record, field by field; every field starts 8-byte aligned.
  B.SetInsertPoint(Write);
  auto FieldAt = [&](uint64_t Offset) {
    return B.CreateConstGEP1_64(B.getInt8Ty(), Record, Offset);
  };
  B.CreateAlignedStore(Size, FieldAt(0), Align(8));
  B.CreateAlignedStore(CI.getArgOperand(0), FieldAt(8), Align(8));
  B.CreateAlignedStore(B.getInt64(Args.size()), FieldAt(16), Align(8));
  uint64_t Offset = RecordHeaderSize;
  for (const PrintfArg &A : Args) {
    B.CreateAlignedStore(B.getInt64(argumentTag(A)), FieldAt(Offset),
                         Align(8));
    if (A.ByVal)
      B.CreateMemCpy(FieldAt(Offset + 8), Align(8), A.V, MaybeAlign(1),
                     A.Size);
    else
      B.CreateAlignedStore(A.V, FieldAt(Offset + 8), Align(8));
    Offset += 8 + alignTo(A.Size, 8);
  }
  B.CreateBr(Done);

  // The claim that crosses the end marks where the records stop; later
  // claims start past the end and write nothing.
  B.SetInsertPoint(NoFit);
  B.CreateCondBr(B.CreateICmpULE(B.CreateAdd(Start, B.getInt64(8)), Capacity),
                 End, Done);
  B.SetInsertPoint(End);
  B.CreateAlignedStore(B.getInt64(0), Record, Align(8));
  B.CreateBr(Done);

  B.SetInsertPoint(Done, Done->begin());
  PHINode *Result = B.CreatePHI(CI.getType(), 3, "printf.result");
  Result->addIncoming(ConstantInt::get(CI.getType(), 0), Write);
  Result->addIncoming(ConstantInt::get(CI.getType(), -1, true), NoFit);
  Result->addIncoming(ConstantInt::get(CI.getType(), -1, true), End);
  CI.replaceAllUsesWith(Result);
  CI.eraseFromParent();
}

} // namespace

PreservedAnalyses LowerPrintfPass::run(Module &M, ModuleAnalysisManager &) {
  Function *Printf = M.getFunction("printf");
  if (!Printf)
    return PreservedAnalyses::all();
  bool Changed = false;
  for (Function &F : M) {
    if (!isWorkItemFunctionOf(F, Kernel) || F.arg_size() < 4)
      continue;
    SmallVector<CallInst *, 4> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (CI->getCalledFunction() == Printf && CI->arg_size() >= 1)
          Calls.push_back(CI);
    if (Calls.empty())
      continue;
    // K.workitem's trailing parameters are (ctx, lid.x, lid.y, lid.z).
    Value *Ctx = F.getArg(F.arg_size() - 4);
    for (CallInst *CI : Calls)
      lowerPrintfCall(*CI, Ctx);
    LLVM_DEBUG(dbgs() << "lowered " << Calls.size() << " printf calls in "
                      << F.getName() << "\n");
    Changed = true;
  }
  if (!Changed)
    return PreservedAnalyses::all();
  if (!M.getNamedGlobal(UsesPrintfSymbol)) {
    auto *I8 = Type::getInt8Ty(M.getContext());
    new GlobalVariable(M, I8, /*isConstant=*/true, GlobalValue::ExternalLinkage,
                       ConstantInt::get(I8, 1), UsesPrintfSymbol);
  }
  return PreservedAnalyses::none();
}

} // namespace weft
