//===- ParallelRegions.cpp - Work-group functions of kernels with barriers ===//
//
// Turns a barrier-normal work-item function (NormalizeBarriers) into the
// work-group function K.workgroup(<K's parameters>, ptr %ctx).
//
// A parallel region is what a work-item runs from one barrier to the next:
// the blocks reachable from a barrier block without crossing another one.
// Each region becomes its own copy of those blocks inside work-item loops
// (x innermost), so every work-item finishes the region before any starts
// the next one, which is exactly what a barrier promises:
//
//        barrier.entry                 for z,y,x { region A }
//          |                           -> for z,y,x { region B }  <-+
//        [A]                           -> next barrier?  ------------+
//          |      <-+                  -> for z,y,x { region C }
//        barrier    |      becomes     -> ret
//          |        |
//        [B] -------+
//          |
//        [C] -> exit barrier
//
// A block reachable from several barriers is copied into each of their
// regions (tail duplication), so every region ends at barriers only. When
// a region may end at more than one barrier (a barrier under a condition, or
// in a loop), each work-item records the barrier it reached and the group
// continues with that barrier's region. The specification requires every
// work-item of a group to reach the same barrier, so the record of any one
// of them chooses the path; a kernel that breaks the rule gets the path of
// the last work-item, and never hangs because of it. Barriers in loops, in
// nested loops, in while and do loops, and irreducible control flow between
// barriers need no special case: a loop around a barrier is a cycle of
// regions in this graph of barriers.
//
// Values crossing block boundaries are first demoted to allocas. An alloca
// whose value is live across a barrier becomes a context array: one slot per
// work-item in WorkGroupContext::PrivateArena, which the driver allocates
// once per worker (never on its stack), laid out slot[value][work-item] so
// consecutive work-items of the x loop touch consecutive addresses and the
// vectorizer sees unit-stride accesses. A loop-carried value shares its
// PHI's alloca where no read of the old value can follow the new one
// (coalesceLoopCarriedSlots, coalesceHeaderCopies): one context array and
// no per-trip copy between two. Every other alloca is shared by the
// work-items in turn, and SROA promotes it back to SSA values later.
// Two exceptions keep context arrays for what needs them: a value that
// UniformityAnalysis proves uniform gets one scalar slot for the group
// (copyContextValues says how regions that redefine it stay correct), and
// cheap expressions of the local ids, the arguments and the work-group
// context are recomputed where they are used instead of being carried
// (rematerializeCheapValues), which also keeps an address like
// B[K * N + get_global_id(0)] visibly consecutive in the x loop.
//
// The loops carry llvm.loop.parallel_accesses like WorkItemLoops's; the
// constant trip counts come from the local size the function is specialized
// for, with a second copy for the smaller remainder group of a non-uniform
// NDRange.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/ParallelRegions.h"
#include "WorkGroup/BarrierUtils.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/ParallelLoops.h"
#include "WorkGroup/UniformityAnalysis.h"
#include "WorkGroup/RegionMethodLimits.h"
#include "WorkGroup/WorkGroupContextLayout.h"

#include "weft/debug.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <optional>
#include <string>

#define DEBUG_TYPE "weft-parallel-regions"

using namespace llvm;

