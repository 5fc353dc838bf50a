//===- JamLoopIterations.cpp - Two iterations' chains side by side --------===//
//
// hashcat's kernels run one work-item per work-group and loop over password
// candidates inside it, on uint16 vectors they chose themselves: there is
// no work-item loop to vectorize or interleave. Each trip of the candidate
// loop is one hash, a chain of some 200 dependent operations (MD5's
// `a = b + rotl(a + F(b, c, d) + K + w, s)`, 64 times) with little else
// beside it, and the trips are independent. The core could run two chains
// at once, but it sees the next trip only after a whole trip's instructions
// have passed its reorder buffer, so the loop waits out the chain's latency
// (hashcat's MD5 candidate loop, 259 instructions a trip, ran at 345 MH/s
// per core; two trips side by side, 460 written by hand, 481 by this pass).
//
// This pass does that side-by-side writing for such loops: an innermost
// loop that is not a work-item loop, whose header's operations are at most
// twice its longest dependence chain, is unrolled twice (every copy keeps
// its exit test), and the second copy's header is computed in the first
// copy's header, the two instruction streams interleaved. The second trip
// may not run (the first may leave the loop) and its loads may not be
// reached, so what moves up must be safe to run early:
//  - pure operations (isSafeToSpeculativelyExecute) move as they are;
//  - values the first trip computes for the second (the induction step in
//    the latch) are recomputed in the header when they are pure;
//  - a load moves only if no store, atomic or call of the loop may write
//    its memory (OpenCL's private, global, constant and local spaces are
//    disjoint; otherwise alias analysis decides), and it reads through a
//    select: its own address when the bytes lie in the memory pages the
//    first trip's copy of the same load reads in the same header, else
//    that copy's address. Pages are the unit of protection, so the early
//    load cannot fault where the program's own load did not.
// When every early load kept its own address (the `jam.ok` test), the
// second trip uses the early values; otherwise it recomputes its header as
// the original code did. A candidate loop walking 64 bytes a trip crosses a
// page once in 64 trips.
//
// Runs last in the optimization pipeline, after the unroller and the
// vectorizers, so nothing after it reasons about the early loads' bounds.
// WEFT_JAM=0 turns it off.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/JamLoopIterations.h"

#include "WorkGroup/KernelUtils.h"

#include "weft/debug.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/UnrollLoop.h"

#define DEBUG_TYPE "weft-jam-loop-iterations"

using namespace llvm;

namespace weft {

namespace {

constexpr const char *JammedMD = "weft.loop.jammed";
/// A header chain shorter than this is hidden by the core's own look-ahead.
constexpr unsigned MinChain = 32;
/// More operations per chain link than this already keep the ports busy.
constexpr unsigned MaxOperationsPerLink = 2;
/// Bounds the code the unrolling doubles.
constexpr unsigned MaxHeaderOperations = 1500;
/// The smallest page of the hosts Weft runs on (x86-64, AArch64).
constexpr uint64_t PageShift = 12;
/// How far back through the first trip's pure operations a value the
/// second trip's header uses is recomputed (the induction step is one).
constexpr unsigned MaxRecomputeDepth = 3;

/// An operation that occupies an execution port for its latency.
bool isOperation(const Instruction &I) {
  if (isa<BinaryOperator>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) ||
      isa<LoadInst>(I) || isa<ShuffleVectorInst>(I) ||
      isa<ExtractElementInst>(I) || isa<InsertElementInst>(I))
    return true;
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    return !II->isAssumeLikeIntrinsic() && !isa<DbgInfoIntrinsic>(II);
  if (const auto *C = dyn_cast<CastInst>(&I))
    return !C->isNoopCast(I.getModule()->getDataLayout());
  return false;
}

struct ChainShape {
  unsigned Operations = 0;
  unsigned LongestChain = 0;
};

/// The header's operations and the longest chain of them that depend on
/// one another within it.
ChainShape measure(const BasicBlock &Header) {
  ChainShape Shape;
  DenseMap<const Instruction *, unsigned> Depth;
  for (const Instruction &I : Header) {
    unsigned Longest = 0;
    if (!isa<PHINode>(I))
      for (const Value *Op : I.operands())
        if (const auto *Def = dyn_cast<Instruction>(Op))
          Longest = std::max(Longest, Depth.lookup(Def));
    bool Counts = isOperation(I);
    Shape.Operations += Counts;
    Depth[&I] = Longest + Counts;
    Shape.LongestChain = std::max(Shape.LongestChain, Longest + Counts);
  }
  return Shape;
}

/// Whether W may write memory that Load reads.
bool mayClobber(const Instruction &W, const LoadInst &Load, AAResults &AA) {
  if (!W.mayWriteToMemory())
    return false;
  const Value *Ptr = nullptr;
  if (const auto *S = dyn_cast<StoreInst>(&W))
    Ptr = S->getPointerOperand();
  else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&W))
    Ptr = RMW->getPointerOperand();
  else if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&W))
    Ptr = CX->getPointerOperand();
  if (Ptr && disjointAddressSpaces(Load.getPointerAddressSpace(),
                                   Ptr->getType()->getPointerAddressSpace()))
    return false;
  return isModSet(AA.getModRefInfo(&W, MemoryLocation::get(&Load)));
}

class IterationJammer {
public:
  IterationJammer(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
                  AssumptionCache &AC, const TargetTransformInfo &TTI,
                  AAResults &AA, OptimizationRemarkEmitter &ORE)
      : L(L), LI(LI), DT(DT), SE(SE), AC(AC), TTI(TTI), AA(AA), ORE(ORE),
        Ctx(L.getHeader()->getContext()),
        SlotKind(Ctx.getMDKindID("weft.jam.slot")),
        HeaderKind(Ctx.getMDKindID("weft.jam.header")) {}

  /// Whether the loop is worth jamming and its second header can move.
  bool isCandidate(ChainShape &Shape);
  /// Unrolls and jams; false when the function was left as it was.
  bool run();

  unsigned Moved = 0, EarlyLoads = 0;

private:
  bool headerMovable() const;
  bool dependsOnChain(const Value *V,
                      SmallPtrSetImpl<const Value *> &Seen) const;
  bool exitsIndependentOfChain() const;
  bool nearHeader(const Value *V, unsigned Depth, bool AnyHeaderValue) const;
  void mark();
  void unmark(Function &F);
  BasicBlock *secondHeader() const;
  Instruction *earlyCopy(const Instruction &I) const;
  Value *available(Value *V, unsigned Depth);
  LoadInst *firstTripCopy(const Instruction &I) const;
  Value *emit(Instruction *I);
  Value *samePages(Value *First, Value *Own, uint64_t Bytes);
  bool hoistable(Instruction &I);
  void hoist(Instruction &I);
  void interleave();
  void recomputeOnFailure(BasicBlock *H2);

  Loop &L;
  LoopInfo &LI;
  DominatorTree &DT;
  ScalarEvolution &SE;
  AssumptionCache &AC;
  const TargetTransformInfo &TTI;
  AAResults &AA;
  OptimizationRemarkEmitter &ORE;
  LLVMContext &Ctx;
  unsigned SlotKind, HeaderKind;

  BasicBlock *H1 = nullptr;
  /// The first trip's header instructions, in order.
  SmallVector<Instruction *, 256> Own;
  /// Second-trip values and their early copies, in dependence order.
  DenseMap<Value *, Value *> Early;
  SmallVector<Instruction *, 256> Jammed;
  /// The second trip's header instructions that have an early copy.
  SmallVector<Instruction *, 256> Originals;
  DenseMap<unsigned, LoadInst *> FirstLoads;
  Value *AllOk = nullptr;
};

