//===- tests/api/ThreadTest.cpp - several host threads, one queue ---------===//
//
// OpenCL API calls are thread-safe except clSetKernelArg on a shared
// kernel, so every thread creates its own kernel object from the shared
// program and its own buffers, and enqueues on the shared queue.
//
// WorkerThreads looks at the threads of Weft's pthread device, from
// /proc/self/task: while a kernel of many work-groups runs, one per compute
// unit is pinned to a CPU of its own (none under WEFT_PIN_THREADS=0,
// api.WorkerThreads.unpinned); idle, none is.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <dirent.h>
#include <map>
#include <sched.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace weft_test;

namespace {

class HostThreads : public DeviceTest {};

TEST_P(HostThreads, SharedQueueAndProgram) {
  ProgramRef P(buildProgram(
      Context, Device,
      "kernel void affine(global int *Out, global const int *In, int A,\n"
      "                   int B) {\n"
      "  size_t I = get_global_id(0);\n"
      "  Out[I] = A * In[I] + B;\n"
      "}\n"));
  ASSERT_NE(P.get(), nullptr);

  const int Threads = 4, Rounds = 20;
  std::atomic<int> Failures{0}, Checked{0};
  std::vector<std::string> FirstError(Threads);
  auto Work = [&](int T) {
    auto Fail = [&](const std::string &What) {
      if (FirstError[T].empty())
        FirstError[T] = What;
      ++Failures;
    };
    cl_int Err = CL_SUCCESS;
    KernelRef K(clCreateKernel(P, "affine", &Err));
    if (Err != CL_SUCCESS)
      return Fail(std::string("clCreateKernel: ") + errorName(Err));
    for (int R = 0; R < Rounds; ++R) {
      const size_t N = 256 + 64 * size_t((T * Rounds + R) % 7);
      std::vector<cl_int> In(N), Out(N, 0);
      for (size_t I = 0; I < N; ++I)
        In[I] = cl_int(I) * (T + 1) - R;
      MemRef InBuf(clCreateBuffer(Context,
                                  CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  N * sizeof(cl_int), In.data(), &Err));
      if (Err != CL_SUCCESS)
        return Fail(std::string("clCreateBuffer: ") + errorName(Err));
      MemRef OutBuf(clCreateBuffer(Context, CL_MEM_WRITE_ONLY,
                                   N * sizeof(cl_int), nullptr, &Err));
      if (Err != CL_SUCCESS)
        return Fail(std::string("clCreateBuffer: ") + errorName(Err));
      cl_int A = T + 2, B = R * 1000 + T;
      if ((Err = clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf)) ||
          (Err = clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf)) ||
          (Err = clSetKernelArg(K, 2, sizeof(A), &A)) ||
          (Err = clSetKernelArg(K, 3, sizeof(B), &B)))
        return Fail(std::string("clSetKernelArg: ") + errorName(Err));
      size_t Local = 64;
      if ((Err = clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                        nullptr, nullptr)))
        return Fail(std::string("clEnqueueNDRangeKernel: ") + errorName(Err));
      if ((Err = clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                     N * sizeof(cl_int), Out.data(), 0,
                                     nullptr, nullptr)))
        return Fail(std::string("clEnqueueReadBuffer: ") + errorName(Err));
      for (size_t I = 0; I < N; ++I)
        if (Out[I] != A * In[I] + B)
          return Fail("thread " + std::to_string(T) + " round " +
                      std::to_string(R) + ": wrong value at " +
                      std::to_string(I));
      ++Checked;
    }
  };
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back(Work, T);
  for (std::thread &T : Pool)
    T.join();
  for (int T = 0; T < Threads; ++T)
    EXPECT_TRUE(FirstError[T].empty()) << FirstError[T];
  EXPECT_EQ(Failures.load(), 0);
  EXPECT_EQ(Checked.load(), Threads * Rounds);
}

