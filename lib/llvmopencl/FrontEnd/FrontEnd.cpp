//===- FrontEnd.cpp - OpenCL C to an LLVM module, with clang in-process ---===//
//
// A CompilerInstance per call: the invocation comes from cc1 arguments
// (built by BuildProgram.cpp from the clBuildProgram options), the source is
// a remapped in-memory file, and a TextDiagnosticPrinter writes into the
// build log. Nothing here touches the process: no files, no exit().
//
// The source is the application's, and arbitrary: clang must not be able to
// take the process down with it (found while probing for tests/fuzz). Its
// debugging pragmas (#pragma clang __debug crash, llvm_fatal_error,
// overflow_stack, ...) are disabled, and clang's parser and code generation
// recurse once per level of nesting (3,000 nested unary operators
// overflowed an 8 MiB stack), so the compile runs on a thread of its own
// with a stack far larger than any caller's. The pages of that stack are
// only used as deep as the source nests. Macros nest deeper than any stack
// in a few lines (ten levels of ten copies: 10^5 '!'), so the stack ends in
// a guard: a fault there jumps out of clang (a SIGSEGV handler on a signal
// stack of the thread's own, chained to the one it replaced) and the build
// fails with a log line; what clang had allocated is leaked.
//
//===----------------------------------------------------------------------===//
#include "FrontEnd/FrontEnd.h"

#include "weft/debug.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <csetjmp>
#include <csignal>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <sys/mman.h>

using namespace clang;

namespace weft {

namespace {

/// Records each file the preprocessor looks for (#include and
/// __has_include), with the paths it would have tried first, so that a
/// build kept for later can tell whether the same search would now find
/// other text. Paths stay as clang forms them: one relative to the working
/// directory is checked against the working directory of the later build,
/// as clang would search it.
class DependencyRecorder : public PPCallbacks {
public:
  DependencyRecorder(Preprocessor &PP, SourceDependencies &Out)
      : PP(PP), Out(Out) {}

  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef Name,
                          bool IsAngled, CharSourceRange,
                          OptionalFileEntryRef File, StringRef, StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    record(HashLoc, Name, IsAngled, File);
  }
  void HasInclude(SourceLocation Loc, StringRef Name, bool IsAngled,
                  OptionalFileEntryRef File,
                  SrcMgr::CharacteristicKind) override {
    record(Loc, Name, IsAngled, File);
  }
  // What #embed reads is not recorded: such a build is never kept.
  void EmbedDirective(SourceLocation, StringRef, bool, OptionalFileEntryRef,
                      const LexEmbedParametersResult &) override {
    Out.Checkable = false;
  }
  void HasEmbed(SourceLocation, StringRef, bool,
                OptionalFileEntryRef) override {
    Out.Checkable = false;
  }
  /// The text of every file is taken as the preprocessor read it: a file
  /// changed after this build must not look like what it was made from.
  void EndOfMainFile() override {
    SourceManager &SM = PP.getSourceManager();
    for (size_t I = 0; I < Out.Files.size(); ++I) {
      SourceDependency &D = Out.Files[I];
      if (!Found[I] || D.CompilerHeader)
        continue;
      std::optional<llvm::MemoryBufferRef> Text =
          SM.getMemoryBufferForFileOrNone(*Found[I]);
      if (!Text) {
        Out.Checkable = false;
        continue;
      }
      D.Contents = Text->getBuffer().str();
    }
  }

private:
  static std::string normalized(StringRef Path) {
    llvm::SmallString<256> P(Path);
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return std::string(P);
  }