namespace weft {

namespace {

struct Region {
  BasicBlock *Head = nullptr;            ///< the barrier block it starts at
  SmallVector<BasicBlock *, 16> Blocks;  ///< Head's successor first
  SmallVector<BasicBlock *, 4> Next;     ///< barrier blocks it may end at
};

/// The barrier graph of a normalized work-item function.
struct BarrierGraph {
  SmallVector<BasicBlock *, 8> Barriers; ///< entry barrier first
  DenseMap<BasicBlock *, unsigned> IdOf; ///< index in Barriers
  BasicBlock *EntryBarrier = nullptr;
  BasicBlock *ExitBarrier = nullptr;
  SmallVector<Region, 8> Regions;        ///< one per barrier but the exit
  DenseMap<BasicBlock *, unsigned> RegionOf;
};

bool isNormalized(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock *First = Entry.getSingleSuccessor();
  if (!First || !isBarrierBlock(*First))
    return false;
  for (Instruction &I : Entry)
    if (!isa<AllocaInst>(I) && !I.isTerminator())
      return false;
  unsigned Returns = 0;
  for (BasicBlock &BB : F) {
    if (isa<ReturnInst>(BB.getTerminator())) {
      if (!isBarrierBlock(BB))
        return false;
      ++Returns;
    }
    if (isBarrierBlock(BB) && !isa<ReturnInst>(BB.getTerminator()) &&
        (BB.size() != 2 || !BB.getSingleSuccessor()))
      return false;
  }
  return Returns == 1;
}

/// Instructions at most in a tree rematerializeCheapValues copies.
constexpr unsigned MaxRematerialized = 16;

/// Collects, operands first, the instructions of the expression V is when
/// V can be recomputed anywhere it is used: instructions without side
/// effects over arguments (the kernel's, the context pointer, the local
/// ids), constants and invariant loads of the work-group context.
bool collectRecomputable(Value *V, SmallVectorImpl<Instruction *> &Tree,
                         SmallPtrSetImpl<Instruction *> &Seen) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return isa<Argument>(V) || isa<Constant>(V);
  if (Seen.count(I))
    return true;
  if (isa<PHINode>(I) || isa<AllocaInst>(I) || I->isTerminator() ||
      I->mayHaveSideEffects() || I->isEHPad())
    return false;
  if (I->mayReadFromMemory()) {
    auto *L = dyn_cast<LoadInst>(I);
    if (!L || !L->isSimple() ||
        !L->hasMetadata(LLVMContext::MD_invariant_load))
      return false;
  }
  if (auto *CB = dyn_cast<CallBase>(I))
    if (!CB->getCalledFunction() || !CB->getCalledFunction()->isIntrinsic() ||
        !CB->doesNotAccessMemory())
      return false;
  Seen.insert(I);
  for (Value *Op : I->operands())
    if (!collectRecomputable(Op, Tree, Seen))
      return false;
  Tree.push_back(I);
  return Tree.size() <= MaxRematerialized;
}

/// Recomputes cheap expressions of the local ids, the arguments and the
/// work-group context (get_global_id(0), Row * N + Col) in each block that
/// uses them instead of carrying them from their definition. Carried
/// across a barrier, such a value would cost a context array, and loaded
/// from one it would hide from the vectorizer that B[K * N + Col] is
/// consecutive in the x work-items (a gather instead of a vector load).
/// Recomputing at a use is safe: its definition dominates the use, so the
/// copy runs only where the original did.
void rematerializeCheapValues(Function &F) {
  SmallVector<Instruction *, 32> Candidates;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (isa<AllocaInst>(I) || isa<PHINode>(I) || I.getType()->isVoidTy())
        continue;
      if (any_of(I.users(), [&](User *U) {
            auto *UI = cast<Instruction>(U);
            return UI->getParent() != &BB || isa<PHINode>(UI);
          }))
        Candidates.push_back(&I);
    }
  for (Instruction *I : Candidates) {
    SmallVector<Instruction *, 16> Tree;
    SmallPtrSet<Instruction *, 16> Seen;
    if (!collectRecomputable(I, Tree, Seen))
      continue;
    SmallVector<Use *, 8> Far;
    for (Use &U : I->uses()) {
      auto *UI = cast<Instruction>(U.getUser());
      if (UI->getParent() != I->getParent() || isa<PHINode>(UI))
        Far.push_back(&U);
    }
    for (Use *U : Far) {
      auto *UI = cast<Instruction>(U->getUser());
      Instruction *Before = UI;
      if (auto *Phi = dyn_cast<PHINode>(UI))
        Before = Phi->getIncomingBlock(*U)->getTerminator();
      if (isBarrierBlock(*Before->getParent()))
        continue;
      ValueToValueMapTy Copies;
      for (Instruction *T : Tree) {
        Instruction *Copy = T->clone();
        Copy->setName(T->getName() + ".remat");
        Copy->insertBefore(Before);
        RemapInstruction(Copy, Copies,
                         RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
        Copies[T] = Copy;
      }
      U->set(Copies[I]);
    }
  }
  for (Instruction *I : Candidates)
    RecursivelyDeleteTriviallyDeadInstructions(I);
}

/// Demotes every SSA value used outside its block, and every PHI, to an
/// alloca, so that copying blocks into regions needs no SSA repair. Returns
/// the new allocas, which hold whole values (a store kills the old one);
/// those of values UI proves uniform are also added to Uniform.
SmallPtrSet<AllocaInst *, 32>
demoteCrossBlockValues(Function &F, const UniformityInfo &UI,
                       SmallPtrSetImpl<AllocaInst *> &Uniform) {
  SmallPtrSet<AllocaInst *, 32> Demoted;
  BasicBlock &Entry = F.getEntryBlock();
  SmallVector<Instruction *, 64> Escaping;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (&BB == &Entry && isa<AllocaInst>(I))
        continue;
      for (User *U : I.users()) {
        auto *UI = cast<Instruction>(U);
        if (UI->getParent() != &BB || isa<PHINode>(UI)) {
          Escaping.push_back(&I);
          break;
        }
      }
    }
  for (Instruction *I : Escaping) {
    bool IsUniform = UI.isUniform(I);
    if (AllocaInst *A = DemoteRegToStack(*I)) {
      Demoted.insert(A);
      if (IsUniform)
        Uniform.insert(A);
    }
  }
  SmallVector<PHINode *, 32> Phis;
  for (BasicBlock &BB : F)
    for (PHINode &P : BB.phis())
      Phis.push_back(&P);
  for (PHINode *P : Phis) {
    bool IsUniform = UI.isUniform(P);
    if (AllocaInst *A = DemotePHIToStack(P)) {
      Demoted.insert(A);
      if (IsUniform)
        Uniform.insert(A);
    }
  }
  return Demoted;
}

/// The sole store to A, or null (also when A's address escapes).
StoreInst *soleStore(AllocaInst *A) {
  StoreInst *Sole = nullptr;
  for (User *U : A->users()) {
    if (isa<LoadInst>(U))
      continue;
    auto *S = dyn_cast<StoreInst>(U);
    if (!S || S->getPointerOperand() != A || Sole)
      return nullptr;
    Sole = S;
  }
  return Sole;
}

/// Gives a loop-carried value and the PHI it feeds one alloca. Demoted, the
/// PHI P of a loop header H is a store of its initial value before the
/// loop, a store of the next value V at the end of the latch L (a copy
/// from V's own alloca) and a load in H:
///
///   H:   p = load P            ...   V = ...; store V, Vslot
///   L:   t = load Vslot; store t, P; br H
///
/// In a loop around barriers both P and Vslot live across the barrier, so
/// each work-item copies its values from one context array to the other at
/// every trip (CLBlast's Xgemm: the 8 to 32 accumulators of each work-item,
/// a sixth of the tile-copy region's instructions). When V is defined once,
/// inside the loop, on every path to L, and P has no other store, V can be
/// stored to P where it is defined: nothing reads P between there and H but
/// H, and every later read of V finds the same value in P (a read of V is
/// dominated by V's definition; after it P changes only before the loop,
/// and a path from there to the read would meet V's definition again). The
/// copy in L goes, and so does Vslot.
unsigned coalesceLoopCarriedSlots(Function &F,
                                  SmallPtrSetImpl<AllocaInst *> &Demoted,
                                  SmallPtrSetImpl<AllocaInst *> &Uniform) {
  DominatorTree DT(F);
  unsigned Coalesced = 0;
  SmallVector<AllocaInst *, 32> Candidates(Demoted.begin(), Demoted.end());
  for (AllocaInst *P : Candidates) {
    if (!Demoted.contains(P))
      continue;
    // P: two stores (one in the latch copying Vslot, one outside the loop)
    // and loads in one block, the header.
    LoadInst *HeaderLoad = nullptr;
    SmallVector<StoreInst *, 2> PStores;
    bool Shape = true;
    for (User *U : P->users()) {
      if (auto *L = dyn_cast<LoadInst>(U)) {
        if (HeaderLoad && HeaderLoad->getParent() != L->getParent())
          Shape = false;
        HeaderLoad = L;
      } else if (auto *S = dyn_cast<StoreInst>(U);
                 S && S->getPointerOperand() == P) {
        PStores.push_back(S);
      } else {
        Shape = false;
      }
    }
    if (!Shape || !HeaderLoad || PStores.size() != 2)
      continue;
    BasicBlock *H = HeaderLoad->getParent();
    for (unsigned Latch = 0; Latch < 2; ++Latch) {
      StoreInst *Copy = PStores[Latch];
      StoreInst *Init = PStores[1 - Latch];
      BasicBlock *L = Copy->getParent();
      auto *Reload = dyn_cast<LoadInst>(Copy->getValueOperand());
      auto *VSlot = Reload ? dyn_cast<AllocaInst>(Reload->getPointerOperand())
                           : nullptr;
      if (!VSlot || VSlot == P || !Demoted.contains(VSlot) ||
          !Reload->hasOneUse() || Reload->getParent() != L ||
          !is_contained(successors(L), H) || !DT.dominates(H, L) ||
          DT.dominates(H, Init->getParent()))
        continue;
      StoreInst *Def = soleStore(VSlot);
      if (!Def || !DT.dominates(H, Def->getParent()) ||
          !DT.dominates(Def, Reload) || Def->getParent() == H)
        continue;
      Copy->eraseFromParent();
      Reload->eraseFromParent();
      VSlot->replaceAllUsesWith(P);
      if (!Uniform.contains(VSlot))
        Uniform.erase(P);
      Uniform.erase(VSlot);
      Demoted.erase(VSlot);
      VSlot->eraseFromParent();
      ++Coalesced;
      break;
    }
  }
  return Coalesced;
}

/// Whether a load of Q can run after Start (a store to the alloca Q copies)
/// before the copy into Q, Copy, runs again.
bool loadReachableBeforeCopy(StoreInst *Start, StoreInst *Copy,
                             AllocaInst *Q) {
  auto ScanFrom = [&](BasicBlock::iterator It, BasicBlock *BB) {
    for (; It != BB->end(); ++It) {
      if (&*It == Copy)
        return std::optional<bool>(false);
      if (auto *L = dyn_cast<LoadInst>(&*It); L && L->getPointerOperand() == Q)
        return std::optional<bool>(true);
    }
    return std::optional<bool>();
  };
  SmallPtrSet<BasicBlock *, 32> Seen;
  SmallVector<BasicBlock *, 16> Work;
  if (auto Found =
          ScanFrom(std::next(Start->getIterator()), Start->getParent()))
    return *Found;
  append_range(Work, successors(Start->getParent()));
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second)
      continue;
    if (auto Found = ScanFrom(BB->begin(), BB)) {
      if (*Found)
        return true;
      continue;
    }
    append_range(Work, successors(BB));
  }
  return false;
}

/// Gives a PHI's value and the PHI's own alloca one slot. A PHI used
/// outside its block is demoted twice: its value is copied at the top of
/// the header from the PHI's alloca P into an alloca Q of its own, which the
/// uses read. Q and P hold the same value wherever Q is read unless a store
/// to P can reach a read of Q without passing the copy again (which
/// coalesceLoopCarriedSlots makes possible: it stores the next value early).
/// Otherwise the reads of Q read P, and Q goes with its copy: one context
/// array and one copy per work-item and trip fewer.
unsigned coalesceHeaderCopies(Function &F,
                              SmallPtrSetImpl<AllocaInst *> &Demoted,
                              SmallPtrSetImpl<AllocaInst *> &Uniform) {
  unsigned Coalesced = 0;
  SmallVector<AllocaInst *, 32> Candidates(Demoted.begin(), Demoted.end());
  for (AllocaInst *Q : Candidates) {
    StoreInst *Copy = soleStore(Q);
    auto *Source = Copy ? dyn_cast<LoadInst>(Copy->getValueOperand()) : nullptr;
    auto *P = Source ? dyn_cast<AllocaInst>(Source->getPointerOperand())
                     : nullptr;
    if (!P || P == Q || !Demoted.contains(P) ||
        Source->getParent() != Copy->getParent())
      continue;
    // Nothing between the load of P and the copy writes P (the copies of
    // the header's other PHIs may: they store to allocas of their own).
    bool Clean = true;
    for (auto It = std::next(Source->getIterator()); &*It != Copy; ++It) {
      auto *S = dyn_cast<StoreInst>(&*It);
      if (S ? S->getPointerOperand() == P : It->mayWriteToMemory())
        Clean = false;
    }
    if (!Clean)
      continue;
    bool Safe = true;
    for (User *U : P->users()) {
      auto *S = dyn_cast<StoreInst>(U);
      if (!S) {
        if (!isa<LoadInst>(U))
          Safe = false;
        continue;
      }
      if (S->getPointerOperand() != P || loadReachableBeforeCopy(S, Copy, Q))
        Safe = false;
    }
    if (!Safe)
      continue;
    Copy->eraseFromParent();
    if (Source->use_empty())
      Source->eraseFromParent();
    Q->replaceAllUsesWith(P);
    if (!Uniform.contains(Q))
      Uniform.erase(P);
    Uniform.erase(Q);
    Demoted.erase(Q);
    Q->eraseFromParent();
    ++Coalesced;
  }
  return Coalesced;
}

