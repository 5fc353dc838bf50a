//===- MachineModel.cpp - The default machine and model files -------------===//
//
// The accelerator simulator times kernels on a MachineModel (weft/machine.h).
// Without a model file it is the machine of the pocl paper's static
// multi-issue experiment (Jääskeläinen et al., "pocl: A Performance-Portable
// OpenCL Implementation", 2015, Table 2): a TTA at 100 MHz with 4 integer
// ALUs, 4 float add/sub units, 4 float multipliers, 9 load-store units and
// 4 integer register files of 32 registers. The paper gives the unit counts,
// not their timing; every latency, the split of the load-store units
// between global and local memory, the divide unit (the paper's machine has
// none) and the DMA figures are our assumptions, listed with their reasons
// in devices/accelsim/machines/README.md.
//
// A model file is JSON, parsed with LLVM's parser. It overrides keys of the
// default machine, so a file may say only what differs. Validation is
// strict: a key we do not know is far more likely a typo than an
// extension, and a machine with no adders or a clock of zero would only
// show up later as a division by zero or an endless schedule. Keys are
// checked in sorted order, so a file with several mistakes always reports
// the same one.
//
//===----------------------------------------------------------------------===//
#include "weft/machine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

using namespace llvm;

namespace weft {

const char *unitClassName(UnitClass Class) {
  switch (Class) {
  case UnitClass::IntAlu:
    return "int_alu";
  case UnitClass::FloatAdd:
    return "float_add";
  case UnitClass::FloatMul:
    return "float_mul";
  case UnitClass::FloatDiv:
    return "float_div";
  case UnitClass::LoadStoreGlobal:
    return "load_store_global";
  case UnitClass::LoadStoreLocal:
    return "load_store_local";
  case UnitClass::Branch:
    return "branch";
  }
  return "unknown";
}

MachineModel defaultMachineModel() {
  MachineModel M;
  M.Name = "pocl-table2";
  M.ClockMHz = 100;
  auto Set = [&M](UnitClass C, unsigned Count, unsigned Latency,
                  bool Pipelined) {
    M.Units[static_cast<unsigned>(C)] = UnitDesc{Count, Latency, Pipelined};
  };
  Set(UnitClass::IntAlu, 4, 1, true);
  Set(UnitClass::FloatAdd, 4, 3, true);
  Set(UnitClass::FloatMul, 4, 3, true);
  // Not in the paper's machine: one slow iterative unit, so that a kernel
  // that divides shows it.
  Set(UnitClass::FloatDiv, 1, 16, false);
  // The paper's 9 load-store units: 5 for global memory, where kernels'
  // buffers are, and 4 for the local and private scratchpad.
  Set(UnitClass::LoadStoreGlobal, 5, 3, true);
  Set(UnitClass::LoadStoreLocal, 4, 2, true);
  Set(UnitClass::Branch, 1, 1, true);
  // A TTA can start an operation on every unit in every cycle.
  M.IssueSlots = 0;
  for (const UnitDesc &U : M.Units)
    M.IssueSlots += U.Count;
  M.RegisterFiles = 4;
  M.RegistersPerFile = 32;
  M.GlobalMemBytes = 256ull << 20;
  M.LocalMemBytes = 64ull << 10;
  M.BranchPenalty = 2;
  M.DmaSetupCycles = 100;
  M.DmaBytesPerCycle = 8;
  return M;
}

namespace {

/// Reads JSON into a model, stopping at the first bad key; the error names
/// that key by its path ("clock_mhz", "units.int_alu.count").
class ModelReader {
public:
  explicit ModelReader(std::string &Error) : Error(Error) {}

  bool readModel(const json::Object &Root, MachineModel &M) {
    for (StringRef Key : sortedKeys(Root)) {
      const json::Value &V = *Root.get(Key);
      bool Ok;
      if (Key == "name")
        Ok = readName(V, M.Name);
      else if (Key == "description")
        Ok = readDescription(V);
      else if (Key == "clock_mhz")
        Ok = readPositive("clock_mhz", V, M.ClockMHz);
      else if (Key == "issue_slots")
        Ok = readWhole("issue_slots", V, 1, M.IssueSlots);
      else if (Key == "register_files")
        Ok = readWhole("register_files", V, 1, M.RegisterFiles);
      else if (Key == "registers_per_file")
        Ok = readWhole("registers_per_file", V, 1, M.RegistersPerFile);
      else if (Key == "global_mem_bytes")
        Ok = readWhole("global_mem_bytes", V, 1, M.GlobalMemBytes);
      else if (Key == "local_mem_bytes")
        Ok = readWhole("local_mem_bytes", V, 1, M.LocalMemBytes);
      else if (Key == "branch_penalty")
        Ok = readWhole("branch_penalty", V, 0, M.BranchPenalty);
      else if (Key == "dma_setup_cycles")
        Ok = readWhole("dma_setup_cycles", V, 0, M.DmaSetupCycles);
      else if (Key == "dma_bytes_per_cycle")
        Ok = readPositive("dma_bytes_per_cycle", V, M.DmaBytesPerCycle);
      else if (Key == "units")
        Ok = readUnits(V, M);
      else
        Ok = fail(Key, "unknown key");
      if (!Ok)
        return false;
    }
    return true;
  }

private:
  std::string &Error;

