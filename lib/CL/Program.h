//===- Program.h - cl_program ---------------------------------------------===//
//
// A program keeps one build per device. Devices that compile for the same
// target (same triple, CPU and features, as the basic and pthread devices
// of one machine do) share one compilation. The work-group functions
// compiled from a build at enqueue time are cached here too, per device,
// kernel and local size, so a kernel object created later reuses them.
//
// Each device's instance of an executable has its own copies of the
// program's variables in the global address space (ProgramVariables),
// made at the first enqueue and shared by all its kernels.
//
// A build is an executable, a compiled object (clCompileProgram) or a
// library (clLinkProgram -create-library); only executables have kernels.
// A program made by clLinkProgram keeps its link results as if they had
// been loaded from binaries, so clBuildProgram and CL_PROGRAM_BINARIES
// treat both alike.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_CL_PROGRAM_H
#define WEFT_LIB_CL_PROGRAM_H

#include "Context.h"

#include "weft/compiler.h"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

namespace weft {

/// One program instance's copies of its variables in the global address
/// space, in memory from the device's driver, initialized from the build.
class ProgramVariables {
public:
  ProgramVariables(DeviceDriver &Driver,
                   const std::vector<GlobalVariableDesc> &Variables);
  ~ProgramVariables();
  ProgramVariables(const ProgramVariables &) = delete;
  ProgramVariables &operator=(const ProgramVariables &) = delete;

  /// False when the copies could not be made; error() says why.
  bool valid() const { return Error.empty(); }
  const std::string &error() const { return Error; }
  const GlobalVariableAddresses &addresses() const { return Addresses; }

  /// CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: the bytes the variables
  /// take laid out one after the other, each at its alignment.
  static size_t totalSize(const std::vector<GlobalVariableDesc> &Variables);

private:
  DeviceDriver &Driver;
  void *Block = nullptr;
  GlobalVariableAddresses Addresses;
  std::string Error;
};

class Program : public _cl_program, public RefCounted<Program> {
public:
  Program(Context &Ctx, std::string Source);
  /// clCreateProgramWithIL: a SPIR-V module.
  struct FromILTag {};
  Program(Context &Ctx, FromILTag, std::string IL);
  /// clCreateProgramWithBinary: one validated build per device, with the
  /// options it was built with.
  struct LoadedBinary {
    std::shared_ptr<const ProgramBuild> Build;
    std::string Options;
  };
  Program(Context &Ctx, std::map<const Device *, LoadedBinary> Binaries);
  /// clLinkProgram: the link's result per device for Devices; a failed link
  /// has a null Build and its log.
  struct LinkResult {
    std::shared_ptr<const ProgramBuild> Build;
    std::string Log;
  };
  Program(Context &Ctx, std::vector<Device *> Devices,
          const std::map<const Device *, LinkResult> &Links,
          const std::string &Options);
  ~Program();

  bool isFromBinary() const { return FromBinary; }
  /// Made by clCreateProgramWithSource (so clCompileProgram applies).
  bool hasSource() const { return !FromBinary && !FromIL; }
  /// Made by clCreateProgramWithIL (clCompileProgram applies too).
  bool hasIL() const { return FromIL; }
  /// CL_PROGRAM_IL: the module, empty unless hasIL().
  const std::string &il() const { return IL; }
  /// clSetProgramSpecializationConstant, validated against the module.
  cl_int setSpecializationConstant(cl_uint Id, size_t Size,
                                   const void *Value);
  /// The CL_PROGRAM_BINARIES entry for D: empty unless D has a build.
  std::string binaryFor(const Device &D) const;
  /// The devices the program is associated with (CL_PROGRAM_DEVICES).
  const std::vector<Device *> &devices() const { return Devices; }

  Context &context() const { return Ctx; }
  const std::string &source() const { return Source; }

  /// clBuildProgram for Devices (already validated to be in the context).
  cl_int build(const std::vector<Device *> &Devices,
               const std::string &Options);
  /// clCompileProgram for Devices, with embedded headers.
  cl_int compile(const std::vector<Device *> &Devices,
                 const std::string &Options,
                 const std::vector<HeaderSource> &Headers);
  /// Whether a build or compilation is running.
  bool isBuilding() const;

  cl_build_status buildStatus(const Device &D) const;
  std::string buildLog(const Device &D) const;
  std::string buildOptions(const Device &D) const;
  /// The executable for D, or null.
  std::shared_ptr<const ProgramBuild> buildFor(const Device &D) const;
  /// What D has of any binary type: the last successful build, compilation
  /// or link, else the binary it was loaded from; or null.
  std::shared_ptr<const ProgramBuild> resultFor(const Device &D) const;
  /// CL_PROGRAM_BINARY_TYPE for D.
  cl_program_binary_type binaryType(const Device &D) const;
  /// Whether any device has a successful build.
  bool isBuiltForAnyDevice() const;
  /// The kernel named Name in any successful build, or null.
  const KernelDesc *findKernel(const std::string &Name) const;
  /// Names of the kernels, in source order, of the first successful build.
  std::vector<std::string> kernelNames() const;

  /// The work-group function of Kernel for LocalSize on D, compiled on
  /// first use.
  bool workGroupFunction(const Device &D, const KernelDesc &Kernel,
                         const size_t LocalSize[3], WorkGroupFunction &Out,
                         std::string &Error);

  void attachKernel() { ++AttachedKernels; }
  void detachKernel() { --AttachedKernels; }

private:
  /// Errors a failed build reports: clBuildProgram's or clCompileProgram's.
  struct BuildErrors {
    cl_int InvalidOptions;
    cl_int Failure;
  };
  template <typename Fn>
  cl_int runBuild(const std::vector<Device *> &Devices,
                  const std::string &Options, const BuildErrors &Errors,
                  Fn Compile);

  struct DeviceBuild {
    cl_build_status Status = CL_BUILD_NONE;
    std::string Options;
    std::string Log;
    std::shared_ptr<const ProgramBuild> Result;
  };
  using FunctionKey =
      std::tuple<const Device *, std::string, std::array<size_t, 3>>;

  Context &Ctx;
  std::string Source;
  bool FromBinary = false;
  bool FromIL = false;
  std::string IL;
  /// Under Lock: the values set so far, and the module's constants (their
  /// sizes by SpecId), read from the module on first use.
  SpecializationConstants SpecValues;
  std::map<uint32_t, size_t> SpecSizes;
  bool SpecSizesKnown = false;
  std::vector<Device *> Devices;
  std::map<const Device *, LoadedBinary> Binaries;
  mutable std::mutex Lock;
  std::map<const Device *, DeviceBuild> Builds;
  bool Building = false;
  std::atomic<unsigned> AttachedKernels{0};
  mutable std::mutex FunctionLock;
  std::map<FunctionKey, WorkGroupFunction> Functions;
  /// Under FunctionLock, like the functions compiled against them.
  std::map<const Device *, std::shared_ptr<ProgramVariables>> Variables;
};

inline Program *castProgram(cl_program P) {
  return castHandle<Program, ObjectKind::Program>(P);
}

} // namespace weft

#endif // WEFT_LIB_CL_PROGRAM_H
