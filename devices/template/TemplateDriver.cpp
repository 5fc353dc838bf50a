//===- TemplateDriver.cpp - The smallest correct driver, to copy ----------===//
//
// The porting kit's starting point (docs/porting-guide.md): copy this folder,
// rename the class, the factory and the "template" string, and grow it into
// a driver for a new device. As it stands it is a complete device that
// passes the API and builtin suites (tools/device-check --template):
//
//   * one device thread takes commands from a mailbox in submit order and
//     runs each to completion, so submit() returns at once and completion
//     is reported from another thread, as the contract requires of every
//     driver (an application thread never runs a command here);
//   * memory is host memory (sharesHostMemory() true): the runtime passes
//     host addresses and the Before/After transfer lists stay empty;
//   * kernels are compiled by the CPU back half for the host
//     (weft::compileWorkGroupFunction through CpuDriver).
//
// It derives from CpuDriver (devices/cpu), as a new CPU-like device would:
// that gives the host's description (hwloc), host-memory allocation and the
// compiler calls. WorkerScratch runs work-groups with a worker's local
// memory and private arena. A device that is not a CPU derives from
// DeviceDriver itself and fills DeviceDescription on its own; every virtual
// of include/weft/device.h is overridden below anyway, with what the runtime
// expects of it and where a device with memory of its own, such as the
// accelerator simulator (devices/accelsim), does something else.
//
// Built only with -DWEFT_TEMPLATE_DRIVER=ON, instantiated only when
// WEFT_DEVICES names "template" (DriverRegistration::ByDefault false).
//
//===----------------------------------------------------------------------===//

#include "cpu/CpuDevice.h"

#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

namespace weft {
namespace {

class TemplateDriver final : public CpuDriver {
public:
  TemplateDriver() : CpuDriver("template", /*ComputeUnits=*/1) {
    // CpuDriver described the host; what differs for this device goes here.
    // A device that is not a CPU reports CL_DEVICE_TYPE_ACCELERATOR (or GPU)
    // and its own limits, and sets Desc.Target to what its compiler builds
    // for (TargetDesc::Back, TargetDesc::Machine for a static multi-issue
    // machine). One thread: no sub-devices to partition into.
    Desc.PartitionMaxSubDevices = 0;
    Desc.AffinityDomains = 0;
    DeviceThread = std::thread([this] { serveMailbox(); });
  }

  ~TemplateDriver() override {
    // The runtime destroys a driver only when none of its commands is
    // pending, so the mailbox is empty: stop the thread.
    {
      std::lock_guard<std::mutex> Guard(MailboxLock);
      ShuttingDown = true;
    }
    MailboxChanged.notify_one();
    DeviceThread.join();
  }

  /// Filled once, in the constructor; every clGetDeviceInfo reads it, from
  /// any thread, so it never changes afterwards.
  const DeviceDescription &description() const override { return Desc; }

  /// True: kernels and the device thread read host memory, buffers live in
  /// host memory and their device address is their host address. A device
  /// with memory of its own returns false; then the runtime keeps a host
  /// copy of every buffer and lists the copies each command needs in
  /// Command::Before and Command::After (see devices/accelsim).
  bool sharesHostMemory() const override { return true; }

  /// Device memory for buffers, images, program variables and scratch; null
  /// when the device has none left (the runtime reports
  /// CL_MEM_OBJECT_ALLOCATION_FAILURE). Called from application threads at
  /// any time. Host memory here (CpuDriver: aligned_alloc); a device with
  /// memory of its own carves chunks out of it (accelsim's ChunkAllocator).
  void *allocate(size_t Size, size_t Alignment) override {
    return CpuDriver::allocate(Size, Alignment);
  }
  void deallocate(void *Address) override { CpuDriver::deallocate(Address); }

  /// Initial contents of program variables, written outside any command
  /// before the first kernel that uses them is queued. Host memory: a copy.
  /// A device with memory of its own writes through its own path here.
  void copyToDevice(void *Dst, const void *Src, size_t Size) override {
    std::memcpy(Dst, Src, Size);
  }

  /// Once per (program build, kernel, local size), on an application
  /// thread, before the first command that runs it is queued: the CPU back
  /// half (CpuDriver: compileWorkGroupFunction with Desc.Target, the kernel
  /// cache included). False with Error set becomes CL_OUT_OF_RESOURCES.
  bool prepareKernel(const std::string &Bitcode, const KernelDesc &Kernel,
                     const size_t LocalSize[3],
                     const GlobalVariableAddresses &Globals,
                     WorkGroupFunction &Out, std::string &Error) override {
    return CpuDriver::prepareKernel(Bitcode, Kernel, LocalSize, Globals, Out,
                                    Error);
  }