TEST_P(HostThreads, QueuePerThread) {
  // Each thread has its own queue on the shared context; they all finish.
  ProgramRef P(buildProgram(Context, Device, kernelSource("increment.cl")));
  ASSERT_NE(P.get(), nullptr);
  const int Threads = 4;
  const size_t N = 4096;
  std::vector<std::vector<cl_int>> Results(Threads);
  std::vector<cl_int> Errors(Threads, CL_SUCCESS);
  auto Work = [&](int T) {
    cl_int &Err = Errors[T];
    QueueRef Q(clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err));
    if (Err)
      return;
    KernelRef K(clCreateKernel(P, "increment", &Err));
    if (Err)
      return;
    std::vector<cl_int> Init(N, T * 100);
    MemRef Buf(clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              N * sizeof(cl_int), Init.data(), &Err));
    if (Err)
      return;
    if ((Err = clSetKernelArg(K, 0, sizeof(cl_mem), &Buf)))
      return;
    for (int I = 0; I < 10 + T; ++I)
      if ((Err = clEnqueueNDRangeKernel(Q, K, 1, nullptr, &N, nullptr, 0,
                                        nullptr, nullptr)))
        return;
    Results[T].resize(N);
    Err = clEnqueueReadBuffer(Q, Buf, CL_TRUE, 0, N * sizeof(cl_int),
                              Results[T].data(), 0, nullptr, nullptr);
  };
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back(Work, T);
  for (std::thread &T : Pool)
    T.join();
  for (int T = 0; T < Threads; ++T) {
    ASSERT_CL_OK(Errors[T]) << " in thread " << T;
    ASSERT_EQ(Results[T].size(), N);
    for (size_t I = 0; I < N; ++I)
      ASSERT_EQ(Results[T][I], T * 100 + 10 + T) << "thread " << T << " at " << I;
  }
}

WEFT_INSTANTIATE_DEVICE_TEST(HostThreads);

class WorkerThreads : public DeviceTest {};

/// The CPUs each thread of this process may run on, from the
/// Cpus_allowed_list line of /proc/self/task/<tid>/status ("0-3,6").
std::map<int, std::set<int>> threadAffinities() {
  std::map<int, std::set<int>> Result;
  DIR *Tasks = opendir("/proc/self/task");
  if (!Tasks)
    return Result;
  while (dirent *Entry = readdir(Tasks)) {
    int Tid = atoi(Entry->d_name);
    if (Tid <= 0)
      continue;
    std::ifstream Status(std::string("/proc/self/task/") + Entry->d_name +
                         "/status");
    std::string Line;
    while (std::getline(Status, Line)) {
      if (Line.rfind("Cpus_allowed_list:", 0) != 0)
        continue;
      std::stringstream List(Line.substr(Line.find(':') + 1));
      std::string Range;
      std::set<int> &Cpus = Result[Tid];
      while (std::getline(List, Range, ',')) {
        int First = 0, Last = 0;
        int Read = sscanf(Range.c_str(), "%d-%d", &First, &Last);
        for (int C = First; Read >= 1 && C <= (Read == 2 ? Last : First); ++C)
          Cpus.insert(C);
      }
    }
  }
  closedir(Tasks);
  return Result;
}

/// How many threads may run on one CPU only, and which CPUs those are.
struct PinnedThreads {
  size_t Count = 0;
  std::set<int> Cpus;
};

PinnedThreads pinnedThreads() {
  PinnedThreads P;
  for (auto &[Tid, Set] : threadAffinities())
    if (Set.size() == 1) {
      ++P.Count;
      P.Cpus.insert(*Set.begin());
    }
  return P;
}

TEST_P(WorkerThreads, PinnedToCoresWhileBusy) {
  if (platformUnderTestName() != "Weft" ||
      deviceString(Device, CL_DEVICE_NAME).rfind("pthread-", 0) != 0)
    GTEST_SKIP() << "not Weft's pthread device";
  cpu_set_t Allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof(Allowed), &Allowed), 0);
  if (CPU_COUNT(&Allowed) < 2)
    GTEST_SKIP() << "the process may use one CPU: every thread looks pinned";
  ASSERT_FALSE(threadAffinities().empty()) << "no /proc/self/task";
  const char *Env = getenv("WEFT_PIN_THREADS");
  size_t Units = deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_COMPUTE_UNITS);
  // With more workers than cores (WEFT_THREADS) one per core runs and is
  // pinned, the others stand by. (CPUs stand in for cores here.)
  bool Pinning = !Env || atoi(Env) > 0;
  size_t Wanted = std::min<size_t>(Units, CPU_COUNT(&Allowed));

  // Idle workers are the scheduler's.
  EXPECT_EQ(pinnedThreads().Count, 0u) << "a thread is pinned before any work";

  // A kernel of many work-groups (the device pins for a few minimal chunks
  // of 512 work-items per worker), long enough to look at the threads while
  // it runs: a chain of dependent multiply-adds per work-item, the same
  // work per core whatever the number of cores.
  KernelRef K(makeKernel("kernel void chain(global float *Out, int N) {\n"
                         "  float X = get_global_id(0);\n"
                         "  for (int I = 0; I < N; ++I)\n"
                         "    X = X * 0.999f + 1.0f;\n"
                         "  Out[get_global_id(0)] = X;\n"
                         "}\n",
                         "chain"));
  ASSERT_NE(K.get(), nullptr);
  const size_t Items = 2048 * Units;
  const cl_int N = 4000000;
  MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, Items * sizeof(float)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Out));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_int), &N));
  const size_t Local = 16;
  cl_event Run = nullptr;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Items, &Local, 0,
                                      nullptr, &Run));
  EventRef RunRef(Run);
  ASSERT_CL_OK(clFlush(Queue));
  // Look while it runs: every worker on a CPU of its own once it started.
  bool SawAllPinned = false;
  size_t MostPinned = 0;
  for (;;) {
    cl_int Status = CL_QUEUED;
    ASSERT_CL_OK(clGetEventInfo(Run, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                sizeof(Status), &Status, nullptr));
    if (Status <= CL_COMPLETE)
      break;
    PinnedThreads P = pinnedThreads();
    MostPinned = std::max(MostPinned, P.Count);
    EXPECT_EQ(P.Count, P.Cpus.size()) << "two workers pinned to one CPU";
    if (P.Count >= Wanted && P.Cpus.size() >= Wanted) {
      SawAllPinned = true;
      for (int Cpu : P.Cpus)
        EXPECT_TRUE(CPU_ISSET(Cpu, &Allowed))
            << "worker pinned to CPU " << Cpu << ", outside the process's set";
      if (Pinning)
        break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_CL_OK(clWaitForEvents(1, &Run));
  if (Pinning)
    EXPECT_TRUE(SawAllPinned) << "at most " << MostPinned << " of " << Units
                              << " workers pinned to distinct CPUs while "
                                 "the kernel ran";
  else
    EXPECT_EQ(MostPinned, 0u) << "a thread pinned under WEFT_PIN_THREADS=0";

  // Idle again, the workers let go of their cores (they spin for 50 us
  // first; give them far longer).
  size_t StillPinned = 0;
  for (int Try = 0; Try < 100; ++Try) {
    StillPinned = pinnedThreads().Count;
    if (!StillPinned)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(StillPinned, 0u) << "workers still pinned a second after the work";

  // And the kernel ran: X_{n+1} = 0.999 X_n + 1 tends to 1000.
  std::vector<float> Result(Items);
  ASSERT_CL_OK(readInto(Out, Result));
  for (size_t I = 0; I < Items; I += 511)
    EXPECT_NEAR(Result[I], 1000.0f, 1.0f) << "work-item " << I;
}

// State[0]: work-groups in progress; State[1]: the most seen at once. A
// group is in progress from its first work-item's start to its last one's
// end, however its work-items are run. Runs counts each group's runs.
const char *const WatchedSource =
    "kernel void watched(volatile global int *State, global int *Runs,\n"
    "                    global float *Out, int N) {\n"
    "  if (get_local_id(0) == 0)\n"
    "    atomic_max(&State[1], atomic_inc(&State[0]) + 1);\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  float X = get_global_id(0);\n"
    "  for (int I = 0; I < N; ++I)\n"
    "    X = X * 0.999f + 1.0f;\n"
    "  Out[get_global_id(0)] = X;\n"
    "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  if (get_local_id(0) == 0) {\n"
    "    atomic_inc(&Runs[get_group_id(0)]);\n"
    "    atomic_dec(&State[0]);\n"
    "  }\n"
    "}\n";

// With more workers than cores (WEFT_THREADS=16 in
// api.WorkerThreads.oversubscribed) no more of them run at once than
// cores, and every work-group runs exactly once per launch, on a chain of
// dependent launches (each submitted by the worker completing the one
// before) beside a busy thread on every CPU, where workers lose their cores
// with chunks in hand.
TEST_P(WorkerThreads, EveryGroupRunsOnceBesideBusyCores) {
  if (platformUnderTestName() != "Weft" ||
      deviceString(Device, CL_DEVICE_NAME).rfind("pthread-", 0) != 0)
    GTEST_SKIP() << "not Weft's pthread device";
  cpu_set_t Allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof(Allowed), &Allowed), 0);
  const size_t Cpus = CPU_COUNT(&Allowed);
  const size_t Units = deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_COMPUTE_UNITS);

  KernelRef K(makeKernel(WatchedSource, "watched"));
  ASSERT_NE(K.get(), nullptr);
  const size_t Local = 64, Groups = 512, Items = Local * Groups;
  const cl_int N = 1000;
  const int Launches = 100;
  std::vector<cl_int> Zeros(Groups, 0);
  MemRef State(makeBufferFrom(std::vector<cl_int>(2, 0)));
  MemRef Runs(makeBufferFrom(Zeros));
  MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, Items * sizeof(float)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &State));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &Runs));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &Out));
  ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_int), &N));

  std::atomic<bool> Stop{false};
  std::vector<std::thread> Busy;
  for (size_t I = 0; I < Cpus; ++I)
    Busy.emplace_back([&Stop] {
      while (!Stop.load(std::memory_order_relaxed))
        ;
    });
  cl_int Err = CL_SUCCESS;
  for (int L = 0; L < Launches && Err == CL_SUCCESS; ++L)
    Err = clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Items, &Local, 0,
                                 nullptr, nullptr);
  cl_int Finished = clFinish(Queue);
  Stop = true;
  for (std::thread &T : Busy)
    T.join();
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(Finished);

  std::vector<cl_int> Seen(2), Counts(Groups);
  ASSERT_CL_OK(readInto(State, Seen));
  ASSERT_CL_OK(readInto(Runs, Counts));
  EXPECT_EQ(Seen[0], 0) << "work-groups still counted in progress";
  EXPECT_GE(Seen[1], 1);
  // One worker runs per core: a worker beyond them would take turns with
  // one holding a group, and the launch wait for whichever lost its core.
  EXPECT_LE(size_t(Seen[1]), std::min(Units, Cpus))
      << "more groups at once than workers or CPUs";
  for (size_t G = 0; G < Groups; ++G)
    ASSERT_EQ(Counts[G], Launches) << "work-group " << G;
  std::vector<float> Result(Items);
  ASSERT_CL_OK(readInto(Out, Result));
  // X_N = 1000 + (X_0 - 1000) 0.999^N.
  for (size_t I = 0; I < Items; I += 997) {
    double Expected = 1000.0 + (double(I) - 1000.0) * std::pow(0.999, N);
    EXPECT_NEAR(Result[I], Expected, 1.0 + 1e-3 * Expected)
        << "work-item " << I;
  }
}

