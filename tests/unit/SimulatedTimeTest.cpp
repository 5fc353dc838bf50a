//===- tests/unit/SimulatedTimeTest.cpp - The simulator's clock -----------===//
//
// devices/accelsim/SimulatedTime.cpp turns block counts and bytes into
// cycles and nanoseconds on a machine model. Every expected figure here is
// worked out by hand from the schedule, the counts and the model.
//
//===----------------------------------------------------------------------===//

#include "SimulatedTime.h"

#include <gtest/gtest.h>

using namespace weft;

namespace {

StaticSchedule::Block block(uint32_t Cycles, bool Conditional,
                            std::initializer_list<std::pair<UnitClass, uint32_t>>
                                Ops) {
  StaticSchedule::Block B;
  B.Cycles = Cycles;
  B.ConditionalBranch = Conditional;
  for (auto [Class, N] : Ops)
    B.Ops[static_cast<unsigned>(Class)] = N;
  return B;
}

MachineModel smallMachine() {
  MachineModel M = defaultMachineModel();
  for (UnitDesc &U : M.Units)
    U = UnitDesc{4, 1, true};
  M.Units[static_cast<unsigned>(UnitClass::LoadStoreGlobal)].Count = 5;
  // One divider, busy 16 cycles per operation.
  M.Units[static_cast<unsigned>(UnitClass::FloatDiv)] = UnitDesc{1, 16, false};
  M.BranchPenalty = 3;
  M.ClockMHz = 100;
  M.DmaSetupCycles = 100;
  M.DmaBytesPerCycle = 8;
  return M;
}

StaticSchedule schedule() {
  StaticSchedule S;
  S.Blocks.push_back(block(5, false, {{UnitClass::IntAlu, 3}}));
  S.Blocks.push_back(block(7, true,
                           {{UnitClass::FloatMul, 4},
                            {UnitClass::LoadStoreGlobal, 2}}));
  S.Blocks.push_back(block(2, false, {{UnitClass::Branch, 1}}));
  S.Blocks.push_back(block(16, false, {{UnitClass::FloatDiv, 1}}));
  return S;
}

unsigned index(UnitClass C) { return static_cast<unsigned>(C); }

TEST(SimulatedTime, CyclesAreExecutionsTimesLengthPlusPenalties) {
  // Block 0 once, block 1 ten times (a conditional branch: 3 more each),
  // block 2 never, block 3 not at all either.
  const uint64_t Counts[] = {1, 10, 0, 0};
  KernelCycles K = kernelCycles(smallMachine(), schedule(), Counts);
  EXPECT_EQ(K.Cycles, 5u + 10u * (7 + 3));
  EXPECT_EQ(K.Ops[index(UnitClass::IntAlu)], 3u);
  EXPECT_EQ(K.Ops[index(UnitClass::FloatMul)], 40u);
  EXPECT_EQ(K.Ops[index(UnitClass::LoadStoreGlobal)], 20u);
  EXPECT_EQ(K.Ops[index(UnitClass::Branch)], 0u);
  EXPECT_EQ(K.totalOps(), 63u);
  // float_mul 40 / (4 x 105) beats global memory's 20 / (5 x 105) and the
  // ALUs' 3 / (4 x 105).
  EXPECT_EQ(K.CriticalClass, int(index(UnitClass::FloatMul)));
  EXPECT_DOUBLE_EQ(K.CriticalUtilization, 40.0 / (4 * 105));
}

TEST(SimulatedTime, AnUnpipelinedUnitIsBusyForItsLatency) {
  // Five divisions on the one divider take 80 of 185 cycles: the divider,
  // not the multipliers (40 / (4 x 185)), is the critical resource.
  const uint64_t Counts[] = {1, 10, 0, 5};
  KernelCycles K = kernelCycles(smallMachine(), schedule(), Counts);
  EXPECT_EQ(K.Cycles, 105u + 5 * 16);
  EXPECT_EQ(K.CriticalClass, int(index(UnitClass::FloatDiv)));
  EXPECT_DOUBLE_EQ(K.CriticalUtilization, 80.0 / 185);
}

TEST(SimulatedTime, NothingRunNoCycles) {
  const uint64_t Counts[] = {0, 0, 0, 0};
  KernelCycles K = kernelCycles(smallMachine(), schedule(), Counts);
  EXPECT_EQ(K.Cycles, 0u);
  EXPECT_EQ(K.totalOps(), 0u);
  EXPECT_EQ(K.CriticalClass, -1);
}

TEST(SimulatedTime, TransfersPaySetUpAndWholeCycles) {
  MachineModel M = smallMachine();
  EXPECT_EQ(transferCycles(M, 0), 100u);
  EXPECT_EQ(transferCycles(M, 4096), 100u + 512);
  // A part of a cycle counts whole.
  EXPECT_EQ(transferCycles(M, 4097), 100u + 513);
  M.DmaSetupCycles = 37;
  M.DmaBytesPerCycle = 16;
  EXPECT_EQ(transferCycles(M, 1 << 20), 37u + 65536);
}

TEST(SimulatedTime, NanosecondsAtTheClock) {
  MachineModel M = smallMachine();
  EXPECT_EQ(cyclesToNanoseconds(M, 613), 6130u); // 10 ns a cycle
  M.ClockMHz = 300;                              // 3.33 ns a cycle
  EXPECT_EQ(cyclesToNanoseconds(M, 1), 3u);
  EXPECT_EQ(cyclesToNanoseconds(M, 2), 7u);
  EXPECT_EQ(cyclesToNanoseconds(M, 3000000), 10000000u);
}

TEST(SimulatedTime, TheLogLineNamesTheCriticalResource) {
  const uint64_t Counts[] = {1, 10, 0, 5};
  MachineModel M = smallMachine();
  std::string Line = describeKernelCycles(M, kernelCycles(M, schedule(), Counts));
  EXPECT_NE(Line.find("float_mul 40"), std::string::npos) << Line;
  EXPECT_NE(Line.find("critical resource float_div (43% busy)"),
            std::string::npos)
      << Line;
}

} // namespace