/// Whether V is a few pure operations over loop invariants and the
/// header's phis, or with AnyHeaderValue, any of the header's values: what
/// the header can compute of the next trip (the induction step).
bool IterationJammer::nearHeader(const Value *V, unsigned Depth,
                                 bool AnyHeaderValue) const {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I))
    return true;
  if (I->getParent() == L.getHeader() && (AnyHeaderValue || isa<PHINode>(I)))
    return true;
  if (Depth == 0 || isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
      !isSafeToSpeculativelyExecute(I))
    return false;
  return all_of(I->operands(), [&](const Value *Op) {
    return nearHeader(Op, Depth - 1, AnyHeaderValue);
  });
}

/// Before unrolling: every value the header carries from trip to trip can
/// be recomputed early, every header instruction runs to the next, and no
/// write of the loop may reach the header's loads.
bool IterationJammer::headerMovable() const {
  BasicBlock *H = L.getHeader();
  BasicBlock *Latch = L.getLoopLatch();
  for (PHINode &Phi : H->phis())
    if (!nearHeader(Phi.getIncomingValueForBlock(Latch), MaxRecomputeDepth,
                    /*AnyHeaderValue=*/true))
      return false;
  SmallVector<const LoadInst *, 8> Loads;
  for (const Instruction &I : *H) {
    if (!isGuaranteedToTransferExecutionToSuccessor(&I))
      return false;
    if (const auto *Load = dyn_cast<LoadInst>(&I)) {
      if (!Load->isSimple())
        return false;
      Loads.push_back(Load);
    }
  }
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &W : *BB)
      for (const LoadInst *Load : Loads)
        if (mayClobber(W, *Load, AA))
          return false;
  return true;
}

/// Whether V derives from the header's chain: a header value that is not
/// a few pure operations over its phis.
bool IterationJammer::dependsOnChain(
    const Value *V, SmallPtrSetImpl<const Value *> &Seen) const {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || !Seen.insert(I).second)
    return false;
  BasicBlock *H = L.getHeader();
  if (I->getParent() == H) {
    if (isa<PHINode>(I))
      return false;
    return !nearHeader(I, MaxRecomputeDepth, /*AnyHeaderValue=*/false);
  }
  return any_of(I->operands(),
                [&](const Value *Op) { return dependsOnChain(Op, Seen); });
}

/// Whether every exit is decided without the header's chain, as in a
/// counted loop, which as a rule runs many trips. A loop that leaves on the
/// chain's result (a retry loop) mostly runs once, and the second trip's
/// early work would be wasted.
bool IterationJammer::exitsIndependentOfChain() const {
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  SmallPtrSet<const Value *, 32> Seen;
  for (BasicBlock *BB : Exiting) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || !Br->isConditional() || dependsOnChain(Br->getCondition(), Seen))
      return false;
  }
  return true;
}

bool IterationJammer::isCandidate(ChainShape &Shape) {
  if (!L.isInnermost() || findStringMetadataForLoop(&L, JammedMD) ||
      findOptionMDForLoop(&L, "llvm.loop.parallel_accesses") ||
      getBooleanLoopAttribute(&L, "llvm.loop.isvectorized"))
    return false;
  Shape = measure(*L.getHeader());
  if (Shape.LongestChain < MinChain ||
      Shape.Operations > MaxOperationsPerLink * Shape.LongestChain ||
      Shape.Operations > MaxHeaderOperations)
    return false;
  return L.getLoopLatch() && headerMovable() && exitsIndependentOfChain();
}

/// Tags the header's terminator and its loads so that their copies in the
/// unrolled loop can be told apart and paired.
void IterationJammer::mark() {
  BasicBlock *H = L.getHeader();
  H->getTerminator()->setMetadata(HeaderKind, MDNode::get(Ctx, {}));
  unsigned Slot = 0;
  for (Instruction &I : *H)
    if (isa<LoadInst>(I))
      I.setMetadata(SlotKind,
                    MDNode::get(Ctx, ConstantAsMetadata::get(ConstantInt::get(
                                         Type::getInt32Ty(Ctx), Slot++))));
}

