//===- ScheduleBlocks.cpp - List scheduling onto a static multi-issue machine //
//
// A static multi-issue machine (VLIW, TTA) runs what the compiler laid out:
// each cycle it starts the operations the schedule put there, no more, and
// nothing waits at run time. The cost of a block is therefore known before
// it runs: the length of its schedule. The driver multiplies it by how often
// the block ran (CountBlockExecutions.cpp) and adds the penalties.
//
// Operation classes (unitClassOf), one unit of the class per operation:
//
//   IntAlu          integer arithmetic and logic (mul included), icmp,
//                   select, zext/sext, address arithmetic (a GEP with a
//                   non-zero index is one add), integer intrinsics (min,
//                   max, abs, bit counts, funnel shifts, saturation)
//   FloatAdd        fadd, fsub, fneg, fcmp, conversions between floats and
//                   integers or float widths, fabs/copysign/min/max/
//                   rounding intrinsics
//   FloatMul        fmul, fma, fmuladd
//   FloatDiv        fdiv, frem, sqrt, integer division and remainder (the
//                   machine has no integer divider), and every call of a
//                   function the module does not define (the math library)
//                   or transcendental intrinsic (sin, exp, pow...): a
//                   software routine, at least LibraryCallLatency cycles
//   LoadStoreLocal  loads and stores of __local memory (address space 3)
//                   and of private memory (an alloca, or the context arrays'
//                   private arena, underneath)
//   LoadStoreGlobal every other load, store, atomic, memcpy/memset, prefetch
//   Branch          the terminator: br (either kind), switch, ret; and a
//                   call of a function the module defines (a jump: its
//                   body's blocks are scheduled and counted themselves)
//   (free)          phi, bitcast, ptrtoint, inttoptr, addrspacecast, trunc
//                   (a narrower view of a register), freeze, static allocas,
//                   GEPs with all-zero indices, extract/insertvalue and
//                   constant-lane extract/insertelement (register naming),
//                   debug, lifetime, assume and other markers, unreachable;
//                   constants are operands, not operations
//
// Dependences, each an edge with the cycles the later operation waits
// after the earlier one issues:
//
//   data     an operand produced in the block: the producer's latency
//            (operands from other blocks, and phi inputs, are ready at the
//            block's start: the previous block's schedule has completed)
//   memory   a store against every earlier and later load or store that may
//            alias it (AA), with the earlier one's latency; loads pass
//            loads; invariant loads (the WorkGroupContext) pass everything;
//            calls, atomics, fences and volatile accesses that may write or
//            have other side effects order every memory operation and each
//            other. Two accesses of the same parallel work-item loop that
//            UnrollWorkItemLoops.cpp tagged and that belong to different
//            unrolled copies (work-items) are independent by the loop's
//            llvm.loop.parallel_accesses, whatever AA says
//   order    the terminator issues no earlier than every other operation
//
// Resources: at most IssueSlots operations start in a cycle (free ones take
// no slot); a pipelined class accepts Count operations a cycle, a
// non-pipelined unit is busy for its latency after each issue.
//
// The scheduler is a cycle-by-cycle list scheduler. Priority: the longest
// latency path from the operation to the end of the block (the critical
// path), ties by the original order. The schedule's length is the cycle in
// which the last result is ready, the terminator's included: an operation
// issued in cycle C (the first cycle is 0) with latency L is ready at C + L.
// So 8 independent fadds on 4 pipelined adders of latency 3 issue in cycles
// 0 and 1 and the block (with a 1-cycle branch in cycle 1) takes 4 cycles.
//
// Blocks do not overlap: a block's schedule completes before the next block
// (or the next execution of the same block) starts, so loop-carried
// dependences hold without being modelled and there is no software
// pipelining; unrolling (UnrollWorkItemLoops.cpp) is what gives the
// scheduler independent operations to fill the units with.
//
//===----------------------------------------------------------------------===//
#include "StaticMultiIssue/ScheduleBlocks.h"
#include "StaticMultiIssue/CheckMemoryAccesses.h"
#include "StaticMultiIssue/CountBlockExecutions.h"
#include "StaticMultiIssue/UnrollWorkItemLoops.h"

