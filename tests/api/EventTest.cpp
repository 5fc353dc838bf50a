//===- tests/api/EventTest.cpp - events, user events, clFinish ------------===//

#include "TestCommon.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace weft_test;

namespace {

class Events : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    K.reset(makeKernel(kernelSource("increment.cl"), "increment"));
    ASSERT_NE(K.get(), nullptr);
    std::vector<cl_int> Zero(N, 0);
    Buf.reset(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                         N * sizeof(cl_int), Zero.data()));
    ASSERT_NE(Buf.get(), nullptr);
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
  }
  cl_int status(cl_event E) {
    cl_int S = -1;
    EXPECT_CL_OK(clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                sizeof(S), &S, nullptr));
    return S;
  }
  std::vector<cl_int> contents() {
    std::vector<cl_int> V(N, -1);
    EXPECT_CL_OK(clEnqueueReadBuffer(Queue, Buf, CL_TRUE, 0,
                                     N * sizeof(cl_int), V.data(), 0, nullptr,
                                     nullptr));
    return V;
  }
  static constexpr size_t N = 1024;
  KernelRef K;
  MemRef Buf;
};

TEST_P(Events, KernelEventReachesComplete) {
  EventRef E;
  size_t Global = N, Local = 64;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local, 0,
                                      nullptr, E.out()));
  cl_event List[] = {E.get()};
  ASSERT_CL_OK(clWaitForEvents(1, List));
  EXPECT_EQ(status(E), CL_COMPLETE);
  cl_command_type Type = 0;
  ASSERT_CL_OK(clGetEventInfo(E, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type,
                              nullptr));
  EXPECT_EQ(Type, cl_command_type(CL_COMMAND_NDRANGE_KERNEL));
  cl_uint Count = 0;
  ASSERT_CL_OK(clGetEventInfo(E, CL_EVENT_REFERENCE_COUNT, sizeof(Count),
                              &Count, nullptr));
  EXPECT_GE(Count, 1u);
  for (cl_int V : contents())
    ASSERT_EQ(V, 1);
}

TEST_P(Events, FinishWaitsForManyCommands) {
  const int Launches = 50;
  size_t Global = N;
  for (int I = 0; I < Launches; ++I)
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, nullptr,
                                        0, nullptr, nullptr));
  ASSERT_CL_OK(clFinish(Queue));
  // In order: every launch saw the previous one's result.
  for (cl_int V : contents())
    ASSERT_EQ(V, Launches);
}

TEST_P(Events, UserEventGatesKernel) {
  cl_int Err = CL_SUCCESS;
  EventRef Gate(clCreateUserEvent(Context, &Err));
  ASSERT_CL_OK(Err);
  EXPECT_EQ(status(Gate), CL_SUBMITTED);
  EventRef Run;
  size_t Global = N;
  cl_event Wait[] = {Gate.get()};
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, nullptr, 1,
                                      Wait, Run.out()));
  ASSERT_CL_OK(clFlush(Queue));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  cl_int Before = status(Run);
  EXPECT_NE(Before, CL_COMPLETE) << "the kernel ran before its gate opened";
  EXPECT_TRUE(Before == CL_QUEUED || Before == CL_SUBMITTED) << Before;

  ASSERT_CL_OK(clSetUserEventStatus(Gate, CL_COMPLETE));
  cl_event List[] = {Run.get()};
  ASSERT_CL_OK(clWaitForEvents(1, List));
  EXPECT_EQ(status(Run), CL_COMPLETE);
  for (cl_int V : contents())
    ASSERT_EQ(V, 1);
  // A user event's status is set once.
  EXPECT_CL(CL_INVALID_OPERATION, clSetUserEventStatus(Gate, CL_COMPLETE));
}

TEST_P(Events, FailedUserEventFailsDependants) {
  cl_int Err = CL_SUCCESS;
  EventRef Gate(clCreateUserEvent(Context, &Err));
  ASSERT_CL_OK(Err);
  EventRef Run;
  size_t Global = N;
  cl_event Wait[] = {Gate.get()};
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, nullptr, 1,
                                      Wait, Run.out()));
  ASSERT_CL_OK(clSetUserEventStatus(Gate, -1));
  cl_event List[] = {Run.get()};
  EXPECT_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            clWaitForEvents(1, List));
  EXPECT_LT(status(Run), 0);
}

