//===- WorkGroupCompiler.cpp - Bitcode to a loaded work-group function ----===//
//
// compileWorkGroupFunction(), after DESIGN.md's pipeline steps 3 and 4:
//
//   parse the program's bitcode (a fresh LLVMContext per call)
//   -> retarget every function to the device's exact CPU and features
//   -> weft-workgroup (WeftPasses.h) for the one kernel and local size
//   -> internalize everything but the launcher, O3 for the target machine
//      with the device's back half (TargetDesc::Back, chosen in optimize()):
//      CpuSimd/ maps the work-item loops onto the host's SIMD lanes;
//      StaticMultiIssue/ unrolls them for a machine without SIMD, then
//      schedules every block and makes the code count block executions
//   -> object file in memory -> ORC's LLJIT, symbols from the process and
//      libm -> the launcher's address.
//
// One LLJIT for the process, created on first use and never destroyed (a
// WorkGroupFunction may outlive static destructors). Each object, freshly
// compiled or read from the kernel cache (KernelCache.h), is loaded into a
// JITDylib of its own, owned by WorkGroupFunction::Code: the code is freed
// when the last copy of the WorkGroupFunction goes away, and objects never
// clash over symbol names, whichever process first compiled them.
//
//===----------------------------------------------------------------------===//
#include "CompilerInternals.h"
#include "CpuSimd/CheckParallelLoops.h"
#include "CpuSimd/ExposeIndexExtensions.h"
#include "CpuSimd/GroupWorkItemChains.h"
#include "CpuSimd/HalfConversionCalls.h"
#include "CpuSimd/InterleaveWorkItemLoops.h"
#include "CpuSimd/JamLoopIterations.h"
#include "CpuSimd/LockstepLoops.h"
#include "CpuSimd/PrefetchWorkItemLoads.h"
#include "CpuSimd/PromoteHalfArithmetic.h"
#include "CpuSimd/RevectorizeWorkItemLoops.h"
#include "CpuSimd/ScalarizeWorkItemLoops.h"
#include "CpuSimd/VectorMathVariants.h"
#include "CpuSimd/VersionGathers.h"
#include "CpuSimd/WidenWorkItemLoops.h"
#include "FrontEnd/GlobalVariables.h"
#include "KernelCache.h"
#include "PerfMap.h"
#include "RuntimeSymbols.h"
#include "StaticMultiIssue/StaticMultiIssuePipeline.h"
#include "WeftPasses.h"
#include "WorkGroup/FiberRuntime.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/Launcher.h"
#include "WorkGroup/LowerPrintf.h"
#include "WorkGroup/ParallelRegions.h"
#include "WorkGroup/ResolveSubGroups.h"

#include "weft/debug.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace llvm;

namespace weft {

void initializeNativeTarget() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    InitializeNativeTargetAsmParser();
  });
}

TargetDesc hostTargetDesc() {
  initializeNativeTarget();
  TargetDesc T;
  T.Triple = Triple::normalize(sys::getProcessTriple());
  T.CPU = sys::getHostCPUName().str();
  StringMap<bool> Features = sys::getHostCPUFeatures();
  SmallVector<std::string, 64> List;
  for (auto &F : Features)
    List.push_back((F.second ? "+" : "-") + F.first().str());
  std::sort(List.begin(), List.end());
  for (const std::string &F : List)
    T.Features += (T.Features.empty() ? "" : ",") + F;
  auto Has = [&](StringRef F) {
    auto It = Features.find(F);
    return It != Features.end() && It->second;
  };
  T.SimdBytes = Has("avx512f") ? 64 : Has("avx2") ? 32 : 16;
  // WEFT_TARGET_CPU compiles for one of the x86-64 levels instead of the
  // host, so that a big machine can run the code of the smaller ones (the
  // baseline level has no F16C, AVX or FMA): the builtin library of that
  // level, the level's own features, its vector width.
  if (const char *Level = getenv("WEFT_TARGET_CPU"); Level && *Level) {
    unsigned Simd = StringSwitch<unsigned>(Level)
                        .Cases("x86-64", "x86-64-v2", 16)
                        .Case("x86-64-v3", 32)
                        .Case("x86-64-v4", 64)
                        .Default(0);
    if (Simd) {
      T.CPU = Level;
      T.Features.clear();
      T.SimdBytes = Simd;
    } else {
      WEFT_LOG(DebugCompile, "WEFT_TARGET_CPU=%s is not an x86-64 level",
               Level);
    }
  }
  // What the front end may enable: only what the builtin library and the
  // work-group passes implement today.
  T.OpenCLCFeatures = {"__opencl_c_fp64", "__opencl_c_int64"};
  T.Extensions = {"cl_khr_fp64", "cl_khr_byte_addressable_store"};
  return T;
}

void retargetFunctions(Module &M, const TargetDesc &Target) {
  std::string VectorWidth = std::to_string(Target.SimdBytes * 8);
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    F.removeFnAttr("tune-cpu");
    if (!Target.CPU.empty())
      F.addFnAttr("target-cpu", Target.CPU);
    if (!Target.Features.empty())
      F.addFnAttr("target-features", Target.Features);
    // Use the whole register: some CPUs' tuning asks the vectorizer for
    // 256 bits even when 512 are there, which halves a kernel's throughput.
    F.addFnAttr("prefer-vector-width", VectorWidth);
  }
}