BarrierGraph formRegions(Function &F) {
  BarrierGraph G;
  G.EntryBarrier = F.getEntryBlock().getSingleSuccessor();
  G.Barriers.push_back(G.EntryBarrier);
  for (BasicBlock &BB : F)
    if (isBarrierBlock(BB) && &BB != G.EntryBarrier)
      G.Barriers.push_back(&BB);
  for (unsigned I = 0; I < G.Barriers.size(); ++I) {
    G.IdOf[G.Barriers[I]] = I;
    if (isa<ReturnInst>(G.Barriers[I]->getTerminator()))
      G.ExitBarrier = G.Barriers[I];
  }
  for (BasicBlock *Head : G.Barriers) {
    if (Head == G.ExitBarrier)
      continue;
    Region R;
    R.Head = Head;
    SmallPtrSet<BasicBlock *, 32> Seen;
    SmallVector<BasicBlock *, 16> Work = {Head->getSingleSuccessor()};
    // Depth-first, so the copies read in roughly the original order.
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (!Seen.insert(BB).second)
        continue;
      if (isBarrierBlock(*BB)) {
        R.Next.push_back(BB);
        continue;
      }
      R.Blocks.push_back(BB);
      SmallVector<BasicBlock *, 2> Succs(successors(BB));
      for (auto It = Succs.rbegin(); It != Succs.rend(); ++It)
        Work.push_back(*It);
    }
    G.RegionOf[Head] = G.Regions.size();
    G.Regions.push_back(std::move(R));
  }
  return G;
}

/// The demoted values live across some barrier: those a load reads, on a
/// path from a barrier, before a store overwrites them; each work-item
/// then needs its own copy. One backward liveness pass over the blocks for
/// all of them at once (CLBlast's kernels demote thousands of values, and
/// a search per value and barrier took seconds per program).
SmallPtrSet<AllocaInst *, 32>
demotedValuesLiveAcrossBarriers(Function &F,
                                const SmallPtrSetImpl<AllocaInst *> &Demoted,
                                const BarrierGraph &G) {
  DenseMap<const AllocaInst *, unsigned> Index;
  SmallVector<AllocaInst *, 64> Values;
  for (Instruction &I : F.getEntryBlock())
    if (auto *A = dyn_cast<AllocaInst>(&I); A && Demoted.count(A)) {
      Index[A] = Values.size();
      Values.push_back(A);
    }
  // Per block: the values read before any store (Used) and those stored
  // (Killed); live in = Used | (live out & ~Killed).
  DenseMap<const BasicBlock *, unsigned> Number;
  SmallVector<BasicBlock *, 64> Blocks;
  for (BasicBlock &BB : F) {
    Number[&BB] = Blocks.size();
    Blocks.push_back(&BB);
  }
  const unsigned N = Values.size();
  SmallVector<BitVector, 64> Used(Blocks.size(), BitVector(N)),
      Killed(Blocks.size(), BitVector(N)), LiveIn(Blocks.size(), BitVector(N));
  auto IndexOf = [&](Value *Ptr) -> int {
    auto *A = dyn_cast<AllocaInst>(Ptr);
    auto It = A ? Index.find(A) : Index.end();
    return It == Index.end() ? -1 : int(It->second);
  };
  for (unsigned B = 0; B < Blocks.size(); ++B)
    for (Instruction &I : *Blocks[B]) {
      if (auto *L = dyn_cast<LoadInst>(&I)) {
        if (int V = IndexOf(L->getPointerOperand()); V >= 0 && !Killed[B][V])
          Used[B].set(V);
      } else if (auto *S = dyn_cast<StoreInst>(&I)) {
        if (int V = IndexOf(S->getPointerOperand()); V >= 0 && !Used[B][V])
          Killed[B].set(V);
      }
    }
  // Iterate to the fixed point, a block again whenever a successor's live
  // in grew.
  SmallVector<unsigned, 64> Work;
  SmallVector<bool, 64> Queued(Blocks.size(), true);
  for (unsigned B = Blocks.size(); B-- > 0;)
    Work.push_back(B);
  BitVector LiveOut(N);
  while (!Work.empty()) {
    unsigned B = Work.pop_back_val();
    Queued[B] = false;
    LiveOut.reset();
    for (BasicBlock *Succ : successors(Blocks[B]))
      LiveOut |= LiveIn[Number[Succ]];
    BitVector In = LiveOut;
    In.reset(Killed[B]);
    In |= Used[B];
    if (In == LiveIn[B])
      continue;
    LiveIn[B] = std::move(In);
    for (BasicBlock *Pred : predecessors(Blocks[B]))
      if (unsigned P = Number[Pred]; !Queued[P]) {
        Queued[P] = true;
        Work.push_back(P);
      }
  }
  BitVector Live(N);
  for (BasicBlock *Barrier : G.Barriers)
    for (BasicBlock *Succ : successors(Barrier))
      Live |= LiveIn[Number[Succ]];
  SmallPtrSet<AllocaInst *, 32> Result;
  for (unsigned V : Live.set_bits())
    Result.insert(Values[V]);
  return Result;
}

/// The blocks where memory based on A is used; false when A's address
/// escapes into memory, where it cannot be followed.
bool collectAccessBlocks(AllocaInst *A, SmallPtrSetImpl<BasicBlock *> &Blocks) {
  SmallVector<Value *, 16> Work = {A};
  SmallPtrSet<Value *, 16> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (User *U : V->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I)
        continue;
      Blocks.insert(I->getParent());
      if (auto *S = dyn_cast<StoreInst>(I); S && S->getValueOperand() == V)
        return false;
      if (I->getType()->isPointerTy())
        Work.push_back(I);
    }
  }
  return true;
}

/// Whether memory of a private variable may be written before a barrier
/// and read after it: some access reaches a barrier and the barrier reaches
/// some access. Conservative where the demoted-value test is exact.
bool isMemoryLiveAcrossBarrier(AllocaInst *A, const BarrierGraph &G) {
  SmallPtrSet<BasicBlock *, 16> Accesses;
  if (!collectAccessBlocks(A, Accesses))
    return true;
  for (BasicBlock *Barrier : G.Barriers) {
    auto Reaches = [&](bool Forward) {
      SmallPtrSet<BasicBlock *, 32> Seen;
      SmallVector<BasicBlock *, 16> Work;
      if (Forward)
        Work.append(succ_begin(Barrier), succ_end(Barrier));
      else
        Work.append(pred_begin(Barrier), pred_end(Barrier));
      while (!Work.empty()) {
        BasicBlock *BB = Work.pop_back_val();
        if (!Seen.insert(BB).second)
          continue;
        if (Accesses.count(BB))
          return true;
        if (Forward)
          Work.append(succ_begin(BB), succ_end(BB));
        else
          Work.append(pred_begin(BB), pred_end(BB));
      }
      return false;
    };
    if (Reaches(false) && Reaches(true))
      return true;
  }
  return false;
}

