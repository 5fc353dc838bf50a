//===- StaticScheduleTest.cpp - The static multi-issue back half ----------===//
//
// The list scheduler (StaticMultiIssue/ScheduleBlocks.cpp) on hand-written
// blocks and small machines whose optimal schedules are worked out by hand
// in each test, and the whole back half end to end: a kernel compiled with
// TargetDesc::Back = StaticMultiIssue runs through the launcher ABI with
// block counters, its results checked against the host and its counters
// against the trip counts.
//
//===----------------------------------------------------------------------===//
#include "StaticMultiIssue/CountBlockExecutions.h"
#include "StaticMultiIssue/ScheduleBlocks.h"
#include "weft/compiler.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace llvm;
using weft::MachineModel;
using weft::StaticSchedule;
using weft::UnitClass;

namespace {

/// A machine where every class has plenty of pipelined units of latency 1,
/// and issue is unlimited; each test narrows what it is about.
MachineModel wideMachine() {
  MachineModel M;
  for (weft::UnitDesc &U : M.Units)
    U = weft::UnitDesc{16, 1, true};
  M.IssueSlots = 64;
  return M;
}

void setUnit(MachineModel &M, UnitClass C, unsigned Count, unsigned Latency,
             bool Pipelined = true) {
  M.Units[static_cast<unsigned>(C)] = weft::UnitDesc{Count, Latency, Pipelined};
}

unsigned ops(const StaticSchedule::Block &B, UnitClass C) {
  return B.Ops[static_cast<unsigned>(C)];
}

/// Parses IR and schedules the entry block of @f with AA.
class Scheduled {
public:
  Scheduled(const char *IR, const MachineModel &Machine,
            const char *Name = "f") {
    SMDiagnostic Diag;
    Mod = parseAssemblyString(IR, Diag, Context);
    if (!Mod) {
      std::string Message;
      raw_string_ostream OS(Message);
      Diag.print("test", OS);
      ADD_FAILURE() << OS.str();
      return;
    }
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
    Function *F = Mod->getFunction(Name);
    AAResults &AA = FAM.getResult<AAManager>(*F);
    Block = weft::scheduleBlock(F->getEntryBlock(), Machine, AA, &Issue);
    for (Instruction &I : F->getEntryBlock())
      Names.push_back(I.hasName() ? I.getName().str() : std::string());
  }
  /// The issue cycle of the instruction named Name (the terminator: "").
  int issueOf(const std::string &Name) const {
    auto It = std::find(Names.begin(), Names.end(), Name);
    if (It == Names.end()) {
      ADD_FAILURE() << "no instruction %" << Name;
      return -1;
    }
    return Issue[It - Names.begin()];
  }
  int terminatorIssue() const { return Issue.back(); }

  StaticSchedule::Block Block;

private:
  LLVMContext Context;
  std::unique_ptr<Module> Mod;
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  SmallVector<unsigned, 32> Issue;
  std::vector<std::string> Names;
};

const char *EightAdds = R"IR(
define float @f(float %a, float %b) {
  %s0 = fadd float %a, %b
  %s1 = fadd float %a, %b
  %s2 = fadd float %a, %b
  %s3 = fadd float %a, %b
  %s4 = fadd float %a, %b
  %s5 = fadd float %a, %b
  %s6 = fadd float %a, %b
  %s7 = fadd float %a, %b
  ret float %a
}
)IR";

TEST(StaticSchedule, IndependentAddsFillTheAdders) {
  // 8 fadds on 4 adders of latency 3: cycles 0 and 1, the last ready at
  // 1 + 3 = 4; ret (latency 1) in cycle 1, done at 2.
  MachineModel M = wideMachine();
  setUnit(M, UnitClass::FloatAdd, 4, 3);
  Scheduled S(EightAdds, M);
  EXPECT_EQ(S.Block.Cycles, 4u);
  EXPECT_EQ(ops(S.Block, UnitClass::FloatAdd), 8u);
  EXPECT_EQ(ops(S.Block, UnitClass::Branch), 1u);
  EXPECT_FALSE(S.Block.ConditionalBranch);
  for (int I = 0; I < 8; ++I)
    EXPECT_EQ(S.issueOf("s" + std::to_string(I)), I / 4) << I;
  EXPECT_EQ(S.terminatorIssue(), 1);
}