void dumpIR(const Module &M, StringRef Stem) {
  const char *Dir = getenv("WEFT_DUMP_IR");
  if (!Dir || !*Dir)
    return;
  static std::atomic<unsigned> Counter{0};
  sys::fs::create_directories(Dir);
  SmallString<256> Path(Dir);
  sys::path::append(Path, formatv("{0:D4}-{1}.ll", Counter++, Stem).str());
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC) {
    WEFT_LOG(DebugCompile, "cannot write %s: %s", Path.c_str(),
             EC.message().c_str());
    return;
  }
  M.print(OS, nullptr);
  WEFT_LOG(DebugCompile, "wrote %s", Path.c_str());
}

bool vectorizationDisabled() {
  const char *V = getenv("WEFT_DISABLE_VECTORIZE");
  return V && *V && strcmp(V, "0") != 0;
}

bool scalarizationEnabled() { return switchEnabled("WEFT_SCALARIZE"); }

bool wideningEnabled() { return switchEnabled("WEFT_WIDEN"); }

bool slpVectorizationEnabled() { return switchEnabled("WEFT_SLP"); }

bool prefetchEnabled(StringRef CPU) {
  if (getenv("WEFT_PREFETCH"))
    return switchEnabled("WEFT_PREFETCH");
  // Measured to pay on AMD's Zen 4 (CLBlast's Xgemm: its tile copy 40% ->
  // 21% of the kernel's samples). On Intel's Sapphire/Emerald Rapids the
  // burst of prefetches stalls on the line fill buffers instead: DGEMM
  // 1024 41.5 -> 44.3 GFLOP/s without them (medians of 5, alternating),
  // SGEMM and MatrixMultiplicationTiled unchanged.
  return CPU.starts_with("znver");
}

bool indexExtensionsExposed() { return switchEnabled("WEFT_EXPOSE_INDEX"); }

bool gatherVersioningEnabled() { return switchEnabled("WEFT_VERSION_GATHERS"); }

bool iterationJamEnabled() { return switchEnabled("WEFT_JAM"); }

