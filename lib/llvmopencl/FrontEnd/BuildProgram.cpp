//===- BuildProgram.cpp - clBuildProgram: OpenCL C to linked bitcode ------===//
//
// buildProgram() in four steps, the first two shared with compileProgram()
// (clCompileProgram) and the last two with linkProgram() (clLinkProgram,
// LinkProgram.cpp):
//
//   1. the clBuildProgram options, validated and mapped to cc1 arguments
//      (anything unknown is CL_INVALID_BUILD_OPTIONS, named in the log);
//   2. clang in-process (FrontEnd.cpp), for the builtin library's x86-64
//      level so that the vector calling convention of the two agrees;
//   3. the builtin library linked in, only the functions the program uses;
//      a process keeps the part of it that a set of needed names pulled
//      in, which later builds needing the same names read instead;
//   4. a check that would otherwise fail late: calls to functions nobody
//      defines.
//
// Then the kernels' descriptions come from clang's kernel metadata, and the
// module is serialized as the program's bitcode. A compiled object stops
// after step 2: its undefined functions may come from another object.
//
//===----------------------------------------------------------------------===//
#include "CompilerInternals.h"
#include "FrontEnd/FrontEnd.h"
#include "FrontEnd/GlobalVariables.h"
#include "FrontEnd/SpirvFrontEnd.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/Launcher.h"

#include "BuiltinLibrary.h"
#include "weft/debug.h"

#include <algorithm>

#include "clang/Basic/OpenCLOptions.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <chrono>
#include <memory>
#include <mutex>
#include <unordered_map>

#ifndef WEFT_CLANG_RESOURCE_DIR
#error "WEFT_CLANG_RESOURCE_DIR must be defined by the build"
#endif

using namespace llvm;

