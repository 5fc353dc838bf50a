//===- tests/api/StressTest.cpp - many threads, every object family --------===//
//
// Several host threads at once create and release contexts' objects
// (queues in and out of order, buffers and sub-buffers, user events,
// kernels and clones), enqueue kernels, copies and markers with wait lists
// on queues shared between them, set callbacks and wait, while another
// thread releases events the others are still waiting through. Results are
// checked against the host; the suite is what scripts/sanitize.sh runs
// under ThreadSanitizer and AddressSanitizer/LeakSanitizer.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <atomic>
#include <mutex>
#include <thread>

using namespace weft_test;

namespace {

class Stress : public DeviceTest {};

std::atomic<int> CallbacksRun{0};
void CL_CALLBACK countCallback(cl_event, cl_int, void *) { ++CallbacksRun; }

TEST_P(Stress, ConcurrentCreateEnqueueRelease) {
  Program.reset(buildProgram(Context, Device, kernelSource("increment.cl")));
  ASSERT_NE(Program.get(), nullptr);
  cl_int Err = CL_SUCCESS;
  cl_command_queue_properties Supported = deviceInfo<
      cl_command_queue_properties>(Device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  QueueRef Shared(clCreateCommandQueue(
      Context, Device, Supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
      &Err));
  ASSERT_CL_OK(Err);

  const int Threads = 4, Rounds = 12;
  const size_t N = 128;
  CallbacksRun = 0;
  std::atomic<int> Failures{0};
  std::mutex ErrorLock;
  std::string FirstError;
  auto Fail = [&](const std::string &What) {
    std::lock_guard<std::mutex> Guard(ErrorLock);
    if (FirstError.empty())
      FirstError = What;
    ++Failures;
  };
#define CHECK_CL(Expr)                                                         \
  do {                                                                         \
    cl_int E_ = (Expr);                                                        \
    if (E_ != CL_SUCCESS)                                                      \
      return Fail(std::string(#Expr) + ": " + errorName(E_));                  \
  } while (0)

  auto Work = [&](int T) {
    cl_int Err = CL_SUCCESS;
    for (int R = 0; R < Rounds; ++R) {
      // A queue of this thread's own, every other round.
      QueueRef Own;
      cl_command_queue Q = Shared;
      if (R % 2) {
        Own.reset(clCreateCommandQueue(Context, Device, 0, &Err));
        CHECK_CL(Err);
        Q = Own;
      }
      KernelRef K(clCreateKernel(Program, "increment", &Err));
      CHECK_CL(Err);
      std::vector<cl_int> Host(2 * N, T * 100 + R);
      MemRef Buf(clCreateBuffer(Context, CL_MEM_COPY_HOST_PTR,
                                2 * N * sizeof(cl_int), Host.data(), &Err));
      CHECK_CL(Err);
      cl_buffer_region Region{N * sizeof(cl_int), N * sizeof(cl_int)};
      MemRef Sub(clCreateSubBuffer(Buf, 0, CL_BUFFER_CREATE_TYPE_REGION,
                                   &Region, &Err));
      CHECK_CL(Err);
      EventRef Gate(clCreateUserEvent(Context, &Err));
      CHECK_CL(Err);
      CHECK_CL(clSetKernelArg(K, 0, sizeof(cl_mem), &Sub));
      KernelRef Clone(clCloneKernel(K, &Err));
      CHECK_CL(Err);
      // Gate -> K(sub) -> Clone(sub) -> copy sub to front -> marker.
      EventRef E1, E2, E3, M;
      cl_event W0 = Gate.get();
      CHECK_CL(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &N, nullptr, 1, &W0,
                                      E1.out()));
      CHECK_CL(clSetEventCallback(E1, CL_COMPLETE, countCallback, nullptr));
      cl_event W1 = E1.get();
      CHECK_CL(clEnqueueNDRangeKernel(Q, Clone, 1, nullptr, &N, nullptr, 1,
                                      &W1, E2.out()));
      cl_event W2 = E2.get();
      CHECK_CL(clEnqueueCopyBuffer(Q, Sub, Buf, 0, 0, N * sizeof(cl_int), 1,
                                   &W2, E3.out()));
      cl_event W3 = E3.get();
      CHECK_CL(clEnqueueMarkerWithWaitList(Q, 1, &W3, M.out()));
      // Open the gate from another thread that also drops its handle.
      cl_event GateHandle = Gate.release();
      std::thread Opener([GateHandle] {
        clSetUserEventStatus(GateHandle, CL_COMPLETE);
        clReleaseEvent(GateHandle);
      });
      // Release intermediate events before they complete.
      E1.reset();
      E2.reset();
      cl_event Last = M.get();
      cl_int WaitErr = clWaitForEvents(1, &Last);
      Opener.join();
      CHECK_CL(WaitErr);
      CHECK_CL(clEnqueueReadBuffer(Q, Buf, CL_TRUE, 0, 2 * N * sizeof(cl_int),
                                   Host.data(), 0, nullptr, nullptr));
      for (size_t I = 0; I < 2 * N; ++I)
        if (Host[I] != T * 100 + R + 2)
          return Fail("thread " + std::to_string(T) + " round " +
                      std::to_string(R) + ": wrong value at " +
                      std::to_string(I));
    }
  };
#undef CHECK_CL
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back(Work, T);
  for (std::thread &Th : Pool)
    Th.join();
  ASSERT_CL_OK(clFinish(Shared));
  EXPECT_EQ(Failures.load(), 0) << FirstError;
  EXPECT_EQ(CallbacksRun.load(), Threads * Rounds);
}

TEST_P(Stress, ConcurrentProgramsAndContexts) {
  // Threads each build a program in a context of their own while sharing
  // the device; then release everything in a different order.
  const int Threads = 3;
  std::atomic<int> Failures{0};
  auto Work = [&](int T) {
    cl_int Err = CL_SUCCESS;
    cl_device_id D = Device;
    cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
    if (Err != CL_SUCCESS) {
      ++Failures;
      return;
    }
    std::string Src = "kernel void k(global int *p) { p[get_global_id(0)] = " +
                      std::to_string(T + 7) + "; }";
    const char *Text = Src.c_str();
    cl_program P = clCreateProgramWithSource(C, 1, &Text, nullptr, &Err);
    if (Err != CL_SUCCESS ||
        clBuildProgram(P, 1, &D, "", nullptr, nullptr) != CL_SUCCESS) {
      ++Failures;
      clReleaseProgram(P);
      clReleaseContext(C);
      return;
    }
    cl_kernel K = clCreateKernel(P, "k", &Err);
    cl_command_queue Q = clCreateCommandQueue(C, D, 0, &Err);
    const size_t N = 64;
    cl_mem B = clCreateBuffer(C, CL_MEM_READ_WRITE, N * sizeof(int), nullptr,
                              &Err);
    clSetKernelArg(K, 0, sizeof(B), &B);
    clEnqueueNDRangeKernel(Q, K, 1, nullptr, &N, nullptr, 0, nullptr, nullptr);
    // Release the context, program and kernel first: the queue and the
    // command keep what they need alive.
    clReleaseContext(C);
    clReleaseProgram(P);
    clReleaseKernel(K);
    std::vector<int> Out(N);
    if (clEnqueueReadBuffer(Q, B, CL_TRUE, 0, N * sizeof(int), Out.data(), 0,
                            nullptr, nullptr) != CL_SUCCESS)
      ++Failures;
    for (int V : Out)
      if (V != T + 7) {
        ++Failures;
        break;
      }
    clReleaseMemObject(B);
    clReleaseCommandQueue(Q);
  };
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back(Work, T);
  for (std::thread &Th : Pool)
    Th.join();
  EXPECT_EQ(Failures.load(), 0);
}

WEFT_INSTANTIATE_DEVICE_TEST(Stress);

} // namespace