namespace {

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

/// The process-wide JIT. Created once, never destroyed.
struct JIT {
  std::unique_ptr<orc::LLJIT> Jit;
  std::mutex Lock; ///< serializes adding and looking up objects
  std::string Error;
};

JIT &getJIT() {
  static JIT *Instance = [] {
    initializeNativeTarget();
    auto *J = new JIT;
    auto Jit = orc::LLJITBuilder().create();
    if (!Jit) {
      J->Error = toString(Jit.takeError());
      return J;
    }
    J->Jit = std::move(*Jit);
    enablePerfMap(*J->Jit);
    char Prefix = J->Jit->getDataLayout().getGlobalPrefix();
    orc::JITDylib &Main = J->Jit->getMainJITDylib();
    // libweft is dlopen'ed RTLD_LOCAL by the ICD loader, so libm may not
    // be in the global namespace the process search sees: load it by name.
    if (auto LibM = orc::DynamicLibrarySearchGenerator::Load("libm.so.6", Prefix))
      Main.addGenerator(std::move(*LibM));
    else
      consumeError(LibM.takeError());
    // SLEEF's vector math, which VectorMathVariants.cpp points the loop
    // vectorizer at and lib/kernel/sleef.cl's vector builtins call.
    if (auto Sleef =
            orc::DynamicLibrarySearchGenerator::Load("libsleef.so.3", Prefix))
      Main.addGenerator(std::move(*Sleef));
    else
      consumeError(Sleef.takeError());
    // The fallback work-group method's run-time support (FiberRuntime.h):
    // libweft is not in the global namespace either.
    if (fibersAvailable()) {
      orc::SymbolMap Runtime;
      for (const FiberRuntimeSymbol &S : fiberRuntimeSymbols())
        Runtime[J->Jit->mangleAndIntern(S.Name)] = {
            orc::ExecutorAddr::fromPtr(S.Address),
            JITSymbolFlags::Exported | JITSymbolFlags::Callable};
      cantFail(Main.define(orc::absoluteSymbols(std::move(Runtime))));
    }
    // What drivers register for their code (registerRuntimeSymbol), e.g.
    // the accelerator simulator's access checker.
    Main.addGenerator(createRuntimeSymbolGenerator(Prefix));
    // libgcc's half conversions (__extendhfsf2, __truncsfhf2,
    // __truncdfhf2), which LLVM calls for half where the CPU has no F16C
    // and for double -> half everywhere.
    if (auto LibGcc =
            orc::DynamicLibrarySearchGenerator::Load("libgcc_s.so.1", Prefix))
      Main.addGenerator(std::move(*LibGcc));
    else
      consumeError(LibGcc.takeError());
    if (auto Process = orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(Prefix))
      Main.addGenerator(std::move(*Process));
    else
      consumeError(Process.takeError());
    return J;
  }();
  return *Instance;
}

/// What WorkGroupFunction::Code holds: removing the JITDylib frees the code.
struct LoadedCode {
  orc::JITDylib *Dylib = nullptr;
  ~LoadedCode() {
    if (!Dylib)
      return;
    JIT &J = getJIT();
    std::lock_guard<std::mutex> Guard(J.Lock);
    consumeError(J.Jit->getExecutionSession().removeJITDylib(*Dylib));
  }
};

/// Loads a relocatable object and points Result at its launcher Symbol;
/// the object's references to the program's variables resolve to Globals.
bool loadObject(StringRef Object, const std::string &Symbol,
                const GlobalVariableAddresses &Globals,
                WorkGroupFunction &Result, std::string &Error) {
  JIT &J = getJIT();
  if (!J.Jit) {
    Error = "cannot create the in-process loader: " + J.Error;
    return false;
  }
  static std::atomic<uint64_t> Serial{0};
  auto Code = std::make_shared<LoadedCode>();
  std::lock_guard<std::mutex> Guard(J.Lock);
  Expected<orc::JITDylib &> Dylib =
      J.Jit->createJITDylib(formatv("weft.{0}", Serial++).str());
  if (!Dylib) {
    Error = "cannot load the kernel's code: " + toString(Dylib.takeError());
    return false;
  }
  Code->Dylib = &*Dylib;
  // The main JITDylib resolves libm and process symbols.
  Dylib->addToLinkOrder(J.Jit->getMainJITDylib());
  if (!Globals.empty()) {
    orc::SymbolMap Variables;
    for (const auto &[Name, Address] : Globals)
      Variables[J.Jit->mangleAndIntern(Name)] = {
          orc::ExecutorAddr::fromPtr(Address), JITSymbolFlags::Exported};
    if (llvm::Error Err =
            Dylib->define(orc::absoluteSymbols(std::move(Variables)))) {
      Error = "cannot place the program's variables: " +
              toString(std::move(Err));
      return false;
    }
  }
  auto Buffer = MemoryBuffer::getMemBufferCopy(Object, Symbol);
  if (llvm::Error Err = J.Jit->addObjectFile(*Dylib, std::move(Buffer))) {
    Error = "cannot load the kernel's code: " + toString(std::move(Err));
    return false;
  }
  Expected<orc::ExecutorAddr> Addr = J.Jit->lookup(*Dylib, Symbol);
  if (!Addr) {
    Error = "cannot link the kernel's code: " + toString(Addr.takeError());
    return false;
  }
  Result.Launch = Addr->toPtr<LauncherFn>();
  // LowerPrintf.cpp marks code that writes printf records; any other
  // object simply has no such symbol.
  Expected<orc::ExecutorAddr> Printf = J.Jit->lookup(*Dylib, UsesPrintfSymbol);
  Result.UsesPrintf = bool(Printf);
  if (!Printf)
    consumeError(Printf.takeError());
  Result.Code = std::static_pointer_cast<void>(Code);
  return true;
}

std::unique_ptr<TargetMachine> createTargetMachine(const TargetDesc &Target,
                                                   std::string &Error) {
  std::string TripleName =
      Target.Triple.empty() ? sys::getProcessTriple() : Target.Triple;
  const llvm::Target *T = TargetRegistry::lookupTarget(TripleName, Error);
  if (!T)
    return nullptr;
  TargetOptions Options;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TripleName, Target.CPU, Target.Features, Options, Reloc::PIC_,
      CodeModel::Small, CodeGenOptLevel::Aggressive));
  if (!TM)
    Error = "cannot create a target machine for " + TripleName;
  return TM;
}

/// Keeps the optimizer's remarks and warnings (a loop asked to vectorize
/// that could not be, CheckParallelLoops.cpp) in the compile log instead
/// of the application's stderr; errors keep LLVM's default handling.
class OptimizerDiagnostics : public DiagnosticHandler {
public:
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() == DS_Error)
      return false;
    if (debugEnabled(DebugCompile)) {
      std::string Message;
      raw_string_ostream OS(Message);
      DiagnosticPrinterRawOStream Printer(OS);
      DI.print(Printer);
      WEFT_LOG(DebugCompile, "optimizer: %s", OS.str().c_str());
    }
    return true;
  }
};

/// Logs each pass as it runs, for WEFT_DEBUG=compile.
void instrumentForDebug(PassInstrumentationCallbacks &PIC) {
  PIC.registerBeforeNonSkippedPassCallback([](StringRef Pass, Any IR) {
    std::string Unit;
    if (const auto *F = llvm::any_cast<const Function *>(&IR))
      Unit = (*F)->getName().str();
    else if (llvm::any_cast<const Loop *>(&IR))
      Unit = "loop";
    else
      Unit = "module";
    if (Pass.starts_with("PassManager") || Pass.starts_with("ModuleToFunction") ||
        Pass.starts_with("FunctionToLoop") || Pass.starts_with("ModuleToPostOrderCGSCC") ||
        Pass.starts_with("CGSCCToFunction") || Pass.starts_with("DevirtSCC"))
      return;
    WEFT_LOG(DebugCompile, "pass %s on %s", Pass.str().c_str(), Unit.c_str());
  });
}

/// Whether the work-group passes left M with a launcher for Kernel and
/// valid IR; if not, says why in Error.
bool hasValidLauncher(Module &M, const std::string &Kernel,
                      std::string &Error) {
  std::string VerifyErrors;
  raw_string_ostream VerifyStream(VerifyErrors);
  if (!M.getFunction(launcherName(Kernel))) {
    Error = "no work-group function for '" + Kernel + "'";
    // Declined by the region method and not taken by the fallback
    // (WEFT_WG_METHOD=regions): say why.
    for (Function &F : M)
      if (derivedFrom(F, WorkItemAttr) == Kernel &&
          F.hasFnAttribute(FallbackReasonAttr))
        Error += ": the region method declines it (" +
                 F.getFnAttribute(FallbackReasonAttr).getValueAsString().str() +
                 ")";
    return false;
  }
  if (verifyModule(M, &VerifyStream)) {
    Error = "invalid work-group function for '" + Kernel +
            "': " + VerifyStream.str();
    return false;
  }
  return true;
}

/// O3's options for the CPU back half (the host's SIMD).
PipelineTuningOptions cpuSimdTuning(const std::string &Kernel) {
  PipelineTuningOptions Tuning;
  // LLVM leaves the SLP vectorizer off unless asked (clang asks at -O2 and
  // up): without it, code already written on vectors whose lanes are then
  // tested one by one, e.g. `v.s0 == w.s0 || ... || v.sf == w.sf` on a
  // uint16, stays sixteen extracts, compares and branches instead of one
  // vector compare and a mask test.
  Tuning.SLPVectorization = slpVectorizationEnabled();
  if (vectorizationDisabled()) {
    Tuning.LoopVectorization = false;
    Tuning.SLPVectorization = false;
    WEFT_LOG(DebugCompile, "WEFT_DISABLE_VECTORIZE: no loop or SLP "
             "vectorization for '%s'", Kernel.c_str());
  }
  return Tuning;
}

/// The CPU back half's passes at O3's extension points: the work-item loops
/// mapped onto the host's SIMD lanes.
void registerCpuSimdPasses(PassBuilder &PB, TargetMachine &TM,
                           const PipelineTuningOptions &Tuning) {
  // Right before loop-vectorize: global loads of work-item loops in kernel
  // loops prefetched one trip ahead (on AMD Zen; WEFT_PREFETCH=0/1
  // decides), the work-item loops keep their parallel annotation only where no
  // work-item reloads what it stored; then per-component float4 code of
  // functions HorizontalLoops left unsplit rebuilt into vectors
  // (WEFT_REVECTORIZE=0 does not), then
  // work-item loops over explicit vectors that stream them through memory
  // widened across work-items (WEFT_WIDEN=0 does not), the explicit
  // vectors of the others split (WEFT_SCALARIZE=0 keeps them), many independent chains laid out a few at a time, and long
  // dependence chains interleaved; last, with F16C, half conversions hidden
  // from the cost model, which prices them lane by lane.
  PB.registerVectorizerStartEPCallback(
      [Vectorize = Tuning.LoopVectorization,
       Prefetch = prefetchEnabled(TM.getTargetCPU()),
       HalfCalls =
           halfConversionCallsEnabled() && convertsHalvesInRegisters(TM),
       NativeHalf = computesHalvesNatively(TM)](FunctionPassManager &FPM,
                                                OptimizationLevel) {
        if (!NativeHalf)
          FPM.addPass(PromoteHalfArithmeticPass());
        if (Prefetch)
          FPM.addPass(PrefetchWorkItemLoadsPass());
        FPM.addPass(CheckParallelLoopsPass());
        if (!Vectorize)
          return;
        if (indexExtensionsExposed())
          FPM.addPass(ExposeIndexExtensionsPass());
        if (revectorizationEnabled())
          FPM.addPass(RevectorizeWorkItemLoopsPass());
        if (wideningEnabled())
          FPM.addPass(WidenWorkItemLoopsPass());
        if (scalarizationEnabled())
          FPM.addPass(ScalarizeWorkItemLoopsPass());
        FPM.addPass(GroupWorkItemChainsPass());
        FPM.addPass(InterleaveWorkItemLoopsPass());
        if (HalfCalls)
          FPM.addPass(
              HalfConversionCallsPass(HalfConversionCallsPass::Phase::Form));
      });
  // Whatever ran before: half conversions hidden from the vectorizer's
  // cost model become conversions again.
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM,
                                        OptimizationLevel) {
    MPM.addPass(createModuleToFunctionPassAdaptor(
        HalfConversionCallsPass(HalfConversionCallsPass::Phase::Lower)));
  });
  // Once the vectorizer has made them: gathers and scatters get a vector
  // load or store for when their lanes are consecutive.
  if (Tuning.LoopVectorization && gatherVersioningEnabled())
    PB.registerOptimizerLastEPCallback(
        [](ModulePassManager &MPM, OptimizationLevel) {
          MPM.addPass(createModuleToFunctionPassAdaptor(VersionGathersPass()));
        });
  // Last: long chains of sequential loops computed two trips at a time.
  if (iterationJamEnabled())
    PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM,
                                          OptimizationLevel Level) {
      if (Level == OptimizationLevel::O3)
        MPM.addPass(createModuleToFunctionPassAdaptor(JamLoopIterationsPass()));
    });
}

