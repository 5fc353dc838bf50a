//===- LockstepLoops.cpp - Divergent loops run across work-items ----------===//
//
// The work-item loops WorkItemLoops and ParallelRegions build are what the
// loop vectorizer turns into SIMD code, one work-item per lane. It only
// vectorizes innermost loops, so a kernel loop inside the work-item loop
// keeps it scalar. HorizontalLoops moves the work-item loop inside kernel
// loops whose trips are the same for every work-item; a loop whose exit
// depends on the work-item (an escape-time iteration, a binary search, a
// data-dependent while) is left where it is, and each work-item runs it to
// completion alone, one mispredicted branch and one dependent load chain at
// a time.
//
// This pass runs such a loop in lockstep instead. It splits the work-item
// loop at the kernel loop:
//
//   for x:                          for x:
//     A                               A; keep what B and C use, and B's
//     do { B } while (c)              initial state; active[x] = 1
//     C                             do {
//                                     any = 0
//                                     for x:       <- innermost, parallel
//                                       if (active[x])
//                                         one trip of B: keep the state
//                                         for the next trip, or, when it
//                                         leaves, what C uses; active[x] = 0
//                                       any |= active[x]
//                                   } while (any)
//                                   for x:
//                                     C
//
// Every work-item still runs A, the same trips of B and C in program order;
// only the interleaving between work-items changes, which the OpenCL
// execution model leaves open between barriers. The middle work-item loop
// is innermost and keeps the parallel annotation, so the vectorizer
// if-converts the trip under the active mask: all lanes run B together
// until the last one leaves. Values cross the split through arrays indexed
// by the work-item (allocas of the local size's x extent, L1-resident);
// values that every work-item computes alike from arguments and the id are
// recomputed instead of kept.
//
// The split is made only where it is known to pay and to be legal:
//  - the kernel loop is innermost and its exit test depends on the
//    work-item; with several exit blocks, each work-item's is kept and C
//    starts at it;
//  - the work-item loop is A, the loop, then C, where A may branch into C
//    directly (a guard, an early return): such a work-item is inactive
//    from the start, and C starts for it where its branch led;
//  - no private alloca is used inside the loop, or both before and after
//    it: one alloca serves the work-items in turn, which interleaving
//    would break;
//  - the loop body has no atomics, fences or calls with side effects,
//    which would keep the lockstep loop scalar;
//  - the arrays fit a stack budget (they live in a worker's frame).
// WEFT_LOCKSTEP=0 turns the pass off.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/LockstepLoops.h"

#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/ParallelLoops.h"

#include "weft/debug.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <cstring>
#include <optional>

using namespace llvm;

