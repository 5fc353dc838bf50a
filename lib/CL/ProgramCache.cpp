//===- ProgramCache.cpp - clBuildProgram's results kept between runs ------===//
//
// An entry, in ByteStream's encoding (the kernel cache's entry around it
// carries the key and a checksum):
//
//   the files the preprocessor looked for: path, whether it is one of the
//     compiler's own headers, its contents (the user's files only), the
//     paths tried before it that did not exist
//   the build log (warnings stay visible on a warm start)
//   the build as a program binary (ProgramBinary.h), without compiled code
//
//===----------------------------------------------------------------------===//
#include "ProgramCache.h"

#include "ByteStream.h"
#include "ProgramBinary.h"

#include "weft/debug.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace weft {

namespace {

/// Bump when the entry's layout or meaning changes.
constexpr uint32_t EntryVersion = 1;
/// Included files larger than this in total are not copied into an entry:
/// such a program is built every time.
constexpr size_t MaxIncludedBytes = size_t(16) << 20;

/// What, besides the kernel cache's own key (the compiler's build, LLVM,
/// the target's CPU, its settings), decides the build: the program's text
/// and options and what the device lets the front end use.
std::string keyText(const ProgramText &Program, const std::string &Options,
                    const TargetDesc &Target) {
  ByteWriter W;
  W.str("weft-program-cache");
  W.u32(EntryVersion);
  W.str(Program.Source);
  W.str(Program.IL);
  if (!Program.IL.empty()) {
    // The translator is a program of its own, outside the compiler's
    // identity: another one (or another version) is another compiler.
    std::string Translator = spirvTranslatorPath();
    struct stat St = {};
    stat(Translator.c_str(), &St);
    W.str(Translator);
    W.u64(static_cast<uint64_t>(St.st_size));
    W.u64(static_cast<uint64_t>(St.st_mtim.tv_sec) * 1000000000ull +
          static_cast<uint64_t>(St.st_mtim.tv_nsec));
  }
  W.u32(static_cast<uint32_t>(Program.Spec.size()));
  for (const auto &[Id, Value] : Program.Spec) {
    W.u32(Id);
    W.str(Value);
  }
  W.str(Options);
  W.u32(Target.OpenCLVersion);
  W.u64(Target.MaxGlobalVariableSize);
  for (const auto *List :
       {&Target.OpenCLCVersions, &Target.OpenCLCFeatures, &Target.Extensions}) {
    W.u32(static_cast<uint32_t>(List->size()));
    for (const std::string &Item : *List)
      W.str(Item);
  }
  return std::move(W.Out);
}

/// The contents of the regular file at Path. Anything else there (a
/// directory, a device) is not what the build read: false.
bool readWholeFile(const std::string &Path, std::string &Out) {
  int Fd = open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return false;
  struct stat St;
  bool OK = fstat(Fd, &St) == 0 && S_ISREG(St.st_mode);
  Out.clear();
  char Buffer[65536];
  while (OK) {
    ssize_t N = read(Fd, Buffer, sizeof(Buffer));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      OK = N == 0;
      break;
    }
    Out.append(Buffer, static_cast<size_t>(N));
  }
  close(Fd);
  return OK;
}

bool exists(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 || errno != ENOENT;
}

/// Whether the preprocessor's searches recorded in R would find the same
/// text now; R is left after the file list.
bool filesUnchanged(ByteReader &R, std::string &Why) {
  uint32_t NumFiles;
  if (!R.u32(NumFiles)) {
    Why = "damaged file list";
    return false;
  }
  std::string Path, Kept, Now, Absent;
  for (uint32_t I = 0; I < NumFiles; ++I) {
    uint32_t CompilerHeader, NumAbsent;
    if (!R.str(Path) || !R.u32(CompilerHeader) || !R.str(Kept) ||
        !R.u32(NumAbsent)) {
      Why = "damaged file list";
      return false;
    }
    for (uint32_t J = 0; J < NumAbsent; ++J) {
      if (!R.str(Absent)) {
        Why = "damaged file list";
        return false;
      }
      if (exists(Absent)) {
        Why = Absent + " now exists";
        return false;
      }
    }
    if (Path.empty())
      continue;
    if (CompilerHeader ? !exists(Path)
                       : !readWholeFile(Path, Now) || Now != Kept) {
      Why = Path + " changed";
      return false;
    }
  }
  return true;
}

} // namespace

std::shared_ptr<ProgramBuild> decodeKeptBuild(const std::string &Bytes,
                                              const TargetDesc &Target,
                                              std::string &Why) {
  ByteReader R(reinterpret_cast<const unsigned char *>(Bytes.data()),
               Bytes.size());
  std::string Log, Binary, BinaryOptions;
  uint32_t Version;
  if (!R.u32(Version) || Version != EntryVersion) {
    Why = "another entry version";
    return nullptr;
  }
  if (!filesUnchanged(R, Why))
    return nullptr;
  if (!R.str(Log) || !R.str(Binary) || !R.atEnd()) {
    Why = "damaged entry";
    return nullptr;
  }
  std::shared_ptr<const ProgramBuild> Kept = deserializeProgramBinary(
      reinterpret_cast<const unsigned char *>(Binary.data()), Binary.size(),
      Target, BinaryOptions, Why);
  if (!Kept)
    return nullptr;
  if (Kept->Kind != BinaryKind::Executable) {
    Why = "not an executable";
    return nullptr;
  }
  auto Build = std::make_shared<ProgramBuild>(*Kept);
  Build->Log = std::move(Log);
  return Build;
}

std::shared_ptr<const ProgramBuild> findKeptBuild(const ProgramText &Program,
                                                  const std::string &Options,
                                                  const TargetDesc &Target) {
  // Whoever asks for the IR wants it produced, not restored; a SPIR-V
  // program without its translator fails as it would without the cache.
  if (const char *Dump = getenv("WEFT_DUMP_IR"); Dump && *Dump)
    return nullptr;
  if (!Program.IL.empty() && !spirvTranslatorAvailable())
    return nullptr;
  auto Start = std::chrono::steady_clock::now();
  std::string Bytes, Why;
  if (!readProgramCacheEntry(keyText(Program, Options, Target), Target, Bytes))
    return nullptr;
  std::shared_ptr<ProgramBuild> Build = decodeKeptBuild(Bytes, Target, Why);
  if (!Build) {
    WEFT_LOG(DebugCompile, "program cache: not using the kept build: %s",
             Why.c_str());
    return nullptr;
  }
  WEFT_LOG(
      DebugCompile, "program cache: %zu kernel(s) from the kept build: %.3f s",
      Build->Kernels.size(),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count());
  return Build;
}

void keepBuild(const ProgramText &Program, const std::string &Options,
               const TargetDesc &Target, const ProgramBuild &Build) {
  if (Build.Result != ProgramBuild::Status::Success ||
      Build.Kind != BinaryKind::Executable || !Build.Dependencies.Checkable)
    return;
  ByteWriter W;
  W.u32(EntryVersion);
  W.u32(static_cast<uint32_t>(Build.Dependencies.Files.size()));
  size_t Included = 0;
  for (const SourceDependency &D : Build.Dependencies.Files) {
    Included += D.Contents.size();
    if (Included > MaxIncludedBytes)
      return;
    W.str(D.Path);
    W.u32(D.CompilerHeader ? 1 : 0);
    W.str(D.Contents);
    W.u32(static_cast<uint32_t>(D.Absent.size()));
    for (const std::string &A : D.Absent)
      W.str(A);
  }
  W.str(Build.Log);
  W.str(serializeProgramBinary(Build, Options, Target));
  writeProgramCacheEntry(keyText(Program, Options, Target), Target, W.Out);
}

} // namespace weft
