//===- ControlCore.cpp - The accelerator's device side --------------------===//
//
// Every command runs in three steps on the core's thread: the transfers the
// runtime asked for before it (host copies of buffers uploaded to device
// memory), the command itself, the transfers after it (results copied back
// for host-sharing devices of the same context). Each step is charged on
// the model's clock (SimulatedTime.h) and the sum becomes the command's
// profiled duration. Nothing here reads or writes a runtime object: the
// command carries addresses only, and the core checks that the ones it
// must treat as device addresses really lie in device memory, so a runtime
// that passed a host address is caught here instead of corrupting memory.
//
// Kernels run natively on this thread, work-group after work-group, with
// their local memory and private arena in device memory; the code of the
// static multi-issue back half counts block executions into
// BlockCounters, from which the kernel's cycles follow.
//
//===----------------------------------------------------------------------===//
#include "accelsim/ControlCore.h"

#include "accelsim/AccessChecker.h"
#include "accelsim/SimulatedTime.h"

#include "weft/debug.h"

#include <cstdio>
#include <cstring>
#include <future>
#include <optional>

namespace weft {

static thread_local const ControlCore *CurrentCore = nullptr;

ControlCore::ControlCore(const MachineModel &Model, DeviceMemory &Memory,
                         DeviceDriver &ScratchSource, size_t PrintfBytes)
    : Model(Model), Memory(Memory), Scratch(&ScratchSource) {
  PrintfBytes = PrintfBytes / 8 * 8;
  PrintfRecords.Data =
      static_cast<unsigned char *>(Memory.allocate(PrintfBytes, 64));
  PrintfRecords.Capacity = PrintfRecords.Data ? PrintfBytes : 0;
  Thread = std::thread([this] {
    CurrentCore = this;
    serve();
  });
}

ControlCore::~ControlCore() {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Stopping = true;
  }
  Wake.notify_one();
  Thread.join();
  Memory.deallocate(PrintfRecords.Data);
}

void ControlCore::post(Command *Cmd) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Mailbox.push_back([this, Cmd] { execute(*Cmd); });
  }
  Wake.notify_one();
}

void ControlCore::write(void *Dst, const void *Src, size_t Size) {
  auto Copy = [=] {
    if (!onDevice(Dst, Size)) {
      WEFT_LOG(DebugAccelsim, "write of %zu bytes to %p, outside device "
               "memory: refused", Size, Dst);
      return;
    }
    memcpy(Dst, Src, Size);
  };
  // A completion callback on this thread that builds a program must not
  // wait for itself.
  if (CurrentCore == this) {
    Copy();
    return;
  }
  std::promise<void> Done;
  std::future<void> Finished = Done.get_future();
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Mailbox.push_back([&] {
      Copy();
      Done.set_value();
    });
  }
  Wake.notify_one();
  Finished.wait();
}

void ControlCore::nameKernel(LauncherFn Fn, const std::string &Name) {
  std::lock_guard<std::mutex> Guard(NamesLock);
  KernelNames[Fn] = Name;
}

std::string ControlCore::kernelName(LauncherFn Fn) {
  std::lock_guard<std::mutex> Guard(NamesLock);
  auto It = KernelNames.find(Fn);
  return It == KernelNames.end() ? "?" : It->second;
}

void ControlCore::serve() {
  for (;;) {
    std::function<void()> Job;
    {
      std::unique_lock<std::mutex> Guard(Lock);
      Wake.wait(Guard, [this] { return Stopping || !Mailbox.empty(); });
      if (Mailbox.empty())
        return;
      Job = std::move(Mailbox.front());
      Mailbox.pop_front();
    }
    Job();
  }
}

bool ControlCore::onDevice(const void *Address, size_t Bytes) const {
  return Memory.contains(Address, Bytes);
}

/// Bytes from the first to the last byte of one side of a strided copy.
static size_t rectSpan(const RectCopy &R, size_t RowPitch, size_t SlicePitch) {
  if (!R.Region[0] || !R.Region[1] || !R.Region[2])
    return 0;
  return (R.Region[2] - 1) * SlicePitch + (R.Region[1] - 1) * RowPitch +
         R.Region[0];
}