namespace weft {

bool lockstepLoopsEnabled() { return switchEnabled("WEFT_LOCKSTEP"); }

namespace {

/// Larger loop bodies are left alone: the vectorizer's if-conversion of a
/// long body is where it most often gives up, and then the split only
/// costs.
constexpr unsigned MaxBodyInstructions = 256;
/// With fewer work-items in x there is too little to fill a vector.
constexpr uint64_t MinWorkItems = 4;
/// Splits per work-group function (each split may expose the next loop).
constexpr unsigned MaxSplits = 8;
/// Stack bytes of arrays per work-group function: they live in the
/// launcher's frame, on a worker's stack.
constexpr uint64_t MaxArrayBytes = 64 << 10;

/// A work-item loop in x as the work-group passes build it:
///   header: %id = phi [0, %pre], [%next, %latch]
///   latch:  %next = add %id, 1; br (icmp ult %next, %bound), header, exit
struct WorkItemLoop {
  Loop *L = nullptr;
  PHINode *Id = nullptr;
  Value *Bound = nullptr;
  MDNode *AccessGroup = nullptr; ///< the loop's parallel_accesses group
};

MDNode *parallelAccessGroup(const Loop &L) {
  MDNode *ID = L.getLoopID();
  if (!ID)
    return nullptr;
  for (const MDOperand &Op : drop_begin(ID->operands())) {
    auto *Prop = dyn_cast<MDNode>(Op);
    if (!Prop || Prop->getNumOperands() != 2)
      continue;
    auto *Name = dyn_cast<MDString>(Prop->getOperand(0));
    if (Name && Name->getString() == "llvm.loop.parallel_accesses")
      return dyn_cast<MDNode>(Prop->getOperand(1));
  }
  return nullptr;
}

/// L as the innermost parallel loop of a work-item loop nest, if it is one.
std::optional<WorkItemLoop> matchWorkItemLoop(Loop &L) {
  using namespace PatternMatch;
  WorkItemLoop X;
  X.L = &L;
  X.AccessGroup = parallelAccessGroup(L);
  if (!X.AccessGroup)
    return std::nullopt;
  for (Loop *Sub : L.getLoopsInPreorder())
    if (Sub != &L && parallelAccessGroup(*Sub))
      return std::nullopt;
  BasicBlock *Header = L.getHeader();
  BasicBlock *Latch = L.getLoopLatch();
  BasicBlock *Pre = L.getLoopPreheader();
  if (!Latch || !Pre)
    return std::nullopt;
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Br || !Br->isConditional() || Br->getSuccessor(0) != Header)
    return std::nullopt;
  for (PHINode &P : Header->phis()) {
    if (X.Id)
      return std::nullopt; // more state than the id: not built by us
    X.Id = &P;
  }
  if (!X.Id || !match(X.Id->getIncomingValueForBlock(Pre), m_Zero()))
    return std::nullopt;
  Value *Next = X.Id->getIncomingValueForBlock(Latch);
  if (!match(Next, m_Add(m_Specific(X.Id), m_One())) ||
      !match(Br->getCondition(),
             m_SpecificICmp(ICmpInst::ICMP_ULT, m_Specific(Next),
                            m_Value(X.Bound))) ||
      !L.isLoopInvariant(X.Bound))
    return std::nullopt;
  return X;
}

/// Whether V may differ between the work-items of X: it depends on the id,
/// or on memory or a call (taken to differ), or it is a phi inside I that
/// merges values from paths a varying branch chose (when BranchesVary).
/// Only a heuristic for where the split pays; the split is correct either
/// way.
bool mayVary(Value *V, const WorkItemLoop &X, const Loop &I, bool BranchesVary,
             SmallPtrSetImpl<Value *> &Seen) {
  auto *Inst = dyn_cast<Instruction>(V);
  if (!Inst || !X.L->contains(Inst))
    return false;
  if (Inst == X.Id || Inst->mayReadFromMemory() || isa<CallBase>(Inst))
    return true;
  if (!Seen.insert(Inst).second)
    return false;
  if (auto *Phi = dyn_cast<PHINode>(Inst);
      Phi && BranchesVary && I.contains(Phi) &&
      Phi->getParent() != I.getHeader() && !Phi->hasConstantValue())
    return true;
  for (Value *Op : Inst->operands())
    if (mayVary(Op, X, I, BranchesVary, Seen))
      return true;
  return false;
}

Value *branchCondition(BasicBlock *BB) {
  Instruction *T = BB->getTerminator();
  if (auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
    return Br->getCondition();
  if (auto *SI = dyn_cast<SwitchInst>(T))
    return SI->getCondition();
  return nullptr;
}

bool hasDivergentExit(const Loop &I, const WorkItemLoop &X) {
  bool BranchesVary = false;
  for (BasicBlock *BB : I.blocks()) {
    SmallPtrSet<Value *, 32> Seen;
    if (Value *Cond = branchCondition(BB))
      BranchesVary |= mayVary(Cond, X, I, false, Seen);
  }
  SmallVector<BasicBlock *, 4> Exiting;
  I.getExitingBlocks(Exiting);
  SmallPtrSet<Value *, 32> Seen;
  for (BasicBlock *BB : Exiting)
    if (Value *Cond = branchCondition(BB);
        Cond && mayVary(Cond, X, I, BranchesVary, Seen))
      return true;
  return false;
}

/// Why the body of I cannot run under a mask in a vectorized loop, or null.
const char *bodyObstacle(const Loop &I) {
  unsigned Count = 0;
  for (BasicBlock *BB : I.blocks())
    for (Instruction &Inst : *BB) {
      if (++Count > MaxBodyInstructions)
        return "body too large";
      if (Inst.isAtomic() || isa<FenceInst>(Inst))
        return "atomic operation or fence";
      auto *CB = dyn_cast<CallBase>(&Inst);
      if (!CB)
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(CB))
        if (II->isAssumeLikeIntrinsic() || !II->mayHaveSideEffects())
          continue;
      if (CB->doesNotAccessMemory() && CB->willReturn())
        continue;
      return "call with side effects";
    }
  return nullptr;
}

/// The private allocas (other than this pass's arrays) that instructions
/// of Blocks may reach through a pointer operand.
template <typename Range>
SmallPtrSet<const Value *, 4> privateAllocas(const Range &Blocks) {
  SmallPtrSet<const Value *, 4> Found;
  for (BasicBlock *BB : Blocks)
    for (Instruction &I : *BB)
      for (Value *Op : I.operands()) {
        if (!Op->getType()->isPointerTy())
          continue;
        SmallVector<const Value *, 4> Objects;
        getUnderlyingObjects(Op, Objects);
        for (const Value *O : Objects)
          if (auto *A = dyn_cast<AllocaInst>(O);
              A && !A->hasMetadata(LockstepArrayMD))
            Found.insert(A);
      }
  return Found;
}

/// The blocks of X before and after its kernel loop I.
struct Partition {
  SmallPtrSet<BasicBlock *, 16> Before; ///< A: from the header to I
  SmallPtrSet<BasicBlock *, 16> After;  ///< C: from I's exits to the latch
  /// Edges from A into C: work-items that skip I (a guard, an early
  /// return).
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> Bypass;
};

/// Splits X's blocks around I: C is what I's exit blocks reach before the
/// latch, A what the header reaches before I or C (an edge from A into C
/// skips I). Fails when a path leaves the work-item loop elsewhere than at
/// its latch, enters I elsewhere than from its preheader, or comes back
/// from C into A or I; or when a private alloca is used inside I, or both
/// in A and in C (one alloca serves the work-items in turn).
std::optional<Partition> partition(const WorkItemLoop &X, const Loop &I,
                                   ArrayRef<BasicBlock *> Exits) {
  Partition P;
  BasicBlock *XHeader = X.L->getHeader();
  BasicBlock *XLatch = X.L->getLoopLatch();
  BasicBlock *Pre = I.getLoopPreheader();
  SmallVector<BasicBlock *, 16> Work;
  for (BasicBlock *Exit : Exits)
    if (P.After.insert(Exit).second)
      Work.push_back(Exit);
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    for (BasicBlock *S : successors(BB)) {
      if (S == XHeader || !X.L->contains(S)) {
        if (BB != XLatch)
          return std::nullopt;
        continue;
      }
      if (I.contains(S))
        return std::nullopt;
      if (P.After.insert(S).second)
        Work.push_back(S);
    }
  }
  if (!P.After.count(XLatch) || P.After.count(XHeader))
    return std::nullopt;
  Work = {XHeader};
  P.Before.insert(XHeader);
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    for (BasicBlock *S : successors(BB)) {
      if (S == I.getHeader()) {
        if (BB != Pre)
          return std::nullopt;
        continue;
      }
      if (P.After.count(S)) {
        P.Bypass.push_back({BB, S});
        continue;
      }
      if (!X.L->contains(S) || S == XHeader || I.contains(S))
        return std::nullopt;
      if (P.Before.insert(S).second)
        Work.push_back(S);
    }
  }
  if (!P.Before.count(Pre) ||
      P.Before.size() + P.After.size() + I.getNumBlocks() !=
          X.L->getNumBlocks())
    return std::nullopt;
  if (!privateAllocas(I.blocks()).empty())
    return std::nullopt;
  auto BeforeAllocas = privateAllocas(P.Before);
  for (const Value *A : privateAllocas(P.After))
    if (BeforeAllocas.count(A))
      return std::nullopt;
  return P;
}

