//===- weft/compiler.h - The kernel compiler as the runtime sees it -------===//
//
// lib/llvmopencl behind a small, LLVM-free interface, so that lib/CL and the
// drivers never include LLVM headers. Two steps, as in DESIGN.md:
//
//   buildProgram()              at clBuildProgram: OpenCL C -> LLVM bitcode
//                               with the builtin library linked in, plus the
//                               metadata the runtime needs about each kernel;
//   compileWorkGroupFunction()  at the first enqueue of a kernel with a given
//                               local size: bitcode -> work-group function ->
//                               O3 for the device's CPU -> machine code loaded
//                               in-process, reached through the launcher ABI.
//
// Every function here is thread-safe: each call works in its own
// LLVMContext, and the in-process loader serializes what it must.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_COMPILER_H
#define WEFT_COMPILER_H

#include "weft/launcher.h"
#include "weft/machine.h"

#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace weft {

/// The machine a program is compiled for. CPU devices describe the host.
struct TargetDesc {
  std::string Triple;   ///< e.g. "x86_64-pc-linux-gnu"
  std::string CPU;      ///< e.g. "skylake-avx512"
  std::string Features; ///< LLVM feature string, e.g. "+avx2,+fma,..."
  /// Size in bytes of the widest native vector register (16, 32, 64); picks
  /// the builtin library's target level.
  unsigned SimdBytes = 16;
  /// OpenCL C versions the device accepts with -cl-std (e.g. "CL1.2",
  /// "CL3.0"); the first is the default.
  std::vector<std::string> OpenCLCVersions = {"CL1.2", "CL3.0"};
  /// The device's OpenCL version as __OPENCL_VERSION__ spells it (300 for
  /// "OpenCL 3.0"); clang defines the macro only for SPIR targets.
  unsigned OpenCLVersion = 300;
  /// CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: the largest variable in the global
  /// address space a program may declare.
  uint64_t MaxGlobalVariableSize = 64ull << 20;
  /// OpenCL C 3.0 optional features to enable in the front end
  /// (e.g. "__opencl_c_fp64").
  std::vector<std::string> OpenCLCFeatures;
  /// Extensions to enable in the front end (e.g. "cl_khr_fp64").
  std::vector<std::string> Extensions;
  /// What the work-group function is compiled into after the passes every
  /// device shares (DESIGN.md, "The compiler's back halves").
  enum class BackHalf {
    /// The host CPU's SIMD: work-item loops vectorized, native code.
    CpuSimd,
    /// A static multi-issue machine without SIMD (Machine): work-item loops
    /// unrolled, every block list-scheduled, block executions counted.
    StaticMultiIssue,
  };
  BackHalf Back = BackHalf::CpuSimd;
  /// The machine of a StaticMultiIssue back half.
  std::shared_ptr<const MachineModel> Machine;
  /// Every access of kernel code to global, constant, local and generic
  /// memory goes through a run-time bounds check (CheckedAddressSymbol
  /// below): the accelerator simulator under WEFT_ACCELSIM_CHECK=1.
  bool CheckAccesses = false;
};

/// Code compiled with TargetDesc::CheckAccesses calls, before each access
/// to global (address space 1), constant (2), local (3) or generic (4)
/// memory,
///
///   T *<CheckedAddressSymbol>.p<space>(T *Address, uint64_t Bytes,
///                                      uint32_t Flags, uint64_t LocalId0,
///                                      uint64_t LocalId1, uint64_t LocalId2,
///                                      T *Base)
///
/// and accesses the address it returns instead: Address when the access is
/// in bounds, otherwise memory of at least Bytes that nothing else uses, so
/// the kernel goes on without touching what it must not. The local ids name
/// the work-item within the running work-group. Base: the kernel
/// argument or program variable Address derives from (the access must stay
/// in the memory Base points into), or null when unknown. Flags: the
/// CheckedAccess bits and the address space shifted by CheckedAccessSpaceShift.
/// The driver that sets CheckAccesses provides the function with
/// registerRuntimeSymbol.
inline constexpr const char *CheckedAddressSymbol = "__weft_checked_address";
enum CheckedAccess : uint32_t { CheckedRead = 1, CheckedWrite = 2 };
inline constexpr unsigned CheckedAccessSpaceShift = 8;

/// Makes kernel code loaded from now on find the host function at Address
/// under Name: the run-time support a driver's code calls (e.g. the access
/// checker). Thread-safe; the first registration of a name holds.
void registerRuntimeSymbol(const std::string &Name, void *Address);