static const char *commandName(CommandKind Kind) {
  switch (Kind) {
  case CommandKind::NDRangeKernel:
    return "NDRangeKernel";
  case CommandKind::ReadBuffer:
    return "ReadBuffer";
  case CommandKind::WriteBuffer:
    return "WriteBuffer";
  case CommandKind::CopyBuffer:
    return "CopyBuffer";
  case CommandKind::FillBuffer:
    return "FillBuffer";
  case CommandKind::Marker:
    return "Marker";
  case CommandKind::ReadBufferRect:
    return "ReadBufferRect";
  case CommandKind::WriteBufferRect:
    return "WriteBufferRect";
  case CommandKind::CopyBufferRect:
    return "CopyBufferRect";
  case CommandKind::NativeKernel:
    return "NativeKernel";
  }
  return "?";
}

cl_int ControlCore::runTransfers(const std::vector<Transfer> &List,
                                 uint64_t &Cycles, uint64_t &Bytes) {
  for (const Transfer &T : List) {
    if (!onDevice(T.Device, T.Size)) {
      WEFT_LOG(DebugAccelsim,
               "transfer of %zu bytes at device address %p, outside device "
               "memory: command failed",
               T.Size, T.Device);
      return CL_OUT_OF_RESOURCES;
    }
    if (T.Dir == Transfer::Direction::ToDevice)
      memcpy(T.Device, T.Host, T.Size);
    else
      memcpy(T.Host, T.Device, T.Size);
    Cycles += transferCycles(Model, T.Size);
    Bytes += T.Size;
  }
  return CL_COMPLETE;
}

cl_int ControlCore::runCopy(const Command &Cmd, uint64_t &Cycles,
                            uint64_t &Bytes) {
  // Which sides are device memory, and how far each extends.
  bool SrcOnDevice = false, DstOnDevice = false;
  size_t SrcSpan = Cmd.Size, DstSpan = Cmd.Size, Moved = Cmd.Size;
  const RectCopy &R = Cmd.Rect;
  switch (Cmd.Kind) {
  case CommandKind::ReadBuffer:
    SrcOnDevice = true;
    break;
  case CommandKind::WriteBuffer:
  case CommandKind::FillBuffer:
    DstOnDevice = true;
    break;
  case CommandKind::CopyBuffer:
    SrcOnDevice = DstOnDevice = true;
    break;
  case CommandKind::ReadBufferRect:
  case CommandKind::WriteBufferRect:
  case CommandKind::CopyBufferRect:
    SrcOnDevice = Cmd.Kind != CommandKind::WriteBufferRect;
    DstOnDevice = Cmd.Kind != CommandKind::ReadBufferRect;
    SrcSpan = rectSpan(R, R.SrcRowPitch, R.SrcSlicePitch);
    DstSpan = rectSpan(R, R.DstRowPitch, R.DstSlicePitch);
    Moved = R.Region[0] * R.Region[1] * R.Region[2];
    break;
  default:
    return CL_INVALID_OPERATION;
  }
  if ((SrcOnDevice && !onDevice(Cmd.Src, SrcSpan)) ||
      (DstOnDevice && !onDevice(Cmd.Dst, DstSpan))) {
    WEFT_LOG(DebugAccelsim,
             "%s from %p to %p: an address outside device memory: command "
             "failed",
             commandName(Cmd.Kind), Cmd.Src, Cmd.Dst);
    return CL_OUT_OF_RESOURCES;
  }
  runTransfer(Cmd);
  Cycles += transferCycles(Model, Moved);
  Bytes = Moved;
  return CL_COMPLETE;
}

