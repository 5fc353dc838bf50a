//===- CheckProgramBinary.cpp - A loaded binary, read whole before use ----===//
//
// checkProgramBinary(), at clCreateProgramWithBinary: everything a program
// binary carries is read now, so that damage is refused with
// CL_INVALID_BINARY at load and never met at the first kernel compile:
//
//   the bitcode, parsed and materialized whole (every llvm::Error checked)
//   -> llvm::verifyModule, debug info included
//   -> every kernel the binary describes is a kernel of the module, with
//      the arguments the description records (count, buffers as pointers,
//      by-value sizes)
//   -> every compiled kernel it carries names a described kernel and a
//      local size; one made by this build (its key matches) must decode
//      and hold an object file with its launcher symbol.
//
// The outer checksum only catches accidents: a tool that rewrites a binary
// recomputes it. A binary this very build wrote carries a seal
// (sealOfBinary: a digest keyed by the build) and is not read again. LLVM's
// bitcode reader is not written for damaged input: found by flipping single
// bits in a saxpy binary, 76 of 114 crashing flips fault inside
// MetadataLoader::parseMetadata/parseMetadataAttachment, 26 abort in
// report_bad_alloc_error (an attribute group index read as billions), one in
// StructType::getTypeAtIndex. No check of ours before the reader can rule those
// out, so the check runs in a child process (fork): the child reads the bytes
// and writes its verdict to a pipe; a child that dies, or takes longer than
// ReadTimeoutSeconds, refuses the binary and the application's process goes on.
// LLVM reads the same bytes the same way every time, so once the child has read
// them the compiles that follow in this process read them safely too. Without
// fork (a sandbox, no process left) the check runs here, its errors still
// checked.
//
//===----------------------------------------------------------------------===//
#include "CompilerInternals.h"
#include "KernelCache.h"
#include "WorkGroup/KernelUtils.h"

