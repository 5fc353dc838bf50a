//===- tests/api/QueueTest.cpp - out-of-order queues, the DAG, callbacks --===//
//
// Out-of-order queues: an independent command runs while an earlier one
// is blocked, independent commands overlap on devices with several compute
// units, dependent ones never do; barriers and markers; the dependency DAG
// across queues and devices of one context; event callbacks for every
// status; profiling timestamps in order.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

using namespace weft_test;

namespace {

using Clock = std::chrono::steady_clock;

class Queues : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    cl_command_queue_properties Supported = deviceInfo<
        cl_command_queue_properties>(Device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
    if (!(Supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
      GTEST_SKIP() << "device has no out-of-order queues";
    cl_queue_properties Props[] = {
        CL_QUEUE_PROPERTIES,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int Err = CL_SUCCESS;
    Ooo.reset(clCreateCommandQueueWithProperties(Context, Device, Props, &Err));
    ASSERT_CL_OK(Err);
    K.reset(makeKernel(kernelSource("increment.cl"), "increment"));
    ASSERT_NE(K.get(), nullptr);
  }

  cl_mem zeroBuffer() {
    std::vector<cl_int> Zero(N, 0);
    return makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                      N * sizeof(cl_int), Zero.data());
  }
  cl_int increment(cl_command_queue Q, cl_mem Buf, cl_uint NumWait,
                   const cl_event *Wait, cl_event *Out) {
    cl_int Err = clSetKernelArg(K, 0, sizeof(cl_mem), &Buf);
    if (Err != CL_SUCCESS)
      return Err;
    size_t Global = N;
    return clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, nullptr, NumWait,
                                  Wait, Out);
  }
  std::vector<cl_int> contents(cl_mem Buf) {
    std::vector<cl_int> V(N, -1);
    EXPECT_CL_OK(clEnqueueReadBuffer(Queue, Buf, CL_TRUE, 0, N * sizeof(cl_int),
                                     V.data(), 0, nullptr, nullptr));
    return V;
  }
  static cl_int status(cl_event E) {
    cl_int S = 99;
    EXPECT_CL_OK(clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                sizeof(S), &S, nullptr));
    return S;
  }
  /// Polls until E completes or Seconds pass; never hangs the test.
  static bool completesWithin(cl_event E, double Seconds) {
    auto End = Clock::now() + std::chrono::duration<double>(Seconds);
    while (Clock::now() < End) {
      if (status(E) <= CL_COMPLETE)
        return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
  }
  static cl_ulong profile(cl_event E, cl_profiling_info Which) {
    cl_ulong T = 0;
    EXPECT_CL_OK(clGetEventProfilingInfo(E, Which, sizeof(T), &T, nullptr));
    return T;
  }

  static constexpr size_t N = 256;
  QueueRef Ooo;
  KernelRef K;
};

TEST_P(Queues, DeviceReportsOutOfOrder) {
  cl_command_queue_properties Props = 0;
  ASSERT_CL_OK(clGetCommandQueueInfo(Ooo, CL_QUEUE_PROPERTIES, sizeof(Props),
                                     &Props, nullptr));
  EXPECT_TRUE(Props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  // The legacy entry point takes the same property.
  cl_int Err = CL_SUCCESS;
  QueueRef Legacy(clCreateCommandQueue(
      Context, Device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &Err));
  EXPECT_CL_OK(Err);
  // Device queues are not offered.
  cl_queue_properties OnDevice[] = {
      CL_QUEUE_PROPERTIES,
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(Context, Device, OnDevice, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_QUEUE_PROPERTIES, Err);
  cl_queue_properties Unknown[] = {0x7777, 1, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(Context, Device, Unknown, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
}

TEST_P(Queues, IndependentCommandPassesBlockedOne) {
  MemRef A(zeroBuffer()), B(zeroBuffer());
  cl_int Err = CL_SUCCESS;
  EventRef Gate(clCreateUserEvent(Context, &Err));
  ASSERT_CL_OK(Err);
  EventRef Blocked, Free;
  cl_event Wait[] = {Gate.get()};
  ASSERT_CL_OK(increment(Ooo, A, 1, Wait, Blocked.out()));
  ASSERT_CL_OK(increment(Ooo, B, 0, nullptr, Free.out()));
  ASSERT_CL_OK(clFlush(Ooo));
  // Out of order, the second command depends on nothing.
  bool FreeDone = completesWithin(Free, 10);
  EXPECT_TRUE(FreeDone) << "an independent command waited for a blocked one";
  EXPECT_EQ(status(Blocked), CL_QUEUED);
  ASSERT_CL_OK(clSetUserEventStatus(Gate, CL_COMPLETE));
  ASSERT_CL_OK(clFinish(Ooo));
  EXPECT_EQ(status(Blocked), CL_COMPLETE);
  for (cl_int V : contents(A))
    ASSERT_EQ(V, 1);
  for (cl_int V : contents(B))
    ASSERT_EQ(V, 1);
}

TEST_P(Queues, DependentCommandsNeverOverlap) {
  MemRef A(zeroBuffer());
  const int Chain = 20;
  std::vector<EventRef> Events(Chain);
  for (int I = 0; I < Chain; ++I) {
    cl_event Prev = I ? Events[I - 1].get() : nullptr;
    ASSERT_CL_OK(increment(Ooo, A, I ? 1 : 0, I ? &Prev : nullptr,
                           Events[I].out()));
  }
  ASSERT_CL_OK(clFinish(Ooo));
  for (int I = 1; I < Chain; ++I)
    EXPECT_GE(profile(Events[I], CL_PROFILING_COMMAND_START),
              profile(Events[I - 1], CL_PROFILING_COMMAND_END))
        << "command " << I << " started before its dependency ended";
  // The read-modify-write chain saw every predecessor's result.
  for (cl_int V : contents(A))
    ASSERT_EQ(V, Chain);
}

// Native kernels that meet at a rendezvous: each waits (bounded) for the
// other to arrive, which only happens if the device runs them at once.
struct Rendezvous {
  std::atomic<int> Arrived{0};
  std::atomic<int> Met{0};
  std::atomic<int> Active{0};
  std::atomic<int> MaxActive{0};
};

void CL_CALLBACK meet(void *Args) {
  Rendezvous *R = *static_cast<Rendezvous **>(Args);
  R->Arrived.fetch_add(1);
  auto End = Clock::now() + std::chrono::seconds(5);
  while (R->Arrived.load() < 2 && Clock::now() < End)
    std::this_thread::yield();
  if (R->Arrived.load() >= 2)
    R->Met.fetch_add(1);
}

void CL_CALLBACK exclusive(void *Args) {
  Rendezvous *R = *static_cast<Rendezvous **>(Args);
  int Now = R->Active.fetch_add(1) + 1;
  int Max = R->MaxActive.load();
  while (Now > Max && !R->MaxActive.compare_exchange_weak(Max, Now)) {
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(3));
  R->Active.fetch_sub(1);
}

TEST_P(Queues, IndependentCommandsOverlap) {
  cl_device_exec_capabilities Exec =
      deviceInfo<cl_device_exec_capabilities>(Device,
                                              CL_DEVICE_EXECUTION_CAPABILITIES);
  if (!(Exec & CL_EXEC_NATIVE_KERNEL))
    GTEST_SKIP() << "no native kernels";
  if (deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_COMPUTE_UNITS) < 2)
    GTEST_SKIP() << "one compute unit: commands cannot overlap";
  Rendezvous R;
  Rendezvous *Ptr = &R;
  for (int I = 0; I < 2; ++I)
    ASSERT_CL_OK(clEnqueueNativeKernel(Ooo, meet, &Ptr, sizeof(Ptr), 0,
                                       nullptr, nullptr, 0, nullptr, nullptr));
  ASSERT_CL_OK(clFinish(Ooo));
  EXPECT_EQ(R.Met.load(), 2) << "independent commands did not run at once";
}

TEST_P(Queues, ChainedNativeKernelsRunOneAtATime) {
  cl_device_exec_capabilities Exec =
      deviceInfo<cl_device_exec_capabilities>(Device,
                                              CL_DEVICE_EXECUTION_CAPABILITIES);
  if (!(Exec & CL_EXEC_NATIVE_KERNEL))
    GTEST_SKIP() << "no native kernels";
  Rendezvous R;
  Rendezvous *Ptr = &R;
  EventRef Prev;
  for (int I = 0; I < 8; ++I) {
    EventRef Next;
    cl_event Wait = Prev.get();
    ASSERT_CL_OK(clEnqueueNativeKernel(Ooo, exclusive, &Ptr, sizeof(Ptr), 0,
                                       nullptr, nullptr, Prev ? 1 : 0,
                                       Prev ? &Wait : nullptr, Next.out()));
    Prev = std::move(Next);
  }
  ASSERT_CL_OK(clFinish(Ooo));
  EXPECT_EQ(R.MaxActive.load(), 1);
}

TEST_P(Queues, BarrierOrdersLaterCommands) {
  MemRef A(zeroBuffer()), B(zeroBuffer());
  cl_int Err = CL_SUCCESS;
  EventRef Gate(clCreateUserEvent(Context, &Err));
  ASSERT_CL_OK(Err);
  cl_event Wait[] = {Gate.get()};
  EventRef Before, Barrier, After;
  ASSERT_CL_OK(increment(Ooo, A, 1, Wait, Before.out()));
  ASSERT_CL_OK(clEnqueueBarrierWithWaitList(Ooo, 0, nullptr, Barrier.out()));
  ASSERT_CL_OK(increment(Ooo, B, 0, nullptr, After.out()));
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(status(After), CL_QUEUED) << "a command passed a barrier";
  EXPECT_GT(status(Barrier), CL_COMPLETE);
  ASSERT_CL_OK(clSetUserEventStatus(Gate, CL_COMPLETE));
  ASSERT_CL_OK(clFinish(Ooo));
  EXPECT_GE(profile(After, CL_PROFILING_COMMAND_START),
            profile(Before, CL_PROFILING_COMMAND_END));
  cl_command_type Type = 0;
  ASSERT_CL_OK(clGetEventInfo(Barrier, CL_EVENT_COMMAND_TYPE, sizeof(Type),
                              &Type, nullptr));
  EXPECT_EQ(Type, cl_command_type(CL_COMMAND_BARRIER));
}

TEST_P(Queues, MarkerWithWaitListWaitsOnlyForIt) {
  MemRef A(zeroBuffer()), B(zeroBuffer());
  cl_int Err = CL_SUCCESS;
  EventRef Gate(clCreateUserEvent(Context, &Err));
  ASSERT_CL_OK(Err);
  cl_event Wait[] = {Gate.get()};
  EventRef Blocked, Free, Marker, AllMarker;
  ASSERT_CL_OK(increment(Ooo, A, 1, Wait, Blocked.out()));
  ASSERT_CL_OK(increment(Ooo, B, 0, nullptr, Free.out()));
  cl_event FreeList[] = {Free.get()};
  ASSERT_CL_OK(clEnqueueMarkerWithWaitList(Ooo, 1, FreeList, Marker.out()));
  ASSERT_CL_OK(clEnqueueMarkerWithWaitList(Ooo, 0, nullptr, AllMarker.out()));
  EXPECT_TRUE(completesWithin(Marker, 10));
  // Without a wait list, a marker waits for everything before it.
  EXPECT_EQ(status(AllMarker), CL_QUEUED);
  ASSERT_CL_OK(clSetUserEventStatus(Gate, CL_COMPLETE));
  cl_event All[] = {AllMarker.get()};
  ASSERT_CL_OK(clWaitForEvents(1, All));
  EXPECT_EQ(status(Blocked), CL_COMPLETE);
}

TEST_P(Queues, DependenciesAcrossQueues) {
  MemRef A(zeroBuffer());
  cl_int Err = CL_SUCCESS;
  QueueRef Other(
      clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err));
  ASSERT_CL_OK(Err);
  EventRef Gate(clCreateUserEvent(Context, &Err));
  ASSERT_CL_OK(Err);
  cl_event Wait[] = {Gate.get()};
  EventRef First, Second, Third;
  ASSERT_CL_OK(increment(Ooo, A, 1, Wait, First.out()));
  cl_event AfterFirst[] = {First.get()};
  ASSERT_CL_OK(increment(Other, A, 1, AfterFirst, Second.out()));
  cl_event AfterSecond[] = {Second.get()};
  ASSERT_CL_OK(increment(Ooo, A, 1, AfterSecond, Third.out()));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(status(Second), CL_QUEUED);
  EXPECT_EQ(status(Third), CL_QUEUED);
  ASSERT_CL_OK(clSetUserEventStatus(Gate, CL_COMPLETE));
  cl_event Last[] = {Third.get()};
  ASSERT_CL_OK(clWaitForEvents(1, Last));
  EXPECT_EQ(status(First), CL_COMPLETE);
  EXPECT_EQ(status(Second), CL_COMPLETE);
  for (cl_int V : contents(A))
    ASSERT_EQ(V, 3);
}

TEST(QueuesAcrossDevices, DagSpansDevicesOfOneContext) {
  std::vector<cl_device_id> Devices = allDevices();
  if (Devices.size() < 2)
    GTEST_SKIP() << "one device";
  cl_int Err = CL_SUCCESS;
  ContextRef Ctx(clCreateContext(nullptr, static_cast<cl_uint>(Devices.size()),
                                 Devices.data(), nullptr, nullptr, &Err));
  ASSERT_CL_OK(Err);
  const size_t N = 512;
  std::string Source = kernelSource("increment.cl");
  const char *Text = Source.c_str();
  ProgramRef Prog(clCreateProgramWithSource(Ctx, 1, &Text, nullptr, &Err));
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(clBuildProgram(Prog, 0, nullptr, "", nullptr, nullptr));
  KernelRef K(clCreateKernel(Prog, "increment", &Err));
  ASSERT_CL_OK(Err);
  std::vector<cl_int> Host(N, 0);
  MemRef Buf(clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, N * sizeof(cl_int),
                            Host.data(), &Err));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
  std::vector<QueueRef> Queues;
  for (cl_device_id D : Devices) {
    Queues.emplace_back(clCreateCommandQueue(Ctx, D, 0, &Err));
    ASSERT_CL_OK(Err);
  }
  // Alternate devices; every launch waits for the previous one.
  const int Rounds = 12;
  EventRef Prev;
  for (int I = 0; I < Rounds; ++I) {
    EventRef Next;
    cl_event Wait = Prev.get();
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queues[I % Queues.size()], K, 1,
                                        nullptr, &N, nullptr, Prev ? 1 : 0,
                                        Prev ? &Wait : nullptr, Next.out()));
    Prev = std::move(Next);
  }
  cl_event Last = Prev.get();
  ASSERT_CL_OK(clWaitForEvents(1, &Last));
  ASSERT_CL_OK(clEnqueueReadBuffer(Queues[0], Buf, CL_TRUE, 0,
                                   N * sizeof(cl_int), Host.data(), 0, nullptr,
                                   nullptr));
  for (cl_int V : Host)
    ASSERT_EQ(V, Rounds);
}