/// Runs the work-group passes and the O3 pipeline over M; false, with
/// Error, when the work-group passes produce no valid launcher. The passes
/// up to the launcher are every device's; what follows is the back half
/// Target asks for (TargetDesc::Back), chosen here and nowhere else: the
/// CPU's SIMD (CpuSimd/) or a static multi-issue machine's schedule
/// (StaticMultiIssue/), which Schedule then receives.
bool optimize(Module &M, TargetMachine &TM, const WeftPassOptions &Opts,
              bool OptDisable, const TargetDesc &Target,
              StaticSchedule &Schedule, std::string &Error) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassInstrumentationCallbacks PIC;
  bool Debug = debugEnabled(DebugCompile);
  if (Debug)
    instrumentForDebug(PIC);
  bool StaticMultiIssue =
      Target.Back == TargetDesc::BackHalf::StaticMultiIssue;
  PipelineTuningOptions Tuning =
      StaticMultiIssue ? staticMultiIssueTuning() : cpuSimdTuning(Opts.Kernel);
  PassBuilder PB(&TM, Tuning, std::nullopt, Debug ? &PIC : nullptr);
  if (StaticMultiIssue)
    registerStaticMultiIssuePasses(PB);
  else
    registerCpuSimdPasses(PB, TM, Tuning);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  auto Start = std::chrono::steady_clock::now();
  {
    ModulePassManager MPM;
    addWorkGroupPasses(MPM, Opts);
    MPM.run(M, MAM);
  }
  WEFT_LOG(DebugCompile, "work-group function of '%s': %.3f s",
           Opts.Kernel.c_str(), secondsSince(Start));
  dumpIR(M, Opts.Kernel + "-workgroup");
  if (!hasValidLauncher(M, Opts.Kernel, Error))
    return false;

  // Only the launcher is an entry point; everything else may be inlined,
  // specialized or dropped.
  std::string Launcher = launcherName(Opts.Kernel);
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName() != Launcher)
      F.setLinkage(GlobalValue::InternalLinkage);
  for (GlobalVariable &GV : M.globals())
    if (!GV.isDeclaration() && GV.getName() != UsesPrintfSymbol)
      GV.setLinkage(GlobalValue::InternalLinkage);
  MAM.clear();

  Start = std::chrono::steady_clock::now();
  {
    ModulePassManager MPM;
    if (StaticMultiIssue)
      addStaticMultiIssuePassesBeforeO3(MPM);
    else
      MPM.addPass(VectorMathVariantsPass(Target.SimdBytes));
    MPM.run(M, MAM);
  }
  ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(
      OptDisable ? OptimizationLevel::O1 : OptimizationLevel::O3);
  MPM.addPass(GlobalDCEPass());
  MPM.run(M, MAM);
  WEFT_LOG(DebugCompile, "O3 of '%s': %.3f s", Opts.Kernel.c_str(),
           secondsSince(Start));
  if (StaticMultiIssue) {
    static const MachineModel Default = defaultMachineModel();
    Schedule = scheduleAndCountBlocks(
        M, Target.Machine ? *Target.Machine : Default, MAM, FAM);
    // The schedule prices the machine's half operations as such; the host
    // that runs the code may have none, and its back end would split a
    // half fmuladd into a product and a sum each rounded to half.
    if (!computesHalvesNatively(TM))
      for (Function &F : M)
        if (!F.isDeclaration())
          FAM.invalidate(F, PromoteHalfArithmeticPass().run(F, FAM));
  }
  return true;
}

bool emitObject(Module &M, TargetMachine &TM, SmallVectorImpl<char> &Object,
                std::string &Error) {
  raw_svector_ostream OS(Object);
  legacy::PassManager PM;
  if (TM.addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::ObjectFile)) {
    Error = "the target cannot emit object files";
    return false;
  }
  PM.run(M);
  return true;
}

/// Drops what only made sense for the SPIR-like kernel: convergent (the
/// barriers are turned into work-item loops before O3 runs, and convergent
/// blocks loop transformations).
void prepareForWorkGroup(Module &M) {
  externalizeGlobalVariables(M);
  for (Function &F : M) {
    F.removeFnAttr(Attribute::Convergent);
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          CB->removeFnAttr(Attribute::Convergent);
  }
}

size_t privateMemory(Function &Launcher) {
  const DataLayout &DL = Launcher.getParent()->getDataLayout();
  size_t Bytes = 0;
  for (Instruction &I : Launcher.getEntryBlock())
    if (auto *A = dyn_cast<AllocaInst>(&I)) {
      // LockstepLoops' arrays hold one element per work-item.
      if (A->hasMetadata(LockstepArrayMD))
        Bytes += DL.getTypeAllocSize(
            cast<ArrayType>(A->getAllocatedType())->getElementType());
      else if (auto Size = A->getAllocationSize(DL))
        Bytes += Size->getFixedValue();
    }
  return Bytes;
}

} // namespace

/// Bytes of context arrays one worker may hold for one work-group
/// (WorkGroupContext::PrivateArena). A kernel whose values live across
/// barriers need more than this for the device's largest work-group gets
/// a smaller CL_KERNEL_WORK_GROUP_SIZE instead of an arena that size.
static constexpr uint64_t PrivateArenaBudget = 64ull << 20;

static void measureKernelMemory(const Module &M, KernelDesc &K);