TEST_P(Events, CompletionCallback) {
  static std::atomic<int> Calls;
  static std::atomic<cl_int> SeenStatus;
  Calls = 0;
  SeenStatus = 1;
  EventRef E;
  size_t Global = N;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, nullptr, 0,
                                      nullptr, E.out()));
  int Tag = 77;
  ASSERT_CL_OK(clSetEventCallback(
      E, CL_COMPLETE,
      [](cl_event, cl_int Status, void *User) {
        if (*static_cast<int *>(User) == 77) {
          SeenStatus = Status;
          ++Calls;
        }
      },
      &Tag));
  ASSERT_CL_OK(clFinish(Queue));
  // The callback may run on another thread shortly after completion.
  for (int I = 0; I < 500 && Calls.load() == 0; ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(Calls.load(), 1);
  EXPECT_EQ(SeenStatus.load(), CL_COMPLETE);
  EXPECT_CL(CL_INVALID_VALUE,
            clSetEventCallback(E, CL_QUEUED, [](cl_event, cl_int, void *) {},
                               nullptr));
}

TEST_P(Events, ProfilingTimestampsAreOrdered) {
  cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE,
                                 0};
  cl_int Err = CL_SUCCESS;
  QueueRef Profiled(
      clCreateCommandQueueWithProperties(Context, Device, Props, &Err));
  ASSERT_CL_OK(Err);
  EventRef E;
  size_t Global = N;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Profiled, K, 1, nullptr, &Global, nullptr,
                                      0, nullptr, E.out()));
  ASSERT_CL_OK(clFinish(Profiled));
  cl_ulong T[4] = {};
  const cl_profiling_info Info[4] = {
      CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
      CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int I = 0; I < 4; ++I)
    ASSERT_CL_OK(clGetEventProfilingInfo(E, Info[I], sizeof(cl_ulong), &T[I],
                                         nullptr));
  EXPECT_GT(T[0], 0u);
  EXPECT_LE(T[0], T[1]);
  EXPECT_LE(T[1], T[2]);
  EXPECT_LE(T[2], T[3]);

  // Without profiling, the information is not available.
  EventRef Plain;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, nullptr, 0,
                                      nullptr, Plain.out()));
  ASSERT_CL_OK(clFinish(Queue));
  cl_ulong Unused = 0;
  EXPECT_CL(CL_PROFILING_INFO_NOT_AVAILABLE,
            clGetEventProfilingInfo(Plain, CL_PROFILING_COMMAND_END,
                                    sizeof(Unused), &Unused, nullptr));
}

TEST_P(Events, MarkerWaitsForEarlierCommands) {
  size_t Global = N;
  EventRef Last;
  for (int I = 0; I < 5; ++I)
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, nullptr,
                                        0, nullptr, Last.out()));
  EventRef Marker;
  ASSERT_CL_OK(clEnqueueMarkerWithWaitList(Queue, 0, nullptr, Marker.out()));
  cl_event List[] = {Marker.get()};
  ASSERT_CL_OK(clWaitForEvents(1, List));
  EXPECT_EQ(status(Marker), CL_COMPLETE);
  // The marker completes only after everything enqueued before it.
  EXPECT_EQ(status(Last), CL_COMPLETE);
  for (cl_int V : contents())
    ASSERT_EQ(V, 5);
}

// Holds every worker of a pthread-like device in a kernel that spins on
// fine-grained SVM until release() (or destruction): the stand-in for
// workers that have lost their cores to other processes. Not the basic
// and template devices: one thread by definition.
class WorkerHold {
public:
  WorkerHold(cl_context Context, cl_device_id Device) : Context(Context) {
    std::string Name = deviceString(Device, CL_DEVICE_NAME);
    if (Name.rfind("basic", 0) == 0 || Name.rfind("template", 0) == 0) {
      Why = "a single thread runs the device's commands";
      return;
    }
    cl_device_svm_capabilities Caps = 0;
    clGetDeviceInfo(Device, CL_DEVICE_SVM_CAPABILITIES, sizeof(Caps), &Caps,
                    nullptr);
    if (!(Caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) {
      Why = "no fine-grained SVM to hold the workers with";
      return;
    }
    clGetDeviceInfo(Device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(Workers),
                    &Workers, nullptr);
    const char *Source = R"CLC(
      kernel void hold(volatile global int *Flags) {
        if (get_local_id(0) == 0) {
          Flags[1 + get_group_id(0)] = 1;
          while (Flags[0] == 0)
            ;
        }
      }
    )CLC";
    P.reset(buildProgram(Context, Device, Source));
    cl_int Err = CL_SUCCESS;
    K.reset(clCreateKernel(P, "hold", &Err));
    Q.reset(clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err));
    Flags = static_cast<volatile cl_int *>(
        clSVMAlloc(Context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
                   (Workers + 1) * sizeof(cl_int), 0));
    if (!K || !Q || !Flags) {
      Why = "could not set up the holding kernel";
      return;
    }
    for (cl_uint I = 0; I <= Workers; ++I)
      Flags[I] = 0;
    clSetKernelArgSVMPointer(K, 0, const_cast<cl_int *>(Flags));
    // Groups large enough for the device to hand one to each worker.
    size_t Local = 512, Global = Workers * Local;
    if (clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr,
                               nullptr) != CL_SUCCESS ||
        clFlush(Q) != CL_SUCCESS) {
      Why = "could not launch the holding kernel";
      return;
    }
    auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!allHeld() && std::chrono::steady_clock::now() < Deadline)
      std::this_thread::yield();
    if (!allHeld())
      Why = "the holding kernel did not reach every worker";
  }
  ~WorkerHold() {
    release();
    if (Flags)
      clSVMFree(Context, const_cast<cl_int *>(Flags));
  }
  /// Empty when every worker is held; else why not.
  const char *Why = nullptr;
  void release() {
    if (!Flags)
      return;
    __atomic_store_n(&Flags[0], 1, __ATOMIC_RELEASE);
    if (Q)
      clFinish(Q);
  }