void IterationJammer::unmark(Function &F) {
  for (Instruction &I : instructions(F)) {
    I.setMetadata(SlotKind, nullptr);
    I.setMetadata(HeaderKind, nullptr);
  }
}

BasicBlock *IterationJammer::secondHeader() const {
  BasicBlock *Found = nullptr;
  for (BasicBlock *BB : L.blocks()) {
    if (BB == H1 || !BB->getTerminator()->getMetadata(HeaderKind))
      continue;
    if (Found)
      return nullptr;
    Found = BB;
  }
  return Found;
}

/// A copy of I to run before it is known that the second trip runs: what
/// I's flags and metadata promise holds only if it does, and a poison
/// address would make the early load undefined.
Instruction *IterationJammer::earlyCopy(const Instruction &I) const {
  Instruction *Copy = I.clone();
  Copy->dropPoisonGeneratingFlags();
  Copy->dropPoisonGeneratingMetadata();
  Copy->setMetadata(SlotKind, nullptr);
  Copy->setName(I.getName() + ".early");
  return Copy;
}

/// V as the header can compute it early: the header's own and older
/// values as they are, second-trip values by their early copies, pure
/// first-trip values recomputed; null if it cannot.
Value *IterationJammer::available(Value *V, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || DT.dominates(I, H1->getTerminator()))
    return V;
  if (Value *E = Early.lookup(I))
    return E;
  if (Depth == 0 || isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
      !isSafeToSpeculativelyExecute(I))
    return nullptr;
  for (Value *Op : I->operands())
    if (!available(Op, Depth - 1))
      return nullptr;
  Instruction *Copy = earlyCopy(*I);
  for (Use &Op : Copy->operands())
    Op.set(available(Op.get(), Depth - 1));
  Early[I] = Copy;
  Jammed.push_back(Copy);
  return Copy;
}

bool IterationJammer::hoistable(Instruction &I) {
  if (isa<PHINode>(I) || I.isTerminator())
    return false;
  if (auto *Load = dyn_cast<LoadInst>(&I)) {
    if (!Load->isSimple() || !firstTripCopy(*Load))
      return false;
    for (BasicBlock *BB : L.blocks())
      for (Instruction &W : *BB)
        if (mayClobber(W, *Load, AA))
          return false;
  } else if (I.mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(&I)) {
    return false;
  }
  return all_of(I.operands(), [&](Value *Op) {
    return available(Op, MaxRecomputeDepth) != nullptr;
  });
}

/// The copy of load I (the second trip's) in the first trip's header.
LoadInst *IterationJammer::firstTripCopy(const Instruction &I) const {
  MDNode *Slot = I.getMetadata(SlotKind);
  if (!Slot)
    return nullptr;
  return FirstLoads.lookup(
      mdconst::extract<ConstantInt>(Slot->getOperand(0))->getZExtValue());
}

Value *IterationJammer::emit(Instruction *I) {
  Jammed.push_back(I);
  return I;
}

/// Whether the first and last of Bytes bytes at Own lie on the pages of the
/// first and last at First (page numbers compared, emitted early).
Value *IterationJammer::samePages(Value *First, Value *Own, uint64_t Bytes) {
  Type *IntPtr =
      H1->getModule()->getDataLayout().getIntPtrType(First->getType());
  auto Page = [&](Value *Addr, const Twine &Name) {
    return emit(BinaryOperator::CreateLShr(
        Addr, ConstantInt::get(IntPtr, PageShift), Name));
  };
  // The pages of an access's first and last byte.
  auto Pages = [&](Value *Ptr, const Twine &Name) {
    Value *Addr = emit(
        CastInst::Create(Instruction::PtrToInt, Ptr, IntPtr, Name + ".addr"));
    Value *End = Addr;
    if (Bytes > 1)
      End = emit(BinaryOperator::CreateAdd(
          Addr, ConstantInt::get(IntPtr, Bytes - 1), Name + ".last"));
    Value *Last = Page(End, Name + ".last.page");
    return std::make_pair(Page(Addr, Name + ".page"), Last);
  };
  auto [FirstLow, FirstHigh] = Pages(First, "jam.first");
  auto [OwnLow, OwnHigh] = Pages(Own, "jam.own");
  Value *SameLast = emit(new ICmpInst(ICmpInst::ICMP_EQ, OwnHigh, FirstHigh));
  Value *SameFirst = emit(new ICmpInst(ICmpInst::ICMP_EQ, OwnLow, FirstLow));
  return emit(BinaryOperator::CreateAnd(SameFirst, SameLast, "jam.same.pages"));
}