TEST(StaticSchedule, AdderCountChangesTheLength) {
  // 2 adders: 4 cycles of issue, the last ready at 3 + 3 = 6.
  MachineModel M = wideMachine();
  setUnit(M, UnitClass::FloatAdd, 2, 3);
  EXPECT_EQ(Scheduled(EightAdds, M).Block.Cycles, 6u);
  // 8 adders: all in cycle 0, ready at 3.
  setUnit(M, UnitClass::FloatAdd, 8, 3);
  EXPECT_EQ(Scheduled(EightAdds, M).Block.Cycles, 3u);
}

TEST(StaticSchedule, IssueSlotsLimit) {
  // 8 adders but 2 operations a cycle: fadds in cycles 0-3, ready at 6;
  // the ret finds cycle 3 full and issues in 4 (done at 5).
  MachineModel M = wideMachine();
  setUnit(M, UnitClass::FloatAdd, 8, 3);
  M.IssueSlots = 2;
  Scheduled S(EightAdds, M);
  EXPECT_EQ(S.Block.Cycles, 6u);
  EXPECT_EQ(S.issueOf("s7"), 3);
  EXPECT_EQ(S.terminatorIssue(), 4);
}

TEST(StaticSchedule, DependentChainIsTheSumOfLatencies) {
  // fadd (3) -> fmul (4) -> fadd (3) -> fmul (4): 14 cycles, whatever the
  // unit counts, then the ret that returns the result: 15.
  const char *IR = R"IR(
define float @f(float %a, float %b) {
  %x = fadd float %a, %b
  %y = fmul float %x, %b
  %z = fadd float %y, %a
  %w = fmul float %z, %z
  ret float %w
}
)IR";
  MachineModel M = wideMachine();
  setUnit(M, UnitClass::FloatAdd, 4, 3);
  setUnit(M, UnitClass::FloatMul, 4, 4);
  Scheduled S(IR, M);
  EXPECT_EQ(S.Block.Cycles, 15u);
  EXPECT_EQ(S.issueOf("y"), 3);
  EXPECT_EQ(S.issueOf("z"), 7);
  EXPECT_EQ(S.issueOf("w"), 10);
  EXPECT_EQ(S.terminatorIssue(), 14);
  EXPECT_EQ(ops(S.Block, UnitClass::FloatAdd), 2u);
  EXPECT_EQ(ops(S.Block, UnitClass::FloatMul), 2u);
}

TEST(StaticSchedule, CriticalPathFirst) {
  // One adder. The chain a -> c is longer than the lone b, so a goes
  // first even though b comes first in the block: a 0, b 1, c 3 (after a's
  // 3 cycles), ready at 6. In block order (b first) it would be 7.
  const char *IR = R"IR(
define float @f(float %p, float %q) {
  %b = fadd float %p, %q
  %a = fadd float %p, %p
  %c = fadd float %a, %q
  ret float %p
}
)IR";
  MachineModel M = wideMachine();
  setUnit(M, UnitClass::FloatAdd, 1, 3);
  Scheduled S(IR, M);
  EXPECT_EQ(S.issueOf("a"), 0);
  EXPECT_EQ(S.issueOf("b"), 1);
  EXPECT_EQ(S.issueOf("c"), 3);
  EXPECT_EQ(S.Block.Cycles, 6u);
}

const char *ThreeDivides = R"IR(
define float @f(float %a, float %b) {
  %d0 = fdiv float %a, %b
  %d1 = fdiv float %b, %a
  %d2 = fdiv float %a, %a
  ret float %a
}
)IR";

