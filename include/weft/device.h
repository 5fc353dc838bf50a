//===- weft/device.h - The driver interface (the porting kit's contract) --===//
//
// lib/CL talks to every device through this interface and nothing else; it
// never asks which driver it is talking to. A driver:
//
//   * describes its device (DeviceDescription answers clGetDeviceInfo);
//   * owns the device's memory: allocate()/deallocate() return addresses in
//     the device's address space. Drivers whose device reads host memory
//     directly say so with sharesHostMemory(); the runtime then places
//     buffers in host memory and passes their host addresses. For drivers
//     with memory of their own the runtime keeps a host copy of every
//     buffer and a copy in the device's memory, and gives each command the
//     copies between the two that it needs (Command::Before/After);
//   * turns a built kernel into something it can run (prepareKernel), once
//     per kernel and local size, before any command that uses it is queued;
//   * runs commands handed to it by submit() once all their dependencies
//     are complete, in any thread, and reports back through
//     commandRunning() / commandComplete().
//
// docs/porting-guide.md walks through writing a driver.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_DEVICE_H
#define WEFT_DEVICE_H

#include "weft/compiler.h"

#include <CL/cl.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace weft {

/// Everything clGetDeviceInfo reports. The generic runtime answers the
/// queries from it; drivers fill it once when probed.
struct DeviceDescription {
  std::string Name;
  std::string Vendor;
  std::string DriverVersion;
  std::string Version = "OpenCL 3.0";
  std::string OpenCLCVersion = "OpenCL C 1.2";
  std::string Profile = "FULL_PROFILE";
  std::vector<cl_name_version> Extensions;
  std::vector<cl_name_version> OpenCLCAllVersions;
  std::vector<cl_name_version> OpenCLCFeatures;
  /// CL_DEVICE_IL_VERSION ("SPIR-V_1.0 ..."), empty without IL programs,
  /// and CL_DEVICE_ILS_WITH_VERSION.
  std::string ILVersion;
  std::vector<cl_name_version> ILsWithVersion;

  cl_device_type Type = CL_DEVICE_TYPE_CPU;
  cl_uint VendorId = 0;
  cl_uint MaxComputeUnits = 1;
  size_t MaxWorkItemSizes[3] = {4096, 4096, 4096};
  size_t MaxWorkGroupSize = 4096;
  /// Preferred and native vector widths: char, short, int, long, float,
  /// double, half.
  cl_uint PreferredVectorWidth[7] = {16, 8, 4, 2, 4, 2, 0};
  cl_uint NativeVectorWidth[7] = {16, 8, 4, 2, 4, 2, 0};
  cl_uint MaxClockFrequency = 0; ///< MHz
  cl_uint AddressBits = 64;
  cl_ulong GlobalMemSize = 0;
  cl_ulong MaxMemAllocSize = 0;
  cl_ulong GlobalMemCacheSize = 0;
  cl_uint GlobalMemCachelineSize = 64;
  cl_ulong LocalMemSize = 0;
  cl_ulong MaxConstantBufferSize = 0;
  cl_uint MaxConstantArgs = 8;
  size_t MaxParameterSize = 1024;
  cl_uint MemBaseAddrAlignBits = 1024;
  cl_device_fp_config SingleFpConfig = 0;
  cl_device_fp_config DoubleFpConfig = 0;
  cl_device_fp_config HalfFpConfig = 0;
  size_t ProfilingTimerResolution = 1;
  /// 16 MiB: a buffer is made only for kernels that call printf, and its
  /// pages are touched only as records fill it.
  size_t PrintfBufferSize = 16 << 20;
  bool HostUnifiedMemory = true;
  bool NonUniformWorkGroupSupport = false;
  cl_command_queue_properties QueueProperties =
      CL_QUEUE_PROFILING_ENABLE;
  cl_device_exec_capabilities ExecCapabilities = CL_EXEC_KERNEL;
  /// cl_khr_command_buffer (lib/CL/CommandBuffer.cpp): what a command
  /// buffer may hold and be used for (CL_COMMAND_BUFFER_CAPABILITY_*), and
  /// the properties its queue must have.
  cl_bitfield CommandBufferCapabilities = 0;
  cl_command_queue_properties CommandBufferRequiredQueueProperties = 0;
  cl_device_atomic_capabilities AtomicMemoryCapabilities =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  cl_device_atomic_capabilities AtomicFenceCapabilities =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
      CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  /// Shared virtual memory the device supports (CL_DEVICE_SVM_*); only
  /// devices that share host memory can offer it.
  cl_device_svm_capabilities SvmCapabilities = 0;
  /// Number of cores a sub-device partition may take (0: no partitioning).
  cl_uint PartitionMaxSubDevices = 0;
  /// Affinity domains createSubDevice partitions can follow
  /// (CL_DEVICE_AFFINITY_DOMAIN_*; 0: none).
  cl_device_affinity_domain AffinityDomains = 0;
  /// Images (CL_DEVICE_IMAGE_*); all 0 without ImageSupport. Sizes in
  /// pixels; the pitch and base-address alignments are those of 2-D images
  /// made from buffers (0: not supported).
  bool ImageSupport = false;
  size_t Image2DMaxWidth = 0, Image2DMaxHeight = 0;
  size_t Image3DMaxWidth = 0, Image3DMaxHeight = 0, Image3DMaxDepth = 0;
  size_t ImageMaxBufferSize = 0, ImageMaxArraySize = 0;
  cl_uint MaxReadImageArgs = 0, MaxWriteImageArgs = 0;
  cl_uint MaxReadWriteImageArgs = 0, MaxSamplers = 0;
  cl_uint ImagePitchAlignment = 0, ImageBaseAddressAlignment = 0;
  /// cl_khr_device_uuid: the device's and the driver build's UUIDs (all
  /// zeros without the extension). No LUID: CL_DEVICE_LUID_VALID_KHR is
  /// false.
  cl_uchar DeviceUuid[16] = {};
  cl_uchar DriverUuid[16] = {};
  /// What the compiler builds for.
  TargetDesc Target;
};