/// Which of the three work-item loops after the split a block belongs to.
enum class Part { First, Step, Last };

/// Makes one split: X around its kernel loop I. Analyses are stale after.
class Splitter {
public:
  Splitter(Function &F, const DominatorTree &DT, const WorkItemLoop &X, Loop &I,
           Partition P, uint64_t Width)
      : F(F), DT(DT), C(F.getContext()), X(X), I(I), P(std::move(P)),
        Width(Width), B(F.getContext()) {}

  /// Splits, unless the arrays would take more than Budget bytes; the
  /// bytes they take, or nullopt with nothing changed.
  std::optional<uint64_t> run(uint64_t Budget);

private:
  AllocaInst *newArray(Type *T, const Twine &Name);
  void tag(Instruction *I) {
    I->setMetadata(LLVMContext::MD_access_group, AccessMD);
  }
  Value *element(AllocaInst *Array, Value *Id);
  LoadInst *loadAt(AllocaInst *Array, Value *Id, const Twine &Name);
  void storeAt(Value *V, AllocaInst *Array, Value *Id);
  bool isRecomputable(Instruction *Inst);
  Value *materialize(Value *V, Part In);
  Part partOf(BasicBlock *BB) const;
  void replaceUsesOutsideFirst(Value *V);

  Function &F;
  const DominatorTree &DT; ///< of F before the split
  LLVMContext &C;
  const WorkItemLoop &X;
  Loop &I;
  Partition P;
  uint64_t Width;
  IRBuilder<> B;
  MDNode *AccessMD = nullptr;

