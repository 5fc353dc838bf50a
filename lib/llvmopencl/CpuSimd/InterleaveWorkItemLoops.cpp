//===- InterleaveWorkItemLoops.cpp - Independent work-items in flight -----===//
//
// A work-item loop vectorized 16 wide runs 16 work-items in lock step, but
// if each work-item's body is one chain of dependent operations (clpeak's
// x = mad(y, x, y); y = mad(x, y, x); ...), the vector loop waits out the
// latency of every FMA: one chain in flight where the core has room for
// eight (two FMA units, four cycles each). The loop vectorizer interleaves
// only small loops on its own, so it leaves such bodies at one chain.
//
// Work-item iterations are independent by the OpenCL execution model, so
// interleaving them is always legal; the question is only whether it pays.
// This pass measures each innermost work-item loop (llvm.loop.parallel_
// accesses) the way the hardware sees it: the arithmetic operations of one
// iteration over the longest chain of them, i.e. how many can issue at once.
// Where that is below what the FMA pipelines hold, it sets
// llvm.loop.interleave.count so that vector iterations together fill them
// (at most 4: more copies of a long body spill registers).
//
// Measured on a 2-core AVX-512 EPYC with a 512-FMA chain per work-item
// (tools/vector-bench/weft-mad-chains.py): 40 GFLOP/s at one chain in
// flight, 106 interleaved four times.
//
// Runs at the vectorizer-start extension point, after
// ScalarizeWorkItemLoops, so split float4 code counts as four chains.
//
//===----------------------------------------------------------------------===//
#include "CpuSimd/InterleaveWorkItemLoops.h"

#include "WorkGroup/ParallelLoops.h"

#include "weft/debug.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/LoopIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <algorithm>

#define DEBUG_TYPE "weft-interleave-workitem-loops"

using namespace llvm;

namespace weft {

namespace {

/// Independent arithmetic operations the cores can keep in flight: two FMA
/// pipelines of four cycles' latency on current x86-64 cores.
constexpr unsigned OperationsInFlight = 8;
constexpr unsigned MaxInterleave = 4;
/// Below this, loop-vectorize's own small-loop interleaving decides...
constexpr unsigned MinOperations = 32;
/// ...unless the body is a chain that barely touches memory, at least this
/// long with at most one access per ArithmeticPerAccess operations:
/// clpeak's float and double kernels (16 FMAs, 2 loads and 2 stores of the
/// context slots) ran 10-25% faster interleaved 4 times than at
/// loop-vectorize's 2; a tiled product's k loop (16 FMAs on 32 loads from
/// local memory) ran 45% slower.
constexpr unsigned MinChainOperations = 16;
constexpr unsigned ArithmeticPerAccess = 4;

/// An operation of the pipelines whose latency a chain waits out.
bool isArithmetic(const Instruction &I) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::fma:
    case Intrinsic::fmuladd:
      return true;
    default:
      return false;
    }
  }
  if (!isa<BinaryOperator>(I))
    return false;
  return I.getType()->isFPOrFPVectorTy() || I.getOpcode() == Instruction::Mul;
}

struct ChainShape {
  unsigned Operations = 0;
  unsigned LongestChain = 0;
  unsigned Accesses = 0; ///< loads and stores
};

/// Operations of one iteration of L and the longest chain of dependent ones.
/// Header PHIs start chains afresh: work-item iterations share no values.
ChainShape measure(Loop &L, const LoopInfo &LI) {
  ChainShape Shape;
  DenseMap<const Instruction *, unsigned> Depth;
  LoopBlocksRPO RPO(&L);
  RPO.perform(&LI);
  for (BasicBlock *BB : RPO) {
    for (Instruction &I : *BB) {
      unsigned Longest = 0;
      if (!(isa<PHINode>(I) && BB == L.getHeader()))
        for (const Value *Op : I.operands())
          if (const auto *Def = dyn_cast<Instruction>(Op))
            Longest = std::max(Longest, Depth.lookup(Def));
      bool Counts = isArithmetic(I);
      Shape.Operations += Counts;
      Shape.Accesses += isa<LoadInst>(I) || isa<StoreInst>(I);
      Depth[&I] = Longest + Counts;
      Shape.LongestChain = std::max(Shape.LongestChain, Longest + Counts);
    }
  }
  return Shape;
}

unsigned interleaveFor(const ChainShape &Shape) {
  bool ArithmeticChain =
      Shape.Operations >= MinChainOperations &&
      Shape.Accesses * ArithmeticPerAccess <= Shape.Operations;
  if ((Shape.Operations < MinOperations && !ArithmeticChain) ||
      Shape.LongestChain == 0)
    return 1;
  unsigned Parallel = std::max(1u, Shape.Operations / Shape.LongestChain);
  if (Parallel >= OperationsInFlight)
    return 1;
  return std::min(MaxInterleave,
                  (OperationsInFlight + Parallel - 1) / Parallel);
}

} // namespace

PreservedAnalyses InterleaveWorkItemLoopsPass::run(Function &F,
                                                   FunctionAnalysisManager &AM) {
  bool Changed = false;
  LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!isInnermostParallelLoop(*L) ||
        findOptionMDForLoop(L, "llvm.loop.interleave.count"))
      continue;
    ChainShape Shape = measure(*L, LI);
    unsigned Count = interleaveFor(Shape);
    if (Count <= 1)
      continue;
    WEFT_LOG(DebugCompile, "%s: work-item loop %s has %u operations in chains "
             "of up to %u: interleaved %u times", F.getName().str().c_str(),
             L->getHeader()->getName().str().c_str(), Shape.Operations,
             Shape.LongestChain, Count);
    addStringMetadataToLoop(L, "llvm.loop.interleave.count", Count);
    Changed = true;
  }
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft
