//===- BasicDevice.cpp - One thread, one work-group at a time ---------------===//
//
// The simplest correct driver and the reference the others are tested
// against: a single thread takes commands in the order they became ready
// and runs each to completion, work-group after work-group.
//
//===----------------------------------------------------------------------===//

#include "cpu/CpuDevice.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace weft {
namespace {

class BasicDevice final : public CpuDriver {
public:
  BasicDevice() : CpuDriver("basic", 1) {
    Worker = std::thread([this] { serve(); });
  }
  ~BasicDevice() override {
    {
      std::lock_guard<std::mutex> Guard(Lock);
      Stopping = true;
    }
    Wake.notify_one();
    Worker.join();
  }

  void submit(Command *Cmd) override {
    {
      std::lock_guard<std::mutex> Guard(Lock);
      Ready.push_back(Cmd);
    }
    Wake.notify_one();
  }

private:
  void serve() {
    for (;;) {
      Command *Cmd;
      {
        std::unique_lock<std::mutex> Guard(Lock);
        Wake.wait(Guard, [this] { return Stopping || !Ready.empty(); });
        if (Ready.empty())
          return;
        Cmd = Ready.front();
        Ready.pop_front();
      }
      commandRunning(*Cmd);
      if (Cmd->Kind == CommandKind::NDRangeKernel) {
        preparePrintf(*Cmd->Launch, Desc.PrintfBufferSize);
        Scratch.runWorkGroups(*Cmd->Launch, 0, workGroupCount(*Cmd->Launch));
        flushPrintf(*Cmd->Launch);
      } else
        runTransfer(*Cmd);
      commandComplete(*Cmd, CL_COMPLETE);
    }
  }

  std::mutex Lock;
  std::condition_variable Wake;
  std::deque<Command *> Ready;
  bool Stopping = false;
  WorkerScratch Scratch;
  std::thread Worker;
};

} // namespace

std::unique_ptr<DeviceDriver> createBasicDriver() {
  return std::make_unique<BasicDevice>();
}

} // namespace weft