  bool fail(const Twine &Key, const Twine &Why) {
    Error = (Key + ": " + Why).str();
    return false;
  }

  static std::string formatNumber(double D) {
    char Buffer[32];
    snprintf(Buffer, sizeof(Buffer), "%g", D);
    return Buffer;
  }

  /// JSON objects keep their keys in a hash map; sorting them makes the
  /// first error of a file the same from run to run.
  static SmallVector<StringRef, 16> sortedKeys(const json::Object &O) {
    SmallVector<StringRef, 16> Keys;
    for (const auto &KV : O)
      Keys.push_back(KV.first);
    llvm::sort(Keys);
    return Keys;
  }

  bool readName(const json::Value &V, std::string &Out) {
    std::optional<StringRef> S = V.getAsString();
    if (!S)
      return fail("name", "must be a string");
    if (S->empty())
      return fail("name", "must not be empty");
    Out = S->str();
    return true;
  }

  /// Free text for the file's reader; the model does not keep it.
  bool readDescription(const json::Value &V) {
    if (V.getAsString())
      return true;
    if (const json::Array *Lines = V.getAsArray()) {
      for (const json::Value &Line : *Lines)
        if (!Line.getAsString())
          return fail("description", "must be a string or strings");
      return true;
    }
    return fail("description", "must be a string or an array of strings");
  }

  bool readPositive(StringRef Key, const json::Value &V, double &Out) {
    std::optional<double> D = V.getAsNumber();
    if (!D)
      return fail(Key, "must be a number");
    if (!std::isfinite(*D) || *D <= 0)
      return fail(Key, "must be greater than 0, got " + formatNumber(*D));
    Out = *D;
    return true;
  }

  template <typename T>
  bool readWhole(StringRef Key, const json::Value &V, uint64_t Min, T &Out) {
    std::optional<uint64_t> U = V.getAsUINT64();
    if (!U) {
      if (std::optional<int64_t> I = V.getAsInteger())
        return fail(Key,
                    "must be at least " + Twine(Min) + ", got " + Twine(*I));
      if (V.getAsNumber())
        return fail(Key, "must be a whole number");
      return fail(Key, "must be a number");
    }
    if (*U < Min)
      return fail(Key, "must be at least " + Twine(Min) + ", got " + Twine(*U));
    if (*U > std::numeric_limits<T>::max())
      return fail(Key, "must be at most " +
                           Twine(uint64_t(std::numeric_limits<T>::max())) +
                           ", got " + Twine(*U));
    Out = static_cast<T>(*U);
    return true;
  }

  bool readUnits(const json::Value &V, MachineModel &M) {
    const json::Object *Units = V.getAsObject();
    if (!Units)
      return fail("units", "must be an object of unit classes");
    for (StringRef Class : sortedKeys(*Units)) {
      std::optional<unsigned> Index;
      for (unsigned I = 0; I < NumUnitClasses; ++I)
        if (Class == unitClassName(static_cast<UnitClass>(I)))
          Index = I;
      if (!Index)
        return fail("units." + Class, "unknown unit class");
      if (!readUnit(("units." + Class).str(), *Units->get(Class),
                    M.Units[*Index]))
        return false;
    }
    return true;
  }

  bool readUnit(const std::string &Path, const json::Value &V, UnitDesc &Unit) {
    const json::Object *O = V.getAsObject();
    if (!O)
      return fail(Path, "must be an object (count, latency, pipelined)");
    for (StringRef Key : sortedKeys(*O)) {
      const json::Value &Field = *O->get(Key);
      std::string Name = Path + "." + Key.str();
      bool Ok;
      if (Key == "count") {
        Ok = readWhole(Name, Field, 1, Unit.Count);
      } else if (Key == "latency") {
        Ok = readWhole(Name, Field, 1, Unit.Latency);
      } else if (Key == "pipelined") {
        std::optional<bool> B = Field.getAsBoolean();
        if (B)
          Unit.Pipelined = *B;
        Ok = B || fail(Name, "must be true or false");
      } else {
        Ok = fail(Name, "unknown key");
      }
      if (!Ok)
        return false;
    }
    return true;
  }
};

} // namespace

bool parseMachineModel(const std::string &Text, MachineModel &Out,
                       std::string &Error) {
  Expected<json::Value> Root = json::parse(Text);
  if (!Root) {
    Error = "malformed JSON " + toString(Root.takeError());
    return false;
  }
  const json::Object *Object = Root->getAsObject();
  if (!Object) {
    Error = "a machine model must be a JSON object";
    return false;
  }
  MachineModel M = defaultMachineModel();
  if (!ModelReader(Error).readModel(*Object, M))
    return false;
  Out = std::move(M);
  return true;
}

} // namespace weft
