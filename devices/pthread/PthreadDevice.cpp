//===- PthreadDevice.cpp - Work-groups spread over a pool of threads ------===//
//
// A persistent pool, one worker per core (WEFT_THREADS overrides), takes
// jobs from a shared queue. A kernel job's work-groups are split into one
// contiguous share per core, the same at every launch of the same
// NDRange, so repeated kernels keep their data in their core's caches;
// each worker claims its share from the front in pieces, and cores that
// finish early take from the back of the others' (Job::claim), so a worker
// descheduled by a busy machine delays the command little. Whichever thread
// finishes the last piece completes the command. Transfers are jobs of one
// work-group. The device lock is taken to find a job, not per claim.
//
// A worker runs jobs only while it holds one of CoreCount slots, one per
// core, pinned to that core while busy; it gives the slot back when it
// sleeps. So with more workers than cores (WEFT_THREADS=8 on 2 cores) no
// more run at once than cores, none shares a core with another holding a
// claimed piece (the launch would wait for whichever lost the core), and
// the same core runs the same share at every launch; the workers beyond
// the cores sleep apart and are woken only when no slot owner can be
// (examples/FloydWarshall --device 0 --size 1024 --iterations 3 with
// WEFT_THREADS=8 on 2 cores: 169 ms before, 101 ms with slots, 102 ms with
// 2 workers). Helping threads claim minimal chunks
// only, so one that loses its core holds back little.
//
// Launch latency is two hand-offs between threads: the application's
// enqueue to a worker, and the worker's completion to the application
// waiting in clFinish. Sleeping on a condition variable costs a futex
// wake-up and a trip through the scheduler at each (several microseconds
// on a virtual machine), so:
//   * a worker that runs out of jobs spins for a short while (yielding the
//     core to anything else runnable) before it sleeps; a job submitted in
//     that window is picked up with no system call, and submit() wakes a
//     sleeper only when there is one. Not on cores shared with other
//     processes, where a yield loses the core for a time slice and
//     sleepers are served sooner (weft/spin.h);
//   * a thread about to block waiting for a command of this device first
//     runs it itself when it is one chunk (runQueuedWork), so a small
//     command completes on the thread that waits for it. Larger commands
//     are left to the workers: a waiter joining in makes one busy thread
//     more than cores, and on a machine shared with other processes every
//     thread that loses its core holding a chunk stalls the command.
//   * a thread polling a command's status (clGetEventInfo in a loop) holds
//     a core anyway: each poll runs one piece of any queued job.
// Idle workers do sleep: the spin lasts SpinTime after the last job.
//
// A worker running a job worth splitting pins itself to its core, and lets
// go when it sleeps (WEFT_PIN_THREADS=0: never; sub-devices' workers are
// pinned for good). Unpinned workers get moved between cores whenever a
// third thread is busy (the application's, another process), away from the
// L2 that holds their share (MatrixMultiplicationTiled --size 512 on device
// 0: 2.35 -> 2.20 ms pinned; weft-bench.py over two libweft copies, geomean
// 0.983, measured while waiters still helped with every job). Pinned
// while idle, though, a spinning worker keeps the core of an application
// thread that launches small kernels one after another (LaunchLatency
// --device 0 --iterations 5000, empty kernel: 1.0 -> 1.75 us), so pinning
// lasts only while there is work.
//
//===----------------------------------------------------------------------===//

#include "cpu/CpuDevice.h"

#include "weft/debug.h"
#include "weft/spin.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <iterator>
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
  return hostTopology().AvailableCores;
}

/// How many of Workers threads the scheduler can run at once: one per core
/// this process runs on (a sub-device: per distinct core of its own).
unsigned coreLimit(unsigned Workers, const std::vector<unsigned> *HostCores) {
  unsigned Cores = hostTopology().AvailableCores;
  if (HostCores) {
    std::vector<unsigned> Distinct(*HostCores);
    std::sort(Distinct.begin(), Distinct.end());
    Cores = std::min<unsigned>(Cores,
                               std::unique(Distinct.begin(), Distinct.end()) -
                                   Distinct.begin());
  }
  return std::max(1u, std::min(Workers, Cores));
}

/// How long an idle worker keeps looking for work before it sleeps.
constexpr auto SpinTime = std::chrono::microseconds(50);

bool pinRootWorkers() {
  const char *Env = getenv("WEFT_PIN_THREADS");
  return !Env || atoi(Env) > 0;
}

/// The scratch of a thread that is not a worker but runs chunks while it
/// waits (runQueuedWork).
WorkerScratch &helperScratch() {
  thread_local WorkerScratch Scratch;
  return Scratch;
}

/// A run of work-groups [Front, Back) packed in one word, so that its
/// owner taking from the front and others taking from the back agree with
/// one compare-and-swap.
class Slice {
public:
  void reset(uint32_t Begin, uint32_t End) {
    Range.store(pack(Begin, End), std::memory_order_relaxed);
    Adopted.store(false, std::memory_order_relaxed);
  }

  /// Makes the caller the share's owner; false when it has one already.
  bool adopt() { return !Adopted.exchange(true, std::memory_order_relaxed); }

  /// Takes up to Want work-groups from the front (Owner) or the back;
  /// false when the slice is empty. A thief takes at most half of what is
  /// left, so the owner keeps the front part it is about to touch.
  bool take(bool Owner, size_t Want, size_t &Begin, size_t &End) {
    uint64_t Cur = Range.load(std::memory_order_relaxed);
    for (;;) {
      uint32_t F = front(Cur), B = back(Cur);
      if (F >= B)
        return false;
      uint32_t Left = B - F;
      uint32_t Size = static_cast<uint32_t>(
          std::min<size_t>(Owner ? Left : std::max<uint32_t>(1, Left / 2),
                           std::max<size_t>(1, Want)));
      uint64_t Next = Owner ? pack(F + Size, B) : pack(F, B - Size);
      if (Range.compare_exchange_weak(Cur, Next, std::memory_order_relaxed)) {
        Begin = Owner ? F : B - Size;
        End = Owner ? F + Size : B;
        return true;
      }
    }
  }

  size_t left() const {
    uint64_t Cur = Range.load(std::memory_order_relaxed);
    return front(Cur) < back(Cur) ? back(Cur) - front(Cur) : 0;
  }

private:
  static uint64_t pack(uint32_t F, uint32_t B) { return uint64_t(F) << 32 | B; }
  static uint32_t front(uint64_t R) { return uint32_t(R >> 32); }
  static uint32_t back(uint64_t R) { return uint32_t(R); }
  std::atomic<uint64_t> Range{0};
  std::atomic<bool> Adopted{false};
};

struct Job {
  Command *Cmd;
  size_t Total;    ///< work-groups, or 1 for a transfer
  size_t MinChunk; ///< fewest work-groups worth a claim
  /// One contiguous share of the work-groups per core the scheduler runs
  /// the process on, not per worker. The holder of core slot I owns
  /// Slices[I] when it comes for it first: the same share of the same NDRange
  /// at every launch, so a kernel run again and again over data that fits the
  /// caches (FloydWarshall's 512 passes over 2 MiB) finds its part in its own
  /// core's L2 instead of pulling it from the other core's. A worker whose
  /// share is done takes from the back of the others' shares; a worker
  /// that finds every share owned and a thread helping while it waits
  /// (runQueuedWork) are extras: they take only minimal chunks, since they
  /// are the threads likely to lose their core with a chunk in hand.
  Slice *Slices = InlineSlices;
  size_t SliceCount = 0;
  /// Shares of up to 8 workers live in the job: one allocation less per
  /// command on most machines.
  Slice InlineSlices[8];
  std::unique_ptr<Slice[]> HeapSlices;
  std::atomic<size_t> Done{0};
  std::atomic<bool> Started{false};