namespace weft {

namespace {

using Status = ProgramBuild::Status;

/// Splits clBuildProgram options at white space; quotes group, a backslash
/// escapes the next character.
std::vector<std::string> splitOptions(const std::string &Options) {
  std::vector<std::string> Words;
  std::string Word;
  bool InWord = false;
  char Quote = 0;
  for (size_t I = 0; I < Options.size(); ++I) {
    char Ch = Options[I];
    if (Quote) {
      if (Ch == Quote)
        Quote = 0;
      else if (Ch == '\\' && I + 1 < Options.size())
        Word += Options[++I];
      else
        Word += Ch;
    } else if (Ch == '"' || Ch == '\'') {
      Quote = Ch;
      InWord = true;
    } else if (Ch == '\\' && I + 1 < Options.size()) {
      Word += Options[++I];
      InWord = true;
    } else if (isSpace(Ch)) {
      if (InWord)
        Words.push_back(Word);
      Word.clear();
      InWord = false;
    } else {
      Word += Ch;
      InWord = true;
    }
  }
  if (InWord)
    Words.push_back(Word);
  return Words;
}

/// "CL1.2" -> 120; 0 when not an OpenCL C version.
unsigned openCLCVersion(StringRef Std) {
  return StringSwitch<unsigned>(Std)
      .Case("CL1.0", 100)
      .Case("CL1.1", 110)
      .Case("CL1.2", 120)
      .Case("CL2.0", 200)
      .Case("CL3.0", 300)
      .Default(0);
}

/// Flags passed to clang unchanged.
bool isPassThroughFlag(StringRef Opt) {
  return StringSwitch<bool>(Opt)
      .Cases("-cl-opt-disable", "-cl-fast-relaxed-math", "-cl-mad-enable",
             "-cl-finite-math-only", "-cl-unsafe-math-optimizations", true)
      .Cases("-cl-no-signed-zeros", "-cl-single-precision-constant",
             "-cl-strict-aliasing", true)
      .Cases("-cl-uniform-work-group-size",
             "-cl-fp32-correctly-rounded-divide-sqrt", "-w", "-Werror", true)
      .Default(false);
}

/// Whether the device compiles OpenCL C Std: a listed version, or a 1.x
/// version below a listed 1.x one (CL_DEVICE_OPENCL_C_ALL_VERSIONS lists
/// 1.0 and 1.1 with 1.2). OpenCL C 2.0 is not implied by 3.0: its generic
/// address space, pipes and work-group collectives are mandatory there.
bool supportsOpenCLC(const TargetDesc &Target, StringRef Std) {
  unsigned Version = openCLCVersion(Std);
  for (const std::string &V : Target.OpenCLCVersions) {
    unsigned Listed = openCLCVersion(V);
    if (Listed == Version || (Listed < 200 && Version < Listed))
      return true;
  }
  return false;
}

struct ParsedOptions {
  std::vector<std::string> CC1Args; ///< user-controlled part
  std::string Std;                  ///< -cl-std value
  bool OptDisable = false;
};

/// Validates Options; on failure appends the reason to Log.
bool parseOptions(const std::string &Options, const TargetDesc &Target,
                  ParsedOptions &Out, std::string &Log) {
  std::vector<std::string> Words = splitOptions(Options);
  for (size_t I = 0; I < Words.size(); ++I) {
    StringRef W = Words[I];
    if (W == "-D" || W == "-I") {
      if (I + 1 >= Words.size()) {
        Log += "error: option '" + W.str() + "' needs an argument\n";
        return false;
      }
      Out.CC1Args.push_back(W.str());
      Out.CC1Args.push_back(Words[++I]);
    } else if (W.starts_with("-D") || W.starts_with("-I")) {
      Out.CC1Args.push_back(W.str());
    } else if (W.consume_front("-cl-std=")) {
      if (!openCLCVersion(W)) {
        Log += "error: unknown OpenCL C version in '-cl-std=" + W.str() + "'\n";
        return false;
      }
      Out.Std = W.str();
    } else if (W == "-cl-denorms-are-zero") {
      // Only clang's driver knows this one; it means flushing denormals of
      // both precisions (the launcher sets the hardware's mode from the
      // attribute this puts on every function: Launcher.cpp).
      Out.CC1Args.push_back("-fdenormal-fp-math=preserve-sign,preserve-sign");
    } else if (isPassThroughFlag(W)) {
      Out.CC1Args.push_back(W.str());
      if (W == "-cl-opt-disable")
        Out.OptDisable = true;
    } else if (W == "-cl-kernel-arg-info" || W == "-g" ||
               W == "-cl-no-subgroup-ifp") {
      // Argument info is always produced; debug info is not emitted yet.
    } else {
      Log += "error: unknown build option '" + W.str() + "'\n";
      return false;
    }
  }
  return true;
}

std::vector<std::string> frontEndArgs(const ParsedOptions &Opts,
                                      const TargetDesc &Target,
                                      const BuiltinLibrary &Lib) {
  std::string Std = Opts.Std;
  if (Std.empty())
    Std = Target.OpenCLCVersions.empty() ? "CL1.2" : Target.OpenCLCVersions[0];
  std::string Resource = WEFT_CLANG_RESOURCE_DIR;
  std::vector<std::string> Args = {
      "-triple", Target.Triple.empty() ? "x86_64-pc-linux-gnu" : Target.Triple,
      "-target-cpu", Lib.CPU,
      "-x", "cl", "-cl-std=" + Std,
      "-finclude-default-header", "-fdeclare-opencl-builtins",
      // Distinct address spaces for __global/__constant/__local, so the
      // passes can tell automatic __local variables apart; the x86 back end
      // treats them all as plain pointers.
      "-ffake-address-space-map",
      "-cl-kernel-arg-info",
      "-O3", "-disable-llvm-passes",
      "-resource-dir", Resource, "-internal-isystem", Resource + "/include",
      "-Wno-psabi", "-ferror-limit", "50"};
  std::string Ext;
  for (const std::string &F : Target.OpenCLCFeatures)
    Ext += ",+" + F;
  for (const std::string &E : Target.Extensions)
    Ext += ",+" + E;
  if (!Ext.empty())
    Args.push_back("-cl-ext=-all" + Ext);
  // Clang defines these OpenCL C 3.0 feature macros only for SPIR targets
  // (opencl-c-base.h calls them header-only); its builtin declarations,
  // the C11 atomics among them, test the macros. Feature macros are
  // OpenCL C 3.0's: a 1.x program sees none.
  for (const std::string &F : Target.OpenCLCFeatures)
    if (openCLCVersion(Std) >= 300 && StringSwitch<bool>(F)
            .Cases("__opencl_c_atomic_scope_device",
                   "__opencl_c_atomic_scope_all_devices",
                   "__opencl_c_work_group_collective_functions",
                   "__opencl_c_read_write_images", true)
            .Default(false))
      Args.push_back("-D" + F + "=1");
  // Extensions clang does not know (cl_khr_expect_assume,
  // cl_khr_extended_bit_ops, cl_khr_integer_dot_product) are lost in
  // -cl-ext, yet opencl-c-base.h and clang's builtin declarations test their
  // macros: Weft defines them, in every OpenCL C version as clang does its
  // own, and with them the feature macros of cl_khr_integer_dot_product.
  static const clang::OpenCLOptions Known;
  for (const std::string &E : Target.Extensions)
    if (!Known.isKnown(E))
      Args.push_back("-D" + E + "=1");
  for (const std::string &F : Target.OpenCLCFeatures)
    if (StringRef(F).starts_with("__opencl_c_integer_dot_product_input_"))
      Args.push_back("-D" + F + "=1");
  Args.push_back("-D__OPENCL_VERSION__=" + std::to_string(Target.OpenCLVersion));
  // Every OpenCL C version defines __IMAGE_SUPPORT__ on devices with
  // images; clang leaves it to the implementation.
  if (std::find(Target.OpenCLCFeatures.begin(), Target.OpenCLCFeatures.end(),
                "__opencl_c_images") != Target.OpenCLCFeatures.end())
    Args.push_back("-D__IMAGE_SUPPORT__=1");
  Args.insert(Args.end(), Opts.CC1Args.begin(), Opts.CC1Args.end());
  return Args;
}

bool isWorkItemFunction(StringRef Name) {
  return StringSwitch<bool>(Name)
      .Cases("_Z13get_global_idj", "_Z12get_local_idj", "_Z12get_group_idj",
             "_Z14get_local_sizej", "_Z23get_enqueued_local_sizej", true)
      .Cases("_Z15get_global_sizej", "_Z14get_num_groupsj",
             "_Z17get_global_offsetj", "_Z12get_work_dimv", true)
      .Cases("_Z20get_global_linear_idv", "_Z19get_local_linear_idv", true)
      // The generic address space's queries (ResolveWorkItemFunctions.cpp).
      .Cases("__to_global", "__to_local", "__to_private", true)
      .Cases("_Z9get_fencePU9CLgenericv", "_Z9get_fencePU9CLgenericKv", true)
      // The sub-group functions' (ResolveSubGroups.h; spelled out here for
      // tests/builtins/coverage.py, which reads this function).
      .Cases("__weft_sub_group_max", "__weft_several_sub_groups",
             "__weft_sub_group_barrier", true)
      // The non-uniform ones' (ResolveNonUniformSubGroups.h).
      .Cases("__weft_sub_group_uniform_here", "__weft_sub_group_converge",
             "__weft_sub_group_converged_mask",
             "__weft_sub_group_converged_value", true)
      .Default(false);
}

bool isBarrier(StringRef Name) {
  return Name.starts_with("_Z7barrier") ||
         Name.starts_with("_Z18work_group_barrier");
}

/// Functions F calls, directly or not, including F.
SmallPtrSet<Function *, 16> reachableFunctions(Function &F) {
  SmallPtrSet<Function *, 16> Seen;
  SmallVector<Function *, 16> Work = {&F};
  while (!Work.empty()) {
    Function *G = Work.pop_back_val();
    if (!Seen.insert(G).second)
      continue;
    for (Instruction &I : instructions(*G))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration())
            Work.push_back(Callee);
  }
  return Seen;
}

/// The C math functions lib/kernel/libm.cl calls and SLEEF's vector
/// functions lib/kernel/sleef.cl calls: the JIT resolves them from the
/// host's libm.so.6 and libsleef.so.3 (WorkGroupCompiler.cpp loads them).
bool isHostMathFunction(StringRef Name) {
  if (Name.starts_with("Sleef_"))
    return true;
  return StringSwitch<bool>(Name)
      .Cases("acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", true)
      .Cases("cosh", "erf", "erfc", "exp10", "expm1", "log1p", "sinh", true)
      .Cases("tanh", "tgamma", "lgamma", "logb", "sin", "cos", "tan", true)
      .Cases("atan2", "fmod", "hypot", "remainder", "pow", "nextafter", true)
      .Cases("lgamma_r", "remquo", "nextafterf", true)
      .Default(false);
}

/// Declarations nothing will define: not an intrinsic, not resolved by the
/// work-group passes, not in the builtin library or the host's libm.
std::vector<std::string> undefinedFunctions(Module &M) {
  std::vector<std::string> Missing;
  for (Function &F : M)
    if (F.isDeclaration() && !F.isIntrinsic() && !F.use_empty() &&
        !isWorkItemFunction(F.getName()) && !isBarrier(F.getName()) &&
        F.getName() != "printf" && // LowerPrintf.cpp
        !isHostMathFunction(F.getName()))
      Missing.push_back(demangle(F.getName().str()));
  return Missing;
}

/// The library code that one set of needed functions pulls in, kept per
/// process as bitcode. Reading the whole library's module records (its
/// thousands of declarations) costs some 60 ms a build whatever the program
/// uses, and clients build the same few programs again and again (the CTS's
/// image tests build one source per image size), so a build that needs what
/// an earlier one needed reads only that part.
struct LibraryPart {
  std::string Bitcode;
  /// Names the part calls without defining, with whether the program that
  /// made it defined them: a program that overrides a library function
  /// changes what the part must hold.
  std::vector<std::pair<std::string, bool>> Outside;
};

struct LibraryParts {
  std::mutex Lock;
  std::unordered_map<std::string, std::shared_ptr<const LibraryPart>> ByNeeds;
  size_t Bytes = 0;
};

LibraryParts &libraryParts() {
  static LibraryParts Parts;
  return Parts;
}

constexpr size_t MaxLibraryPartBytes = 64u << 20;

bool isIntrinsic(const GlobalValue &GV) {
  const auto *F = dyn_cast<Function>(&GV);
  return F && F->isIntrinsic();
}

/// What decides the library code a link brings in: the library, the target
/// and every name the program declares.
std::string libraryNeeds(const Module &M, const BuiltinLibrary &Lib) {
  std::vector<StringRef> Names;
  for (const GlobalValue &GV : M.global_values())
    if (GV.isDeclaration() && !isIntrinsic(GV))
      Names.push_back(GV.getName());
  llvm::sort(Names);
  std::string Key = std::string(Lib.Level) + '\n' +
                    std::to_string(reinterpret_cast<uintptr_t>(Lib.Data)) +
                    '\n' + M.getTargetTriple() + '\n' + M.getDataLayoutStr() +
                    '\n';
  for (StringRef Name : Names) {
    Key += Name;
    Key += '\n';
  }
  return Key;
}

bool definesName(const Module &M, StringRef Name) {
  const GlobalValue *GV = M.getNamedValue(Name);
  return GV && !GV->isDeclaration();
}

/// A module's named metadata (module flags among them), whose nodes the
/// LLVMContext keeps after the module is gone.
using NamedMetadata =
    std::vector<std::pair<std::string, std::vector<MDNode *>>>;

NamedMetadata namedMetadataOf(const Module &M) {
  NamedMetadata Named;
  for (const NamedMDNode &N : M.named_metadata()) {
    std::vector<MDNode *> Operands;
    for (unsigned I = 0, E = N.getNumOperands(); I != E; ++I)
      Operands.push_back(N.getOperand(I));
    Named.emplace_back(N.getName().str(), std::move(Operands));
  }
  return Named;
}

/// After M was linked with the whole library: the library's part of it.
/// Library holds the library's own named metadata: its module flags (unwind
/// tables, PIC/PIE levels) reach code generation as they did before.
std::shared_ptr<const LibraryPart>
extractLibraryPart(const Module &M, const StringSet<> &DefinedBefore,
                   const NamedMetadata &Library) {
  ValueToValueMapTy Map;
  std::unique_ptr<Module> Part =
      CloneModule(M, Map, [&](const GlobalValue *GV) {
        return !DefinedBefore.contains(GV->getName());
      });
  SmallVector<NamedMDNode *, 8> Named;
  for (NamedMDNode &N : Part->named_metadata())
    Named.push_back(&N);
  for (NamedMDNode *N : Named)
    Part->eraseNamedMetadata(N);
  for (const auto &[Name, Operands] : Library) {
    NamedMDNode *N = Part->getOrInsertNamedMetadata(Name);
    for (MDNode *Op : Operands)
      N->addOperand(Op);
  }
  // The program's own code is left as declarations; those that library code
  // does not call go, the rest are what the part needs from outside.
  auto Result = std::make_shared<LibraryPart>();
  SmallVector<GlobalValue *, 64> Unused;
  for (GlobalValue &GV : Part->global_values())
    if (GV.isDeclaration() && GV.use_empty())
      Unused.push_back(&GV);
  for (GlobalValue *GV : Unused)
    GV->eraseFromParent();
  for (const GlobalValue &GV : Part->global_values())
    if (GV.isDeclaration() && !isIntrinsic(GV))
      Result->Outside.emplace_back(GV.getName().str(),
                                   DefinedBefore.contains(GV.getName()));
  raw_string_ostream Out(Result->Bitcode);
  WriteBitcodeToFile(*Part, Out);
  Out.flush();
  return Result;
}

bool linkBuiltins(Module &M, const BuiltinLibrary &Lib, std::string &Log) {
  std::string Needs = libraryNeeds(M, Lib);
  std::shared_ptr<const LibraryPart> Known;
  {
    LibraryParts &Parts = libraryParts();
    std::lock_guard<std::mutex> Guard(Parts.Lock);
    auto It = Parts.ByNeeds.find(Needs);
    if (It != Parts.ByNeeds.end())
      Known = It->second;
  }
  if (Known && llvm::all_of(Known->Outside, [&](const auto &Name) {
        return definesName(M, Name.first) == Name.second;
      })) {
    MemoryBufferRef Buffer(Known->Bitcode, "weft-builtins-part");
    Expected<std::unique_ptr<Module>> Part =
        parseBitcodeFile(Buffer, M.getContext());
    if (!Part) {
      Log += "internal error: cannot read the builtin library: " +
             toString(Part.takeError()) + "\n";
      return false;
    }
    if (Linker::linkModules(M, std::move(*Part),
                            Linker::Flags::LinkOnlyNeeded)) {
      Log += "internal error: cannot link the builtin library\n";
      return false;
    }
    return true;
  }

  StringSet<> DefinedBefore;
  for (const GlobalValue &GV : M.global_values())
    if (!GV.isDeclaration())
      DefinedBefore.insert(GV.getName());
  MemoryBufferRef Buffer(StringRef(Lib.Data, Lib.Size), "weft-builtins");
  Expected<std::unique_ptr<Module>> Builtins =
      getLazyBitcodeModule(Buffer, M.getContext());
  if (!Builtins) {
    Log += "internal error: cannot read the builtin library: " +
           toString(Builtins.takeError()) + "\n";
    return false;
  }
  (*Builtins)->setTargetTriple(M.getTargetTriple());
  (*Builtins)->setDataLayout(M.getDataLayout());
  NamedMetadata LibraryMetadata = namedMetadataOf(**Builtins);
  if (Linker::linkModules(M, std::move(*Builtins),
                          Linker::Flags::LinkOnlyNeeded)) {
    Log += "internal error: cannot link the builtin library\n";
    return false;
  }
  if (Known)
    return true; // the program overrides what the known part assumed
  std::shared_ptr<const LibraryPart> Part =
      extractLibraryPart(M, DefinedBefore, LibraryMetadata);
  LibraryParts &Parts = libraryParts();
  std::lock_guard<std::mutex> Guard(Parts.Lock);
  if (Parts.Bytes + Part->Bitcode.size() > MaxLibraryPartBytes) {
    Parts.ByNeeds.clear();
    Parts.Bytes = 0;
  }
  if (Parts.ByNeeds.emplace(std::move(Needs), Part).second)
    Parts.Bytes += Part->Bitcode.size();
  return true;
}

std::string getMDString(Function &F, StringRef Kind, unsigned I) {
  MDNode *N = F.getMetadata(Kind);
  if (!N || I >= N->getNumOperands())
    return "";
  if (auto *S = dyn_cast_or_null<MDString>(N->getOperand(I)))
    return S->getString().str();
  return "";
}

uint64_t getMDInt(MDNode *N, unsigned I) {
  if (!N || I >= N->getNumOperands())
    return 0;
  if (auto *C = mdconst::dyn_extract_or_null<ConstantInt>(N->getOperand(I)))
    return C->getZExtValue();
  return 0;
}

/// OpenCL C spelling of a vec_type_hint type.
std::string openCLTypeName(Type *T, bool Signed) {
  unsigned N = 1;
  if (auto *V = dyn_cast<FixedVectorType>(T)) {
    N = V->getNumElements();
    T = V->getElementType();
  }
  std::string Name;
  if (T->isFloatTy())
    Name = "float";
  else if (T->isDoubleTy())
    Name = "double";
  else if (T->isHalfTy())
    Name = "half";
  else if (T->isIntegerTy(8))
    Name = "char";
  else if (T->isIntegerTy(16))
    Name = "short";
  else if (T->isIntegerTy(32))
    Name = "int";
  else if (T->isIntegerTy(64))
    Name = "long";
  if (T->isIntegerTy() && !Signed)
    Name = "u" + Name;
  return N > 1 ? Name + std::to_string(N) : Name;
}

KernelDesc describeKernel(Function &F) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  KernelDesc K;
  K.Name = F.getName().str();
  MDNode *AddrSpaces = F.getMetadata("kernel_arg_addr_space");
  for (Argument &A : F.args()) {
    unsigned I = A.getArgNo();
    KernelArgDesc D;
    D.Name = getMDString(F, "kernel_arg_name", I);
    D.TypeName = getMDString(F, "kernel_arg_type", I);
    switch (getMDInt(AddrSpaces, I)) {
    case 1:
      D.AddressQualifier = CL_KERNEL_ARG_ADDRESS_GLOBAL;
      break;
    case 2:
      D.AddressQualifier = CL_KERNEL_ARG_ADDRESS_CONSTANT;
      break;
    case 3:
      D.AddressQualifier = CL_KERNEL_ARG_ADDRESS_LOCAL;
      break;
    default:
      D.AddressQualifier = CL_KERNEL_ARG_ADDRESS_PRIVATE;
      break;
    }
    std::string Access = getMDString(F, "kernel_arg_access_qual", I);
    D.AccessQualifier = Access == "read_only"    ? CL_KERNEL_ARG_ACCESS_READ_ONLY
                        : Access == "write_only" ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
                        : Access == "read_write" ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                                                 : CL_KERNEL_ARG_ACCESS_NONE;
    std::string Qual = getMDString(F, "kernel_arg_type_qual", I);
    D.TypeQualifier = CL_KERNEL_ARG_TYPE_NONE;
    if (StringRef(Qual).contains("const"))
      D.TypeQualifier |= CL_KERNEL_ARG_TYPE_CONST;
    if (StringRef(Qual).contains("restrict"))
      D.TypeQualifier |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (StringRef(Qual).contains("volatile"))
      D.TypeQualifier |= CL_KERNEL_ARG_TYPE_VOLATILE;
    if (StringRef(Qual).contains("pipe"))
      D.TypeQualifier |= CL_KERNEL_ARG_TYPE_PIPE;

    StringRef TypeName = D.TypeName;
    Type *T = A.getType();
    if (TypeName.contains("image") && TypeName.ends_with("_t")) {
      D.ArgKind = KernelArgDesc::Kind::Image;
      D.Size = sizeof(cl_mem);
      D.Alignment = alignof(cl_mem);
    } else if (TypeName == "sampler_t") {
      D.ArgKind = KernelArgDesc::Kind::Sampler;
      D.Size = sizeof(cl_sampler);
      D.Alignment = alignof(cl_sampler);
    } else if (A.hasByValAttr()) {
      Type *V = A.getParamByValType();
      D.Size = DL.getTypeAllocSize(V);
      D.Alignment = A.getParamAlign().value_or(DL.getABITypeAlign(V)).value();
    } else if (T->isPointerTy() &&
               D.AddressQualifier != CL_KERNEL_ARG_ADDRESS_PRIVATE) {
      D.ArgKind = D.AddressQualifier == CL_KERNEL_ARG_ADDRESS_GLOBAL
                      ? KernelArgDesc::Kind::GlobalBuffer
                  : D.AddressQualifier == CL_KERNEL_ARG_ADDRESS_CONSTANT
                      ? KernelArgDesc::Kind::ConstantBuffer
                      : KernelArgDesc::Kind::LocalBuffer;
      D.Size = sizeof(cl_mem);
      D.Alignment = alignof(cl_mem);
    } else {
      D.Size = DL.getTypeAllocSize(T);
      D.Alignment = DL.getABITypeAlign(T).value();
    }
    K.Args.push_back(std::move(D));
  }