namespace {

/// K's work-group size limit as the log shows it.
std::string limitText(const KernelDesc &K) {
  return K.MaxWorkGroupSize ? std::to_string(K.MaxWorkGroupSize)
                            : std::string("none (no context arrays)");
}

/// The kernel cache's key for K's memory figures: its name under a prefix
/// no kernel name has, and no local size (they are per kernel).
KernelCache::Key memoryFiguresKey(const std::string &Bitcode,
                                  const TargetDesc &Target,
                                  const KernelDesc &K) {
  static const size_t NoLocalSize[3] = {0, 0, 0};
  return KernelCache::makeKey(Bitcode, "memory figures:" + K.Name,
                              NoLocalSize, Target);
}

/// The figures kept as text in an entry's object, "<private> <limit>".
bool restoreMemoryFigures(const KernelCache::Key &Key, KernelDesc &K) {
  CachedWorkGroupFunction Hit;
  if (!KernelCache::get().lookup(Key, Hit))
    return false;
  unsigned long long Private = 0, Limit = 0;
  char Extra = 0;
  if (sscanf(Hit.Object.c_str(), "%llu %llu%c", &Private, &Limit, &Extra) !=
      2)
    return false;
  K.PrivateMemSize = Private;
  K.MaxWorkGroupSize = Limit;
  return true;
}

void storeMemoryFigures(const KernelCache::Key &Key, const KernelDesc &K) {
  CachedWorkGroupFunction Entry;
  Entry.Object = std::to_string(K.PrivateMemSize) + " " +
                 std::to_string(K.MaxWorkGroupSize);
  KernelCache::get().store(Key, Entry);
}

} // namespace

void describeKernelMemory(const Module &M, const std::string &Bitcode,
                          const TargetDesc &Target, KernelDesc &K) {
  // Putting a copy of the whole program through the work-group passes for
  // each kernel takes most of clBuildProgram (CLBlast's DGEMM program: 1.8
  // of 1.9 s), so the figures are kept in the kernel cache with the code.
  KernelCache::Key Key{};
  bool Cached = KernelCache::get().enabled();
  if (Cached) {
    Key = memoryFiguresKey(Bitcode, Target, K);
    if (restoreMemoryFigures(Key, K)) {
      WEFT_LOG(DebugCompile,
               "kernel '%s': %zu bytes of private memory per work-item, "
               "work-group size limit %s, from the kernel cache",
               K.Name.c_str(), K.PrivateMemSize, limitText(K).c_str());
      return;
    }
  }
  measureKernelMemory(M, K);
  if (Cached)
    storeMemoryFigures(Key, K);
}

/// The functions Root reaches through calls and address references.
static SmallPtrSet<const Function *, 32> reachableFrom(const Function &Root) {
  SmallPtrSet<const Function *, 32> Seen = {&Root};
  SmallVector<const Function *, 16> Work = {&Root};
  while (!Work.empty())
    for (const Instruction &I : instructions(*Work.pop_back_val()))
      for (const Value *Op : I.operands())
        if (auto *F = dyn_cast<Function>(Op->stripPointerCasts()))
          if (Seen.insert(F).second)
            Work.push_back(F);
  return Seen;
}

/// A copy of M with the bodies of only the functions K reaches: copying
/// the whole program for each of its kernels made clBuildProgram quadratic
/// in the program's size (50 kernels of 4,500 lines: 5 s). The other
/// functions, other kernels included, are left out when nothing refers to
/// them.
static std::unique_ptr<Module> copyForKernel(const Module &M,
                                             const std::string &Name) {
  const Function *Root = M.getFunction(Name);
  if (!Root || Root->isDeclaration())
    return CloneModule(M);
  SmallPtrSet<const Function *, 32> Reached = reachableFrom(*Root);
  ValueToValueMapTy VMap;
  std::unique_ptr<Module> Copy =
      CloneModule(M, VMap, [&](const GlobalValue *GV) {
        auto *F = dyn_cast<Function>(GV);
        return !F || Reached.count(F);
      });
  for (Function &F : make_early_inc_range(*Copy)) {
    const Function *Original = M.getFunction(F.getName());
    if (F.use_empty() && Original && !Original->isDeclaration() &&
        !Reached.count(Original))
      F.eraseFromParent();
  }
  return Copy;
}

