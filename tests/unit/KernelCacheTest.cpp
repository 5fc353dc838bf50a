//===- KernelCacheTest.cpp - The on-disk kernel cache ---------------------===//
//
// The cache must serve exactly what was stored, refuse anything damaged or
// made for another key (deleting it), and never change what a kernel
// computes: compileWorkGroupFunction is checked against a host reference
// on a miss, a hit, and after the entry has been corrupted.
//
//===----------------------------------------------------------------------===//
#include "KernelCache.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::string CacheDir;

std::string readAll(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In), {});
}

void writeAll(const std::string &Path, const std::string &Bytes) {
  std::ofstream Out(Path, std::ios::binary | std::ios::trunc);
  Out.write(Bytes.data(), static_cast<std::streamsize>(Bytes.size()));
}

bool exists(const std::string &Path) { return access(Path.c_str(), F_OK) == 0; }

weft::KernelCache::Key keyFor(const std::string &Bitcode) {
  const size_t Local[3] = {8, 1, 1};
  return weft::KernelCache::makeKey(Bitcode, "k", Local,
                                    weft::hostTargetDesc());
}

weft::CachedWorkGroupFunction sampleEntry() {
  weft::CachedWorkGroupFunction E;
  E.Symbol = "__weft_launch_k";
  E.Object = std::string(4096, '\0');
  for (size_t I = 0; I < E.Object.size(); ++I)
    E.Object[I] = static_cast<char>(I * 7 + 3);
  E.PrivateArenaSize = 12345;
  E.PrivateMemPerWorkItem = 67;
  E.LocalVariablesSize = 890;
  return E;
}

TEST(KernelCache, StoresAndRestoresAnEntry) {
  weft::KernelCache Cache(CacheDir + "/roundtrip", 1 << 20);
  ASSERT_TRUE(Cache.enabled());
  auto K = keyFor("bitcode A");
  weft::CachedWorkGroupFunction Out;
  EXPECT_FALSE(Cache.lookup(K, Out));
  Cache.store(K, sampleEntry());
  ASSERT_TRUE(Cache.lookup(K, Out));
  weft::CachedWorkGroupFunction In = sampleEntry();
  EXPECT_EQ(Out.Symbol, In.Symbol);
  EXPECT_EQ(Out.Object, In.Object);
  EXPECT_EQ(Out.PrivateArenaSize, In.PrivateArenaSize);
  EXPECT_EQ(Out.PrivateMemPerWorkItem, In.PrivateMemPerWorkItem);
  EXPECT_EQ(Out.LocalVariablesSize, In.LocalVariablesSize);
}

TEST(KernelCache, KeysDependOnEveryInput) {
  const size_t L8[3] = {8, 1, 1}, L16[3] = {16, 1, 1};
  weft::TargetDesc T = weft::hostTargetDesc();
  auto Base = weft::KernelCache::makeKey("bc", "k", L8, T);
  EXPECT_EQ(Base, weft::KernelCache::makeKey("bc", "k", L8, T));
  EXPECT_NE(Base, weft::KernelCache::makeKey("bc2", "k", L8, T));
  EXPECT_NE(Base, weft::KernelCache::makeKey("bc", "k2", L8, T));
  EXPECT_NE(Base, weft::KernelCache::makeKey("bc", "k", L16, T));
  weft::TargetDesc Other = T;
  // Another CPU than the target's, whatever WEFT_TARGET_CPU made it.
  Other.CPU = T.CPU == "x86-64" ? "x86-64-v2" : "x86-64";
  EXPECT_NE(Base, weft::KernelCache::makeKey("bc", "k", L8, Other));
  Other = T;
  Other.Features += ",-avx2";
  EXPECT_NE(Base, weft::KernelCache::makeKey("bc", "k", L8, Other));
}