/// The host's description, from LLVM's view of the running CPU.
TargetDesc hostTargetDesc();

struct KernelArgDesc {
  enum class Kind {
    Scalar,        ///< by value: a scalar, vector or struct
    GlobalBuffer,  ///< __global pointer: a cl_mem (or NULL)
    ConstantBuffer,///< __constant pointer: a cl_mem (or NULL)
    LocalBuffer,   ///< __local pointer: a size, with a NULL value
    Image,
    Sampler,
  };
  Kind ArgKind = Kind::Scalar;
  /// Bytes clSetKernelArg must be given: sizeof(cl_mem) for buffers and
  /// images, sizeof(cl_sampler) for samplers, the type's size otherwise.
  /// Meaningless for LocalBuffer (the size is the allocation's).
  size_t Size = 0;
  /// Required alignment of the value in the argument table.
  size_t Alignment = 1;
  std::string Name;     ///< CL_KERNEL_ARG_NAME
  std::string TypeName; ///< CL_KERNEL_ARG_TYPE_NAME, e.g. "float*"
  cl_kernel_arg_address_qualifier AddressQualifier =
      CL_KERNEL_ARG_ADDRESS_PRIVATE;
  cl_kernel_arg_access_qualifier AccessQualifier = CL_KERNEL_ARG_ACCESS_NONE;
  cl_kernel_arg_type_qualifier TypeQualifier = CL_KERNEL_ARG_TYPE_NONE;
};

struct KernelDesc {
  std::string Name;
  std::vector<KernelArgDesc> Args;
  /// reqd_work_group_size, or all zeros.
  size_t ReqdWorkGroupSize[3] = {0, 0, 0};
  /// work_group_size_hint, or all zeros.
  size_t WorkGroupSizeHint[3] = {0, 0, 0};
  /// CL_KERNEL_ATTRIBUTES: the kernel's attributes as written in source.
  std::string Attributes;
  /// Bytes of __local variables declared in the kernel body, laid out as
  /// the launcher lays them out (each at a multiple of its alignment);
  /// added to the local memory of every work-group.
  size_t StaticLocalMemSize = 0;
  /// CL_KERNEL_PRIVATE_MEM_SIZE: private bytes per work-item, its share of
  /// the context arrays (values live across barriers) included; measured
  /// at build time on the work-group function.
  size_t PrivateMemSize = 0;
  /// The largest work-group whose context arrays fit the private arena a
  /// worker may use; 0 when the kernel adds no limit to the device's.
  size_t MaxWorkGroupSize = 0;
  /// The global size must be a multiple of the local size: OpenCL C 1.x, or
  /// -cl-uniform-work-group-size (clang's "uniform-work-group-size"
  /// attribute). Otherwise the last group of a dimension may be smaller.
  bool UniformWorkGroupSize = true;
};

/// A variable of the program in the global address space: at program scope
/// (OpenCL C 3.0 __opencl_c_program_scope_global_variables) or a static
/// variable of a function. Each program instance (a program built for a
/// device) has one copy, shared by all its kernels and kept from launch to
/// launch. Kernel code refers to the variable by the external symbol Name,
/// which the loader resolves to the instance's copy, so compiled (and
/// cached) code serves every instance.
struct GlobalVariableDesc {
  std::string Name;
  uint64_t Size = 0;
  uint64_t Alignment = 1;
  /// The initial contents, Size bytes (zeros without an initializer).
  std::string Initializer;
  /// A pointer in the initial contents: at byte Offset, the address of
  /// variable Target (an index into ProgramBuild::GlobalVariables) plus
  /// Addend.
  struct Pointer {
    uint64_t Offset = 0;
    uint32_t Target = 0;
    int64_t Addend = 0;
  };
  std::vector<Pointer> Pointers;
};

/// Where one program instance keeps its variables: the address of each
/// GlobalVariableDesc by Name.
using GlobalVariableAddresses = std::vector<std::pair<std::string, void *>>;

/// What the preprocessor looked for outside the source, and so what a build
/// kept for later (lib/CL/ProgramCache.cpp) must find unchanged: a file it
/// read, or a name it searched for.
struct SourceDependency {
  /// The file found, as clang named it (relative to the working directory
  /// unless absolute); empty when the search found nothing (a
  /// __has_include that answered 0).
  std::string Path;
  /// Path is one of clang's own headers (its resource directory), whose
  /// contents are part of the compiler's identity.
  bool CompilerHeader = false;
  /// The text the preprocessor read from Path (the user's files only):
  /// what the build was made from, even if the file changes later.
  std::string Contents;
  /// Paths the search tried first, which did not exist: a file created at
  /// one of them would be found instead. As clang formed them: relative
  /// ones are relative to the working directory.
  std::vector<std::string> Absent;
};