  SmallPtrSet<BasicBlock *, 16> StepBlocks, LastBlocks;
  PHINode *StepId = nullptr, *LastId = nullptr;
  BasicBlock *StepBody = nullptr, *LastHeader = nullptr;
  DenseMap<Instruction *, bool> Recomputable;
  MapVector<Instruction *, AllocaInst *> Kept;
  DenseMap<Value *, Value *> StepValue, LastValue;
};

AllocaInst *Splitter::newArray(Type *T, const Twine &Name) {
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> AB(&Entry, Entry.getFirstInsertionPt());
  AllocaInst *A = AB.CreateAlloca(ArrayType::get(T, Width), nullptr, Name);
  A->setMetadata(LockstepArrayMD, MDNode::get(C, {}));
  return A;
}

Value *Splitter::element(AllocaInst *Array, Value *Id) {
  return B.CreateInBoundsGEP(Array->getAllocatedType(), Array,
                             {B.getInt64(0), Id});
}

LoadInst *Splitter::loadAt(AllocaInst *Array, Value *Id, const Twine &Name) {
  Type *T = cast<ArrayType>(Array->getAllocatedType())->getElementType();
  LoadInst *L = B.CreateLoad(T, element(Array, Id), Name);
  tag(L);
  return L;
}

void Splitter::storeAt(Value *V, AllocaInst *Array, Value *Id) {
  tag(B.CreateStore(V, element(Array, Id)));
}

/// Whether every work-item can recompute Inst after the split from the
/// arguments, values outside X and its id, instead of keeping it.
bool Splitter::isRecomputable(Instruction *Inst) {
  auto It = Recomputable.find(Inst);
  if (It != Recomputable.end())
    return It->second;
  Recomputable[Inst] = false; // cycles through phis are not recomputable
  bool Ok = !isa<PHINode>(Inst) && !isa<AllocaInst>(Inst) &&
            !Inst->mayHaveSideEffects() && !isa<CallBase>(Inst);
  if (Ok && Inst->mayReadFromMemory())
    Ok = isa<LoadInst>(Inst) &&
         Inst->hasMetadata(LLVMContext::MD_invariant_load);
  for (Value *Op : Inst->operands()) {
    if (!Ok)
      break;
    auto *OpI = dyn_cast<Instruction>(Op);
    if (OpI && OpI != X.Id && X.L->contains(OpI))
      Ok = isRecomputable(OpI);
  }
  Recomputable[Inst] = Ok;
  return Ok;
}

/// V as the Step or Last part sees it, built at the end of that part's
/// entry block (StepBody or LastHeader).
Value *Splitter::materialize(Value *V, Part In) {
  auto *Inst = dyn_cast<Instruction>(V);
  if (!Inst || !X.L->contains(Inst))
    return V;
  if (Inst == X.Id)
    return In == Part::Step ? StepId : LastId;
  auto &Map = In == Part::Step ? StepValue : LastValue;
  if (Value *Done = Map.lookup(V))
    return Done;
  BasicBlock *At = In == Part::Step ? StepBody : LastHeader;
  Value *Result;
  if (AllocaInst *Array = Kept.lookup(Inst)) {
    B.SetInsertPoint(At->getTerminator());
    Result = loadAt(Array, In == Part::Step ? StepId : LastId,
                    Inst->getName() + ".kept");
  } else {
    Instruction *Copy = Inst->clone();
    for (Use &Op : Copy->operands())
      Op.set(materialize(Op.get(), In));
    Copy->insertBefore(At->getTerminator());
    Copy->setName(Inst->getName());
    Result = Copy;
  }
  Map[V] = Result;
  return Result;
}

Part Splitter::partOf(BasicBlock *BB) const {
  if (StepBlocks.count(BB))
    return Part::Step;
  if (LastBlocks.count(BB))
    return Part::Last;
  return Part::First;
}

void Splitter::replaceUsesOutsideFirst(Value *V) {
  SmallVector<Use *, 8> Uses;
  for (Use &U : V->uses())
    Uses.push_back(&U);
  for (Use *U : Uses) {
    auto *User = cast<Instruction>(U->getUser());
    BasicBlock *BB = User->getParent();
    if (auto *Phi = dyn_cast<PHINode>(User))
      BB = Phi->getIncomingBlock(*U);
    Part In = partOf(BB);
    if (In != Part::First)
      U->set(materialize(V, In));
  }
}