  /// Code an earlier prepareKernel produced, brought by a program binary;
  /// code that does not fit this device is ignored, never an error.
  void adoptKernelCode(const std::string &Bitcode, const std::string &Kernel,
                       const size_t LocalSize[3],
                       const std::string &Code) override {
    CpuDriver::adoptKernelCode(Bitcode, Kernel, LocalSize, Code);
  }

  /// The local size of an NDRange enqueued without one. The default aims at
  /// long SIMD work-item loops and a few groups per compute unit; a device
  /// whose groups cost something else (local memory, unrolled code size)
  /// picks its own here.
  void chooseLocalSize(cl_uint WorkDim, const size_t GlobalSize[3],
                       size_t LocalSize[3]) const override {
    DeviceDriver::chooseLocalSize(WorkDim, GlobalSize, LocalSize);
  }

  /// Every dependency of Cmd is complete; run it asynchronously. Called
  /// from application threads and from completion callbacks (another
  /// command's commandComplete), so it only posts to the mailbox.
  void submit(Command *Cmd) override {
    {
      std::lock_guard<std::mutex> Guard(MailboxLock);
      Mailbox.push_back(Cmd);
    }
    MailboxChanged.notify_one();
  }

  /// A thread blocked on this device's commands may offer itself. The
  /// template declines: commands run only on the device thread, which keeps
  /// the asynchronous contract visible. A CPU device with small commands
  /// may run them here and save the hand-off (devices/pthread does).
  void runQueuedWork(const std::function<bool()> &Done,
                     Helper Kind) override {
    (void)Done;
    (void)Kind;
  }

  /// clCreateSubDevices: one thread cannot be split (PartitionMaxSubDevices
  /// 0, so the runtime never asks).
  std::unique_ptr<DeviceDriver>
  createSubDevice(const std::vector<unsigned> &ComputeUnits) override {
    (void)ComputeUnits;
    return nullptr;
  }
  std::vector<std::vector<unsigned>>
  affinityGroups(cl_device_affinity_domain Domain) const override {
    (void)Domain;
    return {};
  }

private:
  /// The device thread: takes commands in the order they were submitted.
  void serveMailbox() {
    for (;;) {
      Command *Cmd = nullptr;
      {
        std::unique_lock<std::mutex> Guard(MailboxLock);
        MailboxChanged.wait(Guard,
                            [this] { return ShuttingDown || !Mailbox.empty(); });
        if (Mailbox.empty())
          return;
        Cmd = Mailbox.front();
        Mailbox.pop_front();
      }
      execute(*Cmd);
    }
  }

  void execute(Command &Cmd) {
    commandRunning(Cmd);
    // Copies into device memory first. Empty while sharesHostMemory() is
    // true; a device with memory of its own gets one entry per buffer the
    // command reads whose device copy is stale, and makes it with its DMA.
    performTransfers(Cmd.Before);
    cl_int Status = CL_COMPLETE;
    if (Cmd.Kind == CommandKind::NDRangeKernel) {
      KernelLaunch &Launch = *Cmd.Launch;
      preparePrintf(Launch, Desc.PrintfBufferSize);
      // Every work-group on this thread, one after another; any order, on
      // any threads would do, but a group always runs whole on one thread.
      if (!Scratch.runWorkGroups(Launch, 0, workGroupCount(Launch)))
        Status = CL_OUT_OF_RESOURCES;
      flushPrintf(Launch);
    } else {
      // Reads, writes, copies, fills, rectangles and native kernels: all
      // between host-visible addresses here.
      runTransfer(Cmd);
    }
    // Copies back to the host copy (e.g. after a kernel wrote a buffer the
    // host will map). A device reporting simulated time would also set
    // Cmd.SimulatedNanoseconds here, before completing.
    performTransfers(Cmd.After);
    commandComplete(Cmd, Status);
    // Cmd may be gone now.
  }

  static void performTransfers(const std::vector<Transfer> &Transfers) {
    for (const Transfer &T : Transfers) {
      if (T.Dir == Transfer::Direction::ToDevice)
        std::memcpy(T.Device, T.Host, T.Size);
      else
        std::memcpy(T.Host, T.Device, T.Size);
    }
  }

  std::mutex MailboxLock;
  std::condition_variable MailboxChanged;
  std::deque<Command *> Mailbox;
  bool ShuttingDown = false;
  /// The device thread's local memory and private arena, reused by every
  /// kernel command.
  WorkerScratch Scratch;
  std::thread DeviceThread;
};

} // namespace

std::unique_ptr<DeviceDriver> createTemplateDriver() {
  return std::make_unique<TemplateDriver>();
}

} // namespace weft
