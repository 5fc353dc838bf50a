//===- KernelCache.cpp - The on-disk cache of work-group functions --------===//
//
// Entry layout (little-endian, as written by this host):
//
//   EntryHeader | Symbol bytes | Object bytes
//
// The header repeats the key, so a file renamed or copied under another
// name is still refused, and carries an xxh3 checksum of everything after
// it, so truncation and bit flips are caught before the object reaches the
// loader.
//
//===----------------------------------------------------------------------===//
#include "KernelCache.h"
#include "CompilerInternals.h"
#include "CpuSimd/HalfConversionCalls.h"
#include "WorkGroup/HorizontalLoops.h"
#include "CpuSimd/InterchangeWorkItemLoops.h"
#include "CpuSimd/LockstepLoops.h"
#include "CpuSimd/RevectorizeWorkItemLoops.h"
#include "CpuSimd/VersionGroupGuards.h"
#include "WeftPasses.h"

#include "weft/debug.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <mutex>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace weft {
namespace {

constexpr char Magic[8] = {'W', 'E', 'F', 'T', 'K', 'C', '0', '1'};
constexpr uint32_t FormatVersion = 3;
constexpr const char *EntrySuffix = ".wkc";
/// "<total bytes> <time of the last scan>" of the entries, kept up to date
/// by every store so that a store need not scan the directory.
constexpr const char *SizeRecord = ".size";
/// Concurrent stores may lose each other's additions to the record, and
/// entries may be deleted behind the cache's back: a scan puts the record
/// right at least this often.
constexpr int64_t RescanSeconds = 3600;

struct EntryHeader {
  char Magic[8];
  uint32_t FormatVersion;
  uint32_t HeaderSize;
  uint8_t Key[32];
  uint64_t PrivateArenaSize;
  uint64_t PrivateMemPerWorkItem;
  uint64_t LocalVariablesSize;
  uint64_t SymbolSize;
  uint64_t ObjectSize;
  uint64_t PayloadChecksum;
};

std::string hexOf(const KernelCache::Key &K) {
  static const char Digits[] = "0123456789abcdef";
  std::string Hex;
  for (uint8_t Byte : K) {
    Hex += Digits[Byte >> 4];
    Hex += Digits[Byte & 15];
  }
  return Hex;
}

/// Covers what the key and the lengths do not: the figures of the header
/// (a flipped arena size would run the code with too little memory) and
/// the payload.
uint64_t entryChecksum(const EntryHeader &H, const std::string &Symbol,
                       const std::string &Object) {
  const uint64_t Figures[3] = {H.PrivateArenaSize, H.PrivateMemPerWorkItem,
                               H.LocalVariablesSize};
  return llvm::xxh3_64bits(llvm::StringRef(Symbol)) ^
         (llvm::xxh3_64bits(llvm::StringRef(Object)) * 0x9e3779b97f4a7c15ull) ^
         (llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
              reinterpret_cast<const uint8_t *>(Figures), sizeof(Figures))) *
          0xc2b2ae3d27d4eb4full);
}

bool makeDirectories(const std::string &Path) {
  std::string Partial;
  for (size_t I = 0; I <= Path.size(); ++I) {
    if (I == Path.size() || (Path[I] == '/' && I > 0)) {
      Partial = Path.substr(0, I);
      if (mkdir(Partial.c_str(), 0755) != 0 && errno != EEXIST)
        return false;
    }
  }
  struct stat St;
  return stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
}

bool readFile(const std::string &Path, std::string &Out) {
  FILE *F = fopen(Path.c_str(), "rb");
  if (!F)
    return false;
  Out.clear();
  char Buffer[65536];
  size_t N;
  while ((N = fread(Buffer, 1, sizeof(Buffer), F)) > 0)
    Out.append(Buffer, N);
  bool Ok = !ferror(F);
  fclose(F);
  return Ok;
}