/// Copies I to the end of the first header; a load reads through a select
/// that keeps it in the first trip's pages.
void IterationJammer::hoist(Instruction &I) {
  Instruction *Copy = earlyCopy(I);
  for (Use &Op : Copy->operands())
    Op.set(available(Op.get(), MaxRecomputeDepth));
  if (auto *Load = dyn_cast<LoadInst>(Copy)) {
    Value *First = firstTripCopy(I)->getPointerOperand();
    Value *Own = Load->getPointerOperand();
    Value *Ok = samePages(
        First, Own,
        H1->getModule()->getDataLayout().getTypeStoreSize(Load->getType()));
    Load->setOperand(Load->getPointerOperandIndex(),
                     emit(SelectInst::Create(Ok, Own, First, "jam.addr")));
    AllOk = AllOk ? emit(BinaryOperator::CreateAnd(AllOk, Ok, "jam.ok")) : Ok;
    ++EarlyLoads;
  }
  Jammed.push_back(Copy);
  Early[&I] = Copy;
  Originals.push_back(&I);
  ++Moved;
}

/// Lays the early copies into the first header among its own
/// instructions, in proportion, so that both chains are in flight.
void IterationJammer::interleave() {
  Instruction *Term = H1->getTerminator();
  for (Instruction *I : Jammed)
    I->insertBefore(Term);
  DenseMap<Instruction *, size_t> OwnIndex;
  for (size_t K = 0; K < Own.size(); ++K)
    OwnIndex[Own[K]] = K;
  size_t A = 0, B = 0;
  auto PlaceOwnThrough = [&](size_t Last) {
    for (; A <= Last; ++A)
      Own[A]->moveBefore(Term);
  };
  while (A < Own.size() || B < Jammed.size()) {
    if (B == Jammed.size() ||
        (A < Own.size() && A * Jammed.size() <= B * Own.size())) {
      PlaceOwnThrough(A);
      continue;
    }
    Instruction *J = Jammed[B++];
    for (Value *Op : J->operands())
      if (auto *D = dyn_cast<Instruction>(Op))
        if (auto It = OwnIndex.find(D); It != OwnIndex.end() && It->second >= A)
          PlaceOwnThrough(It->second);
    J->moveBefore(Term);
  }
}

/// The second header keeps its instructions for the trips whose early
/// loads had to read the first trip's address: a branch on jam.ok picks
/// the early values or recomputes them, and a phi joins the two.
void IterationJammer::recomputeOnFailure(BasicBlock *H2) {
  if (!AllOk) {
    for (Instruction *O : Originals) {
      O->replaceAllUsesWith(Early[O]);
      O->eraseFromParent();
    }
    return;
  }
  BasicBlock *Join = SplitBlock(H2, H2->getFirstNonPHI(), &DT, &LI);
  Join->setName(H2->getName() + ".jam.join");
  BasicBlock *Slow = BasicBlock::Create(Ctx, H2->getName() + ".jam.recompute",
                                        H2->getParent(), Join);
  L.addBasicBlockToLoop(Slow, LI);
  BranchInst *ToSlow = BranchInst::Create(Join, Slow);
  for (Instruction *O : Originals)
    O->moveBefore(ToSlow);
  H2->getTerminator()->eraseFromParent();
  BranchInst::Create(Join, Slow, AllOk, H2);
  IRBuilder<> B(Join, Join->begin());
  for (Instruction *O : Originals) {
    if (all_of(O->users(), [&](User *U) {
          return cast<Instruction>(U)->getParent() == Slow;
        }))
      continue;
    PHINode *Phi = B.CreatePHI(O->getType(), 2, O->getName() + ".jam");
    Phi->addIncoming(Early[O], H2);
    Phi->addIncoming(O, Slow);
    O->replaceUsesWithIf(Phi, [&](Use &U) {
      auto *User = cast<Instruction>(U.getUser());
      return User != Phi && User->getParent() != Slow;
    });
  }
  DT.recalculate(*H2->getParent());
}