/// Private memory per work-item and the largest work-group the arena budget
/// allows, for K's work-group function compiled for LocalSize; false when
/// there is nothing to measure.
static bool measureAt(const Module &M, const KernelDesc &K,
                      std::array<uint64_t, 3> LocalSize, size_t &PrivateMem,
                      size_t &MaxWorkGroupSize) {
  uint64_t WorkItems = LocalSize[0] * LocalSize[1] * LocalSize[2];
  WeftPassOptions Opts;
  Opts.Kernel = K.Name;
  Opts.LocalSize = LocalSize;
  Opts.Method = workGroupMethodFromEnvironment();
  // The same choice of method as the compile of a work-group function
  // makes, so the queries describe the code that will run.
  std::unique_ptr<Module> Copy;
  for (;;) {
    Copy = copyForKernel(M, K.Name);
    prepareForWorkGroup(*Copy);
    LoopAnalysisManager LAM;
    FunctionAnalysisManager FAM;
    CGSCCAnalysisManager CGAM;
    ModuleAnalysisManager MAM;
    PassBuilder PB;
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
    {
      ModulePassManager MPM;
      addWorkGroupPasses(MPM, Opts);
      MPM.run(*Copy, MAM);
    }
    std::string Error;
    if (hasValidLauncher(*Copy, K.Name, Error))
      break;
    if (Opts.Method != WorkGroupMethod::Auto) {
      WEFT_LOG(DebugCompile, "kernel '%s': nothing to measure: %s",
               K.Name.c_str(), Error.c_str());
      return false;
    }
    Opts.Method = WorkGroupMethod::Fallback;
    Opts.FallbackReason = "the region method failed: " + Error;
  }
  Function *L = Copy->getFunction(launcherName(K.Name));
  uint64_t Arena = 0;
  if (Attribute A = L->getFnAttribute(PrivateArenaAttr); A.isValid())
    A.getValueAsString().getAsInteger(10, Arena);
  uint64_t ArenaPerItem = (Arena + WorkItems - 1) / WorkItems;
  PrivateMem = privateMemory(*L) + ArenaPerItem;
  MaxWorkGroupSize =
      ArenaPerItem ? std::max<uint64_t>(1, PrivateArenaBudget / ArenaPerItem)
                   : 0;
  WEFT_LOG(DebugCompile,
           "kernel '%s', local size %llux%llux%llu: %zu bytes of private "
           "memory per work-item (%llu in the private arena)",
           K.Name.c_str(), (unsigned long long)LocalSize[0],
           (unsigned long long)LocalSize[1], (unsigned long long)LocalSize[2],
           PrivateMem, (unsigned long long)ArenaPerItem);
  return true;
}

static void measureKernelMemory(const Module &M, KernelDesc &K) {
  // The passes are cheap next to O3; measuring on their output counts
  // exactly what the launcher will hold, after SROA and region formation.
  // Context arrays grow with the work-group, everything else does not, so
  // the arena's size for a reference group gives the share per work-item
  // (rounded up: each array is aligned).
  constexpr uint64_t Reference = 64;
  bool HasReqd = K.ReqdWorkGroupSize[0] != 0;
  std::array<uint64_t, 3> LocalSize = {Reference, 1, 1};
  if (HasReqd)
    LocalSize = {K.ReqdWorkGroupSize[0], K.ReqdWorkGroupSize[1],
                 K.ReqdWorkGroupSize[2]};
  if (!measureAt(M, K, LocalSize, K.PrivateMemSize, K.MaxWorkGroupSize))
    return;
  // A kernel that synchronizes its sub-groups runs as fibers in groups of
  // several sub-groups (lib/kernel/subgroups.cl), each work-item on a stack
  // of its own: its figures are those of such a group too, whichever are
  // worse.
  auto Synchronizes = [&](const Module &Of) {
    const Function *F = Of.getFunction(SubGroupBarrierName);
    return F && !F->use_empty();
  };
  if (!HasReqd && Synchronizes(M) && Synchronizes(*copyForKernel(M, K.Name))) {
    size_t PrivateMem = 0, MaxWorkGroupSize = 0;
    if (measureAt(M, K, {2 * SubGroupSize, 1, 1}, PrivateMem,
                  MaxWorkGroupSize)) {
      K.PrivateMemSize = std::max(K.PrivateMemSize, PrivateMem);
      if (MaxWorkGroupSize)
        K.MaxWorkGroupSize =
            K.MaxWorkGroupSize ? std::min(K.MaxWorkGroupSize, MaxWorkGroupSize)
                               : MaxWorkGroupSize;
    }
  }
  WEFT_LOG(DebugCompile, "kernel '%s': work-group size limit %s",
           K.Name.c_str(), limitText(K).c_str());
}

WorkGroupFunction
compileWorkGroupFunction(const std::string &Bitcode, const std::string &Kernel,
                         const size_t LocalSize[3], const TargetDesc &Target,
                         std::string &Error,
                         const GlobalVariableAddresses &Globals) {
  WorkGroupFunction Result;
  auto Start = std::chrono::steady_clock::now();
  initializeNativeTarget();
  for (unsigned D = 0; D < 3; ++D)
    if (LocalSize[D] == 0) {
      Error = "local size must be at least 1 in every dimension";
      return Result;
    }

  KernelCache &Cache = KernelCache::get();
  // The key also names the code that program binaries carry (Native).
  KernelCache::Key CacheKey =
      KernelCache::makeKey(Bitcode, Kernel, LocalSize, Target);
  // A static multi-issue machine's code is worth nothing without its
  // schedule, which entries do not hold: always compiled, never cached.
  bool Cacheable = Target.Back == TargetDesc::BackHalf::CpuSimd;
  if (Cacheable && (Cache.enabled() || Cache.hasAdopted())) {
    CachedWorkGroupFunction Hit;
    // Whoever asks for the IR wants it produced, not restored.
    const char *DumpDir = getenv("WEFT_DUMP_IR");
    bool Dumping = DumpDir && *DumpDir;
    if (!Dumping && Cache.lookup(CacheKey, Hit) &&
        loadObject(Hit.Object, Hit.Symbol, Globals, Result, Error)) {
      Result.PrivateArenaSize = Hit.PrivateArenaSize;
      Result.PrivateMemPerWorkItem = Hit.PrivateMemPerWorkItem;
      Result.LocalVariablesSize = Hit.LocalVariablesSize;
      Result.Native = std::make_shared<const std::string>(
          KernelCache::encode(CacheKey, Hit));
      WEFT_LOG(DebugCompile,
               "work-group function of '%s' for %zux%zux%zu from the kernel "
               "cache: %.3f s",
               Kernel.c_str(), LocalSize[0], LocalSize[1], LocalSize[2],
               secondsSince(Start));
      return Result;
    }
    Error.clear();
  }

  WeftPassOptions Opts;
  Opts.Kernel = Kernel;
  Opts.LocalSize = {LocalSize[0], LocalSize[1], LocalSize[2]};
  Opts.Method = workGroupMethodFromEnvironment();
  Opts.CheckAccesses = Target.CheckAccesses;
  std::unique_ptr<TargetMachine> TM = createTargetMachine(Target, Error);
  if (!TM)
    return Result;
  // A second attempt, with the fallback method, when the region method
  // fails where it should have declined: never a broken kernel.
  std::unique_ptr<LLVMContext> Context;
  std::unique_ptr<Module> Owner;
  bool OptDisable = false;
  StaticSchedule Schedule;
  for (;;) {
    Owner.reset();
    Context = std::make_unique<LLVMContext>();
    Context->setDiagnosticHandler(std::make_unique<OptimizerDiagnostics>());
    Expected<std::unique_ptr<Module>> Parsed = parseBitcodeFile(
        MemoryBufferRef(StringRef(Bitcode), "program"), *Context);
    if (!Parsed) {
      Error =
          "cannot read the program's bitcode: " + toString(Parsed.takeError());
      return Result;
    }
    Owner = std::move(*Parsed);
    Module &M = *Owner;
    Function *K = M.getFunction(Kernel);
    if (!K || !isKernel(*K)) {
      Error = "no kernel named '" + Kernel + "' in the program";
      return Result;
    }
    OptDisable = M.getModuleFlag(OptDisableFlag) != nullptr;
    M.setDataLayout(TM->createDataLayout());
    retargetFunctions(M, Target);
    prepareForWorkGroup(M);
    dumpIR(M, Kernel + "-before");
    std::string PassError;
    if (optimize(M, *TM, Opts, OptDisable, Target, Schedule, PassError))
      break;
    if (Opts.Method != WorkGroupMethod::Auto) {
      Error = PassError + " (WEFT_WG_METHOD=" +
              workGroupMethodName(Opts.Method) + ")";
      return Result;
    }
    WEFT_LOG(DebugCompile,
             "kernel '%s': the region method failed (%s); compiling again "
             "with the fallback method",
             Kernel.c_str(), PassError.c_str());
    Opts.Method = WorkGroupMethod::Fallback;
    Opts.FallbackReason = "the region method failed: " + PassError;
  }
  Module &M = *Owner;
  std::string Launcher = launcherName(Kernel);
  Function *L = M.getFunction(Launcher);
  // Context arrays: their size is fixed by the passes, before O3.
  if (Attribute A = L->getFnAttribute(PrivateArenaAttr); A.isValid())
    A.getValueAsString().getAsInteger(10, Result.PrivateArenaSize);
  uint64_t WorkItems = uint64_t(LocalSize[0]) * LocalSize[1] * LocalSize[2];
  Result.PrivateMemPerWorkItem =
      privateMemory(*L) + Result.PrivateArenaSize / WorkItems;
  if (Attribute A = L->getFnAttribute(LocalVariablesAttr); A.isValid())
    A.getValueAsString().getAsInteger(10, Result.LocalVariablesSize);

  std::string Symbol = Launcher;
  dumpIR(M, Kernel + "-final");

  SmallVector<char, 0> Object;
  if (!emitObject(M, *TM, Object, Error))
    return Result;
  WEFT_LOG(DebugCompile, "code generation for '%s': %zu bytes of object",
           Kernel.c_str(), Object.size());
  StringRef ObjectBytes(Object.data(), Object.size());
  if (!loadObject(ObjectBytes, Symbol, Globals, Result, Error))
    return Result;
  if (Cacheable) {
    CachedWorkGroupFunction Entry{Symbol, ObjectBytes.str(),
                                  Result.PrivateArenaSize,
                                  Result.PrivateMemPerWorkItem,
                                  Result.LocalVariablesSize};
    Cache.store(CacheKey, Entry);
    Result.Native = std::make_shared<const std::string>(
        KernelCache::encode(CacheKey, Entry));
  } else {
    Result.Schedule =
        std::make_shared<const StaticSchedule>(std::move(Schedule));
  }
  WEFT_LOG(DebugCompile, "work-group function %s for %zux%zux%zu: %.3f s",
           Symbol.c_str(), LocalSize[0], LocalSize[1], LocalSize[2],
           secondsSince(Start));
  return Result;
}

bool adoptWorkGroupFunction(const std::string &Bitcode,
                            const std::string &Kernel,
                            const size_t LocalSize[3], const TargetDesc &Target,
                            const std::string &Native) {
  bool Adopted = KernelCache::get().adopt(
      KernelCache::makeKey(Bitcode, Kernel, LocalSize, Target), Native);
  WEFT_LOG(DebugCompile,
           "work-group function of '%s' for %zux%zux%zu from a program "
           "binary: %s",
           Kernel.c_str(), LocalSize[0], LocalSize[1], LocalSize[2],
           Adopted ? "adopted" : "does not fit this build, will compile");
  return Adopted;
}

} // namespace weft
