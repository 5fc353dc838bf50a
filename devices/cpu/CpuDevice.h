//===- CpuDevice.h - What every CPU driver shares ---------------------------===//
//
// The basic and pthread drivers differ only in how they schedule commands;
// both describe the host from hwloc, keep buffers in host memory, compile
// with the LLVM pipeline for the host CPU, and run work-groups through the
// launcher ABI. That common part lives here.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_DEVICES_CPU_CPUDEVICE_H
#define WEFT_DEVICES_CPU_CPUDEVICE_H

#include "weft/device.h"

#include <memory>
#include <vector>

namespace weft {

/// The host machine as hwloc sees it, probed once.
struct HostTopology {
  unsigned Cores = 1;
  unsigned ProcessingUnits = 1;
  unsigned long long MemoryBytes = 0;
  unsigned long long L1DataBytes = 0;
  unsigned long long L2Bytes = 0;
  unsigned long long L3Bytes = 0;
  unsigned CachelineBytes = 64;
  unsigned MaxClockMHz = 0;
  std::string CpuModel;
  std::string CpuVendor;
  /// Operating-system index of a processing unit of each core, for pinning
  /// threads: the first one this process may run on, when there is one.
  std::vector<unsigned> CorePU;
  /// The cores (logical indices) with a processing unit in the CPU
  /// affinity of the thread that first asked (taskset, a container's
  /// cpuset): where a CPU device puts its compute units.
  std::vector<unsigned> UsableCores;
  /// How many threads the scheduler runs at once for this process:
  /// UsableCores, or fewer under a CPU quota (a cgroup's cpu.max, docker
  /// --cpus), at least 1. More busy threads than this take turns.
  unsigned AvailableCores = 1;
  /// Cores (logical indices) grouped by the NUMA node, L3, L2 and L1 cache
  /// they share, in that order.
  std::vector<std::vector<unsigned>> CoreGroups[4];
};
const HostTopology &hostTopology();

/// Per-thread scratch for running work-groups: local memory, the private
/// arena of the work-group function and the argument table with this
/// thread's __local pointers. Grown on demand and reused across commands.
class WorkerScratch {
public:
  /// Local memory and the private arena come from the host heap, or from
  /// Memory's allocate() for a device with memory of its own.
  explicit WorkerScratch(DeviceDriver *Memory = nullptr) : Memory(Memory) {}
  WorkerScratch(const WorkerScratch &) = delete;
  WorkerScratch &operator=(const WorkerScratch &) = delete;
  ~WorkerScratch();

  /// Runs work-groups [First, End) (linear indices, x fastest) of Launch,
  /// passing BlockCounters to the code (WorkGroupContext::BlockCounters).
  /// False, with no group run, when the scratch memory cannot be had.
  bool runWorkGroups(const KernelLaunch &Launch, size_t First, size_t End,
                     uint64_t *BlockCounters = nullptr);

private:
  void *grow(void *&Block, size_t &Capacity, size_t Needed);
  void release(void *Block);

  DeviceDriver *Memory;

  void *LocalMemory = nullptr;
  size_t LocalCapacity = 0;
  void *PrivateArena = nullptr;
  size_t PrivateCapacity = 0;
  std::vector<void *> Args;
  std::vector<void *> LocalPointers;
};

/// Number of work-groups of an NDRange.
size_t workGroupCount(const KernelLaunch &Launch);

/// Gives Launch a printf buffer of Capacity bytes (CL_DEVICE_PRINTF_BUFFER_
/// SIZE) when its kernel calls printf; before any work-group runs.
void preparePrintf(KernelLaunch &Launch, size_t Capacity);
/// Writes what the launch's printf calls printed to stdout, in one piece;
/// after every work-group has run, before the command completes.
void flushPrintf(KernelLaunch &Launch);
/// The text of the records in Buffer (exposed for tests and tools).
std::string formatPrintfRecords(const PrintfBuffer &Buffer);

/// Performs a transfer command between host-visible addresses, or calls a
/// native kernel: every command that is not an NDRange.
void runTransfer(const Command &Cmd);

/// The part of a CPU driver that does not depend on scheduling.
class CpuDriver : public DeviceDriver {
public:
  /// Describes the host as a device named "<DriverName>-<CPU model>" with
  /// ComputeUnits compute units.
  CpuDriver(const char *DriverName, unsigned ComputeUnits);

  std::vector<std::vector<unsigned>>
  affinityGroups(cl_device_affinity_domain Domain) const override;

  const DeviceDescription &description() const override { return Desc; }
  bool sharesHostMemory() const override { return true; }
  void *allocate(size_t Size, size_t Alignment) override;
  void deallocate(void *Address) override;
  bool prepareKernel(const std::string &Bitcode, const KernelDesc &Kernel,
                     const size_t LocalSize[3],
                     const GlobalVariableAddresses &Globals,
                     WorkGroupFunction &Out, std::string &Error) override;
  void adoptKernelCode(const std::string &Bitcode, const std::string &Kernel,
                       const size_t LocalSize[3],
                       const std::string &Code) override;

protected:
  DeviceDescription Desc;
  /// The host cores (logical indices) compute unit I runs on: Cores[I].
  std::vector<unsigned> Cores;
};

} // namespace weft

#endif // WEFT_DEVICES_CPU_CPUDEVICE_H