TEST(StaticSchedule, NonPipelinedDividerIsBusy) {
  // One divider of latency 5 that is busy while it works: 0, 5, 10, the
  // last ready at 15.
  MachineModel M = wideMachine();
  setUnit(M, UnitClass::FloatDiv, 1, 5, /*Pipelined=*/false);
  Scheduled S(ThreeDivides, M);
  EXPECT_EQ(S.issueOf("d1"), 5);
  EXPECT_EQ(S.issueOf("d2"), 10);
  EXPECT_EQ(S.Block.Cycles, 15u);
  // Pipelined, the same unit takes one a cycle: 0, 1, 2, ready at 7.
  setUnit(M, UnitClass::FloatDiv, 1, 5, /*Pipelined=*/true);
  EXPECT_EQ(Scheduled(ThreeDivides, M).Block.Cycles, 7u);
  // Two busy dividers: 0, 0, 5, ready at 10.
  setUnit(M, UnitClass::FloatDiv, 2, 5, /*Pipelined=*/false);
  EXPECT_EQ(Scheduled(ThreeDivides, M).Block.Cycles, 10u);
}

MachineModel memoryMachine() {
  MachineModel M = wideMachine();
  setUnit(M, UnitClass::LoadStoreGlobal, 4, 2);
  setUnit(M, UnitClass::LoadStoreLocal, 4, 2);
  return M;
}

TEST(StaticSchedule, StoreThenLoadOfTheSameAddressIsOrdered) {
  // The load waits for the store (latency 2): issued at 2, ready at 4.
  const char *IR = R"IR(
define float @f(ptr addrspace(1) %p, float %v) {
  store float %v, ptr addrspace(1) %p
  %l = load float, ptr addrspace(1) %p
  ret float %l
}
)IR";
  Scheduled S(IR, memoryMachine());
  EXPECT_EQ(S.issueOf("l"), 2);
  EXPECT_EQ(S.Block.Cycles, 5u); // ret issued at 4, done at 5
  EXPECT_EQ(ops(S.Block, UnitClass::LoadStoreGlobal), 2u);
}

TEST(StaticSchedule, AccessesOfDifferentAllocasAreNotOrdered) {
  // AA proves the allocas apart: store and load both in cycle 0, on the
  // local/private units.
  const char *IR = R"IR(
define void @f(float %v) {
  %a = alloca float
  %b = alloca float
  store float %v, ptr %a
  %l = load float, ptr %b
  ret void
}
)IR";
  Scheduled S(IR, memoryMachine());
  EXPECT_EQ(S.issueOf("l"), 0);
  EXPECT_EQ(S.Block.Cycles, 2u);
  EXPECT_EQ(ops(S.Block, UnitClass::LoadStoreLocal), 2u);
  EXPECT_EQ(ops(S.Block, UnitClass::LoadStoreGlobal), 0u);
}

TEST(StaticSchedule, LoadsPassLoads) {
  const char *IR = R"IR(
define float @f(ptr addrspace(1) %p) {
  %x = load float, ptr addrspace(1) %p
  %y = load float, ptr addrspace(1) %p
  ret float %x
}
)IR";
  Scheduled S(IR, memoryMachine());
  EXPECT_EQ(S.issueOf("x"), 0);
  EXPECT_EQ(S.issueOf("y"), 0);
}

TEST(StaticSchedule, CallWithSideEffectsOrdersMemory) {
  // Between the two allocas' accesses, an opaque call: store 0, call 2
  // (after the store), load 2 + 40 (a library call's latency).
  const char *IR = R"IR(
declare void @opaque()
define void @f(float %v) {
  %a = alloca float
  %b = alloca float
  store float %v, ptr %a
  call void @opaque()
  %l = load float, ptr %b
  ret void
}
)IR";
  Scheduled S(IR, memoryMachine());
  unsigned Call = weft::LibraryCallLatency;
  EXPECT_EQ(S.issueOf("l"), int(2 + Call));
  EXPECT_EQ(S.Block.Cycles, 2 + Call + 2);
  EXPECT_EQ(ops(S.Block, UnitClass::FloatDiv), 1u);
  // The same call without memory effects orders nothing: all in cycle 0,
  // the call's 40 cycles the length.
  const char *Pure = R"IR(
