//===- GroupWorkItemChains.cpp - Independent chains a few at a time -------===//
//
// A float16 kernel split into scalars (HorizontalLoops, ScalarizeWorkItem
// Loops) reaches the vectorizer as sixteen independent dependence chains in
// one work-item loop body, interleaved instruction by instruction as the
// source wrote them:
//
//   x0 = fma(y0, x0, y0); x1 = fma(y1, x1, y1); ... x15 = fma(...);
//   y0 = fma(x0, y0, x0); ...
//
// Vectorized, every chain value is a full register, and clpeak's two values
// per chain make 32 live registers: all of AVX-512's, so the register
// allocator spills. Worse, the machine scheduler, seeing the pressure,
// reorders the block chain after chain, and long stretches of one chain
// then wait out the FMA latency (clpeak float16 at 59% of the FMA peak,
// float8 at 82%).
//
// A pipeline of four cycles' latency needs only four chains in flight. So
// where the chains of a block together hold more values than three
// quarters of the vector registers, this pass puts them in groups of four
// (holding at most half the registers) and lays the block out group after
// group, each group interleaved as before:
//
//   chains 0..3 (8 values), then chains 4..7, ... then chains 12..15
//
// It also pins the loop's interleave count to 1: the vectorizer, seeing the
// lower pressure, would otherwise interleave and double it again, and the
// loop has enough independent work without.
//
// Legality: a chain is the set of instructions connected by def-use edges
// through floating-point values (and everything using them). Chains share
// no values, so only memory can order them: the pass moves instructions only
// when every other instruction of the block that touches memory is an
// invariant load, and every pair of memory accesses of different chains
// with a store among them is proved not to alias. Work-item loops only
// (innermost loops with llvm.loop.parallel_accesses), where such bodies
// come from; runs at the vectorizer-start extension point, after
// ScalarizeWorkItemLoops.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/GroupWorkItemChains.h"

#include "WorkGroup/ParallelLoops.h"

#include "weft/debug.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <algorithm>

#define DEBUG_TYPE "weft-group-workitem-chains"

using namespace llvm;