/// A demoted value live across barriers: its alloca stays, and each region
/// that uses it copies its context slot in at the start of a work-item's
/// pass and out at the end (WorkGroupBuilder::copyContextValues). A uniform
/// value has one scalar slot for the group instead of a context array.
struct ContextValue {
  AllocaInst *Alloca;
  uint64_t Offset; ///< of work-item 0's slot in the arena
  bool Uniform = false;
};

/// The linear index of a work-item in the context arrays. The same formula,
/// with the specialized local size, in every region and in the remainder
/// group's copy, so a slot always belongs to the same work-item.
Value *contextIndex(IRBuilder<> &B, Value *const Lid[3],
                    std::array<uint64_t, 3> LocalSize) {
  return B.CreateAdd(
      B.CreateMul(B.CreateAdd(B.CreateMul(Lid[2], B.getInt64(LocalSize[1]), "",
                                          true, true),
                              Lid[1], "", true, true),
                  B.getInt64(LocalSize[0]), "", true, true),
      Lid[0], "wi.linear", true, true);
}

/// Bytes left between consecutive context arrays. Their sizes are often a
/// multiple of 1 KiB (256 work-items times 4 or 8 bytes), so back to back
/// they start at the same few offsets modulo 4 KiB: a work-item loop that
/// walks many of them at once (a float16 value split into 16 arrays, clpeak
/// double16 has 32 of 2 KiB) maps them all to the same few L1 sets, which
/// evict each other, and its loads wait behind stores 4 KiB apart. One
/// cache line more per array spreads them over the sets (clpeak double16
/// 55 -> 104 GFLOP/s with GroupWorkItemChains).
constexpr uint64_t ContextArrayStagger = 64;

/// Gives the allocas live across barriers context arrays in the private
/// arena: memory whose address is taken is rewritten to use its slots
/// directly, demoted values are returned in Values; returns the arena's
/// size in bytes.
uint64_t formContextArrays(Function &F, const BarrierGraph &G,
                           const SmallPtrSetImpl<AllocaInst *> &Demoted,
                           const SmallPtrSetImpl<AllocaInst *> &Uniform,
                           std::array<uint64_t, 3> LocalSize,
                           SmallVectorImpl<ContextValue> &Values) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  SmallVector<AllocaInst *, 16> Context;
  SmallPtrSet<AllocaInst *, 32> LiveDemoted =
      demotedValuesLiveAcrossBarriers(F, Demoted, G);
  for (Instruction &I : F.getEntryBlock()) {
    auto *A = dyn_cast<AllocaInst>(&I);
    if (!A || !A->getAllocationSize(DL) ||
        A->getAllocationSize(DL)->isScalable())
      continue;
    bool Live = Demoted.count(A) ? LiveDemoted.count(A) != 0
                                 : isMemoryLiveAcrossBarrier(A, G);
    if (Live)
      Context.push_back(A);
  }
  if (Context.empty())
    return 0;

  unsigned N = F.arg_size() - 4;
  Value *Ctx = F.getArg(N);
  Value *Lid[3] = {F.getArg(N + 1), F.getArg(N + 2), F.getArg(N + 3)};
  const uint64_t WorkItems = LocalSize[0] * LocalSize[1] * LocalSize[2];
  LLVMContext &C = F.getContext();
  Type *I8 = Type::getInt8Ty(C);

  // The arena and this work-item's index, computed once per block that
  // needs them, at its top; EarlyCSE and LICM merge and hoist them later.
  struct BlockAnchor {
    Instruction *Before;
    Value *Arena, *Linear;
  };
  DenseMap<BasicBlock *, BlockAnchor> Anchors;
  auto anchorOf = [&](BasicBlock *BB) -> BlockAnchor & {
    auto It = Anchors.find(BB);
    if (It != Anchors.end())
      return It->second;
    Instruction *Before = &*BB->getFirstInsertionPt();
    IRBuilder<> B(Before);
    Value *Arena = loadPrivateArena(B, Ctx);
    Value *Linear = contextIndex(B, Lid, LocalSize);
    return Anchors[BB] = {Before, Arena, Linear};
  };

  // Lifetime and debug markers of the arrays go once every array is
  // placed: a block's anchor may be such a marker (the first instruction
  // of the block), and a later array still inserts before it.
  SmallSetVector<Instruction *, 16> Markers;
  uint64_t Offset = 0;
  for (AllocaInst *A : Context) {
    if (Uniform.count(A)) {
      LLVM_DEBUG(dbgs() << "uniform, one scalar: " << *A << "\n");
      Values.push_back({A, 0, /*Uniform=*/true});
      continue;
    }
    // A slot is the value's own size: the slots of a half or char value
    // are consecutive across work-items, loaded and stored whole by the
    // vectorizer (padded to 4 bytes they were strided, stored lane by lane).
    Align Al = A->getAlign();
    uint64_t Stride = alignTo(A->getAllocationSize(DL)->getFixedValue(), Al);
    if (Offset)
      Offset += ContextArrayStagger;
    Offset = alignTo(Offset, std::max(Al, Align(64)));
    LLVM_DEBUG(dbgs() << "context array at " << Offset << ", " << Stride
                      << " bytes per work-item: " << *A << "\n");
    if (Demoted.count(A)) {
      Values.push_back({A, Offset});
      Offset += Stride * WorkItems;
      continue;
    }
    SmallVector<Instruction *, 16> Users;
    for (User *U : A->users())
      Users.push_back(cast<Instruction>(U));
    DenseMap<BasicBlock *, Value *> AddrIn;
    for (Instruction *U : Users) {
      if (auto *II = dyn_cast<IntrinsicInst>(U))
        if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)) {
          Markers.insert(II);
          continue;
        }
      Value *&Addr = AddrIn[U->getParent()];
      if (!Addr) {
        BlockAnchor &An = anchorOf(U->getParent());
        IRBuilder<> B(An.Before);
        Value *Index = B.CreateAdd(
            B.CreateMul(An.Linear, B.getInt64(Stride), "", true, true),
            B.getInt64(Offset), "", true, true);
        Addr = B.CreateInBoundsGEP(I8, An.Arena, Index,
                                   A->getName() + ".ctx");
      }
      U->replaceUsesOfWith(A, Addr);
    }
    if (!A->use_empty())
      A->replaceAllUsesWith(PoisonValue::get(A->getType()));
    A->eraseFromParent();
    Offset += Stride * WorkItems;
  }
  for (Instruction *I : Markers)
    I->eraseFromParent();
  return alignTo(Offset, 64);
}