/// Everything a program's source reached beyond its own text.
struct SourceDependencies {
  std::vector<SourceDependency> Files;
  /// False when the source read something whose use cannot be checked
  /// later (#embed, __has_embed): such a build is never kept.
  bool Checkable = true;
};

/// What a successful ProgramBuild holds (CL_PROGRAM_BINARY_TYPE).
enum class BinaryKind {
  Executable,     ///< builtins linked, kernels described: ready to run
  CompiledObject, ///< clCompileProgram: the program's own bitcode only
  Library,        ///< clLinkProgram -create-library: objects linked together
};

struct ProgramBuild {
  enum class Status {
    Success,
    BuildFailure,   ///< CL_BUILD_PROGRAM_FAILURE; see Log
    InvalidOptions, ///< CL_INVALID_BUILD_OPTIONS; see Log
  };
  Status Result = Status::BuildFailure;
  std::string Log;     ///< compiler diagnostics, as CL_PROGRAM_BUILD_LOG
  std::string Bitcode; ///< LLVM bitcode of the program, builtins linked
  std::vector<KernelDesc> Kernels;
  /// Executables: the program's variables in the global address space.
  std::vector<GlobalVariableDesc> GlobalVariables;
  BinaryKind Kind = BinaryKind::Executable;
  /// Builds from OpenCL C source: what the preprocessor read besides it.
  SourceDependencies Dependencies;
};

/// Values of a SPIR-V module's specialization constants
/// (clSetProgramSpecializationConstant): the bytes, by SpecId.
using SpecializationConstants = std::map<uint32_t, std::string>;

/// Whether the SPIR-V/LLVM translator that SPIR-V programs need can be
/// found ($WEFT_LLVM_SPIRV, else llvm-spirv-15 on PATH).
bool spirvTranslatorAvailable();
/// Where that translator is; empty when it cannot be found.
std::string spirvTranslatorPath();

/// The GNU build ID of the object that holds the compiler (libweft.so, or a
/// test binary), or the version and build time without one: the same for
/// every run of one build, different for another build.
std::string compilerIdentity();

/// The SPIR-V versions the translator reads (1.0 to 1.4), as
/// CL_DEVICE_IL_VERSION lists them.
inline constexpr unsigned SpirvMaxMinorVersion = 4;

/// True when Data starts like a SPIR-V module (its magic number, in either
/// byte order).
bool isSpirv(const void *Data, size_t Size);

/// The specialization constants of SPIR-V module IL: SpecId -> size in
/// bytes. False, with the reason in Error, when IL cannot be read.
bool specializationConstantsOf(const std::string &IL,
                               std::map<uint32_t, size_t> &Sizes,
                               std::string &Error);

/// clBuildProgram of a program made from SPIR-V (clCreateProgramWithIL):
/// as buildProgram(), from IL with SpecConstants fixed.
ProgramBuild buildProgramFromIL(const std::string &IL,
                                const SpecializationConstants &SpecConstants,
                                const std::string &Options,
                                const TargetDesc &Target);

/// clCompileProgram of a program made from SPIR-V: a CompiledObject.
ProgramBuild compileProgramFromIL(const std::string &IL,
                                  const SpecializationConstants &SpecConstants,
                                  const std::string &Options,
                                  const TargetDesc &Target);

/// Compiles OpenCL C source with clBuildProgram's options for Target.
/// Never throws or aborts on bad source or options; the result says why.
ProgramBuild buildProgram(const std::string &Source,
                          const std::string &Options,
                          const TargetDesc &Target);

/// The kernel cache's store for a whole program's build (the runtime's
/// program cache): Bytes under a key made of KeyText, Target and everything
/// the compiler's output depends on (its build, LLVM, its settings). False
/// when the disk cache is off or holds no sound entry for the key.
bool readProgramCacheEntry(const std::string &KeyText, const TargetDesc &Target,
                           std::string &Bytes);
/// Writes Bytes under that key, atomically; nothing when the cache is off.
void writeProgramCacheEntry(const std::string &KeyText,
                            const TargetDesc &Target, const std::string &Bytes);

/// An embedded header of clCompileProgram: `#include "<IncludeName>"` in the
/// source finds Source, served from memory.
struct HeaderSource {
  std::string IncludeName;
  std::string Source;
};

