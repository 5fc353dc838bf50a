//===- PerfMap.cpp - Naming JIT-compiled kernels for perf ----------------===//
//
// Kernels run as code the in-process JIT linked, which `perf report` shows
// as anonymous "[JIT] tid N" addresses: no way to tell a launcher from the
// SLEEF call it makes, or one kernel of CLBlast from another. perf reads
// names for such code from /tmp/perf-<pid>.map ("start size name" per
// line). Under WEFT_PERF_MAP=1 a JITLink plugin appends every defined
// function of each linked kernel object to that file once its addresses
// are final; objects are never unmapped before the process ends except
// when their program is released, which leaves stale lines perf ignores.
//
//===----------------------------------------------------------------------===//
#include "PerfMap.h"

#include "weft/debug.h"

#include "llvm/ExecutionEngine/JITLink/JITLink.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>

using namespace llvm;
using namespace llvm::orc;

namespace weft {

namespace {

bool perfMapRequested() {
  const char *V = getenv("WEFT_PERF_MAP");
  return V && *V && strcmp(V, "0") != 0;
}

class PerfMapPlugin : public ObjectLinkingLayer::Plugin {
public:
  void modifyPassConfig(MaterializationResponsibility &, jitlink::LinkGraph &,
                        jitlink::PassConfiguration &Config) override {
    Config.PostFixupPasses.push_back(
        [this](jitlink::LinkGraph &G) { return record(G); });
  }
  Error notifyFailed(MaterializationResponsibility &) override {
    return Error::success();
  }
  Error notifyRemovingResources(JITDylib &, ResourceKey) override {
    return Error::success();
  }
  void notifyTransferringResources(JITDylib &, ResourceKey,
                                   ResourceKey) override {}

private:
  Error record(jitlink::LinkGraph &G) {
    std::lock_guard<std::mutex> Guard(Lock);
    if (!File) {
      std::string Path = "/tmp/perf-" + std::to_string(getpid()) + ".map";
      File = fopen(Path.c_str(), "a");
      if (!File) {
        WEFT_LOG(DebugCompile, "WEFT_PERF_MAP: cannot open %s", Path.c_str());
        return Error::success();
      }
      WEFT_LOG(DebugCompile, "WEFT_PERF_MAP: naming kernel code in %s",
               Path.c_str());
    }
    for (jitlink::Symbol *S : G.defined_symbols())
      if (S->isCallable() && S->hasName() && S->getSize())
        fprintf(File, "%llx %llx %s\n",
                (unsigned long long)S->getAddress().getValue(),
                (unsigned long long)S->getSize(), S->getName().str().c_str());
    fflush(File);
    return Error::success();
  }

  std::mutex Lock;
  FILE *File = nullptr;
};

} // namespace

void enablePerfMap(LLJIT &J) {
  if (!perfMapRequested())
    return;
  if (auto *Linker = dyn_cast<ObjectLinkingLayer>(&J.getObjLinkingLayer()))
    Linker->addPlugin(std::make_unique<PerfMapPlugin>());
  else
    WEFT_LOG(DebugCompile, "WEFT_PERF_MAP: the JIT does not link with "
                           "JITLink; no perf map");
}

} // namespace weft