  /// Claimed in order when the work-groups do not fit the 32-bit ids of
  /// the shares (4 billion of them: possible, if never seen).
  std::atomic<size_t> Next{0};

  /// Shares for Cores cores, no more than minimal chunks.
  void split(size_t Cores) {
    size_t Chunks = (Total + MinChunk - 1) / MinChunk;
    SliceCount = Total >= UINT32_MAX ? 0 : std::min(Cores, Chunks);
    if (SliceCount > std::size(InlineSlices)) {
      HeapSlices = std::make_unique<Slice[]>(SliceCount);
      Slices = HeapSlices.get();
    }
    for (size_t I = 0; I < SliceCount; ++I)
      Slices[I].reset(uint32_t(I * Total / SliceCount),
                      uint32_t((I + 1) * Total / SliceCount));
  }

  /// The share worker Self owns in this job: its own when nobody has it,
  /// else the next one with work-groups left and no owner; SIZE_MAX when
  /// Self is an extra (every share with work left is owned) or a helper
  /// (Self == SIZE_MAX).
  size_t adopt(size_t Self) {
    if (Self == SIZE_MAX)
      return SIZE_MAX;
    for (size_t K = 0; K < SliceCount; ++K) {
      size_t I = (Self + K) % SliceCount;
      if (Slices[I].left() && Slices[I].adopt())
        return I;
    }
    return SIZE_MAX;
  }

  /// Claims [Begin, End) for the owner of share Own (SIZE_MAX: an extra,
  /// looking first at share From): an owner takes from the front of its
  /// share, then from the back of the others'. An owner's claim is a
  /// quarter of what is left there (few claims), so pieces shrink towards
  /// the end of a share: a worker that loses its core to another process
  /// holds back little of the command, however late in the command that
  /// happens. An extra's claim is one minimal chunk. False when every
  /// work-group is taken.
  bool claim(size_t Own, size_t From, size_t &Begin, size_t &End) {
    if (!SliceCount) {
      Begin = Next.fetch_add(MinChunk, std::memory_order_relaxed);
      End = std::min(Total, Begin + MinChunk);
      return Begin < Total;
    }
    const bool Owner = Own < SliceCount;
    if (Owner &&
        Slices[Own].take(true, std::max(MinChunk, Slices[Own].left() / 4),
                         Begin, End))
      return true;
    for (size_t K = 0; K < SliceCount; ++K) {
      size_t Victim = (From + K) % SliceCount;
      if (Victim == Own)
        continue;
      size_t Want =
          Owner ? std::max(MinChunk, Slices[Victim].left() / 4) : MinChunk;
      if (Slices[Victim].take(false, Want, Begin, End))
        return true;
    }
    return false;
  }
  bool exhausted() const {
    if (!SliceCount)
      return Next.load(std::memory_order_relaxed) >= Total;
    for (size_t I = 0; I < SliceCount; ++I)
      if (Slices[I].left())
        return false;
    return true;
  }
};

/// Work-items a chunk should hold at least, so that claiming it (an atomic
/// operation on a shared line) costs little next to running it.
constexpr size_t MinChunkItems = 512;

/// A chunk longer than this is worth splitting, since waking a worker for
/// a piece costs less (a futex wake-up and a trip through the scheduler:
/// tens of microseconds on a virtual machine).
constexpr uint64_t SplitWorthNanos = 50000;