/// clCompileProgram: OpenCL C source to a compiled object (Kind
/// CompiledObject): the program's own bitcode, no builtins linked, no check
/// for undefined functions (another object may define them). Options are
/// clBuildProgram's compile options; InvalidOptions for anything else.
ProgramBuild compileProgram(const std::string &Source,
                            const std::string &Options,
                            const std::vector<HeaderSource> &Headers,
                            const TargetDesc &Target);

/// clLinkProgram: links compiled objects and libraries (their Bitcode) into
/// an executable, as buildProgram() produces it, or into a library with
/// -create-library. Options are clLinkProgram's; InvalidOptions for anything
/// else. BuildFailure (CL_LINK_PROGRAM_FAILURE) for undefined functions or
/// symbols defined twice, named in Log.
ProgramBuild linkProgram(const std::vector<std::string> &Bitcodes,
                         const std::string &Options, const TargetDesc &Target);

/// Machine code of one kernel specialized for one local size, loaded and
/// callable. Keeps its code alive while any copy exists.
struct WorkGroupFunction {
  LauncherFn Launch = nullptr;
  /// Bytes of per-worker scratch the launcher needs in
  /// WorkGroupContext::PrivateArena (context arrays).
  size_t PrivateArenaSize = 0;
  /// Private memory per work-item, for CL_KERNEL_PRIVATE_MEM_SIZE.
  size_t PrivateMemPerWorkItem = 0;
  /// Bytes of per-worker local memory the launcher needs in
  /// WorkGroupContext::LocalVariables (automatic __local variables).
  size_t LocalVariablesSize = 0;
  /// The kernel calls printf: WorkGroupContext::Printf must point at the
  /// NDRange's PrintfBuffer.
  bool UsesPrintf = false;
  std::shared_ptr<void> Code;
  /// The code as a relocatable entry that adoptWorkGroupFunction accepts
  /// in another process (program binaries carry it); null if none.
  std::shared_ptr<const std::string> Native;
  /// StaticMultiIssue back half: the schedule of each counted block; the
  /// code adds one to WorkGroupContext::BlockCounters[I] each time block I
  /// runs, so the driver must point BlockCounters at Blocks.size() zeroed
  /// counters. Null for other back halves.
  std::shared_ptr<const StaticSchedule> Schedule;
};

/// Produces the work-group function of Kernel for LocalSize. On failure
/// returns a WorkGroupFunction with Launch == nullptr and sets Error.
/// Globals: the program instance's variables (ProgramBuild::
/// GlobalVariables), each of which the code must find.
WorkGroupFunction
compileWorkGroupFunction(const std::string &Bitcode, const std::string &Kernel,
                         const size_t LocalSize[3], const TargetDesc &Target,
                         std::string &Error,
                         const GlobalVariableAddresses &Globals = {});

/// Offers code made by compileWorkGroupFunction (WorkGroupFunction::
/// Native), maybe in another process, to later compileWorkGroupFunction
/// calls with the same arguments, which then load it instead of compiling.
/// False, and ignored, when it was made by another Weft build, LLVM,
/// target or compiler setting, or is damaged.
bool adoptWorkGroupFunction(const std::string &Bitcode,
                            const std::string &Kernel,
                            const size_t LocalSize[3], const TargetDesc &Target,
                            const std::string &Native);

/// A kernel compiled for one local size (WorkGroupFunction::Native), as a
/// program binary carries it.
struct KernelCode {
  std::string Kernel;
  size_t LocalSize[3] = {1, 1, 1};
  std::string Code;
};

/// A program binary's seal: a digest of its payload keyed by this build of
/// the compiler (compilerIdentity). Its checksum only catches accidents (a
/// tool that rewrites a binary recomputes it); the seal says that this
/// very build wrote these bytes, so the binary is as sound as when it was
/// made and need not be read whole again (checkProgramBinary).
using BinarySeal = std::array<uint8_t, 32>;
BinarySeal sealOfBinary(const unsigned char *Payload, size_t Size);

/// Reads everything a program binary for Target carries, at
/// clCreateProgramWithBinary: the whole bitcode (parsed and verified), the
/// kernels Build describes (present in it, with those arguments) and the
/// compiled kernels Code. False, with the reason in Why, when any of it is
/// damaged. Damage that crashes LLVM's reader is found in a child process,
/// so that it is refused rather than ending this one.
bool checkProgramBinary(const ProgramBuild &Build,
                        const std::vector<KernelCode> &Code,
                        const TargetDesc &Target, std::string &Why);

} // namespace weft

#endif // WEFT_COMPILER_H