std::optional<uint64_t> Splitter::run(uint64_t Budget) {
  BasicBlock *XHeader = X.L->getHeader();
  BasicBlock *XLatch = X.L->getLoopLatch();
  BasicBlock *Pre = I.getLoopPreheader();
  BasicBlock *Header = I.getHeader();
  BasicBlock *Latch = I.getLoopLatch();
  SmallVector<BasicBlock *, 4> Exits;
  I.getUniqueExitBlocks(Exits);
  Type *IdTy = X.Id->getType();

  // The access groups the work-item loop's own accesses carry, so that the
  // new accesses keep every enclosing work-item loop parallel.
  AccessMD = X.AccessGroup;
  for (BasicBlock *BB : X.L->blocks())
    for (Instruction &Inst : *BB)
      if (MDNode *MD = Inst.getMetadata(LLVMContext::MD_access_group)) {
        AccessMD = MD;
        break;
      }

  SmallVector<PHINode *, 8> State;
  for (PHINode &Phi : Header->phis())
    State.push_back(&Phi);
  SmallVector<PHINode *, 8> Outputs;
  for (BasicBlock *Exit : Exits)
    for (PHINode &Phi : Exit->phis())
      Outputs.push_back(&Phi);
  SmallVector<BasicBlock *, 16> LoopBlocks(I.blocks());

  // Values of A used after it: recomputed where possible, else kept.
  SetVector<Instruction *> Live;
  for (BasicBlock *BB : P.Before)
    for (Instruction &Inst : *BB) {
      if (&Inst == X.Id)
        continue;
      for (Use &U : Inst.uses()) {
        auto *User = cast<Instruction>(U.getUser());
        BasicBlock *UB = User->getParent();
        if (auto *Phi = dyn_cast<PHINode>(User))
          UB = Phi->getIncomingBlock(U);
        if (!P.Before.count(UB)) {
          Live.insert(&Inst);
          break;
        }
      }
    }
  // Where C starts for a work-item: one of I's exit blocks, or the target
  // of the edge that skipped I.
  SmallVector<BasicBlock *, 4> Targets(Exits.begin(), Exits.end());
  SmallVector<PHINode *, 8> Skipped;
  for (auto &[From, To] : P.Bypass)
    if (!is_contained(Targets, To)) {
      Targets.push_back(To);
      for (PHINode &Phi : To->phis())
        Skipped.push_back(&Phi);
    }
  const DataLayout &DL = F.getParent()->getDataLayout();
  uint64_t Bytes = 1 + (Targets.size() > 1 ? 4 : 0);
  for (PHINode *Phi : Skipped)
    Bytes += DL.getTypeAllocSize(Phi->getType());
  for (Instruction *Inst : Live)
    if (!isRecomputable(Inst))
      Bytes += DL.getTypeAllocSize(Inst->getType());
  for (PHINode *Phi : State)
    Bytes += DL.getTypeAllocSize(Phi->getType());
  for (PHINode *Phi : Outputs)
    Bytes += DL.getTypeAllocSize(Phi->getType());
  Bytes *= Width;
  if (Bytes > Budget)
    return std::nullopt;
  for (Instruction *Inst : Live)
    if (!isRecomputable(Inst))
      Kept[Inst] = newArray(Inst->getType(), Inst->getName() + ".lockstep");
  DenseMap<PHINode *, AllocaInst *> StateArray, OutputArray;
  for (PHINode *Phi : State)
    StateArray[Phi] = newArray(Phi->getType(), Phi->getName() + ".lockstep");
  for (PHINode *Phi : Outputs)
    OutputArray[Phi] = newArray(Phi->getType(), Phi->getName() + ".lockstep");
  DenseMap<PHINode *, AllocaInst *> SkippedArray;
  for (PHINode *Phi : Skipped)
    SkippedArray[Phi] = newArray(Phi->getType(), Phi->getName() + ".skip");
  AllocaInst *Active = newArray(B.getInt8Ty(), "active.lockstep");
  // Where each work-item's C starts, when there is a choice.
  AllocaInst *ExitTaken =
      Targets.size() > 1 ? newArray(B.getInt32Ty(), "exit.lockstep") : nullptr;

  BasicBlock *After = XLatch->getNextNode();
  auto NewBlock = [&](const Twine &Name) {
    return BasicBlock::Create(C, Name, &F, After);
  };
  BasicBlock *FirstLatch = NewBlock("lockstep.first.latch");
  BasicBlock *StepPre = NewBlock("lockstep.trip");
  BasicBlock *StepHeader = NewBlock("lockstep.step");
  StepBody = NewBlock("lockstep.active");
  BasicBlock *Continue = NewBlock("lockstep.continue");
  BasicBlock *StepLatch = NewBlock("lockstep.step.latch");
  BasicBlock *AnyLeft = NewBlock("lockstep.again");
  BasicBlock *LastPre = NewBlock("lockstep.last.preheader");
  LastHeader = NewBlock("lockstep.last");

  // First: A, then keep what the rest needs instead of entering the loop.
  Instruction *PreTerm = Pre->getTerminator();
  B.SetInsertPoint(PreTerm);
  for (PHINode *Phi : State)
    storeAt(Phi->getIncomingValueForBlock(Pre), StateArray[Phi], X.Id);
  for (auto &[Inst, Array] : Kept)
    storeAt(Inst, Array, X.Id);
  storeAt(B.getInt8(1), Active, X.Id);
  B.CreateBr(FirstLatch);
  PreTerm->eraseFromParent();
  // A work-item that skips I is inactive from the start and keeps what
  // the phis of its way into C receive, and the values of A that C may
  // use on that way (those available where it branches).
  for (auto &[From, To] : P.Bypass) {
    if (!is_contained(successors(From), To))
      continue; // a second edge between the two, already redirected
    BasicBlock *Skip = NewBlock("lockstep.skip");
    B.SetInsertPoint(Skip);
    for (auto &[Inst, Array] : Kept)
      if (DT.dominates(Inst, From->getTerminator()))
        storeAt(Inst, Array, X.Id);
    for (PHINode &Phi : To->phis())
      storeAt(Phi.getIncomingValueForBlock(From), SkippedArray[&Phi], X.Id);
    if (ExitTaken)
      storeAt(B.getInt32(find(Targets, To) - Targets.begin()), ExitTaken, X.Id);
    storeAt(B.getInt8(0), Active, X.Id);
    B.CreateBr(FirstLatch);
    From->getTerminator()->replaceSuccessorWith(To, Skip);
    for (PHINode &Phi : To->phis())
      while (Phi.getBasicBlockIndex(From) >= 0)
        Phi.removeIncomingValue(From, /*DeletePHIIfEmpty=*/false);
  }
  B.SetInsertPoint(FirstLatch);
  Value *FirstNext = B.CreateAdd(X.Id, ConstantInt::get(IdTy, 1),
                                 "lockstep.first.next", true, true);
  B.CreateCondBr(B.CreateICmpULT(FirstNext, X.Bound), XHeader, StepPre)
      ->setMetadata(LLVMContext::MD_loop, makeParallelLoopID(C, X.AccessGroup));
  int FromLatch = X.Id->getBasicBlockIndex(XLatch);
  X.Id->setIncomingBlock(FromLatch, FirstLatch);
  Value *OldNext = X.Id->getIncomingValue(FromLatch);
  X.Id->setIncomingValue(FromLatch, FirstNext);

  // Step: one trip of every active work-item, until none is left.
  B.SetInsertPoint(StepPre);
  B.CreateBr(StepHeader);
  B.SetInsertPoint(StepHeader);
  StepId = B.CreatePHI(IdTy, 2, "lockstep.id");
  PHINode *Any = B.CreatePHI(B.getInt1Ty(), 2, "lockstep.any");
  // The state is loaded and stored back whole every trip, blended with
  // the new values of the active work-items: masked stores would not
  // forward to the next trip's loads.
  Value *IsActive =
      B.CreateICmpNE(loadAt(Active, StepId, "active"), B.getInt8(0));
  DenseMap<PHINode *, Value *> Restored;
  for (PHINode *Phi : State)
    Restored[Phi] = loadAt(StateArray[Phi], StepId, Phi->getName());
  B.CreateCondBr(IsActive, StepBody, StepLatch);
  B.SetInsertPoint(StepBody);
  B.CreateBr(Header);
  B.SetInsertPoint(Continue);
  B.CreateBr(StepLatch);
  Latch->getTerminator()->replaceSuccessorWith(Header, Continue);
  DenseMap<PHINode *, Value *> Advanced;
  for (PHINode *Phi : State)
    Advanced[Phi] = Phi->getIncomingValueForBlock(Latch);
  SmallVector<BasicBlock *, 4> Leaving;
  for (unsigned K = 0; K < Exits.size(); ++K) {
    BasicBlock *Exit = Exits[K];
    SmallVector<BasicBlock *, 4> Exiting(predecessors(Exit));
    for (BasicBlock *E : Exiting) {
      BasicBlock *Leave = NewBlock("lockstep.leave");
      B.SetInsertPoint(Leave);
      for (PHINode &Phi : Exit->phis())
        storeAt(Phi.getIncomingValueForBlock(E), OutputArray[&Phi], StepId);
      if (ExitTaken)
        storeAt(B.getInt32(K), ExitTaken, StepId);
      B.CreateBr(StepLatch);
      E->getTerminator()->replaceSuccessorWith(Exit, Leave);
      Leaving.push_back(Leave);
    }
  }
  B.SetInsertPoint(StepLatch);
  PHINode *Still = B.CreatePHI(B.getInt1Ty(), 2 + Leaving.size(), "still");
  Still->addIncoming(B.getFalse(), StepHeader);
  Still->addIncoming(B.getTrue(), Continue);
  for (BasicBlock *Leave : Leaving)
    Still->addIncoming(B.getFalse(), Leave);
  SmallVector<PHINode *, 8> Nexts;
  for (PHINode *Phi : State) {
    PHINode *Next = B.CreatePHI(Phi->getType(), 2 + Leaving.size(),
                                Phi->getName() + ".next");
    Next->addIncoming(Restored[Phi], StepHeader);
    Next->addIncoming(Advanced[Phi], Continue);
    for (BasicBlock *Leave : Leaving)
      Next->addIncoming(Restored[Phi], Leave);
    Nexts.push_back(Next);
  }
  for (unsigned K = 0; K < State.size(); ++K)
    storeAt(Nexts[K], StateArray[State[K]], StepId);
  storeAt(B.CreateZExt(Still, B.getInt8Ty()), Active, StepId);
  // Uses of the state inside the trip, the advanced values included, see
  // the values loaded at its start.
  for (PHINode *Phi : State) {
    Phi->replaceAllUsesWith(Restored[Phi]);
    Phi->eraseFromParent();
  }
  Value *AnyNext = B.CreateOr(Any, Still, "lockstep.any.next");
  Value *StepNext = B.CreateAdd(StepId, ConstantInt::get(IdTy, 1),
                                "lockstep.next", true, true);
  B.CreateCondBr(B.CreateICmpULT(StepNext, X.Bound), StepHeader, AnyLeft)
      ->setMetadata(LLVMContext::MD_loop, makeParallelLoopID(C, X.AccessGroup));
  StepId->addIncoming(ConstantInt::get(IdTy, 0), StepPre);
  StepId->addIncoming(StepNext, StepLatch);
  Any->addIncoming(B.getFalse(), StepPre);
  Any->addIncoming(AnyNext, StepLatch);
  B.SetInsertPoint(AnyLeft);
  B.CreateCondBr(AnyNext, StepPre, LastPre);

  // Last: C, from what the loop left behind.
  B.SetInsertPoint(LastPre);
  B.CreateBr(LastHeader);
  B.SetInsertPoint(LastHeader);
  LastId = B.CreatePHI(IdTy, 2, "lockstep.last.id");
  LastId->addIncoming(ConstantInt::get(IdTy, 0), LastPre);
  LastId->addIncoming(OldNext, XLatch);
  Instruction *ToExit;
  if (ExitTaken) {
    SwitchInst *SI = B.CreateSwitch(loadAt(ExitTaken, LastId, "exit.taken"),
                                    Targets[0], Targets.size() - 1);
    for (unsigned K = 1; K < Targets.size(); ++K)
      SI->addCase(B.getInt32(K), Targets[K]);
    ToExit = SI;
  } else {
    ToExit = B.CreateBr(Targets[0]);
  }
  B.SetInsertPoint(ToExit);
  for (PHINode *Phi : Outputs) {
    Phi->replaceAllUsesWith(loadAt(OutputArray[Phi], LastId, Phi->getName()));
    Phi->eraseFromParent();
  }
  for (PHINode *Phi : Skipped)
    Phi->addIncoming(loadAt(SkippedArray[Phi], LastId, Phi->getName()),
                     LastHeader);
  XLatch->getTerminator()->replaceSuccessorWith(XHeader, LastHeader);

  // Uses of A's values and of the id past the split.
  StepBlocks.insert(LoopBlocks.begin(), LoopBlocks.end());
  StepBlocks.insert({StepHeader, StepBody, Continue, StepLatch});
  StepBlocks.insert(Leaving.begin(), Leaving.end());
  LastBlocks.insert(P.After.begin(), P.After.end());
  LastBlocks.insert(LastHeader);
  for (Instruction *Inst : Live)
    replaceUsesOutsideFirst(Inst);
  replaceUsesOutsideFirst(X.Id);
  return Bytes;
}