// A kernel of fewer work-items than the device hands out in one piece (512)
// still runs on several threads once its work-items prove expensive: 8
// groups of 64 work-items, each group about a millisecond. The first
// launch teaches the device what a group costs; the later ones must have
// two groups in progress at once (as RecursiveGaussian's column filter,
// 512 work-items of 512 rows each, ran on one thread before).
TEST_P(WorkerThreads, ExpensiveGroupsAreSpread) {
  if (platformUnderTestName() != "Weft" ||
      deviceString(Device, CL_DEVICE_NAME).rfind("pthread-", 0) != 0)
    GTEST_SKIP() << "not Weft's pthread device";
  cpu_set_t Allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof(Allowed), &Allowed), 0);
  if (CPU_COUNT(&Allowed) < 2 ||
      deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_COMPUTE_UNITS) < 2)
    GTEST_SKIP() << "one CPU or one worker";
  KernelRef K(makeKernel(WatchedSource, "watched"));
  ASSERT_NE(K.get(), nullptr);
  const size_t Local = 64, Groups = 8, Items = Local * Groups;
  const cl_int N = 2000000;
  MemRef State(makeBufferFrom(std::vector<cl_int>(2, 0)));
  MemRef Runs(makeBufferFrom(std::vector<cl_int>(Groups, 0)));
  MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, Items * sizeof(float)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &State));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &Runs));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &Out));
  ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_int), &N));
  // Waited for by a completion callback: a thread in clFinish or polling
  // the status would run part of the kernel itself.
  const int Launches = 4;
  for (int L = 0; L < Launches; ++L) {
    static std::atomic<bool> Done;
    Done = false;
    EventRef E;
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Items, &Local, 0,
                                        nullptr, E.out()));
    ASSERT_CL_OK(clSetEventCallback(
        E, CL_COMPLETE, [](cl_event, cl_int, void *) { Done = true; },
        nullptr));
    ASSERT_CL_OK(clFlush(Queue));
    auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!Done && std::chrono::steady_clock::now() < Deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_TRUE(Done) << "launch " << L << " did not complete in 60 s";
  }
  ASSERT_CL_OK(clFinish(Queue));
  std::vector<cl_int> Seen(2), Counts(Groups);
  ASSERT_CL_OK(readInto(State, Seen));
  ASSERT_CL_OK(readInto(Runs, Counts));
  EXPECT_EQ(Seen[0], 0);
  EXPECT_GE(Seen[1], 2) << "the 8 work-groups ran one at a time in " << Launches
                        << " launches";
  for (size_t G = 0; G < Groups; ++G)
    EXPECT_EQ(Counts[G], Launches) << "work-group " << G;
}

