//===- ControlCore.h - The accelerator's device side ----------------------===//
//
// The simulated device's control core: one thread that takes commands from
// a mailbox in the order they were submitted and runs each whole, moving
// data between host and device memory itself (Command::Before/After and
// the transfer commands) and running kernels in device memory.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ACCELSIM_CONTROLCORE_H
#define WEFT_ACCELSIM_CONTROLCORE_H

#include "accelsim/DeviceMemory.h"
#include "cpu/CpuDevice.h"

#include "weft/device.h"
#include "weft/machine.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace weft {

class ControlCore {
public:
  /// Memory holds the device's memory; ScratchSource allocates from it
  /// (the core's local memory and private arena). PrintfBytes of device
  /// memory are set aside for printf records.
  ControlCore(const MachineModel &Model, DeviceMemory &Memory,
              DeviceDriver &ScratchSource, size_t PrintfBytes);
  /// Runs what is in the mailbox, then stops the thread.
  ~ControlCore();
  ControlCore(const ControlCore &) = delete;
  ControlCore &operator=(const ControlCore &) = delete;

  /// False when the printf records found no room in device memory.
  bool valid() const { return PrintfRecords.Data != nullptr; }

  /// Queues Cmd; the core reports it through commandRunning and
  /// commandComplete.
  void post(Command *Cmd);
  /// Writes Size bytes from the host to device address Dst on the core,
  /// returning once they are there.
  void write(void *Dst, const void *Src, size_t Size);
  /// The kernel whose work-group function is Fn, for the log.
  void nameKernel(LauncherFn Fn, const std::string &Name);

private:
  void serve();
  void execute(Command &Cmd);
  cl_int runTransfers(const std::vector<Transfer> &List, uint64_t &Cycles,
                      uint64_t &Bytes);
  cl_int runKernel(KernelLaunch &Launch, uint64_t &Cycles);
  cl_int runCopy(const Command &Cmd, uint64_t &Cycles, uint64_t &Bytes);
  bool onDevice(const void *Address, size_t Bytes) const;
  std::string kernelName(LauncherFn Fn);

  const MachineModel &Model;
  DeviceMemory &Memory;
  WorkerScratch Scratch;
  PrintfBuffer PrintfRecords{};
  /// One counter per block of the running kernel's schedule.
  std::vector<uint64_t> BlockCounters;

  std::mutex NamesLock;
  std::map<LauncherFn, std::string> KernelNames;

  std::mutex Lock;
  std::condition_variable Wake;
  std::deque<std::function<void()>> Mailbox;
  bool Stopping = false;
  std::thread Thread;
};

} // namespace weft

#endif // WEFT_ACCELSIM_CONTROLCORE_H