  /// Where clang looks for Name, in its order: the includer's directory
  /// for a quoted name (the working directory for the source itself and
  /// for the predefines), then the search directories.
  std::vector<std::string> candidates(SourceLocation Loc, StringRef Name,
                                      bool IsAngled) const {
    if (llvm::sys::path::is_absolute(Name))
      return {normalized(Name)};
    std::vector<std::string> Dirs;
    if (!IsAngled) {
      const SourceManager &SM = PP.getSourceManager();
      OptionalFileEntryRef Includer =
          SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc)));
      Dirs.push_back(
          Includer ? llvm::sys::path::parent_path(Includer->getName()).str()
                   : std::string());
    }
    const HeaderSearch &HS = PP.getHeaderSearchInfo();
    for (auto It = IsAngled ? HS.angled_dir_begin() : HS.quoted_dir_begin();
         It != HS.search_dir_end(); ++It)
      if (It->isNormalDir())
        Dirs.push_back(It->getDirRef()->getName().str());
    std::vector<std::string> Paths;
    for (const std::string &Dir : Dirs) {
      llvm::SmallString<256> P(Dir);
      llvm::sys::path::append(P, Name);
      Paths.push_back(normalized(P));
    }
    return Paths;
  }

  void record(SourceLocation Loc, StringRef Name, bool IsAngled,
              OptionalFileEntryRef File) {
    SourceDependency D;
    if (File)
      D.Path = normalized(File->getName());
    StringRef Resource =
        PP.getHeaderSearchInfo().getHeaderSearchOpts().ResourceDir;
    D.CompilerHeader =
        !D.Path.empty() && !Resource.empty() &&
        StringRef(D.Path).starts_with(normalized(Resource) + "/");
    // Without a match (a path spelled another way), every candidate that
    // does not exist is kept: a later search then misses more often, never
    // wrongly.
    for (const std::string &Candidate : candidates(Loc, Name, IsAngled)) {
      if (Candidate == D.Path)
        break;
      if (!llvm::sys::fs::exists(Candidate))
        D.Absent.push_back(Candidate);
    }
    for (const SourceDependency &Seen : Out.Files)
      if (Seen.Path == D.Path && Seen.Absent == D.Absent)
        return;
    Out.Files.push_back(std::move(D));
    Found.push_back(File);
  }

  Preprocessor &PP;
  SourceDependencies &Out;
  /// The file of each of Out.Files, or none.
  std::vector<OptionalFileEntryRef> Found;
};

/// Clang 17 to 19 loop forever in C when the parser meets '::' where a type
/// or an expression may begin, as in `(::x)` or `sizeof ::x`
/// (llvm/llvm-project#195367): the parser asks the same token whether it
/// starts a type, over and over. '::' means nothing in OpenCL C, so such a
/// '::' reaches the parser as ':', which it reports as the syntax error it
/// is. One that follows an identifier is left alone: `[[clang::attr]]`.
class EmitWithoutScopeLoops : public EmitLLVMOnlyAction {
public:
  EmitWithoutScopeLoops(llvm::LLVMContext *Context, SourceDependencies *Deps)
      : EmitLLVMOnlyAction(Context), Deps(Deps) {}

protected:
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    if (Deps)
      CI.getPreprocessor().addPPCallbacks(
          std::make_unique<DependencyRecorder>(CI.getPreprocessor(), *Deps));
    if (!CI.getLangOpts().CPlusPlus)
      CI.getPreprocessor().setTokenWatcher(
          [Previous = tok::unknown](const Token &T) mutable {
            // The watcher sees the token the preprocessor is returning,
            // which is not const: the parser receives it as changed here.
            if (T.is(tok::coloncolon) && Previous != tok::identifier)
              const_cast<Token &>(T).setKind(tok::colon);
            Previous = T.getKind();
          });
    return EmitLLVMOnlyAction::BeginSourceFileAction(CI);
  }

private:
  SourceDependencies *Deps;
};

/// The front end's stack: sources nesting ~100,000 levels deep still
/// compile (~3-5 KiB a level in clang's parser and code generation).
constexpr size_t FrontEndStackSize = size_t(512) << 20;