// The device's compute units go on the CPUs the process may use, and so do
// its workers when they pin themselves: the test runs itself again under
// taskset's restriction, every allowed CPU but the first, and the child
// checks while a kernel of many work-groups runs.
TEST_P(WorkerThreads, StayOnTheProcessCpus) {
  if (platformUnderTestName() != "Weft" ||
      deviceString(Device, CL_DEVICE_NAME).rfind("pthread-", 0) != 0)
    GTEST_SKIP() << "not Weft's pthread device";
  cpu_set_t Allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof(Allowed), &Allowed), 0);
  if (!getenv("WEFT_TEST_AFFINITY_CHILD")) {
    if (CPU_COUNT(&Allowed) < 2)
      GTEST_SKIP() << "the process may use one CPU";
    cpu_set_t Fewer = Allowed;
    for (int Cpu = 0; Cpu < CPU_SETSIZE; ++Cpu)
      if (CPU_ISSET(Cpu, &Fewer)) {
        CPU_CLR(Cpu, &Fewer);
        break;
      }
    const testing::TestInfo *Test =
        testing::UnitTest::GetInstance()->current_test_info();
    std::string Filter = std::string("--gtest_filter=") +
                         Test->test_suite_name() + "." + Test->name();
    // Everything the child needs, made before fork: only system calls
    // between fork and exec in a process with threads.
    std::vector<std::string> EnvStrings = {"WEFT_TEST_AFFINITY_CHILD=1"};
    for (char **E = environ; *E; ++E)
      EnvStrings.push_back(*E);
    std::vector<char *> Env;
    for (std::string &E : EnvStrings)
      Env.push_back(E.data());
    Env.push_back(nullptr);
    char Self[] = "/proc/self/exe";
    char *Argv[] = {Self, Filter.data(), nullptr};
    pid_t Child = fork();
    ASSERT_GE(Child, 0);
    if (Child == 0) {
      if (sched_setaffinity(0, sizeof(Fewer), &Fewer) == 0)
        execve(Self, Argv, Env.data());
      _exit(127);
    }
    int Status = 0;
    ASSERT_EQ(waitpid(Child, &Status, 0), Child);
    ASSERT_TRUE(WIFEXITED(Status)) << "the child did not exit";
    EXPECT_EQ(WEXITSTATUS(Status), 0)
        << "the child under " << CPU_COUNT(&Fewer) << " CPUs failed (above)";
    return;
  }

  // The child: its process may use CPU_COUNT(&Allowed) CPUs.
  size_t Units = deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_COMPUTE_UNITS);
  if (!getenv("WEFT_THREADS")) {
    EXPECT_LE(Units, size_t(CPU_COUNT(&Allowed)))
        << "compute units beyond the process's CPUs";
  }
  KernelRef K(makeKernel("kernel void chain(global float *Out, int N) {\n"
                         "  float X = get_global_id(0);\n"
                         "  for (int I = 0; I < N; ++I)\n"
                         "    X = X * 0.999f + 1.0f;\n"
                         "  Out[get_global_id(0)] = X;\n"
                         "}\n",
                         "chain"));
  ASSERT_NE(K.get(), nullptr);
  const size_t Items = 4096 * Units, Local = 16;
  const cl_int N = 200000;
  MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, Items * sizeof(float)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Out));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_int), &N));
  EventRef Run;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Items, &Local, 0,
                                      nullptr, Run.out()));
  ASSERT_CL_OK(clFlush(Queue));
  std::set<int> Outside;
  for (;;) {
    for (auto &[Tid, Cpus] : threadAffinities())
      for (int Cpu : Cpus)
        if (!CPU_ISSET(Cpu, &Allowed))
          Outside.insert(Cpu);
    cl_int Status = CL_QUEUED;
    ASSERT_CL_OK(clGetEventInfo(Run, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                sizeof(Status), &Status, nullptr));
    if (Status <= CL_COMPLETE)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_TRUE(Outside.empty()) << "a thread may run on CPU " << *Outside.begin()
                               << ", outside the process's set";
  std::vector<float> Result(Items);
  ASSERT_CL_OK(readInto(Out, Result));
  for (size_t I = 0; I < Items; I += 509)
    EXPECT_NEAR(Result[I], 1000.0f, 1.0f) << "work-item " << I;
}

WEFT_INSTANTIATE_DEVICE_TEST(WorkerThreads);

} // namespace