TEST(KernelCache, RefusesAndDeletesDamagedEntries) {
  weft::KernelCache Cache(CacheDir + "/damaged", 1 << 20);
  auto K = keyFor("bitcode B");
  std::string Path = Cache.pathFor(K);
  weft::CachedWorkGroupFunction Out;

  Cache.store(K, sampleEntry());
  std::string Good = readAll(Path);
  ASSERT_GT(Good.size(), 4096u);

  std::string Flipped = Good;
  Flipped[Flipped.size() - 100] ^= 0x40; // inside the object
  writeAll(Path, Flipped);
  EXPECT_FALSE(Cache.lookup(K, Out));
  EXPECT_FALSE(exists(Path));

  writeAll(Path, Good.substr(0, Good.size() - 1)); // truncated
  EXPECT_FALSE(Cache.lookup(K, Out));
  EXPECT_FALSE(exists(Path));

  writeAll(Path, Good.substr(0, 20)); // shorter than the header
  EXPECT_FALSE(Cache.lookup(K, Out));

  // A valid entry of another key, copied under this key's name.
  auto Other = keyFor("bitcode C");
  Cache.store(Other, sampleEntry());
  writeAll(Path, readAll(Cache.pathFor(Other)));
  EXPECT_FALSE(Cache.lookup(K, Out));
  EXPECT_FALSE(exists(Path));

  writeAll(Path, Good); // and the intact bytes are accepted again
  EXPECT_TRUE(Cache.lookup(K, Out));
}

TEST(KernelCache, StaysWithinItsBound) {
  weft::KernelCache Cache(CacheDir + "/bounded", 64 * 1024);
  for (int I = 0; I < 40; ++I)
    Cache.store(keyFor("entry " + std::to_string(I)), sampleEntry());
  // 40 entries of ~4 KiB would be 160 KiB.
  uint64_t Total = 0;
  for (int I = 0; I < 40; ++I) {
    std::string P = Cache.pathFor(keyFor("entry " + std::to_string(I)));
    if (exists(P))
      Total += readAll(P).size();
  }
  EXPECT_LE(Total, 64u * 1024);
  // The newest entry survives.
  weft::CachedWorkGroupFunction Out;
  EXPECT_TRUE(Cache.lookup(keyFor("entry 39"), Out));
}

// A cache in daily use holds tens of thousands of entries: a store must not
// stat them all (it did, at every store). The size record carries the total
// from store to store and across processes; a scan rebuilds it when it is
// missing or damaged.
TEST(KernelCache, StoresDoNotScanTheDirectory) {
  const std::string Dir = CacheDir + "/scans";
  weft::KernelCache Cache(Dir, 1u << 30);
  for (int I = 0; I < 40; ++I)
    Cache.store(keyFor("scan " + std::to_string(I)), sampleEntry());
  EXPECT_EQ(Cache.scans(), 1u) << "only the first store, with no record yet";

  // Another process's cache on the same directory trusts the record.
  weft::KernelCache Other(Dir, 1u << 30);
  Other.store(keyFor("other"), sampleEntry());
  EXPECT_EQ(Other.scans(), 0u);

  // A damaged record is rebuilt by a scan, with the true total.
  writeAll(Dir + "/.size", "garbage");
  Other.store(keyFor("after damage"), sampleEntry());
  EXPECT_EQ(Other.scans(), 1u);
  unsigned long long Total = 0;
  long long When = 0;
  ASSERT_EQ(sscanf(readAll(Dir + "/.size").c_str(), "%llu %lld", &Total,
                   &When),
            2);
  uint64_t Expected = 0;
  for (const std::string &Name : {std::string("other"),
                                  std::string("after damage")})
    Expected += readAll(Cache.pathFor(keyFor(Name))).size();
  for (int I = 0; I < 40; ++I)
    Expected += readAll(Cache.pathFor(keyFor("scan " + std::to_string(I))))
                    .size();
  EXPECT_EQ(Total, Expected);
}

const char *Scale = R"CL(
kernel void scale(global float *X, float A) {
  size_t I = get_global_id(0);
  X[I] = X[I] * A + (float)I;
}
)CL";