/// The first kernel loop of X worth running in lockstep, made ready
/// (simplified, LCSSA); null if there is none.
Loop *findCandidate(const WorkItemLoop &X, DominatorTree &DT, LoopInfo &LI,
                    StringRef FnName) {
  for (Loop *I : X.L->getSubLoops()) {
    if (!I->isInnermost() || !hasDivergentExit(*I, X))
      continue;
    auto Skip = [&](const char *Why) {
      WEFT_LOG(DebugCompile, "%s: loop %s not run in lockstep: %s",
               FnName.str().c_str(), I->getHeader()->getName().str().c_str(),
               Why);
    };
    if (const char *Why = bodyObstacle(*I)) {
      Skip(Why);
      continue;
    }
    simplifyLoop(I, &DT, &LI, nullptr, nullptr, nullptr, false);
    SmallVector<BasicBlock *, 4> Exits;
    I->getUniqueExitBlocks(Exits);
    if (!I->getLoopPreheader() || !I->getLoopLatch() || Exits.empty() ||
        !I->hasDedicatedExits()) {
      Skip("not in simplified form");
      continue;
    }
    bool Inside = true, Once = true;
    for (BasicBlock *Exit : Exits) {
      Inside &= X.L->contains(Exit);
      SmallPtrSet<BasicBlock *, 4> Preds;
      for (BasicBlock *Pred : predecessors(Exit))
        Once &= Preds.insert(Pred).second;
    }
    if (!Inside || !Once) {
      Skip(Inside ? "an exit block reached twice from one block"
                  : "it leaves the work-item loop");
      continue;
    }
    return I;
  }
  return nullptr;
}