/// What one work-group of a kernel took the last time it ran, by the
/// kernel's code: a job's first chunk is timed, and the next launch of the
/// same code splits its work-groups by it. Work-items differ in cost by
/// orders of magnitude: 512 of RecursiveGaussian's column filter each run
/// a loop over 512 rows, 2 ms in all, and as one minimal chunk they ran on
/// one thread while the other core idled (and on a busy machine, waited
/// whenever that thread lost its core). A direct-mapped table of words
/// (a tag of the code's address, nanoseconds), read and written without a
/// lock; a collision loses an estimate, nothing else.
class GroupCosts {
public:
  uint32_t lookup(LauncherFn Code) const {
    uint64_t Word = Slots[index(Code)].load(std::memory_order_relaxed);
    return uint32_t(Word >> 32) == tag(Code) ? uint32_t(Word) : 0;
  }
  void record(LauncherFn Code, uint64_t Nanos) {
    uint64_t Word =
        uint64_t(tag(Code)) << 32 |
        std::min<uint64_t>(std::max<uint64_t>(Nanos, 1), UINT32_MAX);
    Slots[index(Code)].store(Word, std::memory_order_relaxed);
  }

private:
  static uint64_t hash(LauncherFn Code) {
    return uint64_t(reinterpret_cast<uintptr_t>(Code)) * 0x9e3779b97f4a7c15ull;
  }
  static size_t index(LauncherFn Code) { return hash(Code) >> 58; }
  static uint32_t tag(LauncherFn Code) {
    return uint32_t(hash(Code) >> 16) | 1;
  }
  std::atomic<uint64_t> Slots[64] = {};
};