std::unique_ptr<llvm::Module>
compileOnThisThread(llvm::LLVMContext &Context, const std::string &Source,
                    const std::vector<std::string> &CC1Args, std::string &Log,
                    const std::vector<HeaderSource> &Headers,
                    SourceDependencies *Deps) {
  llvm::raw_string_ostream LogStream(Log);

  std::vector<const char *> Argv;
  for (const std::string &A : CC1Args)
    Argv.push_back(A.c_str());
  Argv.push_back(SourceFileName);

  auto Invocation = std::make_shared<CompilerInvocation>();
  {
    // Argument errors go to the log through a throw-away engine; the real
    // one needs the parsed diagnostic options (-w, -Werror).
    llvm::IntrusiveRefCntPtr<DiagnosticOptions> ParseOpts = new DiagnosticOptions();
    TextDiagnosticPrinter ParsePrinter(LogStream, ParseOpts.get());
    DiagnosticsEngine ParseDiags(new DiagnosticIDs(), ParseOpts, &ParsePrinter,
                                 /*ShouldOwnClient=*/false);
    if (!CompilerInvocation::CreateFromArgs(*Invocation, Argv, ParseDiags) ||
        ParseDiags.hasErrorOccurred()) {
      LogStream.flush();
      return nullptr;
    }
  }

  CompilerInstance CI;
  CI.setInvocation(Invocation);
  auto *Printer = new TextDiagnosticPrinter(LogStream, &CI.getDiagnosticOpts());
  CI.createDiagnostics(Printer, /*ShouldOwnClient=*/true);
  // "N errors generated." goes to the verbose stream, stderr by default.
  CI.setVerboseOutputStream(LogStream);
  // #pragma clang __debug crash/assert/llvm_fatal_error/overflow_stack
  // would end the application's process.
  CI.getPreprocessorOpts().DisablePragmaDebugCrash = true;
  CI.getPreprocessorOpts().addRemappedFile(
      SourceFileName,
      llvm::MemoryBuffer::getMemBufferCopy(Source, SourceFileName).release());
  // Embedded headers live in an in-memory file system laid over the real
  // one at the working directory, where input.cl notionally is: a quoted
  // include looks next to its includer first, so "foo.h" and "dir/foo.h"
  // find them (before any real file of that name). The directory is also a
  // quoted-include path, so that a header in "dir/" can include "foo.h" by
  // the name the application gave it.
  if (!Headers.empty()) {
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Real =
        llvm::vfs::getRealFileSystem();
    llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Memory(
        new llvm::vfs::InMemoryFileSystem());
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> Overlay(
        new llvm::vfs::OverlayFileSystem(Real));
    Overlay->pushOverlay(Memory);
    llvm::ErrorOr<std::string> Cwd = Real->getCurrentWorkingDirectory();
    std::string Root = Cwd ? *Cwd : std::string("/");
    Memory->setCurrentWorkingDirectory(Root);
    for (const HeaderSource &H : Headers) {
      llvm::SmallString<256> Path(H.IncludeName);
      Memory->makeAbsolute(Path);
      Memory->addFile(Path, 0,
                      llvm::MemoryBuffer::getMemBufferCopy(H.Source, Path));
    }
    CI.createFileManager(Overlay);
    CI.getHeaderSearchOpts().AddPath(Root, frontend::Quoted,
                                     /*IsFramework=*/false,
                                     /*IgnoreSysRoot=*/true);
  }
  CI.getFrontendOpts().DisableFree = false;

  EmitWithoutScopeLoops Action(&Context, Deps);
  bool OK = CI.ExecuteAction(Action);
  LogStream.flush();
  if (!OK || CI.getDiagnostics().hasErrorOccurred())
    return nullptr;
  return Action.takeModule();
}

/// The stack's lowest part, never mapped: the fault of a source that
/// nests deeper than the stack lands in it (no clang frame is this large).
constexpr size_t GuardSize = size_t(1) << 20;
/// Where the overflow's signal handler runs.
constexpr size_t AltStackSize = size_t(256) << 10;

struct FrontEndCall {
  llvm::LLVMContext &Context;
  const std::string &Source;
  const std::vector<std::string> &CC1Args;
  std::string &Log;
  const std::vector<HeaderSource> &Headers;
  SourceDependencies *Deps;
  std::unique_ptr<llvm::Module> Result;
  char *Guard = nullptr; ///< null: on the caller's stack, unguarded
  char *AltStack = nullptr;
  sigjmp_buf Overflow;
};

thread_local FrontEndCall *GuardedCall = nullptr;
struct sigaction PreviousSegv;