  // Clang sets it "true" for OpenCL C 1.x and -cl-uniform-work-group-size.
  K.UniformWorkGroupSize =
      F.getFnAttribute("uniform-work-group-size").getValueAsString() != "false";

  std::string Attrs;
  auto AddAttr = [&](const std::string &A) {
    if (!Attrs.empty())
      Attrs += ' ';
    Attrs += A;
  };
  if (MDNode *N = F.getMetadata("reqd_work_group_size")) {
    for (unsigned D = 0; D < 3; ++D)
      K.ReqdWorkGroupSize[D] = getMDInt(N, D);
    AddAttr(formatv("reqd_work_group_size({0},{1},{2})", K.ReqdWorkGroupSize[0],
                    K.ReqdWorkGroupSize[1], K.ReqdWorkGroupSize[2]).str());
  }
  if (MDNode *N = F.getMetadata("work_group_size_hint")) {
    for (unsigned D = 0; D < 3; ++D)
      K.WorkGroupSizeHint[D] = getMDInt(N, D);
    AddAttr(formatv("work_group_size_hint({0},{1},{2})", K.WorkGroupSizeHint[0],
                    K.WorkGroupSizeHint[1], K.WorkGroupSizeHint[2]).str());
  }
  if (MDNode *N = F.getMetadata("vec_type_hint"); N && N->getNumOperands() == 2)
    if (auto *V = mdconst::dyn_extract_or_null<Constant>(N->getOperand(0)))
      AddAttr("vec_type_hint(" + openCLTypeName(V->getType(), getMDInt(N, 1)) +
              ")");
  K.Attributes = Attrs;