declare void @opaque() memory(none) nounwind willreturn
define void @f(float %v) {
  %a = alloca float
  %b = alloca float
  store float %v, ptr %a
  call void @opaque()
  %l = load float, ptr %b
  ret void
}
)IR";
  Scheduled P(Pure, memoryMachine());
  EXPECT_EQ(P.issueOf("l"), 0);
  EXPECT_EQ(P.Block.Cycles, Call);
}

TEST(StaticSchedule, UnrolledWorkItemsAreIndependent) {
  // Two copies (work-items) of `store p; load q` of one parallel loop:
  // p and q may alias, so within a copy the load waits for the store, but
  // the second copy's accesses do not wait for the first's. Untagged, the
  // four form one chain.
  const char *Tagged = R"IR(
define float @f(ptr addrspace(1) %p, ptr addrspace(1) %q, float %v) {
  store float %v, ptr addrspace(1) %p, !llvm.access.group !0, !weft.workitem.access !1
  %l0 = load float, ptr addrspace(1) %q, !llvm.access.group !0, !weft.workitem.access !2
  %p1 = getelementptr float, ptr addrspace(1) %p, i64 1
  %q1 = getelementptr float, ptr addrspace(1) %q, i64 1
  store float %v, ptr addrspace(1) %p1, !llvm.access.group !0, !weft.workitem.access !1
  %l1 = load float, ptr addrspace(1) %q1, !llvm.access.group !0, !weft.workitem.access !2
  ret float %l1
}
!0 = distinct !{}
!1 = !{!0, i32 0}
!2 = !{!0, i32 1}
)IR";
  MachineModel M = memoryMachine();
  Scheduled S(Tagged, M);
  EXPECT_EQ(S.issueOf("l0"), 2);
  EXPECT_EQ(S.issueOf("l1"), 3); // the GEP (1 cycle) first, then the store's 2
  std::string Untagged = Tagged;
  for (const char *Tag :
       {", !weft.workitem.access !1", ", !weft.workitem.access !2"})
    for (size_t At; (At = Untagged.find(Tag)) != std::string::npos;)
      Untagged.erase(At, strlen(Tag));
  Scheduled U(Untagged.c_str(), M);
  // store 0, load 2, store 4 (after the load), load 6.
  EXPECT_EQ(U.issueOf("l0"), 2);
  EXPECT_EQ(U.issueOf("l1"), 6);
}

TEST(StaticSchedule, CallOfADefinedFunctionIsAJump) {
  // @g's blocks are counted on their own: the call is a branch-class
  // operation of the branch's latency (1), not a 40-cycle library call.
  const char *IR = R"IR(
define internal void @g() {
  ret void
}
define void @f() {
  call void @g()
  ret void
}
)IR";
  Scheduled S(IR, wideMachine());
  EXPECT_EQ(ops(S.Block, UnitClass::Branch), 2u);
  EXPECT_EQ(ops(S.Block, UnitClass::FloatDiv), 0u);
  // Both in cycle 0 (the ret waits for no result of the call), done at 1.
  EXPECT_EQ(S.Block.Cycles, 1u);
}

TEST(StaticSchedule, ContextArraysArePrivateMemory) {
  // A launcher's accesses through the private arena (WorkGroupContext
  // byte 152) use the local/private units, those through a buffer the
  // global ones.
  const char *IR = R"IR(
define void @__weft_launch_k(ptr %args, ptr %ctx) {
  %field = getelementptr inbounds i8, ptr %ctx, i64 152
  %arena = load ptr, ptr %field, align 8, !invariant.load !0
  %slot = getelementptr inbounds float, ptr %arena, i64 3
  %x = load float, ptr %slot
  %buf = load ptr addrspace(1), ptr %args, align 8, !invariant.load !0
  store float %x, ptr addrspace(1) %buf
  ret void
}
!0 = !{}
)IR";
  Scheduled S(IR, memoryMachine(), "__weft_launch_k");
  // The context loads are global-class accesses of the context itself.
  EXPECT_EQ(ops(S.Block, UnitClass::LoadStoreLocal), 1u);
  EXPECT_EQ(ops(S.Block, UnitClass::LoadStoreGlobal), 3u);
}

