//===- MachineModelTest.cpp - The default machine and model files ---------===//
//
// The default machine must be the pocl paper's Table 2 figures (and the
// assumptions devices/accelsim/machines/README.md documents), the model
// files in that directory must parse to what they say, and each kind of
// bad file must be refused with an error that names the key at fault.
// WEFT_MACHINES_DIR, a compile definition, is the source tree's
// devices/accelsim/machines.
//
//===----------------------------------------------------------------------===//
#include "weft/machine.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace weft;

namespace {

std::string readMachineFile(const char *Name) {
  std::ifstream File(std::string(WEFT_MACHINES_DIR) + "/" + Name);
  std::stringstream Text;
  Text << File.rdbuf();
  EXPECT_TRUE(File.good()) << Name;
  return Text.str();
}

const UnitDesc &unit(const MachineModel &M, UnitClass C) { return M.unit(C); }

/// Every figure of two models, compared one by one so that a failure says
/// which.
void expectSameModel(const MachineModel &A, const MachineModel &B) {
  EXPECT_EQ(A.Name, B.Name);
  EXPECT_EQ(A.ClockMHz, B.ClockMHz);
  EXPECT_EQ(A.IssueSlots, B.IssueSlots);
  for (unsigned I = 0; I < NumUnitClasses; ++I) {
    SCOPED_TRACE(unitClassName(static_cast<UnitClass>(I)));
    EXPECT_EQ(A.Units[I].Count, B.Units[I].Count);
    EXPECT_EQ(A.Units[I].Latency, B.Units[I].Latency);
    EXPECT_EQ(A.Units[I].Pipelined, B.Units[I].Pipelined);
  }
  EXPECT_EQ(A.RegisterFiles, B.RegisterFiles);
  EXPECT_EQ(A.RegistersPerFile, B.RegistersPerFile);
  EXPECT_EQ(A.GlobalMemBytes, B.GlobalMemBytes);
  EXPECT_EQ(A.LocalMemBytes, B.LocalMemBytes);
  EXPECT_EQ(A.BranchPenalty, B.BranchPenalty);
  EXPECT_EQ(A.DmaSetupCycles, B.DmaSetupCycles);
  EXPECT_EQ(A.DmaBytesPerCycle, B.DmaBytesPerCycle);
}

/// Parses Text, expecting failure; returns the error.
std::string refused(const std::string &Text) {
  MachineModel M;
  M.Name = "untouched";
  std::string Error;
  EXPECT_FALSE(parseMachineModel(Text, M, Error)) << Text;
  EXPECT_EQ(M.Name, "untouched") << "a refused file changed the model";
  EXPECT_FALSE(Error.empty());
  return Error;
}

TEST(MachineModel, UnitClassNames) {
  const char *Expected[NumUnitClasses] = {
      "int_alu",           "float_add",        "float_mul", "float_div",
      "load_store_global", "load_store_local", "branch"};
  for (unsigned I = 0; I < NumUnitClasses; ++I)
    EXPECT_STREQ(unitClassName(static_cast<UnitClass>(I)), Expected[I]);
}

TEST(MachineModel, DefaultIsThePaperTable2Machine) {
  MachineModel M = defaultMachineModel();
  EXPECT_EQ(M.Name, "pocl-table2");
  // The paper's figures.
  EXPECT_EQ(M.ClockMHz, 100);
  EXPECT_EQ(unit(M, UnitClass::IntAlu).Count, 4u);
  EXPECT_EQ(unit(M, UnitClass::FloatAdd).Count, 4u);
  EXPECT_EQ(unit(M, UnitClass::FloatMul).Count, 4u);
  EXPECT_EQ(unit(M, UnitClass::LoadStoreGlobal).Count +
                unit(M, UnitClass::LoadStoreLocal).Count,
            9u);
  EXPECT_EQ(M.RegisterFiles, 4u);
  EXPECT_EQ(M.RegistersPerFile, 32u);
  // The assumptions README.md documents.
  EXPECT_EQ(unit(M, UnitClass::LoadStoreGlobal).Count, 5u);
  EXPECT_EQ(unit(M, UnitClass::LoadStoreLocal).Count, 4u);
  EXPECT_EQ(unit(M, UnitClass::IntAlu).Latency, 1u);
  EXPECT_EQ(unit(M, UnitClass::FloatAdd).Latency, 3u);
  EXPECT_EQ(unit(M, UnitClass::FloatMul).Latency, 3u);
  EXPECT_EQ(unit(M, UnitClass::LoadStoreGlobal).Latency, 3u);
  EXPECT_EQ(unit(M, UnitClass::LoadStoreLocal).Latency, 2u);
  EXPECT_EQ(unit(M, UnitClass::FloatDiv).Count, 1u);
  EXPECT_EQ(unit(M, UnitClass::FloatDiv).Latency, 16u);
  EXPECT_FALSE(unit(M, UnitClass::FloatDiv).Pipelined);
  EXPECT_EQ(unit(M, UnitClass::Branch).Count, 1u);
  EXPECT_EQ(M.BranchPenalty, 2u);
  for (UnitClass C : {UnitClass::IntAlu, UnitClass::FloatAdd,
                      UnitClass::FloatMul, UnitClass::LoadStoreGlobal,
                      UnitClass::LoadStoreLocal, UnitClass::Branch})
    EXPECT_TRUE(unit(M, C).Pipelined) << unitClassName(C);
  // A TTA triggers an operation on every unit each cycle: 4 + 4 + 4 + 1 +
  // 9 + 1.
  EXPECT_EQ(M.IssueSlots, 23u);
  EXPECT_EQ(M.GlobalMemBytes, 256ull << 20);
  EXPECT_EQ(M.LocalMemBytes, 64ull << 10);
  EXPECT_EQ(M.DmaSetupCycles, 100u);
  EXPECT_EQ(M.DmaBytesPerCycle, 8);
}

TEST(MachineModel, DefaultFileIsTheDefaultMachine) {
  MachineModel M;
  std::string Error;
  ASSERT_TRUE(parseMachineModel(readMachineFile("pocl-table2.json"), M, Error))
      << Error;
  expectSameModel(M, defaultMachineModel());
}

TEST(MachineModel, WideFileDoublesTheUnitsAndSlots) {
  MachineModel M;
  std::string Error;
  ASSERT_TRUE(parseMachineModel(readMachineFile("wide.json"), M, Error))
      << Error;
  MachineModel D = defaultMachineModel();
  EXPECT_EQ(M.Name, "wide");
  EXPECT_EQ(M.IssueSlots, 2 * D.IssueSlots);
  for (unsigned I = 0; I < NumUnitClasses; ++I) {
    SCOPED_TRACE(unitClassName(static_cast<UnitClass>(I)));
    EXPECT_EQ(M.Units[I].Count, 2 * D.Units[I].Count);
    EXPECT_EQ(M.Units[I].Latency, D.Units[I].Latency);
    EXPECT_EQ(M.Units[I].Pipelined, D.Units[I].Pipelined);
  }
  EXPECT_EQ(M.ClockMHz, D.ClockMHz);
  EXPECT_EQ(M.GlobalMemBytes, D.GlobalMemBytes);
  EXPECT_EQ(M.DmaSetupCycles, D.DmaSetupCycles);
}

TEST(MachineModel, MissingKeysKeepTheDefaults) {
  // What Out held before does not matter: the base is the default machine.
  MachineModel M;
  M.ClockMHz = 1;
  M.Units[static_cast<unsigned>(UnitClass::FloatMul)].Count = 99;
  std::string Error;
  ASSERT_TRUE(parseMachineModel(R"({
    "name": "small",
    "clock_mhz": 250.5,
    "units": { "float_add": { "latency": 5 },
               "float_div": { "pipelined": true } }
  })",
                                M, Error))
      << Error;
  MachineModel Expected = defaultMachineModel();
  Expected.Name = "small";
  Expected.ClockMHz = 250.5;
  Expected.Units[static_cast<unsigned>(UnitClass::FloatAdd)].Latency = 5;
  Expected.Units[static_cast<unsigned>(UnitClass::FloatDiv)].Pipelined = true;
  expectSameModel(M, Expected);
}