  // Automatic __local variables of the kernel and anything it calls, laid
  // out in module order as the launcher lays out those the work-group
  // function still uses (a subset, never larger).
  SmallPtrSet<Function *, 16> Reachable = reachableFunctions(F);
  SmallVector<GlobalVariable *, 4> Locals;
  for (GlobalVariable &GV : F.getParent()->globals()) {
    if (GV.getAddressSpace() != LocalAddressSpace)
      continue;
    SmallVector<User *, 8> Work(GV.users());
    bool Used = false;
    while (!Work.empty() && !Used) {
      User *U = Work.pop_back_val();
      if (auto *I = dyn_cast<Instruction>(U))
        Used = Reachable.count(I->getFunction());
      else
        Work.append(U->user_begin(), U->user_end());
    }
    if (Used)
      Locals.push_back(&GV);
  }
  K.StaticLocalMemSize = layOutLocalVariables(Locals, DL).Size;
  return K;
}

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

} // namespace

std::unique_ptr<Module> compileToModule(LLVMContext &Context,
                                        const std::string &Source,
                                        const std::string &Options,
                                        const std::vector<HeaderSource> &Headers,
                                        const TargetDesc &Target,
                                        ProgramBuild &Build) {
  auto Start = std::chrono::steady_clock::now();
  ParsedOptions Opts;
  if (!parseOptions(Options, Target, Opts, Build.Log)) {
    Build.Result = Status::InvalidOptions;
    WEFT_LOG(DebugCompile, "rejected build options '%s'", Options.c_str());
    return nullptr;
  }
  if (!Opts.Std.empty() && !supportsOpenCLC(Target, Opts.Std)) {
    // A valid option naming a version this device lacks: the specification
    // has the compile fail for the device rather than reject the options.
    Build.Log += "error: this device does not support OpenCL C " +
                 Opts.Std.substr(2) + " (-cl-std=" + Opts.Std +
                 "); it supports:";
    for (const std::string &V : Target.OpenCLCVersions)
      Build.Log += " " + V;
    Build.Log += "\n";
    Build.Result = Status::BuildFailure;
    return nullptr;
  }
  initializeNativeTarget();
  BuiltinLibrary Lib = builtinLibraryFor(Target.SimdBytes);
  std::unique_ptr<Module> M = compileOpenCLSource(
      Context, Source, frontEndArgs(Opts, Target, Lib), Build.Log, Headers,
      &Build.Dependencies);
  if (!M) {
    Build.Result = Status::BuildFailure;
    return nullptr;
  }
  // A module flag rather than a build field, so that it survives
  // clCompileProgram + clLinkProgram.
  if (Opts.OptDisable)
    M->addModuleFlag(Module::Warning, OptDisableFlag, 1);
  WEFT_LOG(DebugCompile, "front end: %.3f s", secondsSince(Start));
  return M;
}

bool linkExecutable(Module &M, const TargetDesc &Target, ProgramBuild &Build) {
  auto Start = std::chrono::steady_clock::now();
  BuiltinLibrary Lib = builtinLibraryFor(Target.SimdBytes);
  Build.Kind = BinaryKind::Executable;
  if (!linkBuiltins(M, Lib, Build.Log)) {
    Build.Result = Status::BuildFailure;
    return false;
  }
  retargetFunctions(M, Target);
  WEFT_LOG(DebugCompile, "linked the %s builtin library: %.3f s", Lib.Level,
           secondsSince(Start));

  bool Failed = false;
  for (const std::string &Name : undefinedFunctions(M)) {
    Build.Log += "error: function '" + Name +
                 "' is not defined by the program, and Weft's builtin "
                 "library does not provide it yet\n";
    Failed = true;
  }
  for (Function &F : M) {
    if (!isKernel(F))
      continue;
    Build.Kernels.push_back(describeKernel(F));
  }
  std::string VerifyErrors;
  raw_string_ostream VerifyStream(VerifyErrors);
  if (verifyModule(M, &VerifyStream)) {
    Build.Log += "internal error: invalid module after linking builtins:\n" +
                 VerifyStream.str();
    Failed = true;
  }
  if (!Failed && !describeGlobalVariables(M, Target, Build))
    Failed = true;
  if (Failed) {
    Build.Result = Status::BuildFailure;
    Build.Kernels.clear();
    Build.GlobalVariables.clear();
    return false;
  }
  writeBitcode(M, Build);
  for (KernelDesc &K : Build.Kernels)
    describeKernelMemory(M, Build.Bitcode, Target, K);
  dumpIR(M, "program");
  WEFT_LOG(DebugCompile, "built %zu kernel(s), %zu bytes of bitcode",
           Build.Kernels.size(), Build.Bitcode.size());
  return true;
}

void writeBitcode(const Module &M, ProgramBuild &Build) {
  Build.Bitcode.clear();
  raw_string_ostream Out(Build.Bitcode);
  WriteBitcodeToFile(M, Out);
  Out.flush();
  Build.Result = Status::Success;
}

ProgramBuild buildProgram(const std::string &Source, const std::string &Options,
                          const TargetDesc &Target) {
  ProgramBuild Build;
  auto Start = std::chrono::steady_clock::now();
  LLVMContext Context;
  std::unique_ptr<Module> M =
      compileToModule(Context, Source, Options, {}, Target, Build);
  if (M && linkExecutable(*M, Target, Build))
    WEFT_LOG(DebugCompile, "clBuildProgram: %.3f s", secondsSince(Start));
  return Build;
}

namespace {

/// clBuildProgram's and clCompileProgram's first steps for SPIR-V: the
/// options checked as for source (those that steer clang have nothing to
/// steer; -cl-opt-disable holds), the module translated and adopted.
std::unique_ptr<Module> translateToModule(LLVMContext &Context,
                                          const std::string &IL,
                                          const SpecializationConstants &Spec,
                                          const std::string &Options,
                                          const TargetDesc &Target,
                                          ProgramBuild &Build) {
  ParsedOptions Opts;
  if (!parseOptions(Options, Target, Opts, Build.Log)) {
    Build.Result = Status::InvalidOptions;
    return nullptr;
  }
  initializeNativeTarget();
  std::unique_ptr<Module> M = translateSpirv(
      Context, IL, Spec, builtinLibraryFor(Target.SimdBytes), Build.Log);
  if (!M) {
    Build.Result = Status::BuildFailure;
    return nullptr;
  }
  if (Opts.OptDisable)
    M->addModuleFlag(Module::Warning, OptDisableFlag, 1);
  return M;
}

} // namespace