TEST(StaticSchedule, CountingIsNotScheduled) {
  // The counters' increments (CountBlockExecutions) are the simulator's
  // instrumentation: a block schedules the same with them as without.
  const char *IR = R"IR(
define void @__weft_launch_k(ptr %args, ptr %ctx) {
entry:
  %buf = load ptr addrspace(1), ptr %args, align 8, !invariant.load !0
  %x = load float, ptr addrspace(1) %buf
  %y = fmul float %x, %x
  store float %y, ptr addrspace(1) %buf
  ret void
}
!0 = !{}
)IR";
  LLVMContext Context;
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseAssemblyString(IR, Diag, Context);
  ASSERT_TRUE(M);
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  MachineModel Machine = memoryMachine();
  StaticSchedule Before = weft::scheduleModule(*M, Machine, FAM);
  size_t Size = M->getFunction("__weft_launch_k")->getEntryBlock().size();
  ModulePassManager MPM;
  MPM.addPass(weft::CountBlockExecutionsPass());
  MPM.run(*M, MAM);
  ASSERT_GT(M->getFunction("__weft_launch_k")->getEntryBlock().size(), Size);
  StaticSchedule After = weft::scheduleModule(*M, Machine, FAM);
  ASSERT_EQ(Before.Blocks.size(), 1u);
  ASSERT_EQ(After.Blocks.size(), 1u);
  EXPECT_EQ(After.Blocks[0].Cycles, Before.Blocks[0].Cycles);
  for (unsigned C = 0; C < weft::NumUnitClasses; ++C)
    EXPECT_EQ(After.Blocks[0].Ops[C], Before.Blocks[0].Ops[C]) << C;
  // load 2, fmul 1, store 2 after the args' load (2): 7.
  EXPECT_EQ(Before.Blocks[0].Cycles, 7u);
}

TEST(StaticSchedule, ConditionalBranchAndFreeOperations) {
  // The GEP with zero indices, the bitcast-like casts and the phi are free;
  // icmp and zext are integer work; the branch is conditional.
  const char *IR = R"IR(
define void @f(ptr %p, i32 %n) {
entry:
  %g = getelementptr i32, ptr %p, i64 0
  %t = trunc i32 %n to i16
  %c = icmp eq i32 %n, 0
  %z = zext i1 %c to i32
  br i1 %c, label %a, label %b
a:
  ret void
b:
  ret void
}
)IR";
  Scheduled S(IR, wideMachine());
  EXPECT_EQ(ops(S.Block, UnitClass::IntAlu), 2u);
  EXPECT_EQ(ops(S.Block, UnitClass::Branch), 1u);
  EXPECT_TRUE(S.Block.ConditionalBranch);
  // icmp (1) then the branch (1).
  EXPECT_EQ(S.Block.Cycles, 2u);
}

//===----------------------------------------------------------------------===//
// End to end: compileWorkGroupFunction with the static multi-issue back half.
//===----------------------------------------------------------------------===//

weft::TargetDesc acceleratorTarget() {
  weft::TargetDesc T = weft::hostTargetDesc();
  T.Back = weft::TargetDesc::BackHalf::StaticMultiIssue;
  T.Machine = std::make_shared<const MachineModel>(weft::defaultMachineModel());
  return T;
}