TEST(MachineModel, EmptyObjectIsTheDefault) {
  MachineModel M;
  std::string Error;
  ASSERT_TRUE(parseMachineModel("{}", M, Error)) << Error;
  expectSameModel(M, defaultMachineModel());
}

TEST(MachineModel, EveryTopLevelKeyIsRead) {
  MachineModel M;
  std::string Error;
  ASSERT_TRUE(parseMachineModel(R"({
    "description": "a test machine",
    "issue_slots": 7, "register_files": 2, "registers_per_file": 64,
    "global_mem_bytes": 8589934592, "local_mem_bytes": 32768,
    "branch_penalty": 0, "dma_setup_cycles": 0, "dma_bytes_per_cycle": 0.5
  })",
                                M, Error))
      << Error;
  EXPECT_EQ(M.IssueSlots, 7u);
  EXPECT_EQ(M.RegisterFiles, 2u);
  EXPECT_EQ(M.RegistersPerFile, 64u);
  EXPECT_EQ(M.GlobalMemBytes, 8ull << 30); // wider than 32 bits
  EXPECT_EQ(M.LocalMemBytes, 32768u);
  EXPECT_EQ(M.BranchPenalty, 0u);
  EXPECT_EQ(M.DmaSetupCycles, 0u);
  EXPECT_EQ(M.DmaBytesPerCycle, 0.5);
}