class WorkGroupBuilder {
public:
  WorkGroupBuilder(Function &WI, const BarrierGraph &G,
                   ArrayRef<ContextValue> Values, StringRef Kernel)
      : WI(WI), G(G), Values(Values), C(WI.getContext()) {
    WG = createWorkGroupShell(WI, Kernel);
  }

  Function *build(std::array<uint64_t, 3> LocalSize) {
    this->LocalSize = LocalSize;
    unsigned NumKernelArgs = WI.arg_size() - 4;
    BasicBlock *Entry = BasicBlock::Create(C, "entry", WG);
    Exit = BasicBlock::Create(C, "exit", WG);
    IRBuilder<> B(Exit);
    B.CreateRetVoid();

    // Allocas not live across barriers: shared by the work-items in turn.
    B.SetInsertPoint(Entry);
    for (Instruction &I : WI.getEntryBlock())
      if (auto *A = dyn_cast<AllocaInst>(&I)) {
        Instruction *Copy = A->clone();
        Copy->setName(A->getName());
        B.Insert(Copy);
        Base.push_back({A, Copy});
        BaseMap[A] = Copy;
      }
    State = B.CreateAlloca(B.getInt32Ty(), nullptr, "next.barrier");
    for (const ContextValue &V : Values)
      if (V.Uniform)
        UniformSlot[V.Alloca] =
            B.CreateAlloca(V.Alloca->getAllocatedType(), nullptr,
                           V.Alloca->getName() + ".uniform");
    for (unsigned I = 0; I <= NumKernelArgs; ++I)
      Base.push_back({WI.getArg(I), WG->getArg(I)});

    Value *Ctx = WG->getArg(NumKernelArgs);
    Value *Actual[3], *Fixed[3];
    Value *IsFull = B.getTrue();
    for (unsigned D = 0; D < 3; ++D) {
      Actual[D] = loadContextField(B, Ctx, CtxLocalSize, D);
      Fixed[D] = B.getInt64(LocalSize[D]);
      IsFull = B.CreateAnd(IsFull, B.CreateICmpEQ(Actual[D], Fixed[D]));
    }
    BasicBlock *FixedStart = BasicBlock::Create(C, "fixed", WG, Exit);
    BasicBlock *RemainderStart = BasicBlock::Create(C, "remainder", WG, Exit);
    B.CreateCondBr(IsFull, FixedStart, RemainderStart);

    for (MDNode *&Group : Groups)
      Group = MDNode::getDistinct(C, {});
    GroupList = MDNode::get(C, {Groups[0], Groups[1], Groups[2]});

    emitStateMachine("fixed", Fixed, FixedStart);
    emitStateMachine("remainder", Actual, RemainderStart);
    Exit->moveAfter(&WG->back());
    return WG;
  }

private:
  /// Every region once, in work-item loops bounded by Bound, entered from
  /// Start; the regions follow each other as the barriers reached say.
  void emitStateMachine(StringRef Prefix, Value *const Bound[3],
                        BasicBlock *Start) {
    SmallVector<BasicBlock *, 8> Pre;
    for (unsigned R = 0; R < G.Regions.size(); ++R)
      Pre.push_back(BasicBlock::Create(
          C, Prefix + ".region" + std::to_string(R), WG, Exit));
    auto TargetOf = [&](BasicBlock *Barrier) {
      return Barrier == G.ExitBarrier ? Exit
                                      : Pre[G.RegionOf.lookup(Barrier)];
    };
    BranchInst::Create(TargetOf(G.EntryBarrier), Start);
    for (unsigned R = 0; R < G.Regions.size(); ++R)
      emitRegion(G.Regions[R], (Prefix + ".r" + std::to_string(R)).str(), Bound,
                 Pre[R], TargetOf);
  }