#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/WorkGroupContextLayout.h"

#include "weft/debug.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

#define DEBUG_TYPE "weft-schedule-blocks"

using namespace llvm;

namespace weft {

namespace {

/// How an intrinsic call counts: free, an operation of a class, or a
/// library routine.
struct IntrinsicCost {
  bool Free = false;
  UnitClass Class = UnitClass::IntAlu;
  bool Library = false;
};

IntrinsicCost intrinsicCost(const IntrinsicInst &II) {
  IntrinsicCost Cost;
  switch (II.getIntrinsicID()) {
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::dbg_assign:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group:
  case Intrinsic::var_annotation:
  case Intrinsic::ptr_annotation:
  case Intrinsic::annotation:
  case Intrinsic::pseudoprobe:
  case Intrinsic::sideeffect:
  case Intrinsic::donothing:
  case Intrinsic::expect:
  case Intrinsic::expect_with_probability:
  case Intrinsic::objectsize:
  case Intrinsic::is_constant:
    Cost.Free = true;
    return Cost;
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
    Cost.Class = UnitClass::FloatMul;
    return Cost;
  case Intrinsic::fabs:
  case Intrinsic::copysign:
  case Intrinsic::minnum:
  case Intrinsic::maxnum:
  case Intrinsic::minimum:
  case Intrinsic::maximum:
  case Intrinsic::floor:
  case Intrinsic::ceil:
  case Intrinsic::trunc:
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::round:
  case Intrinsic::roundeven:
  case Intrinsic::lrint:
  case Intrinsic::llrint:
  case Intrinsic::lround:
  case Intrinsic::llround:
  case Intrinsic::fptosi_sat:
  case Intrinsic::fptoui_sat:
  case Intrinsic::canonicalize:
  case Intrinsic::is_fpclass:
  case Intrinsic::convert_from_fp16:
  case Intrinsic::convert_to_fp16:
    Cost.Class = UnitClass::FloatAdd;
    return Cost;
  case Intrinsic::sqrt:
    Cost.Class = UnitClass::FloatDiv;
    return Cost;
  case Intrinsic::memcpy:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memmove:
  case Intrinsic::memset:
  case Intrinsic::memset_inline:
  case Intrinsic::prefetch:
    Cost.Class = UnitClass::LoadStoreGlobal;
    return Cost;
  default:
    break;
  }
  // Float intrinsics not listed above are the transcendental ones (sin,
  // exp, pow, log...): library routines on a machine without such units.
  Type *Ty = II.getType();
  if (Ty->isFPOrFPVectorTy()) {
    Cost.Class = UnitClass::FloatDiv;
    Cost.Library = true;
    return Cost;
  }
  // Integer min/max/abs, bit counts, byte swaps, funnel shifts, overflow
  // and saturating arithmetic, and whatever else remains.
  return Cost;
}

/// Whether Object is the private arena (the context arrays) or the
/// automatic __local variables, loaded from the launcher's context.
bool isContextMemory(const Value *Object) {
  const auto *L = dyn_cast<LoadInst>(Object);
  if (!L)
    return false;
  const Function *F = L->getFunction();
  const DataLayout &DL = F->getParent()->getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
  const Value *Base = L->getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Offset, true);
  const auto *Ctx = dyn_cast<Argument>(Base);
  if (!Ctx || Ctx->getArgNo() != 1 || !F->getName().starts_with(LauncherPrefix))
    return false;
  const StructLayout *Layout =
      DL.getStructLayout(getWorkGroupContextType(F->getContext()));
  uint64_t At = Offset.getZExtValue();
  return At == Layout->getElementOffset(CtxPrivateArena) ||
         At == Layout->getElementOffset(CtxLocalVariables);
}

/// Whether a memory access through Ptr reaches __local or private memory.
bool isLocalOrPrivate(const Value *Ptr) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (AS == 3)
    return true;
  if (AS == 1 || AS == 2)
    return false;
  const Value *Object = getUnderlyingObject(Ptr);
  if (isa<AllocaInst>(Object) || isContextMemory(Object))
    return true;
  return Object->getType()->isPointerTy() &&
         Object->getType()->getPointerAddressSpace() == 3;
}

