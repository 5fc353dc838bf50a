//===- tests/api/FallbackTest.cpp - the fallback work-group method --------===//
//
// Kernels the region method declines (tests/kernels/fallback.cl: a ladder of
// 30 conditional steps with 60 barriers) must still run correctly, through
// the fallback method that runs work-items as fibers (WorkGroupFibers.cpp).
// Each result is compared with a host reference; the kernel queries must
// describe the fallback's per-work-item stacks. The whole Barriers suite
// also runs with WEFT_WG_METHOD=fallback (tests/api/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <cstdint>

using namespace weft_test;

namespace {

std::vector<cl_uint> ladderReference(const std::vector<cl_uint> &In,
                                     size_t Local, int Mask) {
  std::vector<cl_uint> V = In;
  for (size_t Start = 0; Start < In.size(); Start += Local) {
    size_t N = std::min(Local, In.size() - Start);
    for (cl_uint I = 0; I < 30; ++I) {
      if (Mask & (1 << I)) {
        std::vector<cl_uint> Old(V.begin() + Start, V.begin() + Start + N);
        for (size_t L = 0; L < N; ++L)
          V[Start + L] = Old[(L + 1) % N] + I;
      } else {
        for (size_t L = 0; L < N; ++L)
          V[Start + L] = V[Start + L] * 3u + I;
      }
    }
  }
  return V;
}

class WorkGroupFallback : public DeviceTest {
protected:
  std::vector<cl_uint> input(size_t N) {
    std::vector<cl_uint> In(N);
    for (size_t I = 0; I < N; ++I)
      In[I] = cl_uint(I * 2654435761u + 12345u);
    return In;
  }
};

TEST_P(WorkGroupFallback, BarrierLadder) {
  KernelRef K(makeKernel(kernelSource("fallback.cl"), "barrier_ladder"));
  ASSERT_NE(K.get(), nullptr);
  size_t Max = 0;
  ASSERT_CL_OK(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_WORK_GROUP_SIZE,
                                        sizeof(Max), &Max, nullptr));
  if (testingWeft()) {
    // The fallback's stacks (at least its 32 KiB margin) are the private
    // memory of a work-item.
    cl_ulong Private = 0;
    ASSERT_CL_OK(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                          sizeof(Private), &Private, nullptr));
    EXPECT_GE(Private, 32u * 1024u);
    EXPECT_GE(Max, 64u);
  }
  for (size_t Local :
       {size_t(1), size_t(13), size_t(64), std::min<size_t>(Max, 256)}) {
    const size_t N = Local * 5;
    std::vector<cl_uint> In = input(N);
    MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            N * sizeof(cl_uint), In.data()));
    MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(cl_uint)));
    for (int Mask : {0, 0x3fffffff, 0x15555555, 0x2aaaaaaa, 0x1234567}) {
      SCOPED_TRACE(testing::Message()
                   << "local size " << Local << " mask 0x" << std::hex << Mask);
      ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
      ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
      ASSERT_CL_OK(clSetKernelArg(K, 2, Local * sizeof(cl_uint), nullptr));
      ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(int), &Mask));
      ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                          nullptr, nullptr));
      std::vector<cl_uint> Out(N);
      ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                       N * sizeof(cl_uint), Out.data(), 0,
                                       nullptr, nullptr));
      std::vector<cl_uint> Want = ladderReference(In, Local, Mask);
      for (size_t I = 0; I < N; ++I)
        ASSERT_EQ(Out[I], Want[I]) << "work-item " << I;
    }
  }
}

TEST_P(WorkGroupFallback, LocalVariablesPrivateArraysPrintfRemainder) {
  // OpenCL C 3.0, so that a remainder group (1000 = 3 * 256 + 232) runs
  // through the fallback too.
  KernelRef K(makeKernel(kernelSource("fallback.cl"), "barrier_ladder_locals",
                         "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  cl_bool NonUniform =
      deviceInfo<cl_bool>(Device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT);
  size_t Max = 0;
  ASSERT_CL_OK(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_WORK_GROUP_SIZE,
                                        sizeof(Max), &Max, nullptr));
  const size_t Local = std::min<size_t>(Max, 256);
  const size_t N = NonUniform ? 1000 : 4 * Local;
  std::vector<cl_uint> In = input(N);
  MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          N * sizeof(cl_uint), In.data()));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(cl_uint)));
  const int Mask = 0x2b6d5a3c;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(int), &Mask));
  testing::internal::CaptureStdout();
  cl_int Err = clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                      nullptr, nullptr);
  cl_int FinishErr = clFinish(Queue);
  std::string Printed = testing::internal::GetCapturedStdout();
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(FinishErr);
  std::vector<cl_uint> Out(N);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                   N * sizeof(cl_uint), Out.data(), 0, nullptr,
                                   nullptr));
  std::vector<cl_uint> Want = ladderReference(In, Local, Mask);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], Want[I] + In[I] + cl_uint(I % Local % 4))
        << "work-item " << I;
  EXPECT_EQ(Printed, "ladder " + std::to_string(Want[0]) + "\n");
}

TEST_P(WorkGroupFallback, ManyGroupsAtOnce) {
  // Enough groups that every pthread worker runs several, each on fibers
  // in its own arena.
  KernelRef K(makeKernel(kernelSource("fallback.cl"), "barrier_ladder"));
  ASSERT_NE(K.get(), nullptr);
  const size_t Local = 32, N = Local * 200;
  std::vector<cl_uint> In = input(N);
  MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          N * sizeof(cl_uint), In.data()));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(cl_uint)));
  const int Mask = 0x0f0f0f0f;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, Local * sizeof(cl_uint), nullptr));
  ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(int), &Mask));
  for (int Round = 0; Round < 3; ++Round)
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                        nullptr, nullptr));
  std::vector<cl_uint> Out(N);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                   N * sizeof(cl_uint), Out.data(), 0, nullptr,
                                   nullptr));
  std::vector<cl_uint> Want = ladderReference(In, Local, Mask);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], Want[I]) << "work-item " << I;
}

TEST_P(WorkGroupFallback, RestrictBuffersAcrossBarriers) {
  KernelRef K(makeKernel(kernelSource("fallback.cl"), "restrict_exchange"));
  ASSERT_NE(K.get(), nullptr);
  const size_t Local = 16, N = Local * 8;
  std::vector<cl_uint> In = input(N);
  MemRef Buf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        N * sizeof(cl_uint), In.data()));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(cl_uint)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                      nullptr, nullptr));
  std::vector<cl_uint> Out(N);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                   N * sizeof(cl_uint), Out.data(), 0, nullptr,
                                   nullptr));
  // Work-item 0 of each group adds 100 to the group's first element between
  // the barriers; every work-item must see it.
  for (size_t G = 0; G < N; ++G) {
    cl_uint A = In[G - G % Local];
    EXPECT_EQ(Out[G], (A + 100u) * 2u + A) << "work-item " << G;
  }
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(WorkGroupFallback);