class PthreadDevice final : public CpuDriver {
public:
  /// A device of Workers threads; a sub-device passes the host cores it
  /// owns, and its threads are pinned to them.
  explicit PthreadDevice(unsigned Workers,
                         const std::vector<unsigned> *HostCores = nullptr)
      : CpuDriver("pthread", Workers),
        CoreCount(coreLimit(Workers, HostCores)) {
    if (HostCores) {
      Cores = *HostCores;
      Pinned = true;
    } else {
      // A worker pins itself to the core of its slot: one per core, even
      // with more workers than cores.
      PinWhenBusy = pinRootWorkers();
      // What the workers inherit, and get back when they let go.
      if (sched_getaffinity(0, sizeof(Inherited), &Inherited) != 0)
        PinWhenBusy = false;
    }
    if (Workers > 1) {
      Desc.PartitionMaxSubDevices = Workers;
      const cl_device_affinity_domain Domains[4] = {
          CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE,
          CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
          CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};
      // Only the levels that split this device: a partition into one
      // sub-device as large as its parent could be partitioned the same
      // way again, for ever (the CTS's device_partition recurses so).
      for (int D = 0; D < 4; ++D)
        if (affinityGroups(Domains[D]).size() > 1)
          Desc.AffinityDomains |= Domains[D];
      if (Desc.AffinityDomains)
        Desc.AffinityDomains |= CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
    }
    SlotTaken.assign(CoreCount, false);
    Scratch.resize(Workers);
    for (unsigned I = 0; I < Workers; ++I) {
      Scratch[I] = std::make_unique<WorkerScratch>();
      Threads.emplace_back([this, I] { serve(*Scratch[I], I); });
      cpu_set_t Set;
      if (Pinned && coreSet(Cores[I], Set))
        setAffinity(Threads.back().native_handle(), Set);
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
    WakeExtra.notify_all();
    for (std::thread &T : Threads)
      T.join();
  }

  void submit(Command *Cmd) override {
    auto J = std::make_shared<Job>();
    J->Cmd = Cmd;
    bool IsKernel = Cmd->Kind == CommandKind::NDRangeKernel;
    J->Total = IsKernel ? workGroupCount(*Cmd->Launch) : 1;
    if (IsKernel)
      preparePrintf(*Cmd->Launch, Desc.PrintfBufferSize);
    size_t GroupItems = 1;
    if (IsKernel)
      for (unsigned D = 0; D < 3; ++D)
        GroupItems *= Cmd->Launch->LocalSize[D];
    J->MinChunk = std::max<size_t>(1, MinChunkItems / GroupItems);
    if (IsKernel)
      if (uint64_t Nanos = Costs.lookup(Cmd->Launch->Function.Launch))
        J->MinChunk = std::min<size_t>(
            J->MinChunk, std::max<uint64_t>(1, SplitWorthNanos / Nanos));
    J->split(CoreCount);
    // Threads worth waking: one per minimal chunk, beyond the first.
    size_t Chunks = (J->Total + J->MinChunk - 1) / J->MinChunk;
    size_t Wanted, WantedOwners;
    {
      std::lock_guard<std::mutex> Guard(Lock);
      Jobs.push_back(std::move(J));
      JobCount.store(Jobs.size(), std::memory_order_relaxed);
      // Read under Lock: a spinner that stops spinning takes Lock next, so
      // it is either still counted here and finds this job, or asleep.
      size_t Spinning = Spinners.load(std::memory_order_relaxed);
      // Spinning workers see Queued change and take the first chunks; only
      // sleepers need a system call, for the chunks left, and only into
      // free slots: a worker holding one comes for this job when it is
      // done with its own.
      size_t Free = CoreCount - SlotsHeld;
      size_t Waking = Sleeping[0].Waking + Sleeping[1].Waking;
      size_t Idle[2] = {Sleeping[0].Asleep - Sleeping[0].Waking,
                        Sleeping[1].Asleep - Sleeping[1].Waking};
      Wanted = std::min<size_t>({Chunks > Spinning ? Chunks - Spinning : 0,
                                 Idle[0] + Idle[1],
                                 Free > Waking ? Free - Waking : 0});
      // The workers that own the slots first: a slot changing hands costs
      // a migration, and a worker that sleeps on the condition variable
      // longest would be woken first (BitonicSort --size 524288 with
      // WEFT_THREADS=8 on 2 cores: 23 ms woken in turn, 17 with 2). Only
      // as many of each as sleep unwoken: a notification to a condition
      // variable nobody waits on is lost, and its count would stay.
      WantedOwners = std::min<size_t>(Wanted, Idle[0]);
      Sleeping[0].Waking += WantedOwners;
      Sleeping[1].Waking += Wanted - WantedOwners;
    }
    Queued.fetch_add(1, std::memory_order_release);
    for (size_t I = 0; I < Wanted; ++I)
      (I < WantedOwners ? Wake : WakeExtra).notify_one();
  }

  void runQueuedWork(const std::function<bool()> &Done,
                     Helper Kind) override {
    WorkerScratch &S = helperScratch();
    while (!Done()) {
      // Applications polling an event call this in a tight loop: with
      // nothing queued they must not take the workers' lock.
      if (!JobCount.load(std::memory_order_relaxed))
        return;
      std::shared_ptr<Job> J;
      {
        std::lock_guard<std::mutex> Guard(Lock);
        J = frontJob();
      }
      if (!J)
        return;
      // A job of several chunks is the workers'. A waiting thread that
      // joined in would make one thread more than cores, and when a
      // thread holding a chunk loses its core the command waits a whole
      // time slice for it: FloydWarshall --size 1024 beside a busy loop
      // per core took 1174 ms helped, 587 ms not (pocl 3.1: 566 ms). A
      // one-chunk job runs here: no hand-off either way.
      if (Kind == Helper::Waiting && J->Total > J->MinChunk)
        return;
      runJob(*J, S, SIZE_MAX, &Done);
    }
  }

private:
  /// The oldest job with work-groups left to claim, dropping exhausted
  /// ones; null when there is none. Callers hold Lock.
  std::shared_ptr<Job> frontJob() {
    while (!Jobs.empty()) {
      if (!Jobs.front()->exhausted())
        return Jobs.front();
      Jobs.pop_front();
      JobCount.store(Jobs.size(), std::memory_order_relaxed);
    }
    return nullptr;
  }

  /// Runs chunks of J until it has none left to claim, or until Stop()
  /// (a helping thread stops once the command it waits for is done).
  /// Self is the worker's core slot, SIZE_MAX for a helping thread.
  void runJob(Job &J, WorkerScratch &S, size_t Self,
              const std::function<bool()> *Stop = nullptr) {
    size_t Own = J.adopt(Self);
    size_t From = Own != SIZE_MAX ? Own + 1 : Self != SIZE_MAX ? Self : 0;
    size_t Begin, End;
    while (J.claim(Own, From, Begin, End)) {
      runChunk(J, S, Begin, End);
      if (Stop && (*Stop)())
        return;
    }
  }

  /// The oldest job with work left, for the worker Self holding core slot
  /// Slot (taken here when it holds none), spinning briefly and then
  /// sleeping while there is none (unpinned first when OnCore, and giving
  /// the slot back); null when the device is being destroyed.
  std::shared_ptr<Job> nextJob(size_t Self, int &Slot, bool &OnCore) {
    auto SpinUntil = spinDeadline();
    for (;;) {
      uint64_t Seen = Queued.load(std::memory_order_acquire);
      {
        std::unique_lock<std::mutex> Guard(Lock);
        if (std::shared_ptr<Job> J = frontJob()) {
          if (Slot < 0)
            Slot = takeSlot(Self);
          if (Slot >= 0)
            return J;
          // Every core has a worker, which will come for this job.
          SpinUntil = std::chrono::steady_clock::now();
        }
        if (Stopping)
          return nullptr;
        if (std::chrono::steady_clock::now() >= SpinUntil) {
          if (OnCore) {
            Guard.unlock();
            setAffinity(pthread_self(), Inherited);
            OnCore = false;
            continue;
          }
          if (Slot >= 0) {
            SlotTaken[Slot] = false;
            --SlotsHeld;
            Slot = -1;
          }
          // Workers beyond the cores sleep apart: woken only when every
          // slot owner is awake.
          const bool Owner = Self < CoreCount;
          Sleepers &Mine = Sleeping[Owner ? 0 : 1];
          ++Mine.Asleep;
          (Owner ? Wake : WakeExtra).wait(Guard, [&] {
            return Stopping || Queued.load(std::memory_order_acquire) != Seen;
          });
          --Mine.Asleep;
          // Woken by submit(), or on its own after a submit() that woke
          // nobody: then Waking is one short until the woken one returns.
          if (Mine.Waking)
            --Mine.Waking;
          SpinUntil = spinDeadline();
          continue;
        }
      }
      // Only workers holding a slot spin: more spinners than cores only
      // take turns on them, and every turn delays the thread that will
      // submit the next job (LaunchLatency with WEFT_THREADS=16 on 2
      // cores: 2.7 us an empty kernel, 0.5 us with 2 workers).
      if (Slot < 0) {
        SpinUntil = std::chrono::steady_clock::now();
        continue;
      }
      Spinners.fetch_add(1, std::memory_order_relaxed);
      // Spin without the lock until a job arrives or the time is up,
      // letting any other runnable thread have the core meanwhile; sleep
      // at once when another process takes it (weft/spin.h).
      while (Queued.load(std::memory_order_acquire) == Seen &&
             std::chrono::steady_clock::now() < SpinUntil)
        if (!spinYield())
          break;
      Spinners.fetch_sub(1, std::memory_order_relaxed);
      if (!spinningPays(std::chrono::steady_clock::now()))
        SpinUntil = std::chrono::steady_clock::now();
    }
  }

  /// A free core slot for worker Self, its own (Self modulo the cores)
  /// first; -1 when every core has a worker. Callers hold Lock.
  int takeSlot(size_t Self) {
    for (unsigned K = 0; K < CoreCount; ++K) {
      unsigned I = (Self + K) % CoreCount;
      if (!SlotTaken[I]) {
        SlotTaken[I] = true;
        ++SlotsHeld;
        return int(I);
      }
    }
    return -1;
  }

  /// The end of an idle worker's spin starting now: none on cores shared
  /// with other processes.
  static std::chrono::steady_clock::time_point spinDeadline() {
    auto Now = std::chrono::steady_clock::now();
    return spinningPays(Now) ? Now + SpinTime : Now;
  }

  void runChunk(Job &J, WorkerScratch &S, size_t Begin, size_t End) {
    Command &Cmd = *J.Cmd;
    const bool First = !J.Started.exchange(true);
    if (First)
      commandRunning(Cmd);
    if (Cmd.Kind == CommandKind::NDRangeKernel) {
      // The first chunk of a kernel is timed for the next launch's split;
      // not a kernel of one work-group (an empty kernel's launch: 0.44 ->
      // 0.50 us with two clock reads).
      const bool Timed = First && J.Total > 1;
      std::chrono::steady_clock::time_point Start;
      if (Timed)
        Start = std::chrono::steady_clock::now();
      S.runWorkGroups(*Cmd.Launch, Begin, End);
      if (Timed)
        Costs.record(Cmd.Launch->Function.Launch,
                     std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now() - Start)
                             .count() /
                         (End - Begin));
    } else {
      runTransfer(Cmd);
    }
    if (J.Done.fetch_add(End - Begin) + (End - Begin) == J.Total) {
      // Every work-group has run: their printf records are complete.
      if (Cmd.Kind == CommandKind::NDRangeKernel)
        flushPrintf(*Cmd.Launch);
      commandComplete(Cmd, CL_COMPLETE);
    }
  }