private:
  bool allHeld() const {
    for (cl_uint I = 1; I <= Workers; ++I)
      if (!__atomic_load_n(&Flags[I], __ATOMIC_ACQUIRE))
        return false;
    return true;
  }
  cl_context Context;
  cl_uint Workers = 0;
  ProgramRef P;
  KernelRef K;
  QueueRef Q;
  volatile cl_int *Flags = nullptr;
};

// An application that waits by polling clGetEventInfo must see its command
// advance even when no worker of the device can run it: on a machine whose
// cores are busy with other processes, the workers wait for a core while
// the poller holds one. So the poller runs the polled command itself.
TEST_P(Events, PolledCommandAdvancesWhileWorkersAreHeld) {
  WorkerHold Hold(Context, Device);
  if (Hold.Why)
    GTEST_SKIP() << Hold.Why;
  EventRef E;
  size_t Global = N;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, nullptr, 0,
                                      nullptr, E.out()));
  ASSERT_CL_OK(clFlush(Queue));
  cl_int S = CL_QUEUED;
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while ((S = status(E)) > CL_COMPLETE &&
         std::chrono::steady_clock::now() < Deadline)
    ;
  EXPECT_EQ(S, CL_COMPLETE) << "the polled command made no progress";
  Hold.release();
  ASSERT_CL_OK(clFinish(Queue));
  for (cl_int V : contents())
    ASSERT_EQ(V, 1);
}

// A thread blocked in clFinish runs a command of one work-group itself (no
// hand-off to a worker and back), but leaves a command spread over the
// workers to them: one more busy thread than cores, on a machine shared
// with other processes, stalls every command whose chunk sits on a thread
// that lost its core.
TEST_P(Events, WaitingThreadRunsOnlySmallCommands) {
  WorkerHold Hold(Context, Device);
  if (Hold.Why)
    GTEST_SKIP() << Hold.Why;
  // One work-group: clFinish completes it while every worker is held.
  size_t Global = 256, Local = 256;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local, 0,
                                      nullptr, nullptr));
  ASSERT_CL_OK(clFinish(Queue));

  // Many work-groups: clFinish waits for the workers. Completion is
  // watched by a callback, since polling the status would run it.
  static std::atomic<bool> Completed;
  Completed = false;
  EventRef E;
  Global = N;
  Local = 16;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local, 0,
                                      nullptr, E.out()));
  ASSERT_CL_OK(clSetEventCallback(
      E, CL_COMPLETE, [](cl_event, cl_int, void *) { Completed = true; },
      nullptr));
  std::thread Waiter([&] { EXPECT_CL_OK(clFinish(Queue)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(Completed.load())
      << "the thread in clFinish ran a command of " << N / Local
      << " work-groups";
  Hold.release();
  Waiter.join();
  // The callback may run on another thread shortly after completion.
  for (int I = 0; I < 500 && !Completed.load(); ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(Completed.load());
  std::vector<cl_int> V = contents();
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(V[I], I < 256 ? 2 : 1) << "at " << I;
}

TEST_P(Events, InvalidWaits) {
  EXPECT_CL(CL_INVALID_VALUE, clWaitForEvents(0, nullptr));
  cl_event Null = nullptr;
  EXPECT_CL(CL_INVALID_EVENT, clWaitForEvents(1, &Null));
}

WEFT_INSTANTIATE_DEVICE_TEST(Events);

} // namespace