/// Splits the work-item loops of F while it finds loops to split; returns
/// the number of splits.
unsigned splitFunction(Function &F, uint64_t Width) {
  unsigned Splits = 0;
  uint64_t Budget = MaxArrayBytes;
  while (Splits < MaxSplits) {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    bool Split = false;
    for (Loop *L : LI.getLoopsInPreorder()) {
      std::optional<WorkItemLoop> X = matchWorkItemLoop(*L);
      if (!X)
        continue;
      if (auto *Bound = dyn_cast<ConstantInt>(X->Bound);
          Bound && Bound->getZExtValue() > Width)
        continue;
      Loop *I = findCandidate(*X, DT, LI, F.getName());
      if (!I)
        continue;
      formLCSSA(*I, DT, &LI, nullptr);
      SmallVector<BasicBlock *, 4> Exits;
      I->getUniqueExitBlocks(Exits);
      std::optional<Partition> P = partition(*X, *I, Exits);
      if (!P) {
        WEFT_LOG(DebugCompile,
                 "%s: loop %s not run in lockstep: a path through the "
                 "work-item loop avoids it, or private memory is used "
                 "inside it or on both sides",
                 F.getName().str().c_str(),
                 I->getHeader()->getName().str().c_str());
        continue;
      }
      std::string Name = I->getHeader()->getName().str();
      std::optional<uint64_t> Bytes =
          Splitter(F, DT, *X, *I, std::move(*P), Width).run(Budget);
      if (!Bytes) {
        WEFT_LOG(DebugCompile,
                 "%s: loop %s not run in lockstep: its arrays would take "
                 "more than %llu bytes of stack",
                 F.getName().str().c_str(), Name.c_str(),
                 (unsigned long long)Budget);
        continue;
      }
      Budget -= *Bytes;
      WEFT_LOG(DebugCompile,
               "%s: loop %s runs in lockstep across %llu work-items (%llu "
               "bytes of arrays)",
               F.getName().str().c_str(), Name.c_str(),
               (unsigned long long)Width, (unsigned long long)*Bytes);
      ++Splits;
      Split = true;
      break;
    }
    if (!Split)
      break;
  }
  return Splits;
}

} // namespace

PreservedAnalyses LockstepLoopsPass::run(Module &M, ModuleAnalysisManager &) {
  uint64_t Width = LocalSize[0];
  if (Width < MinWorkItems)
    return PreservedAnalyses::all();
  bool Changed = false;
  for (Function &F : M)
    if (isWorkGroupFunctionOf(F, Kernel))
      Changed |= splitFunction(F, Width) != 0;
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft
