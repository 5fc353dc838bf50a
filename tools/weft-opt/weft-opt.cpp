//===- weft-opt.cpp - opt with Weft's passes registered -------------------===//
//
//   weft-opt -passes=weft-workitem-loops -weft-local-size=8,1,1 -S in.ll
//
// Reads IR (text or bitcode), runs a new-pass-manager pipeline in which
// every LLVM pass and the Weft passes (WeftPasses.h) can be named, and
// writes IR. Exits non-zero with a message on bad input or a bad pipeline.
//
//===----------------------------------------------------------------------===//
#include "WeftPasses.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;

static cl::opt<std::string> InputFile(cl::Positional, cl::desc("<input IR>"),
                                      cl::init("-"));
static cl::opt<std::string> OutputFile("o", cl::desc("Output file"),
                                       cl::value_desc("file"), cl::init("-"));
static cl::opt<std::string> Passes("passes", cl::desc("Pass pipeline"),
                                   cl::init(""));
static cl::opt<bool> EmitText("S", cl::desc("Write textual IR"));
static cl::opt<std::string>
    LocalSize("weft-local-size", cl::desc("Local size X,Y,Z to specialize for"),
              cl::init("1,1,1"));
static cl::opt<std::string>
    KernelName("weft-kernel", cl::desc("Only process this kernel"), cl::init(""));
static cl::opt<std::string> MethodName(
    "weft-wg-method",
    cl::desc("Work-group method, as WEFT_WG_METHOD: auto, regions, fallback"),
    cl::init("auto"));
static cl::opt<bool> NoVerify("disable-verify",
                              cl::desc("Do not verify the output"));
static cl::opt<std::string> TargetCPU(
    "weft-target-cpu",
    cl::desc("Give the passes the target of the module's triple with this "
             "CPU (its registers, through TargetTransformInfo)"),
    cl::init(""));

/// The target machine for -weft-target-cpu, or null without it (the passes
/// then see LLVM's target-independent costs).
static std::unique_ptr<TargetMachine> createTargetMachine(const Module &M) {
  if (TargetCPU.empty())
    return nullptr;
  InitializeNativeTarget();
  std::string TripleName = M.getTargetTriple().empty()
                               ? sys::getDefaultTargetTriple()
                               : M.getTargetTriple();
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(TripleName, Error);
  if (!T) {
    errs() << "weft-opt: " << Error << "\n";
    return nullptr;
  }
  return std::unique_ptr<TargetMachine>(T->createTargetMachine(
      TripleName, TargetCPU, "", TargetOptions(), std::nullopt));
}

static bool parseLocalSize(StringRef Spec, std::array<uint64_t, 3> &Size) {
  SmallVector<StringRef, 3> Parts;
  Spec.split(Parts, ',');
  if (Parts.empty() || Parts.size() > 3)
    return false;
  Size = {1, 1, 1};
  for (size_t I = 0; I < Parts.size(); ++I)
    if (Parts[I].trim().getAsInteger(10, Size[I]) || Size[I] == 0)
      return false;
  return true;
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::ParseCommandLineOptions(Argc, Argv, "Weft pass driver\n");

  weft::WeftPassOptions Opts;
  Opts.Kernel = KernelName;
  if (!parseLocalSize(LocalSize, Opts.LocalSize)) {
    errs() << Argv[0] << ": bad -weft-local-size '" << LocalSize << "'\n";
    return 1;
  }
  if (MethodName == "regions")
    Opts.Method = weft::WorkGroupMethod::Regions;
  else if (MethodName == "fallback")
    Opts.Method = weft::WorkGroupMethod::Fallback;
  else if (MethodName != "auto") {
    errs() << Argv[0] << ": bad -weft-wg-method '" << MethodName << "'\n";
    return 1;
  }

  LLVMContext Context;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseIRFile(InputFile, Err, Context);
  if (!M) {
    Err.print(Argv[0], errs());
    return 1;
  }

  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  std::unique_ptr<TargetMachine> TM = createTargetMachine(*M);
  if (!TargetCPU.empty() && !TM)
    return 1;
  PassBuilder PB(TM.get());
  weft::registerWeftPasses(PB, Opts);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  ModulePassManager MPM;
  if (!Passes.empty())
    if (Error E = PB.parsePassPipeline(MPM, Passes)) {
      errs() << Argv[0] << ": " << toString(std::move(E)) << "\n";
      return 1;
    }
  MPM.run(*M, MAM);

  if (!NoVerify && verifyModule(*M, &errs())) {
    errs() << Argv[0] << ": the output is not valid IR\n";
    return 1;
  }

  std::error_code EC;
  ToolOutputFile Out(OutputFile, EC, EmitText ? sys::fs::OF_Text : sys::fs::OF_None);
  if (EC) {
    errs() << Argv[0] << ": " << EC.message() << "\n";
    return 1;
  }
  if (EmitText)
    M->print(Out.os(), nullptr);
  else
    WriteBitcodeToFile(*M, Out.os());
  Out.keep();
  return 0;
}