/// Runs every work-group of a 1-D NDRange through F with block counters;
/// returns the counters summed over the groups.
std::vector<uint64_t> runCounted(const weft::WorkGroupFunction &F,
                                 void *const *Args, size_t Global,
                                 size_t Local) {
  std::vector<uint64_t> Counters(F.Schedule->Blocks.size(), 0);
  weft::WorkGroupContext Ctx;
  std::memset(&Ctx, 0, sizeof(Ctx));
  Ctx.WorkDim = 1;
  for (unsigned D = 0; D < 3; ++D) {
    Ctx.GlobalSize[D] = D ? 1 : Global;
    Ctx.EnqueuedLocalSize[D] = D ? 1 : Local;
    Ctx.LocalSize[D] = D ? 1 : Local;
    Ctx.NumGroups[D] = D ? 1 : Global / Local;
  }
  // 64-byte aligned, as launcher.h promises.
  std::unique_ptr<void, decltype(&std::free)> Arena(
      std::aligned_alloc(64, (F.PrivateArenaSize + 64) / 64 * 64), &std::free);
  Ctx.PrivateArena = Arena.get();
  Ctx.BlockCounters = Counters.data();
  for (uint64_t G = 0; G < Ctx.NumGroups[0]; ++G) {
    Ctx.GroupId[0] = G;
    F.Launch(Args, &Ctx);
  }
  return Counters;
}

/// Sets WEFT_ACCELSIM_UNROLL for one scope.
class UnrollFactor {
public:
  explicit UnrollFactor(const char *Value) {
    if (const char *Old = getenv("WEFT_ACCELSIM_UNROLL"))
      Saved = Old;
    setenv("WEFT_ACCELSIM_UNROLL", Value, 1);
  }
  ~UnrollFactor() {
    if (Saved.empty())
      unsetenv("WEFT_ACCELSIM_UNROLL");
    else
      setenv("WEFT_ACCELSIM_UNROLL", Saved.c_str(), 1);
  }

private:
  std::string Saved;
};

const char *Saxpy = R"CL(
kernel void saxpy(global const float *X, global float *Y, float A) {
  size_t I = get_global_id(0);
  Y[I] = A * X[I] + Y[I];
}
)CL";

struct SaxpyRun {
  std::vector<float> Y, Expected;
  std::vector<uint64_t> Counters;
  std::shared_ptr<const StaticSchedule> Schedule;
};

SaxpyRun runSaxpy(size_t Global, size_t Local) {
  SaxpyRun R;
  weft::TargetDesc T = acceleratorTarget();
  weft::ProgramBuild P = weft::buildProgram(Saxpy, "", T);
  EXPECT_EQ(P.Result, weft::ProgramBuild::Status::Success) << P.Log;
  size_t LocalSize[3] = {Local, 1, 1};
  std::string Error;
  weft::WorkGroupFunction F =
      weft::compileWorkGroupFunction(P.Bitcode, "saxpy", LocalSize, T, Error);
  EXPECT_TRUE(F.Launch) << Error;
  EXPECT_TRUE(F.Schedule);
  if (!F.Launch || !F.Schedule)
    return R;
  EXPECT_FALSE(F.Native) << "static multi-issue code is never cached";
  std::vector<float> X(Global);
  R.Y.resize(Global);
  for (size_t I = 0; I < Global; ++I) {
    X[I] = float(I) * 0.25f - 3;
    R.Y[I] = float(I % 7) + 0.5f;
  }
  float A = 1.5f;
  R.Expected.resize(Global);
  for (size_t I = 0; I < Global; ++I)
    R.Expected[I] = A * X[I] + R.Y[I];
  float *XP = X.data(), *YP = R.Y.data();
  void *Args[] = {&XP, &YP, &A};
  R.Counters = runCounted(F, Args, Global, Local);
  R.Schedule = F.Schedule;
  return R;
}

/// The most often run block: the work-item loop's body.
size_t hottest(const std::vector<uint64_t> &Counters) {
  return std::max_element(Counters.begin(), Counters.end()) - Counters.begin();
}

