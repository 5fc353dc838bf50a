//===- LinkProgram.cpp - clLinkProgram: objects and libraries linked ------===//
//
// linkProgram() links the bitcode of compiled objects and libraries
// (compileProgram()'s output, or an earlier -create-library) into one
// module with LLVM's IR linker, then either
//
//   - stops there with -create-library: a library may still call functions
//     that a later link provides; or
//   - applies the link-time math options to the program's own functions and
//     finishes it exactly as buildProgram() does (linkExecutable():
//     builtins, undefined functions refused, kernels described).
//
// Link errors (a function or kernel defined by two inputs) reach us through
// the LLVMContext's diagnostic handler; they go to the log as link failures
// instead of LLVM's default of printing and exiting.
//
// The math options (-cl-fast-relaxed-math and friends) are what clang's
// function attributes and fast-math flags say at compile time; applying the
// same attributes and flags after the fact gives the optimizer the same
// licence. A library made without -enable-link-options keeps its functions'
// floating-point semantics: they carry FrozenFPAttr until an executable is
// linked from it.
//
//===----------------------------------------------------------------------===//
#include "CompilerInternals.h"

#include "weft/debug.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <sstream>

using namespace llvm;

namespace weft {

namespace {

using Status = ProgramBuild::Status;

/// Marks functions of a library made without -enable-link-options.
constexpr const char *FrozenFPAttr = "weft-no-link-options";

struct LinkOptions {
  bool CreateLibrary = false;
  bool EnableLinkOptions = false;
  bool DenormsAreZero = false;
  bool NoSignedZeros = false;
  bool UnsafeMath = false;
  bool FiniteMathOnly = false;

  bool anyMathOption() const {
    return DenormsAreZero || NoSignedZeros || UnsafeMath || FiniteMathOnly;
  }
};

/// clLinkProgram's options (OpenCL 3.0, 5.8.7: library and link options).
/// On failure appends the reason to Log.
bool parseLinkOptions(const std::string &Options, LinkOptions &Out,
                      std::string &Log) {
  std::istringstream In(Options);
  std::string Word;
  while (In >> Word) {
    if (Word == "-create-library")
      Out.CreateLibrary = true;
    else if (Word == "-enable-link-options")
      Out.EnableLinkOptions = true;
    else if (Word == "-cl-denorms-are-zero")
      Out.DenormsAreZero = true;
    else if (Word == "-cl-no-signed-zeros")
      Out.NoSignedZeros = true;
    else if (Word == "-cl-unsafe-math-optimizations")
      Out.UnsafeMath = Out.NoSignedZeros = true;
    else if (Word == "-cl-finite-math-only")
      Out.FiniteMathOnly = true;
    else if (Word == "-cl-fast-relaxed-math")
      Out.UnsafeMath = Out.NoSignedZeros = Out.FiniteMathOnly = true;
    else if (Word == "-cl-no-subgroup-ifp") {
      // No subgroup independent forward progress to give up: accepted.
    } else {
      Log += "error: unknown link option '" + Word + "'\n";
      return false;
    }
  }
  if (Out.EnableLinkOptions && !Out.CreateLibrary) {
    Log += "error: '-enable-link-options' is only valid with "
           "'-create-library'\n";
    return false;
  }
  return true;
}

/// Collects the IR linker's diagnostics into the log; remembers errors.
class LinkDiagnostics : public DiagnosticHandler {
public:
  LinkDiagnostics(std::string &Log, bool &HadError)
      : Log(Log), HadError(HadError) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() != DS_Error && DI.getSeverity() != DS_Warning)
      return true;
    raw_string_ostream OS(Log);
    DiagnosticPrinterRawOStream Printer(OS);
    OS << (DI.getSeverity() == DS_Error ? "error: " : "warning: ");
    DI.print(Printer);
    OS << "\n";
    if (DI.getSeverity() == DS_Error)
      HadError = true;
    return true;
  }

private:
  std::string &Log;
  bool &HadError;
};

/// Gives the user's functions the attributes and fast-math flags clang
/// would have given them had the options been compile options.
void applyMathOptions(Module &M, const LinkOptions &Opts) {
  FastMathFlags FMF;
  if (Opts.NoSignedZeros)
    FMF.setNoSignedZeros();
  if (Opts.UnsafeMath) {
    FMF.setAllowReciprocal();
    FMF.setAllowContract();
    FMF.setApproxFunc();
    FMF.setAllowReassoc();
  }
  if (Opts.FiniteMathOnly) {
    FMF.setNoNaNs();
    FMF.setNoInfs();
  }
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasFnAttribute(FrozenFPAttr))
      continue;
    if (Opts.DenormsAreZero) // both precisions, as at compile time
      F.addFnAttr("denormal-fp-math", "preserve-sign,preserve-sign");
    if (Opts.NoSignedZeros)
      F.addFnAttr("no-signed-zeros-fp-math", "true");
    if (Opts.UnsafeMath) {
      F.addFnAttr("unsafe-fp-math", "true");
      F.addFnAttr("approx-func-fp-math", "true");
    }
    if (Opts.FiniteMathOnly) {
      F.addFnAttr("no-infs-fp-math", "true");
      F.addFnAttr("no-nans-fp-math", "true");
    }
    if (FMF.none())
      continue;
    for (Instruction &I : instructions(F))
      if (isa<FPMathOperator>(&I)) {
        FastMathFlags Flags = I.getFastMathFlags();
        Flags |= FMF;
        I.setFastMathFlags(Flags);
      }
  }
}

std::unique_ptr<Module> readInput(LLVMContext &Context,
                                  const std::string &Bitcode, size_t Index,
                                  std::string &Log) {
  // MemoryBufferRef keeps a StringRef: the name must outlive the parse.
  std::string Name = "input-program-" + std::to_string(Index);
  MemoryBufferRef Buffer(Bitcode, Name);
  Expected<std::unique_ptr<Module>> M = parseBitcodeFile(Buffer, Context);
  if (!M) {
    Log += "error: input program " + std::to_string(Index) +
           " is not readable bitcode: " + toString(M.takeError()) + "\n";
    return nullptr;
  }
  return std::move(*M);
}

} // namespace

ProgramBuild linkProgram(const std::vector<std::string> &Bitcodes,
                         const std::string &Options,
                         const TargetDesc &Target) {
  ProgramBuild Build;
  LinkOptions Opts;
  if (!parseLinkOptions(Options, Opts, Build.Log)) {
    Build.Result = Status::InvalidOptions;
    WEFT_LOG(DebugCompile, "rejected link options '%s'", Options.c_str());
    return Build;
  }
  Build.Kind = Opts.CreateLibrary ? BinaryKind::Library : BinaryKind::Executable;
  Build.Result = Status::BuildFailure;
  if (Bitcodes.empty()) {
    Build.Log += "error: nothing to link\n";
    return Build;
  }
  initializeNativeTarget();

  // Outlives the context, whose handler points at it.
  bool LinkError = false;
  LLVMContext Context;
  Context.setDiagnosticHandler(
      std::make_unique<LinkDiagnostics>(Build.Log, LinkError));
  std::unique_ptr<Module> M = readInput(Context, Bitcodes[0], 0, Build.Log);
  if (!M)
    return Build;
  Linker L(*M);
  for (size_t I = 1; I < Bitcodes.size(); ++I) {
    std::unique_ptr<Module> Input =
        readInput(Context, Bitcodes[I], I, Build.Log);
    if (!Input)
      return Build;
    // True on error; the reason went to the diagnostic handler.
    if (L.linkInModule(std::move(Input)) || LinkError) {
      Build.Log += "error: cannot link input program " + std::to_string(I) +
                   " with the ones before it\n";
      return Build;
    }
  }

  if (Opts.CreateLibrary) {
    if (!Opts.EnableLinkOptions)
      for (Function &F : *M)
        if (!F.isDeclaration())
          F.addFnAttr(FrozenFPAttr);
    writeBitcode(*M, Build);
    WEFT_LOG(DebugCompile, "linked %zu input(s) into a library", Bitcodes.size());
    return Build;
  }

  applyMathOptions(*M, Opts);
  for (Function &F : *M)
    F.removeFnAttr(FrozenFPAttr);
  if (!linkExecutable(*M, Target, Build) || LinkError) {
    Build.Result = Status::BuildFailure;
    Build.Kernels.clear();
    return Build;
  }
  WEFT_LOG(DebugCompile, "linked %zu input(s) into an executable",
           Bitcodes.size());
  return Build;
}

} // namespace weft