/// A fault in the guard of a front-end thread's stack abandons that compile;
/// any other goes to the handler that was there before.
void onSegv(int Signal, siginfo_t *Info, void *Context) {
  FrontEndCall *Call = GuardedCall;
  auto *Address = static_cast<char *>(Info->si_addr);
  if (Call && Address >= Call->Guard && Address < Call->Guard + GuardSize)
    siglongjmp(Call->Overflow, 1);
  if (PreviousSegv.sa_flags & SA_SIGINFO) {
    PreviousSegv.sa_sigaction(Signal, Info, Context);
  } else if (PreviousSegv.sa_handler == SIG_DFL ||
             PreviousSegv.sa_handler == SIG_IGN) {
    // The faulting instruction runs again and ends the process, as it
    // would have without this handler.
    signal(Signal, SIG_DFL);
  } else {
    PreviousSegv.sa_handler(Signal);
  }
}

void *runFrontEndCall(void *Arg) {
  auto *Call = static_cast<FrontEndCall *>(Arg);
  if (!Call->Guard) {
    Call->Result =
        compileOnThisThread(Call->Context, Call->Source, Call->CC1Args,
                            Call->Log, Call->Headers, Call->Deps);
    return nullptr;
  }
  stack_t Alt = {};
  Alt.ss_sp = Call->AltStack;
  Alt.ss_size = AltStackSize;
  sigaltstack(&Alt, nullptr);
  GuardedCall = Call;
  if (sigsetjmp(Call->Overflow, 1) == 0) {
    Call->Result =
        compileOnThisThread(Call->Context, Call->Source, Call->CC1Args,
                            Call->Log, Call->Headers, Call->Deps);
  } else {
    // What clang had allocated is lost; the process goes on.
    Call->Log += "error: the program nests too deeply for the compiler (" +
                 std::to_string(FrontEndStackSize >> 20) +
                 " MiB of stack)\n";
    WEFT_LOG(DebugCompile, "front end: stack overflow, compile abandoned");
  }
  GuardedCall = nullptr;
  stack_t Off = {};
  Off.ss_flags = SS_DISABLE;
  sigaltstack(&Off, nullptr);
  return nullptr;
}

} // namespace

std::unique_ptr<llvm::Module>
compileOpenCLSource(llvm::LLVMContext &Context, const std::string &Source,
                    const std::vector<std::string> &CC1Args, std::string &Log,
                    const std::vector<HeaderSource> &Headers,
                    SourceDependencies *Deps) {
  static std::once_flag HandlerInstalled;
  std::call_once(HandlerInstalled, [] {
    struct sigaction Action = {};
    Action.sa_sigaction = onSegv;
    Action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&Action.sa_mask);
    sigaction(SIGSEGV, &Action, &PreviousSegv);
  });
  FrontEndCall Call{Context, Source, CC1Args, Log, Headers, Deps, nullptr};
  // The thread's stack and its signal stack, mapped here so that the guard
  // is known; pages are only committed as they are used.
  const size_t MapSize = FrontEndStackSize + AltStackSize;
  void *Map = mmap(nullptr, MapSize, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1,
                   0);
  bool Started = false;
  pthread_t Thread;
  if (Map != MAP_FAILED) {
    Call.AltStack = static_cast<char *>(Map) + FrontEndStackSize;
    Call.Guard = static_cast<char *>(Map);
    pthread_attr_t Attr;
    Started = mprotect(Call.Guard, GuardSize, PROT_NONE) == 0 &&
              pthread_attr_init(&Attr) == 0;
    if (Started) {
      Started = pthread_attr_setstack(&Attr, Map, FrontEndStackSize) == 0 &&
                pthread_create(&Thread, &Attr, runFrontEndCall, &Call) == 0;
      pthread_attr_destroy(&Attr);
    }
  }
  if (Started) {
    pthread_join(Thread, nullptr);
  } else {
    // Without the address space for the stack, the caller's must do.
    WEFT_LOG(DebugCompile, "front end on the caller's stack: no thread of "
                           "%zu MiB", FrontEndStackSize >> 20);
    Call.Guard = nullptr;
    runFrontEndCall(&Call);
  }
  if (Map != MAP_FAILED)
    munmap(Map, MapSize);
  return std::move(Call.Result);
}

} // namespace weft