std::string defaultDirectory() {
  if (const char *Dir = getenv("WEFT_CACHE_DIR"); Dir && *Dir)
    return Dir;
  if (const char *Xdg = getenv("XDG_CACHE_HOME"); Xdg && *Xdg)
    return std::string(Xdg) + "/weft";
  if (const char *Home = getenv("HOME"); Home && *Home)
    return std::string(Home) + "/.cache/weft";
  return {};
}

} // namespace

// The GNU build ID: any change to the compiler changes it, so cache entries
// made by another build of Weft are never used.
std::string compilerIdentity() {
  struct Search {
    uintptr_t Address;
    std::string Id;
  } S{reinterpret_cast<uintptr_t>(&compilerIdentity), {}};
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) -> int {
        auto *S = static_cast<Search *>(Data);
        bool Contains = false;
        for (int I = 0; I < Info->dlpi_phnum; ++I) {
          const ElfW(Phdr) &P = Info->dlpi_phdr[I];
          uintptr_t Start = Info->dlpi_addr + P.p_vaddr;
          if (P.p_type == PT_LOAD && S->Address >= Start &&
              S->Address < Start + P.p_memsz)
            Contains = true;
        }
        if (!Contains)
          return 0;
        for (int I = 0; I < Info->dlpi_phnum; ++I) {
          const ElfW(Phdr) &P = Info->dlpi_phdr[I];
          if (P.p_type != PT_NOTE)
            continue;
          auto *Note = reinterpret_cast<const char *>(Info->dlpi_addr +
                                                      P.p_vaddr);
          const char *End = Note + P.p_memsz;
          while (Note + sizeof(ElfW(Nhdr)) <= End) {
            auto *N = reinterpret_cast<const ElfW(Nhdr) *>(Note);
            const char *Name = Note + sizeof(ElfW(Nhdr));
            const char *Desc = Name + ((N->n_namesz + 3) & ~3u);
            if (N->n_type == NT_GNU_BUILD_ID && N->n_namesz == 4 &&
                memcmp(Name, "GNU", 4) == 0)
              S->Id.assign(Desc, N->n_descsz);
            Note = Desc + ((N->n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &S);
  if (S.Id.empty()) // no build ID: fall back to when this file was built
    S.Id = std::string(WEFT_VERSION_STRING " " __DATE__ " " __TIME__);
  return S.Id;
}

KernelCache &KernelCache::get() {
  static KernelCache *Instance = [] {
    const char *Switch = getenv("WEFT_KERNEL_CACHE");
    bool Off = Switch && (strcmp(Switch, "0") == 0 || strcmp(Switch, "off") == 0);
    uint64_t MaxMiB = 512;
    if (const char *Max = getenv("WEFT_CACHE_MAX_MB"); Max && atoll(Max) > 0)
      MaxMiB = static_cast<uint64_t>(atoll(Max));
    return new KernelCache(Off ? std::string() : defaultDirectory(),
                           MaxMiB << 20);
  }();
  return *Instance;
}

KernelCache::KernelCache(std::string Dir, uint64_t Max)
    : Directory(std::move(Dir)), MaxBytes(Max) {
  if (Directory.empty())
    return;
  if (!makeDirectories(Directory)) {
    WEFT_LOG(DebugCompile, "kernel cache disabled: cannot create %s",
             Directory.c_str());
    Directory.clear();
    return;
  }
  WEFT_LOG(DebugCompile, "kernel cache in %s", Directory.c_str());
}

KernelCache::Key KernelCache::makeKey(const std::string &Bitcode,
                                      const std::string &Kernel,
                                      const size_t LocalSize[3],
                                      const TargetDesc &Target) {
  static const std::string Identity = compilerIdentity();
  llvm::SHA256 Hash;
  // Length-prefixed fields, so no two field lists hash the same bytes.
  auto Field = [&Hash](llvm::StringRef Bytes) {
    uint64_t Size = Bytes.size();
    Hash.update(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(&Size), sizeof(Size)));
    Hash.update(Bytes);
  };
  Field("weft-kernel-cache");
  Field(Identity);
  Field(LLVM_VERSION_STRING);
  Field(Target.Triple);
  Field(Target.CPU);
  Field(Target.Features);
  Field(std::to_string(Target.SimdBytes));
  // Code of one back half is never another's (static multi-issue code is
  // not cached at all today: its entry would need the schedule).
  Field(Target.Back == TargetDesc::BackHalf::StaticMultiIssue
            ? "static-multi-issue"
            : "cpu-simd");
  Field(Target.CheckAccesses ? "checked-accesses" : "unchecked-accesses");
  Field(Kernel);
  for (unsigned D = 0; D < 3; ++D)
    Field(std::to_string(LocalSize[D]));
  Field(vectorizationDisabled() ? "no-vectorize" : "vectorize");
  Field(horizontalLoopsEnabled() ? "horizontal" : "no-horizontal");
  Field(groupGuardVersioningEnabled() ? "guard-copies" : "no-guard-copies");
  Field(scalarizationEnabled() ? "scalarize" : "no-scalarize");
  Field(wideningEnabled() ? "widen" : "no-widen");
  Field(slpVectorizationEnabled() ? "slp" : "no-slp");
  Field(prefetchEnabled(Target.CPU) ? "prefetch" : "no-prefetch");
  Field(gatherVersioningEnabled() ? "gather-versions" : "no-gather-versions");
  Field(iterationJamEnabled() ? "jam" : "no-jam");
  Field(indexExtensionsExposed() ? "expose-index" : "no-expose-index");
  Field(revectorizationEnabled() ? "revectorize" : "no-revectorize");
  Field(lockstepLoopsEnabled() ? "lockstep" : "no-lockstep");
  Field(workItemInterchangeEnabled() ? "interchange" : "no-interchange");
  Field(halfConversionCallsEnabled() ? "half-calls" : "no-half-calls");
  Field(workGroupMethodName(workGroupMethodFromEnvironment()));
  Field(Bitcode);
  return Hash.final();
}

std::string KernelCache::pathFor(const Key &K) const {
  return Directory + "/" + hexOf(K) + EntrySuffix;
}

bool KernelCache::decode(const Key &K, const std::string &Bytes,
                         CachedWorkGroupFunction &Out, const char *&Why) {
  EntryHeader H;
  if (Bytes.size() < sizeof(H)) {
    Why = "shorter than its header";
    return false;
  }
  memcpy(&H, Bytes.data(), sizeof(H));
  if (memcmp(H.Magic, Magic, sizeof(Magic)) != 0 ||
      H.FormatVersion != FormatVersion || H.HeaderSize != sizeof(H)) {
    Why = "not an entry of this format";
    return false;
  }
  if (memcmp(H.Key, K.data(), K.size()) != 0) {
    Why = "made for another key";
    return false;
  }
  if (H.SymbolSize > Bytes.size() || H.ObjectSize > Bytes.size() ||
      sizeof(H) + H.SymbolSize + H.ObjectSize != Bytes.size()) {
    Why = "wrong length";
    return false;
  }
  Out.Symbol = Bytes.substr(sizeof(H), H.SymbolSize);
  Out.Object = Bytes.substr(sizeof(H) + H.SymbolSize, H.ObjectSize);
  if (entryChecksum(H, Out.Symbol, Out.Object) != H.PayloadChecksum) {
    Why = "checksum mismatch";
    return false;
  }
  Out.PrivateArenaSize = H.PrivateArenaSize;
  Out.PrivateMemPerWorkItem = H.PrivateMemPerWorkItem;
  Out.LocalVariablesSize = H.LocalVariablesSize;
  return true;
}

std::string KernelCache::encode(const Key &K,
                                const CachedWorkGroupFunction &Entry) {
  EntryHeader H;
  memset(&H, 0, sizeof(H));
  memcpy(H.Magic, Magic, sizeof(Magic));
  H.FormatVersion = FormatVersion;
  H.HeaderSize = sizeof(H);
  memcpy(H.Key, K.data(), K.size());
  H.PrivateArenaSize = Entry.PrivateArenaSize;
  H.PrivateMemPerWorkItem = Entry.PrivateMemPerWorkItem;
  H.LocalVariablesSize = Entry.LocalVariablesSize;
  H.SymbolSize = Entry.Symbol.size();
  H.ObjectSize = Entry.Object.size();
  H.PayloadChecksum = entryChecksum(H, Entry.Symbol, Entry.Object);
  std::string Bytes(reinterpret_cast<const char *>(&H), sizeof(H));
  return Bytes + Entry.Symbol + Entry.Object;
}

bool KernelCache::adopt(const Key &K, const std::string &Bytes) {
  CachedWorkGroupFunction Unused;
  const char *Why = nullptr;
  if (!decode(K, Bytes, Unused, Why)) {
    WEFT_LOG(DebugCompile, "kernel cache: not adopting code: %s", Why);
    return false;
  }
  std::lock_guard<std::mutex> Guard(AdoptedLock);
  Adopted[K] = Bytes;
  HasAdopted.store(true, std::memory_order_release);
  return true;
}

bool KernelCache::lookup(const Key &K, CachedWorkGroupFunction &Out) const {
  if (HasAdopted.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> Guard(AdoptedLock);
    auto It = Adopted.find(K);
    const char *Why = nullptr;
    if (It != Adopted.end() && decode(K, It->second, Out, Why)) {
      ++Hits;
      return true;
    }
  }
  if (!enabled())
    return false;
  std::string Path = pathFor(K);
  std::string Bytes;
  if (!readFile(Path, Bytes))
    return false;
  const char *Why = nullptr;
  if (!decode(K, Bytes, Out, Why)) {
    WEFT_LOG(DebugCompile, "kernel cache: dropping %s: %s", Path.c_str(), Why);
    unlink(Path.c_str());
    return false;
  }
  // Recently used entries survive trimming.
  utimensat(AT_FDCWD, Path.c_str(), nullptr, 0);
  ++Hits;
  return true;
}

void KernelCache::store(const Key &K,
                        const CachedWorkGroupFunction &Entry) const {
  if (!enabled())
    return;
  const std::string Bytes = encode(K, Entry);
  static std::atomic<unsigned> Serial{0};
  std::string Final = pathFor(K);
  std::string Temp = Directory + "/.tmp-" + std::to_string(getpid()) + "-" +
                     std::to_string(Serial++);
  // A read-only or full directory fails every store alike: said once, and
  // the process goes on compiling in memory.
  auto Failed = [this](const char *What) {
    int Errno = errno;
    if (!StoreFailed.exchange(true))
      WEFT_LOG(DebugCompile,
               "kernel cache: cannot %s in %s (%s); compiled code stays in "
               "memory",
               What, Directory.c_str(), strerror(Errno));
  };
  FILE *F = fopen(Temp.c_str(), "wb");
  if (!F) {
    Failed("create entries");
    return;
  }
  bool Ok = fwrite(Bytes.data(), 1, Bytes.size(), F) == Bytes.size();
  Ok = fclose(F) == 0 && Ok;
  if (!Ok || rename(Temp.c_str(), Final.c_str()) != 0) {
    Failed("store entries");
    unlink(Temp.c_str());
    return;
  }
  account(Bytes.size());
}

// Scanning the directory stats every entry, and a cache in daily use holds
// tens of thousands (46,000 entries: ~50 ms a scan, which every compiled
// kernel paid when each store scanned). The size record keeps the total
// instead; a store scans only when the record is missing, unreadable, an
// hour old, or says the bound is passed.
void KernelCache::account(uint64_t Added) const {
  std::lock_guard<std::mutex> Guard(RecordLock);
  std::string Record = Directory + "/" + SizeRecord;
  std::string Text;
  unsigned long long Total = 0;
  long long ScannedAt = 0;
  const int64_t Now = time(nullptr);
  bool Known = readFile(Record, Text) &&
               sscanf(Text.c_str(), "%llu %lld", &Total, &ScannedAt) == 2 &&
               ScannedAt <= Now && Now - ScannedAt < RescanSeconds;
  Total += Added;
  if (!Known || Total > MaxBytes) {
    Total = trim();
    ScannedAt = Now;
  }
  static std::atomic<unsigned> Serial{0};
  std::string Temp = Directory + "/.size-" + std::to_string(getpid()) + "-" +
                     std::to_string(Serial++);
  FILE *F = fopen(Temp.c_str(), "w");
  if (!F)
    return;
  bool Ok = fprintf(F, "%llu %lld\n", Total, ScannedAt) > 0;
  Ok = fclose(F) == 0 && Ok;
  if (!Ok || rename(Temp.c_str(), Record.c_str()) != 0)
    unlink(Temp.c_str());
}

uint64_t KernelCache::trim() const {
  ++Scans;
  struct File {
    std::string Path;
    uint64_t Size;
    int64_t Time;
  };
  std::vector<File> Files;
  uint64_t Total = 0;
  if (DIR *D = opendir(Directory.c_str())) {
    while (dirent *E = readdir(D)) {
      std::string Name = E->d_name;
      if (Name.size() <= strlen(EntrySuffix) ||
          Name.compare(Name.size() - strlen(EntrySuffix), std::string::npos,
                       EntrySuffix) != 0)
        continue;
      std::string Path = Directory + "/" + Name;
      struct stat St;
      if (stat(Path.c_str(), &St) != 0)
        continue;
      Files.push_back({Path, static_cast<uint64_t>(St.st_size),
                       static_cast<int64_t>(St.st_mtime)});
      Total += St.st_size;
    }
    closedir(D);
  }
  if (Total <= MaxBytes)
    return Total;
  // Oldest first, down to three quarters of the bound, so that trimming
  // does not run again at the next store.
  std::sort(Files.begin(), Files.end(),
            [](const File &A, const File &B) { return A.Time < B.Time; });
  for (const File &F : Files) {
    if (Total <= MaxBytes / 4 * 3)
      break;
    if (unlink(F.Path.c_str()) == 0)
      Total -= F.Size;
  }
  WEFT_LOG(DebugCompile, "kernel cache trimmed to %llu bytes",
           static_cast<unsigned long long>(Total));
  return Total;
}

/// A program's build lives beside its kernels' code, under a name no
/// kernel has and no local size; the entry's Object holds the bytes.
static KernelCache::Key programEntryKey(const std::string &KeyText,
                                        const TargetDesc &Target) {
  static const size_t NoLocalSize[3] = {0, 0, 0};
  return KernelCache::makeKey(KeyText, "program build", NoLocalSize, Target);
}

bool readProgramCacheEntry(const std::string &KeyText, const TargetDesc &Target,
                           std::string &Bytes) {
  KernelCache &Cache = KernelCache::get();
  CachedWorkGroupFunction Hit;
  if (!Cache.enabled() || !Cache.lookup(programEntryKey(KeyText, Target), Hit))
    return false;
  Bytes = std::move(Hit.Object);
  return true;
}

void writeProgramCacheEntry(const std::string &KeyText,
                            const TargetDesc &Target,
                            const std::string &Bytes) {
  KernelCache &Cache = KernelCache::get();
  if (!Cache.enabled())
    return;
  CachedWorkGroupFunction Entry;
  Entry.Object = Bytes;
  Cache.store(programEntryKey(KeyText, Target), Entry);
}

} // namespace weft