#include "weft/debug.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace weft {
namespace {

/// Reading a module of tens of thousands of functions takes well under a
/// second; a reader still busy after this long is looping on the damage.
constexpr int ReadTimeoutSeconds = 60;

/// Exit codes of the child for deaths that say why.
constexpr int ExitFatalError = 3;
constexpr int ExitOutOfMemory = 4;

std::string sizeText(const size_t LocalSize[3]) {
  return std::to_string(LocalSize[0]) + "x" + std::to_string(LocalSize[1]) +
         "x" + std::to_string(LocalSize[2]);
}

/// Whether F takes the arguments K describes; if not, says why in Why.
bool matchesDescription(const Function &F, const KernelDesc &K,
                        const DataLayout &DL, std::string &Why) {
  if (F.arg_size() != K.Args.size()) {
    Why = "kernel '" + K.Name + "' takes " + std::to_string(F.arg_size()) +
          " arguments in the bitcode, " + std::to_string(K.Args.size()) +
          " in the kernel table";
    return false;
  }
  for (const Argument &A : F.args()) {
    const KernelArgDesc &D = K.Args[A.getArgNo()];
    std::string Where = "argument " + std::to_string(A.getArgNo()) +
                        " of kernel '" + K.Name + "'";
    Type *T = A.getType();
    // Buffers: a pointer into the qualifier's address space (clang's
    // numbering for OpenCL C), passed as a cl_mem.
    unsigned Space = 0;
    cl_kernel_arg_address_qualifier Qualifier = 0;
    switch (D.ArgKind) {
    case KernelArgDesc::Kind::GlobalBuffer:
      Space = 1, Qualifier = CL_KERNEL_ARG_ADDRESS_GLOBAL;
      break;
    case KernelArgDesc::Kind::ConstantBuffer:
      Space = 2, Qualifier = CL_KERNEL_ARG_ADDRESS_CONSTANT;
      break;
    case KernelArgDesc::Kind::LocalBuffer:
      Space = 3, Qualifier = CL_KERNEL_ARG_ADDRESS_LOCAL;
      break;
    default:
      break;
    }
    switch (D.ArgKind) {
    case KernelArgDesc::Kind::GlobalBuffer:
    case KernelArgDesc::Kind::ConstantBuffer:
    case KernelArgDesc::Kind::LocalBuffer:
      if (!T->isPointerTy() || A.hasByValAttr() ||
          T->getPointerAddressSpace() != Space ||
          D.AddressQualifier != Qualifier || D.Size != sizeof(cl_mem)) {
        Why = Where + " is not the buffer the kernel table describes";
        return false;
      }
      break;
    case KernelArgDesc::Kind::Image:
    case KernelArgDesc::Kind::Sampler:
      if (!T->isPointerTy() || A.hasByValAttr() || D.Size != sizeof(cl_mem)) {
        Why = Where + " is not the image or sampler the kernel table "
                      "describes";
        return false;
      }
      break;
    case KernelArgDesc::Kind::Scalar: {
      Type *V = A.hasByValAttr() ? A.getParamByValType() : T;
      if (!V || !V->isSized() || DL.getTypeAllocSize(V) != D.Size ||
          D.AddressQualifier != CL_KERNEL_ARG_ADDRESS_PRIVATE) {
        Why = Where + " does not have the size the kernel table records";
        return false;
      }
      break;
    }
    }
  }
  return true;
}

/// The check itself, in whichever process runs it.
bool checkHere(const ProgramBuild &Build, const std::vector<KernelCode> &Code,
               const TargetDesc &Target, std::string &Why) {
  LLVMContext Context;
  Expected<std::unique_ptr<Module>> Parsed = parseBitcodeFile(
      MemoryBufferRef(StringRef(Build.Bitcode), "program"), Context);
  if (!Parsed) {
    Why = "cannot read the bitcode: " + toString(Parsed.takeError());
    return false;
  }
  Module &M = **Parsed;
  // parseBitcodeFile materializes every function and the metadata; a
  // module read lazily elsewhere would fail later, unchecked.
  if (Error Err = M.materializeAll()) {
    Why = "cannot read the bitcode: " + toString(std::move(Err));
    return false;
  }
  std::string Problems;
  raw_string_ostream OS(Problems);
  bool BrokenDebugInfo = false;
  if (verifyModule(M, &OS, &BrokenDebugInfo) || BrokenDebugInfo) {
    OS.flush();
    if (Problems.size() > 400)
      Problems.resize(400);
    Why =
        "the bitcode is not a valid module: " +
        (Problems.empty() ? std::string("broken debug information") : Problems);
    return false;
  }
  for (const KernelDesc &K : Build.Kernels) {
    const Function *F = M.getFunction(K.Name);
    if (!F || !isKernel(*F)) {
      Why = "kernel '" + K.Name + "' of the kernel table is not in the bitcode";
      return false;
    }
    if (!matchesDescription(*F, K, M.getDataLayout(), Why))
      return false;
  }
  for (const KernelCode &C : Code) {
    std::string Entry =
        "compiled kernel '" + C.Kernel + "' for " + sizeText(C.LocalSize);
    bool Described = false;
    for (const KernelDesc &K : Build.Kernels)
      Described |= K.Name == C.Kernel;
    if (!Described) {
      Why = Entry + " is not a kernel of the binary";
      return false;
    }
    if (!C.LocalSize[0] || !C.LocalSize[1] || !C.LocalSize[2]) {
      Why = Entry + ": a local size of 0";
      return false;
    }
    // Code of another build, LLVM or setting has another key: it is not
    // used, and compiled again from the bitcode (not an error).
    CachedWorkGroupFunction Decoded;
    const char *Reason = nullptr;
    KernelCache::Key Key =
        KernelCache::makeKey(Build.Bitcode, C.Kernel, C.LocalSize, Target);
    if (!KernelCache::decode(Key, C.Code, Decoded, Reason))
      continue;
    Expected<std::unique_ptr<object::ObjectFile>> Object =
        object::ObjectFile::createObjectFile(
            MemoryBufferRef(StringRef(Decoded.Object), "kernel"));
    if (!Object) {
      Why = Entry + " is not an object file: " + toString(Object.takeError());
      return false;
    }
    bool HasLauncher = false;
    for (const object::SymbolRef &S : (*Object)->symbols()) {
      Expected<StringRef> Name = S.getName();
      if (!Name) {
        Why = Entry +
              " has a damaged symbol table: " + toString(Name.takeError());
        return false;
      }
      HasLauncher |= *Name == Decoded.Symbol;
    }
    for (const object::SectionRef &S : (*Object)->sections()) {
      Expected<StringRef> Contents = S.getContents();
      if (!Contents) {
        Why =
            Entry + " has a damaged section: " + toString(Contents.takeError());
        return false;
      }
    }
    if (!HasLauncher) {
      Why = Entry + " lacks its launcher '" + Decoded.Symbol + "'";
      return false;
    }
  }
  return true;
}

bool writeAll(int Fd, const std::string &Bytes) {
  size_t Done = 0;
  while (Done < Bytes.size()) {
    ssize_t N = write(Fd, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += size_t(N);
  }
  return true;
}

/// In the child: the verdict to Fd ('Y', or 'N' and the reason), then
/// _exit, so that nothing of the parent's (atexit handlers, stdio
/// buffers) runs twice.
[[noreturn]] void checkInChild(int Fd, const ProgramBuild &Build,
                               const std::vector<KernelCode> &Code,
                               const TargetDesc &Target) {
  // A reader that faults dies quietly, without a core file, whatever
  // handlers the application (or a sanitizer) installed.
  for (int Signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP})
    signal(Signal, SIG_DFL);
  struct rlimit NoCore = {0, 0};
  setrlimit(RLIMIT_CORE, &NoCore);
  // LLVM's last words go nowhere: the parent reports the death.
  int Null = open("/dev/null", O_WRONLY);
  if (Null >= 0)
    dup2(Null, STDERR_FILENO);
  install_fatal_error_handler(
      [](void *, const char *, bool) { _exit(ExitFatalError); });
  install_bad_alloc_error_handler(
      [](void *, const char *, bool) { _exit(ExitOutOfMemory); });
  std::string Why;
  bool OK = checkHere(Build, Code, Target, Why);
  _exit(writeAll(Fd, OK ? std::string("Y") : "N" + Why) ? 0 : 1);
}

/// Why a child that gave no verdict died.
std::string deathReason(bool Reaped, int Status, bool TimedOut) {
  if (TimedOut)
    return "reading the bitcode did not finish within " +
           std::to_string(ReadTimeoutSeconds) + " s";
  if (Reaped && WIFSIGNALED(Status))
    return "the bitcode is damaged: LLVM's reader crashed on it (signal " +
           std::to_string(WTERMSIG(Status)) + ")";
  if (Reaped && WIFEXITED(Status) && WEXITSTATUS(Status) == ExitOutOfMemory)
    return "the bitcode is damaged: LLVM's reader ran out of memory on it";
  if (Reaped && WIFEXITED(Status) && WEXITSTATUS(Status) == ExitFatalError)
    return "the bitcode is damaged: LLVM's reader gave up with a fatal error";
  return "the bitcode is damaged: LLVM's reader did not come back";
}

/// Runs the check in a child; false with Started false when no child
/// could be started.
bool checkInChildProcess(const ProgramBuild &Build,
                         const std::vector<KernelCode> &Code,
                         const TargetDesc &Target, std::string &Why,
                         bool &Started) {
  Started = false;
  int Pipe[2];
  if (pipe2(Pipe, O_CLOEXEC) != 0)
    return false;
  pid_t Child = fork();
  if (Child < 0) {
    close(Pipe[0]);
    close(Pipe[1]);
    return false;
  }
  if (Child == 0) {
    close(Pipe[0]);
    checkInChild(Pipe[1], Build, Code, Target);
  }
  Started = true;
  close(Pipe[1]);
  std::string Verdict;
  bool TimedOut = false;
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(ReadTimeoutSeconds);
  for (;;) {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    Deadline - std::chrono::steady_clock::now())
                    .count();
    if (Left <= 0) {
      TimedOut = true;
      kill(Child, SIGKILL);
      break;
    }
    struct pollfd P = {Pipe[0], POLLIN, 0};
    int Ready = poll(&P, 1, int(Left));
    if (Ready < 0 && errno == EINTR)
      continue;
    if (Ready < 0)
      break;
    if (Ready == 0)
      continue;
    char Buffer[4096];
    ssize_t N = read(Pipe[0], Buffer, sizeof(Buffer));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Verdict.append(Buffer, size_t(N));
  }
  close(Pipe[0]);
  int Status = 0;
  pid_t Reaped;
  do
    Reaped = waitpid(Child, &Status, 0);
  while (Reaped < 0 && errno == EINTR);
  // The verdict counts only whole: a child that died while writing gave
  // none. (Reaped < 0: the application reaps its children itself.)
  bool Exited =
      Reaped == Child && WIFEXITED(Status) && WEXITSTATUS(Status) == 0;
  if (!TimedOut && (Exited || Reaped < 0) && !Verdict.empty()) {
    if (Verdict == "Y")
      return true;
    if (Verdict[0] == 'N') {
      Why = Verdict.substr(1);
      return false;
    }
  }
  Why = deathReason(Reaped == Child, Status, TimedOut);
  return false;
}

} // namespace

BinarySeal sealOfBinary(const unsigned char *Payload, size_t Size) {
  static const std::string Identity = compilerIdentity();
  llvm::SHA256 Hash;
  uint64_t IdentitySize = Identity.size();
  Hash.update(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(&IdentitySize), sizeof(IdentitySize)));
  Hash.update(Identity);
  Hash.update("weft-program-binary-seal");
  Hash.update(llvm::ArrayRef<uint8_t>(Payload, Size));
  return Hash.final();
}

bool checkProgramBinary(const ProgramBuild &Build,
                        const std::vector<KernelCode> &Code,
                        const TargetDesc &Target, std::string &Why) {
  auto Start = std::chrono::steady_clock::now();
  bool Started = false;
  bool OK = checkInChildProcess(Build, Code, Target, Why, Started);
  if (!Started) {
    WEFT_LOG(DebugCompile,
             "program binary: no child process to read it in "
             "(%s); reading it here",
             strerror(errno));
    OK = checkHere(Build, Code, Target, Why);
  }
  WEFT_LOG(
      DebugCompile,
      "program binary: %zu bytes of bitcode, %zu compiled "
      "kernels read in %.3f s: %s",
      Build.Bitcode.size(), Code.size(),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count(),
      OK ? "sound" : Why.c_str());
  return OK;
}

} // namespace weft