/// A call of a function the module defines: a jump there and back, whose
/// body is counted and scheduled in its own blocks.
bool callsDefinedFunction(const Instruction &I) {
  const auto *Call = dyn_cast<CallBase>(&I);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && !Callee->isDeclaration();
}

UnitClass memoryClass(const Value *Ptr) {
  return isLocalOrPrivate(Ptr) ? UnitClass::LoadStoreLocal
                               : UnitClass::LoadStoreGlobal;
}

bool isLibraryCall(const Instruction &I) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
    IntrinsicCost Cost = intrinsicCost(*II);
    return !Cost.Free && Cost.Library;
  }
  return isa<CallBase>(I) && !callsDefinedFunction(I);
}

/// How an operation takes part in memory ordering.
enum class MemoryRole {
  None,    ///< touches no memory that any store may change
  Read,    ///< reads only: passes other reads
  Write,   ///< a plain store: ordered against aliasing accesses
  Ordered, ///< orders every memory operation (side effects, atomics)
};

MemoryRole memoryRole(const Instruction &I) {
  if (isBlockCounting(I)) // the simulator's instrumentation
    return MemoryRole::None;
  if (isAccessCheckWork(I)) // WEFT_ACCELSIM_CHECK's, not the machine's
    return MemoryRole::None;
  if (const auto *L = dyn_cast<LoadInst>(&I)) {
    if (!L->isSimple())
      return MemoryRole::Ordered;
    if (L->hasMetadata(LLVMContext::MD_invariant_load))
      return MemoryRole::None;
    return MemoryRole::Read;
  }
  if (const auto *S = dyn_cast<StoreInst>(&I))
    return S->isSimple() ? MemoryRole::Write : MemoryRole::Ordered;
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I) || isa<FenceInst>(I))
    return MemoryRole::Ordered;
  if (const auto *Call = dyn_cast<CallBase>(&I)) {
    if (const auto *II = dyn_cast<IntrinsicInst>(&I))
      if (intrinsicCost(*II).Free)
        return MemoryRole::None;
    if (Call->doesNotAccessMemory() && !Call->mayHaveSideEffects())
      return MemoryRole::None;
    if (Call->onlyReadsMemory() && !Call->mayHaveSideEffects())
      return MemoryRole::Read;
    return MemoryRole::Ordered;
  }
  if (I.mayWriteToMemory())
    return MemoryRole::Ordered;
  if (I.mayReadFromMemory())
    return MemoryRole::Read;
  return MemoryRole::None;
}

/// A node of the block's dependence graph.
struct Node {
  Instruction *I = nullptr;
  std::optional<UnitClass> Class;
  unsigned Latency = 0;
  /// Predecessors and the cycles this node waits after each issues.
  SmallVector<std::pair<unsigned, unsigned>, 4> Preds;
  /// Successors and the cycles each waits after this node issues.
  SmallVector<std::pair<unsigned, unsigned>, 4> Succs;
  unsigned Height = 0;
  unsigned PendingPreds = 0;
  /// Earliest cycle the predecessors scheduled so far allow.
  unsigned Earliest = 0;
  int Issue = -1;
  MemoryRole Role = MemoryRole::None;
  std::optional<MemoryLocation> Location;
  /// Unrolled work-item loop copy: the loop's access group and the copy.
  const Metadata *Loop = nullptr;
  unsigned Copy = 0;
};