ProgramBuild buildProgramFromIL(const std::string &IL,
                                const SpecializationConstants &Spec,
                                const std::string &Options,
                                const TargetDesc &Target) {
  ProgramBuild Build;
  auto Start = std::chrono::steady_clock::now();
  LLVMContext Context;
  std::unique_ptr<Module> M =
      translateToModule(Context, IL, Spec, Options, Target, Build);
  if (M && linkExecutable(*M, Target, Build))
    WEFT_LOG(DebugCompile, "clBuildProgram of SPIR-V: %.3f s",
             secondsSince(Start));
  return Build;
}

ProgramBuild compileProgramFromIL(const std::string &IL,
                                  const SpecializationConstants &Spec,
                                  const std::string &Options,
                                  const TargetDesc &Target) {
  ProgramBuild Build;
  Build.Kind = BinaryKind::CompiledObject;
  LLVMContext Context;
  std::unique_ptr<Module> M =
      translateToModule(Context, IL, Spec, Options, Target, Build);
  if (M)
    writeBitcode(*M, Build);
  return Build;
}

ProgramBuild compileProgram(const std::string &Source,
                            const std::string &Options,
                            const std::vector<HeaderSource> &Headers,
                            const TargetDesc &Target) {
  ProgramBuild Build;
  Build.Kind = BinaryKind::CompiledObject;
  LLVMContext Context;
  std::unique_ptr<Module> M =
      compileToModule(Context, Source, Options, Headers, Target, Build);
  if (!M)
    return Build;
  std::string VerifyErrors;
  raw_string_ostream VerifyStream(VerifyErrors);
  if (verifyModule(*M, &VerifyStream)) {
    Build.Log += "internal error: invalid module from the front end:\n" +
                 VerifyStream.str();
    Build.Result = Status::BuildFailure;
    return Build;
  }
  writeBitcode(*M, Build);
  WEFT_LOG(DebugCompile, "compiled object: %zu bytes of bitcode",
           Build.Bitcode.size());
  return Build;
}

} // namespace weft