struct CallbackLog {
  std::mutex Lock;
  std::vector<std::pair<cl_int, cl_int>> Calls; // (registered for, got)
};

template <cl_int For> void CL_CALLBACK record(cl_event, cl_int Got, void *U) {
  auto *Log = static_cast<CallbackLog *>(U);
  std::lock_guard<std::mutex> Guard(Log->Lock);
  Log->Calls.emplace_back(For, Got);
}

bool waitForCalls(CallbackLog &Log, size_t Count) {
  for (int I = 0; I < 1000; ++I) {
    {
      std::lock_guard<std::mutex> Guard(Log.Lock);
      if (Log.Calls.size() >= Count)
        return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

TEST_P(Queues, CallbacksForEveryStatusInOrder) {
  MemRef A(zeroBuffer());
  cl_int Err = CL_SUCCESS;
  EventRef Gate(clCreateUserEvent(Context, &Err));
  ASSERT_CL_OK(Err);
  cl_event Wait[] = {Gate.get()};
  EventRef E;
  ASSERT_CL_OK(increment(Queue, A, 1, Wait, E.out()));
  CallbackLog Log;
  ASSERT_CL_OK(clSetEventCallback(E, CL_COMPLETE, record<CL_COMPLETE>, &Log));
  ASSERT_CL_OK(clSetEventCallback(E, CL_RUNNING, record<CL_RUNNING>, &Log));
  ASSERT_CL_OK(clSetEventCallback(E, CL_SUBMITTED, record<CL_SUBMITTED>, &Log));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  {
    std::lock_guard<std::mutex> Guard(Log.Lock);
    EXPECT_TRUE(Log.Calls.empty()) << "a callback ran before its status";
  }
  ASSERT_CL_OK(clSetUserEventStatus(Gate, CL_COMPLETE));
  ASSERT_CL_OK(clFinish(Queue));
  ASSERT_TRUE(waitForCalls(Log, 3));
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::lock_guard<std::mutex> Guard(Log.Lock);
  ASSERT_EQ(Log.Calls.size(), 3u) << "a callback ran more than once";
  // Statuses are reached in order: SUBMITTED, RUNNING, COMPLETE.
  EXPECT_EQ(Log.Calls[0], std::make_pair(CL_SUBMITTED, CL_SUBMITTED));
  EXPECT_EQ(Log.Calls[1], std::make_pair(CL_RUNNING, CL_RUNNING));
  EXPECT_EQ(Log.Calls[2], std::make_pair(CL_COMPLETE, CL_COMPLETE));
  // Registered after the fact: runs at once.
  CallbackLog Late;
  ASSERT_CL_OK(clSetEventCallback(E, CL_RUNNING, record<CL_RUNNING>, &Late));
  ASSERT_TRUE(waitForCalls(Late, 1));
}

TEST_P(Queues, FailedUserEventReachesDependantsAndCallbacks) {
  MemRef A(zeroBuffer());
  cl_int Err = CL_SUCCESS;
  EventRef Gate(clCreateUserEvent(Context, &Err));
  ASSERT_CL_OK(Err);
  cl_event Wait[] = {Gate.get()};
  EventRef Direct, Indirect, Marker;
  ASSERT_CL_OK(increment(Ooo, A, 1, Wait, Direct.out()));
  cl_event AfterDirect[] = {Direct.get()};
  ASSERT_CL_OK(clEnqueueMarkerWithWaitList(Ooo, 1, AfterDirect, Marker.out()));
  cl_event AfterMarker[] = {Marker.get()};
  ASSERT_CL_OK(increment(Queue, A, 1, AfterMarker, Indirect.out()));
  CallbackLog Log;
  ASSERT_CL_OK(
      clSetEventCallback(Indirect, CL_COMPLETE, record<CL_COMPLETE>, &Log));
  ASSERT_CL_OK(clSetUserEventStatus(Gate, -42));
  EXPECT_EQ(status(Gate), -42);
  cl_event Last[] = {Indirect.get()};
  EXPECT_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            clWaitForEvents(1, Last));
  EXPECT_LT(status(Direct), 0);
  EXPECT_LT(status(Marker), 0);
  EXPECT_LT(status(Indirect), 0);
  ASSERT_TRUE(waitForCalls(Log, 1));
  {
    std::lock_guard<std::mutex> Guard(Log.Lock);
    EXPECT_LT(Log.Calls[0].second, 0) << "callback got a non-error status";
  }
  // Nothing ran: the buffer is untouched.
  for (cl_int V : contents(A))
    ASSERT_EQ(V, 0);
}

TEST_P(Queues, ProfilingTimestampsOrderedForEveryCommand) {
  MemRef A(zeroBuffer());
  std::vector<cl_int> Host(N, 3);
  std::vector<EventRef> Events(5);
  ASSERT_CL_OK(clEnqueueWriteBuffer(Ooo, A, CL_FALSE, 0, N * sizeof(cl_int),
                                    Host.data(), 0, nullptr, Events[0].out()));
  cl_event W = Events[0].get();
  ASSERT_CL_OK(increment(Ooo, A, 1, &W, Events[1].out()));
  cl_event Kn = Events[1].get();
  ASSERT_CL_OK(clEnqueueReadBuffer(Ooo, A, CL_FALSE, 0, N * sizeof(cl_int),
                                   Host.data(), 1, &Kn, Events[2].out()));
  ASSERT_CL_OK(clEnqueueMarkerWithWaitList(Ooo, 0, nullptr, Events[3].out()));
  cl_int Pattern = 5;
  // Markers do not order later commands; the fill names its wait.
  cl_event M = Events[3].get();
  ASSERT_CL_OK(clEnqueueFillBuffer(Ooo, A, &Pattern, sizeof(Pattern), 0,
                                   N * sizeof(cl_int), 1, &M,
                                   Events[4].out()));
  ASSERT_CL_OK(clFinish(Ooo));
  cl_ulong Previous = 0;
  for (size_t I = 0; I < Events.size(); ++I) {
    cl_ulong Q = profile(Events[I], CL_PROFILING_COMMAND_QUEUED);
    cl_ulong S = profile(Events[I], CL_PROFILING_COMMAND_SUBMIT);
    cl_ulong St = profile(Events[I], CL_PROFILING_COMMAND_START);
    cl_ulong E = profile(Events[I], CL_PROFILING_COMMAND_END);
    cl_ulong C = profile(Events[I], CL_PROFILING_COMMAND_COMPLETE);
    EXPECT_GT(Q, 0u);
    EXPECT_LE(Q, S) << "command " << I;
    EXPECT_LE(S, St) << "command " << I;
    EXPECT_LE(St, E) << "command " << I;
    EXPECT_LE(E, C) << "command " << I;
    // Enqueued one after the other: QUEUED is monotonic.
    EXPECT_GE(Q, Previous);
    Previous = Q;
  }
  for (cl_int V : Host)
    ASSERT_EQ(V, 4);
  // The device and host timers read the profiling clock.
  cl_ulong DeviceT = 0, HostT = 0;
  ASSERT_CL_OK(clGetDeviceAndHostTimer(Device, &DeviceT, &HostT));
  EXPECT_GE(DeviceT, profile(Events[4], CL_PROFILING_COMMAND_END));
  // Profiling of a user event is not available.
  cl_int Err = CL_SUCCESS;
  EventRef User(clCreateUserEvent(Context, &Err));
  ASSERT_CL_OK(clSetUserEventStatus(User, CL_COMPLETE));
  cl_ulong T = 0;
  EXPECT_CL(CL_PROFILING_INFO_NOT_AVAILABLE,
            clGetEventProfilingInfo(User, CL_PROFILING_COMMAND_END, sizeof(T),
                                    &T, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clGetEventProfilingInfo(Events[0], 0x7777, sizeof(T), &T, nullptr));
}

TEST_P(Queues, EventInfoOfUserEvent) {
  cl_int Err = CL_SUCCESS;
  EventRef User(clCreateUserEvent(Context, &Err));
  ASSERT_CL_OK(Err);
  cl_command_queue Q = reinterpret_cast<cl_command_queue>(1);
  ASSERT_CL_OK(
      clGetEventInfo(User, CL_EVENT_COMMAND_QUEUE, sizeof(Q), &Q, nullptr));
  EXPECT_EQ(Q, nullptr);
  cl_context C = nullptr;
  ASSERT_CL_OK(clGetEventInfo(User, CL_EVENT_CONTEXT, sizeof(C), &C, nullptr));
  EXPECT_EQ(C, Context.get());
  cl_command_type Type = 0;
  ASSERT_CL_OK(clGetEventInfo(User, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type,
                              nullptr));
  EXPECT_EQ(Type, cl_command_type(CL_COMMAND_USER));
  EXPECT_EQ(status(User), CL_SUBMITTED);
  EXPECT_CL(CL_INVALID_VALUE, clSetUserEventStatus(User, CL_RUNNING));
  EXPECT_CL(CL_INVALID_VALUE,
            clGetEventInfo(User, CL_EVENT_COMMAND_TYPE, 1, &Type, nullptr));
  ASSERT_CL_OK(clSetUserEventStatus(User, CL_COMPLETE));
  EXPECT_CL(CL_INVALID_OPERATION, clSetUserEventStatus(User, CL_COMPLETE));
  EXPECT_CL(CL_INVALID_EVENT, clSetUserEventStatus(nullptr, CL_COMPLETE));
  EXPECT_CL(CL_INVALID_EVENT,
            clSetEventCallback(nullptr, CL_COMPLETE, record<CL_COMPLETE>,
                               nullptr));
}

TEST_P(Queues, ManyCommandsOutOfOrderThenFinish) {
  // A stream of independent increments on distinct buffers, then finish:
  // every command ran exactly once.
  const int Buffers = 8, PerBuffer = 10;
  std::vector<MemRef> Bufs;
  for (int B = 0; B < Buffers; ++B)
    Bufs.emplace_back(zeroBuffer());
  for (int I = 0; I < PerBuffer; ++I) {
    for (int B = 0; B < Buffers; ++B)
      ASSERT_CL_OK(increment(Ooo, Bufs[B], 0, nullptr, nullptr));
    // A barrier between rounds keeps increments of one buffer apart.
    ASSERT_CL_OK(clEnqueueBarrierWithWaitList(Ooo, 0, nullptr, nullptr));
  }
  ASSERT_CL_OK(clFinish(Ooo));
  for (int B = 0; B < Buffers; ++B)
    for (cl_int V : contents(Bufs[B]))
      ASSERT_EQ(V, PerBuffer);
}

WEFT_INSTANTIATE_DEVICE_TEST(Queues);

} // namespace