/// Arguments of one kernel launch, snapshotted at enqueue time.
struct KernelLaunch {
  WorkGroupFunction Function;
  cl_uint WorkDim = 1;
  size_t GlobalOffset[3] = {0, 0, 0};
  size_t GlobalSize[3] = {1, 1, 1};
  size_t LocalSize[3] = {1, 1, 1};
  /// One entry per kernel argument, pointing into ArgStorage (see
  /// launcher.h). Entries of __local arguments are null: each worker
  /// points them at its own local memory.
  std::vector<void *> ArgPointers;
  std::vector<unsigned char> ArgStorage;
  struct LocalArg {
    unsigned Index;
    size_t Size;
  };
  std::vector<LocalArg> LocalArgs;
  /// The printf records of this launch (launcher.h), provided by the
  /// driver when Function.UsesPrintf.
  std::shared_ptr<PrintfBuffer> Printf;
};

enum class CommandKind {
  NDRangeKernel,
  ReadBuffer,  ///< Src: device address, Dst: host pointer
  WriteBuffer, ///< Src: host pointer, Dst: device address
  CopyBuffer,  ///< Src, Dst: device addresses
  FillBuffer,  ///< Dst: device address, Size bytes of Pattern repeated
  Marker,      ///< nothing to do but complete
  /// A strided 3-D copy (the *BufferRect commands): Src and Dst point at
  /// the first byte of the region, Rect gives its extent and pitches.
  /// ReadBufferRect: Src device, Dst host; WriteBufferRect: the reverse;
  /// CopyBufferRect: both device addresses.
  ReadBufferRect,
  WriteBufferRect,
  CopyBufferRect,
  /// clEnqueueNativeKernel: call Native.Fn(Native.Args.data()) on the
  /// host. Only submitted to devices that report CL_EXEC_NATIVE_KERNEL.
  NativeKernel,
};

/// Extent and pitches of a strided copy, in bytes: Region[0] bytes per
/// row, Region[1] rows per slice, Region[2] slices.
struct RectCopy {
  size_t Region[3] = {0, 1, 1};
  size_t SrcRowPitch = 0, SrcSlicePitch = 0;
  size_t DstRowPitch = 0, DstSlicePitch = 0;
};

/// A host function and the copy of its argument block it is called with.
struct NativeCall {
  void(CL_CALLBACK *Fn)(void *) = nullptr;
  std::vector<unsigned char> Args;
};

/// A copy between host memory and the memory of a device that does not
/// share host memory (sharesHostMemory() false), made by the device side
/// as part of a command: the runtime keeps a host copy of every buffer and
/// brings the device's copy up to date before the commands that use it.
struct Transfer {
  enum class Direction { ToDevice, ToHost };
  Direction Dir = Direction::ToDevice;
  void *Device = nullptr;    ///< device address
  void *Host = nullptr;      ///< host address
  size_t Size = 0;
};

/// A command ready to run. Owned by the runtime; valid until the driver
/// calls commandComplete().
struct Command {
  CommandKind Kind = CommandKind::Marker;
  void *Dst = nullptr;
  const void *Src = nullptr;
  size_t Size = 0;
  std::vector<unsigned char> Pattern;
  std::unique_ptr<KernelLaunch> Launch;
  RectCopy Rect;     ///< *BufferRect commands
  NativeCall Native; ///< NativeKernel commands
  /// Devices with memory of their own: copies to make before the command
  /// itself runs, and after it, in order. Always empty for devices that
  /// share host memory.
  std::vector<Transfer> Before, After;
  /// Set by drivers that report simulated time, before commandComplete:
  /// the command's duration on the simulated device in nanoseconds, which
  /// CL_PROFILING_COMMAND_END reports after COMMAND_START. 0: the host
  /// clock's.
  uint64_t SimulatedNanoseconds = 0;
  /// The runtime's bookkeeping; drivers leave it alone.
  void *RuntimeData = nullptr;
};

