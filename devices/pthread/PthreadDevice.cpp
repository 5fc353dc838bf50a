//===- PthreadDevice.cpp - Work-groups spread over a pool of threads ------===//
//
// A persistent pool, one worker per core (WEFT_THREADS overrides), takes
// jobs from a shared queue. A kernel job is split into chunks of
// work-groups that workers claim with an atomic counter, so cores that
// finish early take more; whichever worker finishes the last chunk
// completes the command. Transfers are jobs of one chunk. Idle workers
// sleep on a condition variable.
//
//===----------------------------------------------------------------------===//

#include "cpu/CpuDevice.h"

#include "weft/debug.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <sched.h>
#include <thread>

namespace weft {
namespace {

unsigned workerCount() {
  if (const char *Env = getenv("WEFT_THREADS")) {
    int N = atoi(Env);
    if (N > 0)
      return static_cast<unsigned>(N);
  }
  return std::max(1u, hostTopology().Cores);
}

struct Job {
  Command *Cmd;
  size_t Total;     ///< work-groups, or 1 for a transfer
  size_t ChunkSize;
  std::atomic<size_t> Next{0};
  std::atomic<size_t> Done{0};
  std::atomic<bool> Started{false};
};

class PthreadDevice final : public CpuDriver {
public:
  /// A device of Workers threads; a sub-device passes the host cores it
  /// owns, and its threads are pinned to them.
  explicit PthreadDevice(unsigned Workers,
                         const std::vector<unsigned> *HostCores = nullptr)
      : CpuDriver("pthread", Workers) {
    if (HostCores) {
      Cores = *HostCores;
      Pinned = true;
    }
    if (Workers > 1) {
      Desc.PartitionMaxSubDevices = Workers;
      const cl_device_affinity_domain Domains[4] = {
          CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE,
          CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
          CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};
      for (int D = 0; D < 4; ++D)
        if (!hostTopology().CoreGroups[D].empty())
          Desc.AffinityDomains |= Domains[D];
      if (Desc.AffinityDomains)
        Desc.AffinityDomains |= CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
    }
    Scratch.resize(Workers);
    for (unsigned I = 0; I < Workers; ++I) {
      Scratch[I] = std::make_unique<WorkerScratch>();
      Threads.emplace_back([this, I] { serve(*Scratch[I]); });
      if (Pinned)
        pin(Threads.back(), Cores[I]);
    }
  }

  std::unique_ptr<DeviceDriver>
  createSubDevice(const std::vector<unsigned> &Units) override {
    std::vector<unsigned> HostCores;
    for (unsigned U : Units)
      HostCores.push_back(Cores[U]);
    auto Sub = std::make_unique<PthreadDevice>(
        static_cast<unsigned>(Units.size()), &HostCores);
    WEFT_LOG(DebugDevice, "pthread sub-device of %zu cores", Units.size());
    return Sub;
  }
  ~PthreadDevice() override {
    {
      std::lock_guard<std::mutex> Guard(Lock);
      Stopping = true;
    }
    Wake.notify_all();
    for (std::thread &T : Threads)
      T.join();
  }

  void submit(Command *Cmd) override {
    auto J = std::make_shared<Job>();
    J->Cmd = Cmd;
    bool IsKernel = Cmd->Kind == CommandKind::NDRangeKernel;
    J->Total = IsKernel ? workGroupCount(*Cmd->Launch) : 1;
    // Several chunks per worker balance uneven groups; never less than one.
    J->ChunkSize = std::max<size_t>(1, J->Total / (Threads.size() * 4));
    {
      std::lock_guard<std::mutex> Guard(Lock);
      Jobs.push_back(std::move(J));
    }
    if (IsKernel)
      Wake.notify_all();
    else
      Wake.notify_one();
  }

private:
  /// Claims a chunk of the oldest job with work left, or waits for one.
  std::shared_ptr<Job> nextJob(size_t &Begin, size_t &End) {
    std::unique_lock<std::mutex> Guard(Lock);
    for (;;) {
      while (!Jobs.empty()) {
        std::shared_ptr<Job> J = Jobs.front();
        Begin = J->Next.fetch_add(J->ChunkSize);
        if (Begin < J->Total) {
          End = std::min(J->Total, Begin + J->ChunkSize);
          if (End == J->Total)
            Jobs.pop_front(); // nothing left to claim
          return J;
        }
        Jobs.pop_front();
      }
      if (Stopping)
        return nullptr;
      Wake.wait(Guard);
    }
  }

  void serve(WorkerScratch &S) {
    size_t Begin, End;
    while (std::shared_ptr<Job> J = nextJob(Begin, End)) {
      Command &Cmd = *J->Cmd;
      if (!J->Started.exchange(true))
        commandRunning(Cmd);
      if (Cmd.Kind == CommandKind::NDRangeKernel)
        S.runWorkGroups(*Cmd.Launch, Begin, End);
      else
        runTransfer(Cmd);
      if (J->Done.fetch_add(End - Begin) + (End - Begin) == J->Total)
        commandComplete(Cmd, CL_COMPLETE);
    }
  }

  /// Restricts T to the first processing unit of host core Core.
  static void pin(std::thread &T, unsigned Core) {
    const HostTopology &Host = hostTopology();
    if (Core >= Host.CorePU.size())
      return;
    cpu_set_t Set;
    CPU_ZERO(&Set);
    CPU_SET(Host.CorePU[Core], &Set);
    if (pthread_setaffinity_np(T.native_handle(), sizeof(Set), &Set) != 0)
      WEFT_LOG(DebugDevice, "could not pin a worker to core %u", Core);
  }

  bool Pinned = false;
  std::mutex Lock;
  std::condition_variable Wake;
  std::deque<std::shared_ptr<Job>> Jobs;
  bool Stopping = false;
  std::vector<std::unique_ptr<WorkerScratch>> Scratch;
  std::vector<std::thread> Threads;
};

} // namespace

std::unique_ptr<DeviceDriver> createPthreadDriver() {
  unsigned Workers = workerCount();
  WEFT_LOG(DebugDevice, "pthread: %u worker threads", Workers);
  return std::make_unique<PthreadDevice>(Workers);
}

} // namespace weft