cl_int ControlCore::runKernel(KernelLaunch &Launch, uint64_t &Cycles) {
  const StaticSchedule *Schedule = Launch.Function.Schedule.get();
  BlockCounters.assign(Schedule ? Schedule->Blocks.size() : 0, 0);
  if (Launch.Function.UsesPrintf) {
    // The records live in device memory; the core formats them once the
    // kernel is done, as a device would send its output to the host.
    PrintfRecords.Used = 0;
    Launch.Printf =
        std::shared_ptr<PrintfBuffer>(std::shared_ptr<void>(), &PrintfRecords);
  }
  const size_t Groups = workGroupCount(Launch);
  // WEFT_ACCELSIM_CHECK=1: the code checks its accesses against what is
  // allocated now; the first one out of bounds fails the command.
  std::optional<AccessCheck> Check;
  if (accessChecksRequested())
    Check.emplace(Launch, kernelName(Launch.Function.Launch),
                  Memory.allocations());
  bool Ran = Scratch.runWorkGroups(Launch, 0, Groups,
                                   BlockCounters.empty()
                                       ? nullptr
                                       : BlockCounters.data());
  const std::string OutOfBounds = Check ? Check->finish() : std::string();
  if (!Ran) {
    WEFT_LOG(DebugAccelsim, "kernel %s: no device memory for its local "
             "memory and private arena", kernelName(Launch.Function.Launch)
             .c_str());
    return CL_OUT_OF_RESOURCES;
  }
  flushPrintf(Launch);
  Launch.Printf.reset();

  KernelCycles K;
  if (Schedule)
    K = kernelCycles(Model, *Schedule, BlockCounters.data());
  Cycles += K.Cycles;
  if (debugEnabled(DebugAccelsim)) {
    const size_t *G = Launch.GlobalSize, *L = Launch.LocalSize;
    WEFT_LOG(DebugAccelsim,
             "kernel %s global %zux%zux%zu local %zux%zux%zu: %llu cycles, "
             "%.3f us%s; %s",
             kernelName(Launch.Function.Launch).c_str(), G[0], G[1], G[2],
             L[0], L[1], L[2], static_cast<unsigned long long>(K.Cycles),
             cyclesToNanoseconds(Model, K.Cycles) / 1000.0,
             Schedule ? "" : " (no schedule: code of another back half)",
             describeKernelCycles(Model, K).c_str());
  }
  if (!OutOfBounds.empty()) {
    // Always said, as Oclgrind says it; the log adds how many more.
    fprintf(stderr, "%s\n", OutOfBounds.c_str());
    WEFT_LOG(DebugAccelsim, "%s; %llu out-of-bounds accesses in all: "
             "command failed", OutOfBounds.c_str(),
             static_cast<unsigned long long>(Check->violations()));
    return CL_OUT_OF_RESOURCES;
  }
  return CL_COMPLETE;
}

void ControlCore::execute(Command &Cmd) {
  commandRunning(Cmd);
  uint64_t Cycles = 0, Bytes = 0, TransferCycles = 0, TransferBytes = 0;
  cl_int Status = runTransfers(Cmd.Before, TransferCycles, TransferBytes);
  if (Status == CL_COMPLETE) {
    switch (Cmd.Kind) {
    case CommandKind::NDRangeKernel:
      Status = runKernel(*Cmd.Launch, Cycles);
      break;
    case CommandKind::Marker:
      break;
    case CommandKind::NativeKernel:
      // The device does not claim CL_EXEC_NATIVE_KERNEL: host functions
      // cannot run on it.
      Status = CL_INVALID_OPERATION;
      break;
    default:
      Status = runCopy(Cmd, Cycles, Bytes);
      break;
    }
  }
  if (Status == CL_COMPLETE)
    Status = runTransfers(Cmd.After, TransferCycles, TransferBytes);
  const uint64_t Total = Cycles + TransferCycles;
  Cmd.SimulatedNanoseconds = cyclesToNanoseconds(Model, Total);
  if (Cmd.Kind != CommandKind::NDRangeKernel || !Cmd.Before.empty() ||
      !Cmd.After.empty())
    WEFT_LOG(DebugAccelsim,
             "%s %llu bytes: %llu cycles, %.3f us (of which %zu transfers "
             "before/after, %llu bytes, %llu cycles)%s",
             commandName(Cmd.Kind), static_cast<unsigned long long>(Bytes),
             static_cast<unsigned long long>(Total),
             Cmd.SimulatedNanoseconds / 1000.0,
             Cmd.Before.size() + Cmd.After.size(),
             static_cast<unsigned long long>(TransferBytes),
             static_cast<unsigned long long>(TransferCycles),
             Status == CL_COMPLETE ? "" : " FAILED");
  commandComplete(Cmd, Status);
}

} // namespace weft
