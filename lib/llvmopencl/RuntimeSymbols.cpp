//===- RuntimeSymbols.cpp - Host functions drivers offer to kernel code ---===//
//
// libweft hides its symbols (lib/CL/weft.map) and the ICD loader opens it
// RTLD_LOCAL, so the process search cannot find a driver's run-time support
// for generated code. The loader's fixed table (the fiber runtime) is built
// once, when the JIT is created, possibly before a driver exists; a
// generator asked at link time sees registrations made at any point before
// the first object that needs them is loaded.
//
//===----------------------------------------------------------------------===//
#include "RuntimeSymbols.h"

#include "weft/compiler.h"

#include "llvm/ADT/StringMap.h"

#include <mutex>

using namespace llvm;

namespace weft {

namespace {

struct Registry {
  std::mutex Lock;
  StringMap<void *> Symbols;
};

Registry &registry() {
  static Registry *R = new Registry; // outlives every static destructor
  return *R;
}

class RuntimeSymbolGenerator : public orc::DefinitionGenerator {
public:
  explicit RuntimeSymbolGenerator(char GlobalPrefix)
      : GlobalPrefix(GlobalPrefix) {}

  Error tryToGenerate(orc::LookupState &, orc::LookupKind, orc::JITDylib &JD,
                      orc::JITDylibLookupFlags,
                      const orc::SymbolLookupSet &Symbols) override {
    orc::SymbolMap Found;
    Registry &R = registry();
    {
      std::lock_guard<std::mutex> Guard(R.Lock);
      for (const auto &[Name, Flags] : Symbols) {
        StringRef Plain = *Name;
        if (GlobalPrefix && !Plain.consume_front(StringRef(&GlobalPrefix, 1)))
          continue;
        auto It = R.Symbols.find(Plain);
        if (It != R.Symbols.end())
          Found[Name] = {orc::ExecutorAddr::fromPtr(It->second),
                         JITSymbolFlags::Exported | JITSymbolFlags::Callable};
      }
    }
    if (Found.empty())
      return Error::success();
    return JD.define(orc::absoluteSymbols(std::move(Found)));
  }

private:
  char GlobalPrefix;
};

} // namespace

std::unique_ptr<orc::DefinitionGenerator>
createRuntimeSymbolGenerator(char GlobalPrefix) {
  return std::make_unique<RuntimeSymbolGenerator>(GlobalPrefix);
}

void registerRuntimeSymbol(const std::string &Name, void *Address) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Symbols.try_emplace(Name, Address);
}

} // namespace weft