/// Called by drivers: the command started executing (CL_RUNNING).
void commandRunning(Command &Cmd);
/// Called by drivers: the command finished, with CL_COMPLETE or a negative
/// error code. The command may be destroyed before this returns.
void commandComplete(Command &Cmd, cl_int Status);

class DeviceDriver {
public:
  virtual ~DeviceDriver() = default;

  virtual const DeviceDescription &description() const = 0;

  /// True when kernels on this device read and write host memory, so a
  /// buffer's device address is its host address.
  virtual bool sharesHostMemory() const = 0;
  virtual void *allocate(size_t Size, size_t Alignment) = 0;
  virtual void deallocate(void *Address) = 0;
  /// Writes Size bytes from host memory to device address Dst at once,
  /// outside any command (initial contents of program variables). The
  /// default, for devices that share host memory, copies.
  virtual void copyToDevice(void *Dst, const void *Src, size_t Size);

  /// Makes Kernel of a program built for this device (Bitcode, from
  /// buildProgram with description().Target) runnable with LocalSize. The
  /// program instance's variables in the global address space are at
  /// Globals (device addresses, from allocate(), with their initial
  /// contents): the code must use those copies.
  virtual bool prepareKernel(const std::string &Bitcode,
                             const KernelDesc &Kernel,
                             const size_t LocalSize[3],
                             const GlobalVariableAddresses &Globals,
                             WorkGroupFunction &Out, std::string &Error) = 0;

  /// Code a prepareKernel of this driver produced (WorkGroupFunction::
  /// Native), carried by a program binary into this process: a later
  /// prepareKernel with the same bitcode, kernel and local size may use it
  /// instead of compiling. Code that does not fit (another build, target
  /// or setting) is ignored. Default: ignored.
  virtual void adoptKernelCode(const std::string &Bitcode,
                               const std::string &Kernel,
                               const size_t LocalSize[3],
                               const std::string &Code) {
    (void)Bitcode;
    (void)Kernel;
    (void)LocalSize;
    (void)Code;
  }

  /// Picks a local size for an NDRange enqueued with a NULL local size.
  virtual void chooseLocalSize(cl_uint WorkDim, const size_t GlobalSize[3],
                               size_t LocalSize[3]) const;

  /// Runs Cmd asynchronously. Every dependency of Cmd is complete.
  virtual void submit(Command *Cmd) = 0;

  /// How the thread offered to runQueuedWork would otherwise spend its time.
  enum class Helper {
    /// Blocked until a command completes (clFinish, clWaitForEvents): it
    /// would sleep, so running work makes one more busy thread.
    Waiting,
    /// Spinning on a command's status (clGetEventInfo in a loop): it holds
    /// a core anyway.
    Polling,
  };

  /// Called by a thread that waits for a command of this device: the driver
  /// may run queued work on that thread until Done() returns true (asked
  /// before the first piece and after each) or nothing is left that it
  /// can run now. Saves the hand-offs between threads for small commands,
  /// and lets a command advance on a thread that has a core when the
  /// device's own threads do not. Default: nothing.
  virtual void runQueuedWork(const std::function<bool()> &Done, Helper Kind) {
    (void)Done;
    (void)Kind;
  }

  /// A device of its own made of some of this device's compute units
  /// (indices below MaxComputeUnits), for clCreateSubDevices; null if the
  /// driver cannot partition. The sub-device runs its commands only on
  /// those units.
  virtual std::unique_ptr<DeviceDriver>
  createSubDevice(const std::vector<unsigned> &ComputeUnits) {
    (void)ComputeUnits;
    return nullptr;
  }
  /// This device's compute units grouped by what they share in Domain (one
  /// CL_DEVICE_AFFINITY_DOMAIN_* bit other than NEXT_PARTITIONABLE).
  virtual std::vector<std::vector<unsigned>>
  affinityGroups(cl_device_affinity_domain Domain) const {
    (void)Domain;
    return {};
  }
};

/// A driver the runtime can instantiate by name through WEFT_DEVICES.
struct DriverRegistration {
  const char *Name;
  std::unique_ptr<DeviceDriver> (*Create)();
  /// Instantiated without WEFT_DEVICES too; false for drivers only asked
  /// for by name (a simulator is no device an application should pick up
  /// unawares).
  bool ByDefault = true;
};

/// Every driver built into this library, in default order.
const std::vector<DriverRegistration> &registeredDrivers();

} // namespace weft

#endif // WEFT_DEVICE_H