TEST(StaticMultiIssue, SaxpyUnrolledByFour) {
  UnrollFactor Four("4");
  SaxpyRun R = runSaxpy(256, 64);
  ASSERT_TRUE(R.Schedule);
  for (size_t I = 0; I < R.Y.size(); ++I)
    ASSERT_EQ(R.Y[I], R.Expected[I]) << I;
  // 4 groups of 64 work-items, 4 work-items a trip: the body runs 16 times
  // a group.
  size_t Body = hottest(R.Counters);
  EXPECT_EQ(R.Counters[Body], 4u * 16u);
  const StaticSchedule::Block &B = R.Schedule->Blocks[Body];
  // Four work-items' two loads and a store each, and their multiply-adds
  // (fmuladd, or fmul and fadd).
  EXPECT_EQ(ops(B, UnitClass::LoadStoreGlobal), 12u);
  EXPECT_EQ(ops(B, UnitClass::FloatMul), 4u);
  EXPECT_TRUE(B.ConditionalBranch);
  // Each work-item's chain is load (3), multiply-add (3 or 3 + 3), store
  // (3): at least 9 cycles; the four chains overlap, so far less than 4 x.
  EXPECT_GE(B.Cycles, 9u);
  EXPECT_LT(B.Cycles, 4 * 9u);
  // Every other block runs at most once per group.
  for (size_t I = 0; I < R.Counters.size(); ++I) {
    if (I != Body)
      EXPECT_LE(R.Counters[I], 4u) << R.Schedule->Blocks[I].Name;
  }
}

TEST(StaticMultiIssue, SaxpyNotUnrolled) {
  UnrollFactor One("1");
  SaxpyRun R = runSaxpy(256, 64);
  ASSERT_TRUE(R.Schedule);
  for (size_t I = 0; I < R.Y.size(); ++I)
    ASSERT_EQ(R.Y[I], R.Expected[I]) << I;
  size_t Body = hottest(R.Counters);
  EXPECT_EQ(R.Counters[Body], 256u);
  EXPECT_EQ(ops(R.Schedule->Blocks[Body], UnitClass::LoadStoreGlobal), 3u);
}

TEST(StaticMultiIssue, KernelLoopCountsItsTrips) {
  // A loop in the kernel, trip count an argument: each work-item sums N
  // values. However the loops are arranged (HorizontalLoops puts the
  // work-item loop inside the kernel loop), the additions run N times per
  // work-item, so sum over blocks of count x fadds = N x work-items.
  const char *Source = R"CL(
kernel void sums(global const float *In, global float *Out, int N) {
  size_t I = get_global_id(0);
  float S = 0;
  for (int K = 0; K < N; ++K)
    S += In[I + K];
  Out[I] = S;
}
)CL";
  UnrollFactor Four("4");
  weft::TargetDesc T = acceleratorTarget();
  weft::ProgramBuild P = weft::buildProgram(Source, "", T);
  ASSERT_EQ(P.Result, weft::ProgramBuild::Status::Success) << P.Log;
  const size_t Global = 64, Local = 16;
  size_t LocalSize[3] = {Local, 1, 1};
  std::string Error;
  weft::WorkGroupFunction F =
      weft::compileWorkGroupFunction(P.Bitcode, "sums", LocalSize, T, Error);
  ASSERT_TRUE(F.Launch && F.Schedule) << Error;
  int N = 10;
  std::vector<float> In(Global + N), Out(Global, -1);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = float(I % 5) * 0.5f;
  const float *InP = In.data();
  float *OutP = Out.data();
  void *Args[] = {&InP, &OutP, &N};
  std::vector<uint64_t> Counters = runCounted(F, Args, Global, Local);
  for (size_t I = 0; I < Global; ++I) {
    float S = 0;
    for (int K = 0; K < N; ++K)
      S += In[I + K];
    ASSERT_EQ(Out[I], S) << I;
  }
  uint64_t Adds = 0;
  for (size_t I = 0; I < Counters.size(); ++I)
    Adds += Counters[I] * ops(F.Schedule->Blocks[I], UnitClass::FloatAdd);
  EXPECT_EQ(Adds, uint64_t(N) * Global);
}

} // namespace