/// Compiles scale() for local size 16 and checks it on 64 elements.
void compileAndCheck() {
  weft::TargetDesc T = weft::hostTargetDesc();
  weft::ProgramBuild B = weft::buildProgram(Scale, "", T);
  ASSERT_EQ(B.Result, weft::ProgramBuild::Status::Success) << B.Log;
  const size_t Local[3] = {16, 1, 1};
  std::string Error;
  weft::WorkGroupFunction F =
      weft::compileWorkGroupFunction(B.Bitcode, "scale", Local, T, Error);
  ASSERT_NE(F.Launch, nullptr) << Error;

  std::vector<float> X(64);
  for (size_t I = 0; I < X.size(); ++I)
    X[I] = static_cast<float>(I) * 0.5f;
  float *XPtr = X.data();
  float A = 3.0f;
  void *Args[2] = {&XPtr, &A};
  weft::WorkGroupContext Ctx;
  std::memset(&Ctx, 0, sizeof(Ctx));
  Ctx.WorkDim = 1;
  std::vector<char> Arena(F.PrivateArenaSize + 64);
  Ctx.PrivateArena = Arena.data();
  for (unsigned D = 0; D < 3; ++D) {
    Ctx.GlobalSize[D] = D ? 1 : 64;
    Ctx.EnqueuedLocalSize[D] = Ctx.LocalSize[D] = Local[D];
    Ctx.NumGroups[D] = Ctx.GlobalSize[D] / Local[D];
  }
  for (uint64_t G = 0; G < Ctx.NumGroups[0]; ++G) {
    Ctx.GroupId[0] = G;
    F.Launch(Args, &Ctx);
  }
  for (size_t I = 0; I < X.size(); ++I)
    ASSERT_EQ(X[I], static_cast<float>(I) * 0.5f * 3.0f + static_cast<float>(I))
        << "element " << I;
}

TEST(KernelCache, CompiledKernelsComeBackIdentical) {
  weft::KernelCache &Cache = weft::KernelCache::get();
  ASSERT_TRUE(Cache.enabled());
  ASSERT_EQ(Cache.directory(), CacheDir + "/process");

  // Each build and compile looks up two entries: the kernel's memory
  // figures (clBuildProgram) and its code.
  uint64_t Hits = Cache.hits();
  compileAndCheck(); // misses: measured, compiled and stored
  EXPECT_EQ(Cache.hits(), Hits);
  compileAndCheck(); // served from the cache
  EXPECT_EQ(Cache.hits(), Hits + 2);

  // Corrupt every entry (the figures entry is mostly header: its middle
  // byte is one of the header's figures): the next compile must not use
  // them, must still be right, and must leave valid entries behind.
  std::string Dir = Cache.directory();
  std::string Listing = Dir + "/listing";
  std::string Command = "ls " + Dir + "/*.wkc > " + Listing;
  ASSERT_EQ(system(Command.c_str()), 0);
  std::ifstream List(Listing);
  std::string Entry;
  int Corrupted = 0;
  while (std::getline(List, Entry)) {
    std::string Bytes = readAll(Entry);
    Bytes[Bytes.size() / 2] ^= 0x01;
    writeAll(Entry, Bytes);
    ++Corrupted;
  }
  EXPECT_EQ(Corrupted, 2);
  compileAndCheck();
  EXPECT_EQ(Cache.hits(), Hits + 2);
  compileAndCheck();
  EXPECT_EQ(Cache.hits(), Hits + 4);
}

} // namespace

int main(int Argc, char **Argv) {
  char Template[] = "/tmp/weft-cache-test-XXXXXX";
  CacheDir = mkdtemp(Template);
  // Before the first use of KernelCache::get(), which reads it once.
  setenv("WEFT_CACHE_DIR", (CacheDir + "/process").c_str(), 1);
  unsetenv("WEFT_KERNEL_CACHE");
  ::testing::InitGoogleTest(&Argc, Argv);
  int Result = RUN_ALL_TESTS();
  std::string Cleanup = "rm -rf " + CacheDir;
  if (system(Cleanup.c_str()) != 0)
    fprintf(stderr, "could not remove %s\n", CacheDir.c_str());
  return Result;
}