bool IterationJammer::run() {
  Function &F = *L.getHeader()->getParent();
  // Late in the pipeline, exits may be shared with code outside the loop.
  bool Changed = simplifyLoop(&L, &DT, &LI, &SE, &AC, nullptr,
                              /*PreserveLCSSA=*/false);
  if (!L.isLoopSimplifyForm())
    return Changed;
  mark();
  Changed |= formLCSSARecursively(L, DT, &LI, &SE);
  UnrollLoopOptions Options;
  Options.Count = 2;
  Options.Force = true;
  Options.Runtime = false;
  Options.AllowExpensiveTripCount = false;
  Options.UnrollRemainder = false;
  Options.ForgetAllSCEV = false;
  LoopUnrollResult Result =
      UnrollLoop(&L, Options, &LI, &SE, &DT, &AC, &TTI, &ORE,
                 /*PreserveLCSSA=*/true);
  if (Result != LoopUnrollResult::PartiallyUnrolled) {
    unmark(F);
    return Changed || Result != LoopUnrollResult::Unmodified;
  }
  addStringMetadataToLoop(&L, JammedMD);
  H1 = L.getHeader();
  BasicBlock *H2 = secondHeader();
  if (!H2) {
    unmark(F);
    return true;
  }
  for (Instruction &I : *H1) {
    if (auto *Load = dyn_cast<LoadInst>(&I))
      if (MDNode *Slot = Load->getMetadata(SlotKind))
        FirstLoads[mdconst::extract<ConstantInt>(Slot->getOperand(0))
                       ->getZExtValue()] = Load;
    if (!isa<PHINode>(I) && !I.isTerminator())
      Own.push_back(&I);
  }
  for (Instruction &I : *H2)
    if (hoistable(I))
      hoist(I);
  if (Originals.empty()) {
    // Recomputed values nothing moved up uses; users before their operands.
    for (Instruction *I : reverse(Jammed))
      I->deleteValue();
    unmark(F);
    return true;
  }
  interleave();
  recomputeOnFailure(H2);
  unmark(F);
  SE.forgetLoop(&L);
  return true;
}

} // namespace

PreservedAnalyses JamLoopIterationsPass::run(Function &F,
                                             FunctionAnalysisManager &AM) {
  LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
  SmallVector<Loop *, 4> Loops;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost())
      Loops.push_back(L);
  if (Loops.empty())
    return PreservedAnalyses::all();
  auto &DT = AM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
  auto &AC = AM.getResult<AssumptionAnalysis>(F);
  auto &TTI = AM.getResult<TargetIRAnalysis>(F);
  auto &AA = AM.getResult<AAManager>(F);
  auto &ORE = AM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  bool Changed = false;
  for (Loop *L : Loops) {
    IterationJammer Jammer(*L, LI, DT, SE, AC, TTI, AA, ORE);
    ChainShape Shape;
    if (!Jammer.isCandidate(Shape))
      continue;
    std::string Name = L->getHeader()->getName().str();
    Changed |= Jammer.run();
    if (!Jammer.Moved)
      continue;
    WEFT_LOG(DebugCompile,
             "%s: loop %s (%u operations, chains of up to %u): two trips "
             "jammed, %u instructions of the second computed early (%u loads "
             "checked for their pages)",
             F.getName().str().c_str(), Name.c_str(), Shape.Operations,
             Shape.LongestChain, Jammer.Moved, Jammer.EarlyLoads);
  }
  if (!Changed)
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}

} // namespace weft