/// Numbers the unrolled copies of each tagged loop's accesses in BB: Seq
/// restarts (does not increase) where the next copy begins. Transforms
/// that reorder two accesses of one copy only do so when they are
/// independent, so a restart seen early only drops an ordering that was
/// not needed.
void numberCopies(MutableArrayRef<Node> Nodes) {
  DenseMap<const Metadata *, std::pair<int64_t, unsigned>> LastSeqAndCopy;
  for (Node &N : Nodes) {
    MDNode *Tag = N.I->getMetadata(WorkItemAccessMD);
    if (!Tag || Tag->getNumOperands() != 2)
      continue;
    auto *Seq = mdconst::dyn_extract<ConstantInt>(Tag->getOperand(1));
    if (!Seq)
      continue;
    const Metadata *Loop = Tag->getOperand(0).get();
    auto [It, New] = LastSeqAndCopy.try_emplace(Loop, -1, 0);
    int64_t S = Seq->getSExtValue();
    if (!New && S <= It->second.first)
      ++It->second.second;
    It->second.first = S;
    N.Loop = Loop;
    N.Copy = It->second.second;
  }
}

bool mustOrder(const Node &A, const Node &B, BatchAAResults &AA) {
  if (A.Role == MemoryRole::None || B.Role == MemoryRole::None)
    return false;
  if (A.Role == MemoryRole::Ordered || B.Role == MemoryRole::Ordered)
    return true;
  if (A.Role == MemoryRole::Read && B.Role == MemoryRole::Read)
    return false;
  if (A.Loop && A.Loop == B.Loop && A.Copy != B.Copy)
    return false;
  if (A.Location && B.Location &&
      AA.alias(*A.Location, *B.Location) == AliasResult::NoAlias)
    return false;
  return true;
}

void addEdge(MutableArrayRef<Node> Nodes, unsigned From, unsigned To,
             unsigned Latency) {
  Nodes[To].Preds.push_back({From, Latency});
  Nodes[From].Succs.push_back({To, Latency});
}

} // namespace

std::optional<UnitClass> unitClassOf(const Instruction &I) {
  if (isBlockCounting(I)) // the simulator's instrumentation
    return std::nullopt;
  if (isAccessCheckWork(I)) // WEFT_ACCELSIM_CHECK's, not the machine's
    return std::nullopt;
  if (I.isTerminator()) {
    if (isa<UnreachableInst>(I))
      return std::nullopt;
    return UnitClass::Branch;
  }
  if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
    IntrinsicCost Cost = intrinsicCost(*II);
    if (Cost.Free)
      return std::nullopt;
    if (Cost.Class == UnitClass::LoadStoreGlobal && II->arg_size() > 0 &&
        II->getArgOperand(0)->getType()->isPointerTy())
      return memoryClass(II->getArgOperand(0));
    return Cost.Class;
  }
  if (isa<CallBase>(I))
    return callsDefinedFunction(I) ? UnitClass::Branch : UnitClass::FloatDiv;
  if (const auto *L = dyn_cast<LoadInst>(&I))
    return memoryClass(L->getPointerOperand());
  if (const auto *S = dyn_cast<StoreInst>(&I))
    return memoryClass(S->getPointerOperand());
  if (const auto *A = dyn_cast<AtomicRMWInst>(&I))
    return memoryClass(A->getPointerOperand());
  if (const auto *A = dyn_cast<AtomicCmpXchgInst>(&I))
    return memoryClass(A->getPointerOperand());
  if (isa<FenceInst>(I))
    return UnitClass::LoadStoreGlobal;
  if (const auto *GEP = dyn_cast<GetElementPtrInst>(&I))
    return GEP->hasAllZeroIndices() ? std::nullopt
                                    : std::optional(UnitClass::IntAlu);
  if (const auto *A = dyn_cast<AllocaInst>(&I))
    return A->isStaticAlloca() ? std::nullopt
                               : std::optional(UnitClass::IntAlu);
  if (isa<ExtractElementInst>(I) || isa<InsertElementInst>(I)) {
    const Value *Lane =
        isa<ExtractElementInst>(I) ? I.getOperand(1) : I.getOperand(2);
    return isa<Constant>(Lane) ? std::nullopt
                               : std::optional(UnitClass::IntAlu);
  }
  switch (I.getOpcode()) {
  case Instruction::PHI:
  case Instruction::BitCast:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
  case Instruction::AddrSpaceCast:
  case Instruction::Trunc:
  case Instruction::Freeze:
  case Instruction::ExtractValue:
  case Instruction::InsertValue:
    return std::nullopt;
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FNeg:
  case Instruction::FCmp:
  case Instruction::FPExt:
  case Instruction::FPTrunc:
  case Instruction::FPToSI:
  case Instruction::FPToUI:
  case Instruction::SIToFP:
  case Instruction::UIToFP:
    return UnitClass::FloatAdd;
  case Instruction::FMul:
    return UnitClass::FloatMul;
  case Instruction::FDiv:
  case Instruction::FRem:
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem:
    return UnitClass::FloatDiv;
  default:
    // Integer arithmetic, logic, shifts, icmp, select, zext, sext,
    // shufflevector.
    return UnitClass::IntAlu;
  }
}

unsigned latencyOf(const Instruction &I, const MachineModel &Machine) {
  std::optional<UnitClass> Class = unitClassOf(I);
  if (!Class)
    return 0;
  unsigned Latency = Machine.unit(*Class).Latency;
  if (isLibraryCall(I))
    Latency = std::max(Latency, LibraryCallLatency);
  return Latency;
}

StaticSchedule::Block scheduleBlock(BasicBlock &BB, const MachineModel &Machine,
                                    AAResults &AA,
                                    SmallVectorImpl<unsigned> *IssueCycles) {
  SmallVector<Node, 0> Nodes;
  DenseMap<const Instruction *, unsigned> Index;
  for (Instruction &I : BB) {
    Index[&I] = Nodes.size();
    Node N;
    N.I = &I;
    N.Class = unitClassOf(I);
    N.Latency = latencyOf(I, Machine);
    N.Role = memoryRole(I);
    if (N.Role == MemoryRole::Read || N.Role == MemoryRole::Write)
      N.Location = MemoryLocation::getOrNone(&I);
    Nodes.push_back(std::move(N));
  }
  numberCopies(Nodes);
  // Many queries about the same few pointers: AA's answers cached.
  BatchAAResults BatchAA(AA);

  SmallVector<unsigned, 32> MemoryNodes;
  for (unsigned I = 0, E = Nodes.size(); I != E; ++I) {
    Node &N = Nodes[I];
    // Phi inputs come from the previous block, already complete.
    if (!isa<PHINode>(N.I)) {
      SmallVector<unsigned, 4> Producers;
      for (Value *Op : N.I->operands())
        if (auto *OpI = dyn_cast<Instruction>(Op))
          if (OpI->getParent() == &BB) {
            unsigned P = Index.lookup(OpI);
            if (P < I && !is_contained(Producers, P))
              Producers.push_back(P);
          }
      for (unsigned P : Producers)
        addEdge(Nodes, P, I, Nodes[P].Latency);
    }
    if (N.Role != MemoryRole::None) {
      for (unsigned M : MemoryNodes)
        if (mustOrder(Nodes[M], N, BatchAA))
          addEdge(Nodes, M, I, Nodes[M].Latency);
      MemoryNodes.push_back(I);
    }
  }
  if (!Nodes.empty()) {
    unsigned Last = Nodes.size() - 1;
    for (unsigned I = 0; I != Last; ++I)
      addEdge(Nodes, I, Last, 0);
  }

  // Priority: the longest latency path to the end of the block. Edges run
  // forward in block order, so one backward sweep finds it.
  for (unsigned I = Nodes.size(); I-- > 0;) {
    Node &N = Nodes[I];
    N.Height = N.Latency;
    for (auto [S, Latency] : N.Succs)
      N.Height = std::max(N.Height, Latency + Nodes[S].Height);
  }

  // Higher priority first: the longer path to the block's end, then the
  // earlier instruction.
  auto Before = [&](unsigned A, unsigned B) {
    if (Nodes[A].Height != Nodes[B].Height)
      return Nodes[A].Height > Nodes[B].Height;
    return A < B;
  };
  // std heaps keep the greatest on top: "greater" is "issues first".
  auto HeapOrder = [&](unsigned A, unsigned B) { return Before(B, A); };
  // Operations whose predecessors have all issued, by the cycle their
  // operands allow (Earliest), and those that may issue now, by class.
  auto ByEarliest = [&](unsigned A, unsigned B) {
    return Nodes[A].Earliest > Nodes[B].Earliest;
  };
  std::vector<unsigned> Pending;
  std::vector<unsigned> Available[NumUnitClasses];
  for (unsigned I = 0, E = Nodes.size(); I != E; ++I) {
    Nodes[I].PendingPreds = Nodes[I].Preds.size();
    if (!Nodes[I].PendingPreds)
      Pending.push_back(I);
  }
  std::make_heap(Pending.begin(), Pending.end(), ByEarliest);

  unsigned Slots = std::max(1u, Machine.IssueSlots);
  // Per class: the cycle each unit is free again (not pipelined), or just
  // how many there are (pipelined: ClassUsed counts this cycle's issues).
  SmallVector<unsigned, 16> BusyUntil[NumUnitClasses];
  for (unsigned C = 0; C < NumUnitClasses; ++C)
    BusyUntil[C].assign(std::max(1u, Machine.Units[C].Count), 0);

  StaticSchedule::Block Result;
  unsigned Scheduled = 0, Length = 0;
  auto Issue = [&](unsigned C, unsigned Cycle) {
    Node &N = Nodes[C];
    N.Issue = Cycle;
    Length = std::max(Length, Cycle + N.Latency);
    ++Scheduled;
    for (auto [S, Latency] : N.Succs) {
      Node &Succ = Nodes[S];
      Succ.Earliest = std::max(Succ.Earliest, Cycle + Latency);
      if (--Succ.PendingPreds == 0) {
        Pending.push_back(S);
        std::push_heap(Pending.begin(), Pending.end(), ByEarliest);
      }
    }
  };
  for (unsigned Cycle = 0; Scheduled != Nodes.size();) {
    unsigned SlotsUsed = 0;
    unsigned ClassUsed[NumUnitClasses] = {};
    for (;;) {
      // What may issue now: free operations at once (they take nothing and
      // may make others ready in this cycle), the others to their class.
      while (!Pending.empty() && Nodes[Pending.front()].Earliest <= Cycle) {
        std::pop_heap(Pending.begin(), Pending.end(), ByEarliest);
        unsigned C = Pending.back();
        Pending.pop_back();
        if (!Nodes[C].Class) {
          Issue(C, Cycle);
          continue;
        }
        auto &Heap = Available[static_cast<unsigned>(*Nodes[C].Class)];
        Heap.push_back(C);
        std::push_heap(Heap.begin(), Heap.end(), HeapOrder);
      }
      if (SlotsUsed == Slots)
        break;
      // The best operation among the classes with a unit free this cycle.
      int Best = -1;
      unsigned *BestUnit = nullptr;
      for (unsigned K = 0; K < NumUnitClasses; ++K) {
        if (Available[K].empty())
          continue;
        unsigned *Unit = nullptr;
        if (Machine.Units[K].Pipelined) {
          if (ClassUsed[K] == BusyUntil[K].size())
            continue;
        } else {
          Unit = llvm::find_if(BusyUntil[K],
                               [&](unsigned B) { return B <= Cycle; });
          if (Unit == BusyUntil[K].end())
            continue;
        }
        if (Best < 0 ||
            Before(Available[K].front(),
                   Available[static_cast<unsigned>(Best)].front())) {
          Best = K;
          BestUnit = Unit;
        }
      }
      if (Best < 0)
        break;
      auto &Heap = Available[static_cast<unsigned>(Best)];
      std::pop_heap(Heap.begin(), Heap.end(), HeapOrder);
      unsigned C = Heap.back();
      Heap.pop_back();
      if (BestUnit)
        *BestUnit = Cycle + std::max(1u, Machine.Units[Best].Latency);
      ++SlotsUsed;
      ++ClassUsed[Best];
      ++Result.Ops[Best];
      Issue(C, Cycle);
    }
    // Next cycle; when nothing waits for a unit, straight to the cycle the
    // next operands are ready.
    bool Waiting = llvm::any_of(
        Available, [](const std::vector<unsigned> &H) { return !H.empty(); });
    unsigned Next = Cycle + 1;
    if (!Waiting && !Pending.empty())
      Next = std::max(Next, Nodes[Pending.front()].Earliest);
    Cycle = Next;
  }

  Result.Cycles = Length;
  Instruction *Terminator = BB.getTerminator();
  if (auto *Br = dyn_cast_or_null<BranchInst>(Terminator))
    Result.ConditionalBranch = Br->isConditional();
  else
    Result.ConditionalBranch = Terminator && isa<SwitchInst>(Terminator);
  if (IssueCycles) {
    IssueCycles->clear();
    for (const Node &N : Nodes)
      IssueCycles->push_back(N.Issue);
  }
  return Result;
}

static std::string blockName(const Function &F, const BasicBlock &BB,
                             unsigned Position) {
  std::string Name = F.getName().str() + ":";
  if (BB.hasName())
    Name += BB.getName().str();
  else
    Name += "bb" + std::to_string(Position);
  return Name;
}

static std::string opsText(const StaticSchedule::Block &B) {
  std::string Text;
  for (unsigned C = 0; C < NumUnitClasses; ++C)
    if (B.Ops[C])
      Text += (Text.empty() ? "" : " ") +
              std::string(unitClassName(static_cast<UnitClass>(C))) + "=" +
              std::to_string(B.Ops[C]);
  return Text.empty() ? "none" : Text;
}

StaticSchedule scheduleModule(Module &M, const MachineModel &Machine,
                              FunctionAnalysisManager &FAM) {
  StaticSchedule Schedule;
  DenseMap<const Function *, unsigned> Positions;
  BypassAccessChecks Bypass(M); // WEFT_ACCELSIM_CHECK's, not the machine's
  for (BasicBlock *BB : countedBlocks(M)) {
    Function &F = *BB->getParent();
    AAResults &AA = FAM.getResult<AAManager>(F);
    StaticSchedule::Block Block = scheduleBlock(*BB, Machine, AA);
    Block.Name = blockName(F, *BB, Positions[&F]++);
    WEFT_LOG(DebugCompile, "schedule %u %s: %u cycles, %s%s",
             unsigned(Schedule.Blocks.size()), Block.Name.c_str(), Block.Cycles,
             opsText(Block).c_str(),
             Block.ConditionalBranch ? ", conditional branch" : "");
    Schedule.Blocks.push_back(std::move(Block));
  }
  return Schedule;
}

PreservedAnalyses StaticSchedulePrinterPass::run(Function &F,
                                                 FunctionAnalysisManager &FAM) {
  static const MachineModel Machine = defaultMachineModel();
  AAResults &AA = FAM.getResult<AAManager>(F);
  unsigned Position = 0;
  for (BasicBlock &BB : F) {
    SmallVector<unsigned, 64> Issue;
    std::optional<BypassAccessChecks> Bypass(std::in_place, *F.getParent());
    StaticSchedule::Block Block = scheduleBlock(BB, Machine, AA, &Issue);
    Bypass.reset(); // the block is printed as it runs
    OS << "block " << blockName(F, BB, Position++) << ": " << Block.Cycles
       << " cycles, " << opsText(Block)
       << (Block.ConditionalBranch ? ", conditional branch" : "") << "\n";
    unsigned I = 0;
    for (Instruction &Inst : BB) {
      OS << "  " << Issue[I++] << ":";
      Inst.print(OS);
      OS << "\n";
    }
  }
  return PreservedAnalyses::all();
}

} // namespace weft