  template <typename TargetFn>
  void emitRegion(const Region &R, const std::string &Prefix,
                  Value *const Bound[3], BasicBlock *Pre, TargetFn TargetOf) {
    const char *DimName[3] = {"x", "y", "z"};
    BasicBlock *Header[3], *Latch[3];
    BranchInst *LatchBr[3];
    for (int D = 2; D >= 0; --D)
      Header[D] = BasicBlock::Create(C, Prefix + "." + DimName[D] + ".loop", WG,
                                     Exit);
    for (int D = 0; D < 3; ++D)
      Latch[D] = BasicBlock::Create(C, Prefix + "." + DimName[D] + ".latch",
                                    WG, Exit);
    BasicBlock *After = BasicBlock::Create(C, Prefix + ".done", WG, Exit);

    IRBuilder<> B(Pre);
    B.CreateBr(Header[2]);
    Type *I64 = B.getInt64Ty();
    PHINode *Id[3];
    for (int D = 2; D >= 0; --D) {
      B.SetInsertPoint(Header[D]);
      Id[D] = B.CreatePHI(I64, 2, Prefix + ".lid." + DimName[D]);
      Id[D]->addIncoming(B.getInt64(0), D == 2 ? Pre : Header[D + 1]);
      if (D > 0)
        B.CreateBr(Header[D - 1]);
    }
    for (int D = 0; D < 3; ++D) {
      B.SetInsertPoint(Latch[D]);
      Value *Next = B.CreateAdd(Id[D], B.getInt64(1),
                                Prefix + ".next." + DimName[D], true, true);
      LatchBr[D] = B.CreateCondBr(B.CreateICmpULT(Next, Bound[D]), Header[D],
                                  D == 2 ? After : Latch[D + 1]);
      Id[D]->addIncoming(Next, Latch[D]);
    }

    // The region's blocks, with its barriers leading to the x latch.
    ValueToValueMapTy VMap;
    for (auto &[From, To] : Base)
      VMap[From] = To;
    unsigned N = WI.arg_size() - 4;
    for (unsigned D = 0; D < 3; ++D)
      VMap[WI.getArg(N + 1 + D)] = Id[D];
    SmallVector<BasicBlock *, 4> ToBlocks;
    if (R.Next.size() == 1) {
      VMap[R.Next[0]] = Latch[0];
    } else {
      for (BasicBlock *Barrier : R.Next) {
        BasicBlock *To = BasicBlock::Create(
            C, Prefix + ".to." + Barrier->getName(), WG, Latch[0]);
        B.SetInsertPoint(To);
        B.CreateStore(B.getInt32(G.IdOf.lookup(Barrier)), State);
        B.CreateBr(Latch[0]);
        VMap[Barrier] = To;
        ToBlocks.push_back(To);
      }
    }
    SmallVector<BasicBlock *, 16> Copies;
    for (BasicBlock *BB : R.Blocks) {
      BasicBlock *Copy = CloneBasicBlock(BB, VMap, "." + Prefix, WG);
      Copy->moveBefore(Latch[0]);
      VMap[BB] = Copy;
      Copies.push_back(Copy);
    }
    for (BasicBlock *Copy : Copies)
      for (Instruction &I : *Copy)
        RemapInstruction(&I, VMap,
                         RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    B.SetInsertPoint(Header[0]);
    B.CreateBr(R.Blocks.empty() ? cast<BasicBlock>(VMap[R.Next[0]])
                                : cast<BasicBlock>(VMap[R.Blocks[0]]));
    Value *const Lid[3] = {Id[0], Id[1], Id[2]};
    copyContextValues(Copies, Pre, Header[0], Latch[0], After, Lid);

    // A work-item's pass through the region, header to x latch. The loops
    // are parallel by the execution model; whether the vectorizer may be
    // told so once O3 has unrolled the region's short loops (a work-item
    // reloading what it stored) is CheckParallelLoops's decision.
    SmallVector<BasicBlock *, 16> Body = {Header[0]};
    Body.append(Copies.begin(), Copies.end());
    Body.append(ToBlocks.begin(), ToBlocks.end());
    Body.push_back(Latch[0]);
    tagParallelAccesses(Body, GroupList);
    for (unsigned D = 0; D < 3; ++D)
      LatchBr[D]->setMetadata(LLVMContext::MD_loop,
                              makeParallelLoopID(C, Groups[D]));

    // On to the region of the barrier reached. A region that reaches none
    // (its work-items loop forever: no barrier and no return ahead) has no
    // way on.
    B.SetInsertPoint(After);
    if (R.Next.empty()) {
      B.CreateUnreachable();
      return;
    }
    if (R.Next.size() == 1) {
      B.CreateBr(TargetOf(R.Next[0]));
      return;
    }
    Value *Reached = B.CreateLoad(B.getInt32Ty(), State, "reached");
    SwitchInst *Switch =
        B.CreateSwitch(Reached, TargetOf(R.Next[0]), R.Next.size() - 1);
    for (BasicBlock *Barrier : drop_begin(R.Next))
      Switch->addCase(B.getInt32(G.IdOf.lookup(Barrier)), TargetOf(Barrier));
  }

  /// Copies the context values the region's Copies use between their slots
  /// and their allocas: loads at the top of Header (after the PHIs), stores
  /// at the top of Latch. So a work-item reads each slot before it writes
  /// it, once per pass through the region, and never reloads a slot it
  /// stored in the same pass: with the parallel-access annotation LLVM's
  /// interleaving moves strided loads up and strided stores down freely
  /// (mayReadAfterWriteInIteration), harmless to this order but not to
  /// store-then-reload. A value stored in the region is loaded first too,
  /// so that paths which do not define it write the old value back.
  ///
  /// A uniform value has one scalar slot. It cannot be the alloca the
  /// work-items share in turn: in a region that redefines it (a loop
  /// counter) work-item 1 would start from what work-item 0 stored. So it
  /// is read once before the work-item loops (Pre), given to every
  /// work-item at the top of its pass, and the value the last work-item
  /// leaves, the same as every other's, is written back after the loops
  /// (After).
  void copyContextValues(ArrayRef<BasicBlock *> Copies, BasicBlock *Pre,
                         BasicBlock *Header, BasicBlock *Latch,
                         BasicBlock *After, Value *const Id[3]) {
    SmallPtrSet<BasicBlock *, 32> InRegion(Copies.begin(), Copies.end());
    IRBuilder<> In(Header, Header->getFirstInsertionPt());
    IRBuilder<> Out(Latch, Latch->getFirstInsertionPt());
    IRBuilder<> Before(Pre->getTerminator());
    IRBuilder<> Done(After);
    Value *ArenaIn = nullptr, *ArenaOut = nullptr, *LinearIn = nullptr,
          *LinearOut = nullptr;
    Value *Ctx = WG->getArg(WI.arg_size() - 4);
    const DataLayout &DL = WG->getParent()->getDataLayout();
    for (const ContextValue &V : Values) {
      auto *A = cast<AllocaInst>(BaseMap.lookup(V.Alloca));
      bool Loaded = false, Stored = false;
      for (User *U : A->users())
        if (auto *I = dyn_cast<Instruction>(U);
            I && InRegion.count(I->getParent())) {
          Loaded |= isa<LoadInst>(I);
          Stored |= isa<StoreInst>(I);
        }
      if (!Loaded && !Stored)
        continue;
      Type *Ty = A->getAllocatedType();
      if (V.Uniform) {
        AllocaInst *Slot = UniformSlot.lookup(V.Alloca);
        In.CreateAlignedStore(Before.CreateLoad(Ty, Slot, V.Alloca->getName()),
                              A, A->getAlign());
        if (Stored)
          Done.CreateStore(Done.CreateAlignedLoad(Ty, A, A->getAlign()), Slot);
        continue;
      }
      uint64_t Stride = alignTo(DL.getTypeAllocSize(Ty), A->getAlign());
      auto SlotOf = [&](IRBuilder<> &B, Value *&Arena, Value *&Linear) {
        if (!Arena) {
          Arena = loadPrivateArena(B, Ctx);
          Linear = contextIndex(B, Id, LocalSize);
        }
        Value *Index = B.CreateAdd(
            B.CreateMul(Linear, B.getInt64(Stride), "", true, true),
            B.getInt64(V.Offset), "", true, true);
        return B.CreateInBoundsGEP(B.getInt8Ty(), Arena, Index,
                                   V.Alloca->getName() + ".ctx");
      };
      Value *SlotIn = SlotOf(In, ArenaIn, LinearIn);
      LoadInst *FromSlot = In.CreateAlignedLoad(Ty, SlotIn, A->getAlign());
      markContextSlotCopy(*FromSlot);
      In.CreateAlignedStore(FromSlot, A, A->getAlign());
      if (Stored) {
        Value *SlotOut = SlotOf(Out, ArenaOut, LinearOut);
        StoreInst *ToSlot = Out.CreateAlignedStore(
            Out.CreateAlignedLoad(Ty, A, A->getAlign()), SlotOut,
            A->getAlign());
        markContextSlotCopy(*ToSlot);
      }
    }
  }

  Function &WI;
  const BarrierGraph &G;
  ArrayRef<ContextValue> Values;
  LLVMContext &C;
  std::array<uint64_t, 3> LocalSize = {1, 1, 1};
  Function *WG = nullptr;
  BasicBlock *Exit = nullptr;
  AllocaInst *State = nullptr;
  SmallVector<std::pair<Value *, Value *>, 32> Base;
  DenseMap<Value *, Value *> BaseMap;
  DenseMap<AllocaInst *, AllocaInst *> UniformSlot; ///< of a uniform value
  MDNode *Groups[3] = {};
  MDNode *GroupList = nullptr;

public:
};

} // namespace