namespace weft {

namespace {

/// Chains a group runs at once: four FMAs of four cycles' latency keep a
/// pipeline busy. Measured on Zen 4 (one 512-bit FMA a cycle), clpeak
/// float16 on 2 cores: groups of 4 chains 198 GFLOP/s, 5: 195, 8: 180,
/// ungrouped 183.
constexpr unsigned ChainsPerGroup = 4;
/// Beyond this many memory accesses the pairwise alias checks cost more
/// than the pass can win.
constexpr unsigned MaxMemoryAccesses = 256;

/// The instructions of one block that belong to chains, in block order,
/// with the chain (a leader of Chains) each belongs to.
struct BlockChains {
  SmallVector<Instruction *, 64> Members;
  EquivalenceClasses<Instruction *> Chains;
};

bool startsChain(const Instruction &I) {
  if (I.getType()->isFPOrFPVectorTy())
    return true;
  const auto *Store = dyn_cast<StoreInst>(&I);
  return Store && Store->getValueOperand()->getType()->isFPOrFPVectorTy();
}

/// Members of BB's chains: floating-point values, stores of them and
/// everything that uses them. False if BB cannot be reordered: its
/// terminator uses a chain, or something outside the chains touches memory.
bool collectChains(BasicBlock &BB, BlockChains &Out) {
  SmallPtrSet<const Instruction *, 32> InChain;
  for (Instruction &I : BB) {
    if (isa<PHINode>(I) || I.isTerminator() || isa<DbgInfoIntrinsic>(I))
      continue;
    bool Member = startsChain(I);
    for (Value *Op : I.operands())
      if (auto *Def = dyn_cast<Instruction>(Op); Def && InChain.count(Def)) {
        Member = true;
        Out.Chains.unionSets(&I, Def);
      }
    if (!Member) {
      auto *Load = dyn_cast<LoadInst>(&I);
      bool Invariant =
          Load && Load->hasMetadata(LLVMContext::MD_invariant_load);
      if (I.mayReadOrWriteMemory() && !Invariant)
        return false;
      continue;
    }
    InChain.insert(&I);
    Out.Chains.insert(&I);
    Out.Members.push_back(&I);
  }
  for (Value *Op : BB.getTerminator()->operands())
    if (auto *Def = dyn_cast<Instruction>(Op); Def && InChain.count(Def))
      return false;
  return true;
}

/// Whether the chains may run in any order: simple loads and stores only,
/// and no two accesses of different chains that may alias with a store.
bool chainsIndependentInMemory(const BlockChains &BC, AAResults &AA) {
  SmallVector<Instruction *, 32> Accesses;
  for (Instruction *I : BC.Members) {
    if (!I->mayReadOrWriteMemory())
      continue;
    auto *Load = dyn_cast<LoadInst>(I);
    auto *Store = dyn_cast<StoreInst>(I);
    if ((!Load || !Load->isSimple()) && (!Store || !Store->isSimple()))
      return false;
    Accesses.push_back(I);
  }
  if (Accesses.size() > MaxMemoryAccesses)
    return false;
  for (size_t A = 0; A < Accesses.size(); ++A)
    for (size_t B = A + 1; B < Accesses.size(); ++B) {
      Instruction *I = Accesses[A], *J = Accesses[B];
      if (!isa<StoreInst>(I) && !isa<StoreInst>(J))
        continue;
      if (BC.Chains.isEquivalent(I, J))
        continue;
      if (!AA.isNoAlias(MemoryLocation::get(I), MemoryLocation::get(J)))
        return false;
    }
  return true;
}

/// The most values each chain holds at once when it runs alone, by chain
/// leader. A value lives from its definition to its last use in the block,
/// or to the end of the block if used elsewhere; an instruction's result
/// may take the register of an operand it is the last use of.
DenseMap<Instruction *, unsigned> chainPressure(const BlockChains &BC) {
  DenseMap<const Instruction *, unsigned> Position;
  unsigned End = BC.Members.size();
  for (unsigned P = 0; P < End; ++P)
    Position[BC.Members[P]] = P;
  DenseMap<Instruction *, SmallVector<unsigned, 8>> LiveUntil;
  DenseMap<Instruction *, unsigned> Pressure;
  for (unsigned P = 0; P < End; ++P) {
    Instruction *I = BC.Members[P];
    Instruction *Leader = BC.Chains.getLeaderValue(I);
    SmallVector<unsigned, 8> &Live = LiveUntil[Leader];
    llvm::erase_if(Live, [P](unsigned Last) { return Last <= P; });
    if (!I->getType()->isVoidTy() && !I->use_empty()) {
      unsigned Last = P;
      for (const User *U : I->users()) {
        auto It = Position.find(cast<Instruction>(U));
        Last = std::max(Last, It == Position.end() ? End : It->second);
      }
      Live.push_back(Last);
    }
    unsigned &Max = Pressure[Leader];
    Max = std::max<unsigned>(Max, Live.size());
  }
  return Pressure;
}

/// Groups of chains (leaders, in order of first appearance) holding at most
/// Budget values each; empty if grouping would not help.
SmallVector<SmallVector<Instruction *, 8>, 4> formGroups(const BlockChains &BC,
                                                         unsigned Registers) {
  DenseMap<Instruction *, unsigned> Pressure = chainPressure(BC);
  SmallVector<Instruction *, 16> Leaders;
  SmallPtrSet<Instruction *, 16> Seen;
  unsigned Total = 0;
  for (Instruction *I : BC.Members) {
    Instruction *Leader = BC.Chains.getLeaderValue(I);
    if (!Seen.insert(Leader).second)
      continue;
    Leaders.push_back(Leader);
    Total += Pressure[Leader];
  }
  SmallVector<SmallVector<Instruction *, 8>, 4> Groups;
  if (Total * 4 <= Registers * 3)
    return Groups;
  unsigned Budget = Registers / 2, Held = 0;
  for (Instruction *Leader : Leaders) {
    unsigned P = Pressure[Leader];
    if (Groups.empty() || Groups.back().size() == ChainsPerGroup ||
        Held + P > Budget) {
      Groups.emplace_back();
      Held = 0;
    }
    Groups.back().push_back(Leader);
    Held += P;
  }
  // The last group may be short; the others must keep the pipelines busy.
  bool Busy = Groups.size() > 1 &&
              llvm::all_of(ArrayRef(Groups).drop_back(), [](const auto &G) {
                return G.size() == ChainsPerGroup;
              });
  if (!Busy)
    Groups.clear();
  return Groups;
}

/// Lays BB's chain members out group after group, each in block order,
/// after everything else (which they may use but which does not use them).
void reorder(BasicBlock &BB, const BlockChains &BC,
             ArrayRef<SmallVector<Instruction *, 8>> Groups) {
  DenseMap<Instruction *, unsigned> GroupOf;
  for (unsigned G = 0; G < Groups.size(); ++G)
    for (Instruction *Leader : Groups[G])
      GroupOf[Leader] = G;
  Instruction *Terminator = BB.getTerminator();
  for (unsigned G = 0; G < Groups.size(); ++G)
    for (Instruction *I : BC.Members)
      if (GroupOf.lookup(BC.Chains.getLeaderValue(I)) == G)
        I->moveBefore(Terminator);
}

} // namespace

PreservedAnalyses GroupWorkItemChainsPass::run(Function &F,
                                               FunctionAnalysisManager &AM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
  const TargetTransformInfo &TTI = AM.getResult<TargetIRAnalysis>(F);
  AAResults &AA = AM.getResult<AAManager>(F);
  unsigned Registers =
      TTI.getNumberOfRegisters(TTI.getRegisterClassForType(/*Vector=*/true));
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!isInnermostParallelLoop(*L))
      continue;
    bool Grouped = false;
    for (BasicBlock *BB : L->blocks()) {
      BlockChains BC;
      if (!collectChains(*BB, BC) || !chainsIndependentInMemory(BC, AA))
        continue;
      auto Groups = formGroups(BC, Registers);
      if (Groups.empty())
        continue;
      WEFT_LOG(DebugCompile,
               "%s: %s holds more chains than %u registers: "
               "%zu groups of up to %zu chains",
               F.getName().str().c_str(), BB->getName().str().c_str(),
               Registers, Groups.size(), Groups.front().size());
      reorder(*BB, BC, Groups);
      Grouped = true;
    }
    if (Grouped && !findOptionMDForLoop(L, "llvm.loop.interleave.count"))
      addStringMetadataToLoop(L, "llvm.loop.interleave.count", 1);
    Changed |= Grouped;
  }
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft
