//===- AccelsimDriver.cpp - The accelerator simulator's driver ------------===//
//
// The description starts from the CPU drivers' (the same compiler, builtins
// and OpenCL C features: the code runs on the host) and takes away what a
// separate accelerator cannot offer: images (no image units on the model),
// shared virtual memory and native kernels (the device has its own address
// space), sub-devices (one core). Sizes, clock and the vector widths (no
// SIMD: 1) come from the machine model.
//
//===----------------------------------------------------------------------===//
#include "accelsim/AccelsimDriver.h"

#include "accelsim/AccessChecker.h"
#include "accelsim/MachineFile.h"

#include "weft/debug.h"

#include <algorithm>
#include <cmath>

namespace weft {

AccelsimDriver::AccelsimDriver(std::shared_ptr<const MachineModel> M)
    : CpuDriver("accelsim", 1), Model(std::move(M)),
      Memory(Model->GlobalMemBytes) {
  describe();
  if (Memory.valid())
    Core = std::make_unique<ControlCore>(*Model, Memory, *this,
                                         Desc.PrintfBufferSize);
}

AccelsimDriver::~AccelsimDriver() { Core.reset(); }

template <typename T, typename Pred>
static void eraseIf(std::vector<T> &List, Pred Drop) {
  List.erase(std::remove_if(List.begin(), List.end(), Drop), List.end());
}

void AccelsimDriver::describe() {
  const MachineModel &M = *Model;
  Desc.Type = CL_DEVICE_TYPE_ACCELERATOR;
  Desc.Name = "Weft accelerator simulator (" + M.Name + ")";
  Desc.Vendor = "Weft";
  Desc.VendorId = 0;
  // Program binaries carry code compiled for one model: applications that
  // key their binary caches on the driver version must miss on another.
  Desc.DriverVersion += " (machine " + M.Name + ")";

  // Images: no image units. SVM and native kernels: a separate address
  // space. Sub-devices: one core.
  const char *Dropped[] = {"__opencl_c_images", "__opencl_c_read_write_images",
                           "__opencl_c_3d_image_writes",
                           "cl_khr_3d_image_writes",
                           "cl_khr_image2d_from_buffer"};
  auto IsDropped = [&](const std::string &Name) {
    return std::find_if(std::begin(Dropped), std::end(Dropped),
                        [&](const char *D) { return Name == D; }) !=
           std::end(Dropped);
  };
  eraseIf(Desc.Target.OpenCLCFeatures, IsDropped);
  eraseIf(Desc.Target.Extensions, IsDropped);
  eraseIf(Desc.OpenCLCFeatures,
          [&](const cl_name_version &E) { return IsDropped(E.name); });
  eraseIf(Desc.Extensions,
          [&](const cl_name_version &E) { return IsDropped(E.name); });
  Desc.ImageSupport = false;
  Desc.Image2DMaxWidth = Desc.Image2DMaxHeight = 0;
  Desc.Image3DMaxWidth = Desc.Image3DMaxHeight = Desc.Image3DMaxDepth = 0;
  Desc.ImageMaxBufferSize = Desc.ImageMaxArraySize = 0;
  Desc.MaxReadImageArgs = Desc.MaxWriteImageArgs = 0;
  Desc.MaxReadWriteImageArgs = Desc.MaxSamplers = 0;
  Desc.ImagePitchAlignment = Desc.ImageBaseAddressAlignment = 0;
  Desc.SvmCapabilities = 0;
  Desc.ExecCapabilities = CL_EXEC_KERNEL;
  Desc.PartitionMaxSubDevices = 0;
  Desc.AffinityDomains = 0;
  Desc.HostUnifiedMemory = false;
  // The runtime orders an out-of-order queue's commands by their wait
  // lists; the core then runs them in the order they became ready.
  Desc.QueueProperties =
      CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;

  Desc.MaxComputeUnits = 1;
  Desc.MaxClockFrequency = static_cast<cl_uint>(std::lround(M.ClockMHz));
  Desc.GlobalMemSize = M.GlobalMemBytes;
  // A quarter of the memory, the specification's minimum for the ratio:
  // one buffer never takes the device whole.
  Desc.MaxMemAllocSize = M.GlobalMemBytes / 4;
  Desc.LocalMemSize = M.LocalMemBytes;
  Desc.MaxConstantBufferSize =
      std::min<cl_ulong>(Desc.MaxConstantBufferSize, Desc.MaxMemAllocSize);
  // The printf records live in device memory: as much as the CPU drivers
  // give (CommandBuffers.ReplayedPrintfPrintsEveryLine prints more than
  // 1 MiB), but never more than a sixteenth of a small model's memory.
  Desc.PrintfBufferSize = static_cast<size_t>(std::min<uint64_t>(
      Desc.PrintfBufferSize, std::max<uint64_t>(M.GlobalMemBytes / 16, 4096)));
  for (unsigned I = 0; I < 7; ++I)
    Desc.NativeVectorWidth[I] = Desc.PreferredVectorWidth[I] = 1;
  Desc.ProfilingTimerResolution = std::max<size_t>(
      1, static_cast<size_t>(std::lround(1000.0 / M.ClockMHz)));

  Desc.Target.Back = TargetDesc::BackHalf::StaticMultiIssue;
  Desc.Target.Machine = Model;
  // WEFT_ACCELSIM_CHECK=1: every global, constant and local access of the
  // kernels is checked (AccessChecker.h).
  Desc.Target.CheckAccesses = accessChecksRequested();
  if (Desc.Target.CheckAccesses)
    registerAccessChecker();
}

void *AccelsimDriver::allocate(size_t Size, size_t Alignment) {
  return Memory.allocate(Size, Alignment);
}

void AccelsimDriver::deallocate(void *Address) { Memory.deallocate(Address); }

void AccelsimDriver::copyToDevice(void *Dst, const void *Src, size_t Size) {
  Core->write(Dst, Src, Size);
}

bool AccelsimDriver::prepareKernel(const std::string &Bitcode,
                                   const KernelDesc &Kernel,
                                   const size_t LocalSize[3],
                                   const GlobalVariableAddresses &Globals,
                                   WorkGroupFunction &Out, std::string &Error) {
  if (!CpuDriver::prepareKernel(Bitcode, Kernel, LocalSize, Globals, Out,
                                Error))
    return false;
  Core->nameKernel(Out.Launch, Kernel.Name);
  return true;
}

void AccelsimDriver::submit(Command *Cmd) { Core->post(Cmd); }

std::unique_ptr<DeviceDriver> createAccelsimDriver() {
  auto Model = std::make_shared<MachineModel>();
  std::string Error;
  if (!loadMachineModel(*Model, Error)) {
    WEFT_LOG(DebugAccelsim, "no accelerator simulator: %s", Error.c_str());
    WEFT_LOG(DebugDevice, "no accelerator simulator: %s", Error.c_str());
    return nullptr;
  }
  auto Driver = std::make_unique<AccelsimDriver>(std::move(Model));
  if (!Driver->valid()) {
    WEFT_LOG(DebugAccelsim, "no accelerator simulator: %llu bytes of device "
             "memory could not be set up",
             static_cast<unsigned long long>(Driver->description()
                                                 .GlobalMemSize));
    return nullptr;
  }
  const MachineModel &M = *Driver->description().Target.Machine;
  WEFT_LOG(DebugAccelsim,
           "machine %s: %.0f MHz, %u issue slots, %llu bytes of device "
           "memory, %llu of local memory",
           M.Name.c_str(), M.ClockMHz, M.IssueSlots,
           static_cast<unsigned long long>(M.GlobalMemBytes),
           static_cast<unsigned long long>(M.LocalMemBytes));
  return Driver;
}

} // namespace weft