TEST(MachineModel, MalformedJson) {
  std::string Error = refused(R"({ "clock_mhz": 100, )");
  EXPECT_NE(Error.find("malformed JSON"), std::string::npos) << Error;
  refused("");
  refused("{ clock_mhz: 100 }");
}

TEST(MachineModel, NotAnObject) {
  std::string Error = refused("[1, 2]");
  EXPECT_NE(Error.find("object"), std::string::npos) << Error;
}

TEST(MachineModel, UnknownKey) {
  EXPECT_EQ(refused(R"({ "clock_mzh": 100 })"), "clock_mzh: unknown key");
  EXPECT_EQ(refused(R"({ "units": { "int_alu": { "cuont": 2 } } })"),
            "units.int_alu.cuont: unknown key");
}

TEST(MachineModel, UnknownUnitClass) {
  EXPECT_EQ(refused(R"({ "units": { "vector_alu": { "count": 2 } } })"),
            "units.vector_alu: unknown unit class");
}

TEST(MachineModel, ZeroCountOrLatency) {
  EXPECT_EQ(refused(R"({ "units": { "float_add": { "count": 0 } } })"),
            "units.float_add.count: must be at least 1, got 0");
  EXPECT_EQ(refused(R"({ "units": { "load_store_local": { "latency": 0 } } })"),
            "units.load_store_local.latency: must be at least 1, got 0");
  EXPECT_EQ(refused(R"({ "issue_slots": 0 })"),
            "issue_slots: must be at least 1, got 0");
}

TEST(MachineModel, NegativeFractionalAndHugeCounts) {
  EXPECT_EQ(refused(R"({ "units": { "int_alu": { "count": -2 } } })"),
            "units.int_alu.count: must be at least 1, got -2");
  EXPECT_EQ(refused(R"({ "units": { "int_alu": { "count": 2.5 } } })"),
            "units.int_alu.count: must be a whole number");
  EXPECT_EQ(refused(R"({ "units": { "int_alu": { "count": 4294967296 } } })"),
            "units.int_alu.count: must be at most 4294967295, got 4294967296");
}

TEST(MachineModel, NonPositiveClock) {
  EXPECT_EQ(refused(R"({ "clock_mhz": 0 })"),
            "clock_mhz: must be greater than 0, got 0");
  EXPECT_EQ(refused(R"({ "clock_mhz": -100 })"),
            "clock_mhz: must be greater than 0, got -100");
  EXPECT_EQ(refused(R"({ "dma_bytes_per_cycle": 0 })"),
            "dma_bytes_per_cycle: must be greater than 0, got 0");
}

TEST(MachineModel, WrongTypes) {
  EXPECT_EQ(refused(R"({ "clock_mhz": "100" })"),
            "clock_mhz: must be a number");
  EXPECT_EQ(refused(R"({ "name": 3 })"), "name: must be a string");
  EXPECT_EQ(refused(R"({ "name": "" })"), "name: must not be empty");
  EXPECT_EQ(refused(R"({ "units": [] })"),
            "units: must be an object of unit classes");
  EXPECT_EQ(refused(R"({ "units": { "branch": 1 } })"),
            "units.branch: must be an object (count, latency, pipelined)");
  EXPECT_EQ(refused(R"({ "units": { "float_div": { "pipelined": 1 } } })"),
            "units.float_div.pipelined: must be true or false");
}

TEST(MachineModel, FirstErrorIsTheSameEveryTime) {
  // Two bad keys: the report is of the first in sorted order.
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(refused(R"({ "zzz": 1, "clock_mhz": 0 })"),
              "clock_mhz: must be greater than 0, got 0");
}

} // namespace