  void serve(WorkerScratch &S, size_t Self) {
    int Slot = -1;
    bool OnCore = false;
    while (std::shared_ptr<Job> J = nextJob(Self, Slot, OnCore)) {
      // A job with a few chunks for every core is worth a system call.
      cpu_set_t Own;
      if (PinWhenBusy && !OnCore && J->Total >= 2 * J->MinChunk * CoreCount &&
          coreSet(Cores[Slot], Own))
        OnCore = setAffinity(pthread_self(), Own);
      // The share of the slot's core: the same data on the same core at
      // every launch, whichever worker holds the slot.
      runJob(*J, S, size_t(Slot));
    }
  }

  /// The first processing unit of host core Core, as a set.
  static bool coreSet(unsigned Core, cpu_set_t &Set) {
    const HostTopology &Host = hostTopology();
    if (Core >= Host.CorePU.size())
      return false;
    CPU_ZERO(&Set);
    CPU_SET(Host.CorePU[Core], &Set);
    return true;
  }

  static bool setAffinity(pthread_t T, const cpu_set_t &Set) {
    if (pthread_setaffinity_np(T, sizeof(Set), &Set) == 0)
      return true;
    WEFT_LOG(DebugDevice, "could not set a worker's CPU affinity");
    return false;
  }

  /// Sub-devices: workers pinned to their cores from the start.
  bool Pinned = false;
  /// Root device: workers pinned while they run jobs (see the header).
  bool PinWhenBusy = false;
  cpu_set_t Inherited{};
  std::mutex Lock;
  std::condition_variable Wake, WakeExtra;
  std::deque<std::shared_ptr<Job>> Jobs;
  /// Workers spinning now: slot holders only, so at most CoreCount.
  std::atomic<unsigned> Spinners{0};
  /// Cores the workers run on (coreLimit): the slots, and the shares a job
  /// is split into.
  const unsigned CoreCount;
  GroupCosts Costs;
  /// Jobs.size(), readable without Lock.
  std::atomic<size_t> JobCount{0};
  /// Jobs ever submitted: spinning workers watch it change.
  std::atomic<uint64_t> Queued{0};
  /// Workers blocked on a condition variable, and how many of them
  /// submit() has woken and that have not yet returned.
  struct Sleepers {
    unsigned Asleep = 0, Waking = 0;
  };
  /// The slot owners (index below CoreCount), on Wake, and the others, on
  /// WakeExtra (guarded by Lock).
  Sleepers Sleeping[2];
  /// One slot per core (CoreCount): a worker takes one to run jobs, pins
  /// itself to its core while busy, and gives it back when it sleeps, so
  /// that no more workers are awake than cores and no two are stacked on
  /// one core (guarded by Lock).
  std::vector<bool> SlotTaken;
  unsigned SlotsHeld = 0;
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