PreservedAnalyses ParallelRegionsPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  SmallVector<Function *, 4> WorkItemFunctions;
  for (Function &F : M) {
    if (isWorkItemFunctionOf(F, Kernel) &&
        (hasBarrier(F) || hasSubGroupBarrier(F)))
      WorkItemFunctions.push_back(&F);
  }
  if (WorkItemFunctions.empty())
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  FAM.registerPass([] { return UniformityAnalysis(); });
  for (Function *WI : WorkItemFunctions) {
    std::string Of = derivedFrom(*WI, WorkItemAttr).str();
    // Declined before anything changes, so the fallback method
    // (WorkGroupFibers.cpp) gets the function as it was.
    // Sub-group barriers alone leave a function without the implicit
    // barriers of the normal form; the reason to decline is theirs.
    std::string Decline = isNormalized(*WI) || hasSubGroupBarrier(*WI)
                              ? whyRegionMethodDeclines(*WI)
                              : std::string("not in barrier-normal form");
    if (!Decline.empty()) {
      WEFT_LOG(DebugCompile, "kernel '%s': the region method declines: %s",
               Of.c_str(), Decline.c_str());
      WI->addFnAttr(FallbackReasonAttr, Decline);
      continue;
    }
    rematerializeCheapValues(*WI);
    SmallPtrSet<AllocaInst *, 32> Uniform;
    SmallPtrSet<AllocaInst *, 32> Demoted;
    {
      FAM.invalidate(*WI, PreservedAnalyses::none());
      const UniformityInfo &UI = FAM.getResult<UniformityAnalysis>(*WI);
      Demoted = demoteCrossBlockValues(*WI, UI, Uniform);
      unsigned Carried = coalesceLoopCarriedSlots(*WI, Demoted, Uniform);
      unsigned Copies = coalesceHeaderCopies(*WI, Demoted, Uniform);
      if (Carried || Copies)
        WEFT_LOG(DebugCompile,
                 "kernel '%s': %u loop-carried values share their PHI's "
                 "slot, %u PHIs' values their PHI's",
                 Of.c_str(), Carried, Copies);
      FAM.invalidate(*WI, PreservedAnalyses::none());
    }
    BarrierGraph G = formRegions(*WI);
    SmallVector<ContextValue, 16> Values;
    uint64_t ArenaSize =
        formContextArrays(*WI, G, Demoted, Uniform, LocalSize, Values);
    size_t UniformScalars = count_if(
        Values, [](const ContextValue &V) { return V.Uniform; });
    size_t Copied = 0;
    for (const Region &R : G.Regions)
      Copied += R.Blocks.size();
    WEFT_LOG(DebugCompile,
             "kernel '%s': method parallel-regions, %zu barriers (entry and "
             "exit included), %zu regions, %zu of %zu blocks after tail "
             "duplication, %llu bytes of context arrays, %zu uniform values "
             "live across barriers kept as scalars",
             Of.c_str(), G.Barriers.size(), G.Regions.size(), Copied,
             WI->size(), (unsigned long long)ArenaSize, UniformScalars);
    WorkGroupBuilder Builder(*WI, G, Values, Of);
    Function *WG = Builder.build(LocalSize);
    WG->addFnAttr(PrivateArenaAttr, std::to_string(ArenaSize));
    WI->eraseFromParent();
    assert(!verifyFunction(*WG, &errs()) && "ParallelRegions broke the IR");
    (void)WG;
  }
  return PreservedAnalyses::none();
}

} // namespace weft
