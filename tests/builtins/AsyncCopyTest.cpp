//===- AsyncCopyTest.cpp - async_work_group_copy and friends ---------------===//
//
// A kernel stages a block of global memory in __local with
// async_work_group_copy / async_work_group_strided_copy, waits, transforms
// it, and copies it back the same ways; checked element by element on
// several work-group sizes, scalar and vector element types.
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

using namespace weft_test;

namespace {

class AsyncCopy : public BuiltinTest {
protected:
  /// Runs Source's kernel "k" with a local buffer of Local float4 per group.
  bool runLocal(const std::string &Source, size_t Global, size_t Local,
                std::vector<cl_float> &In, std::vector<cl_float> &Out,
                const std::string &Options) {
    Program.reset(buildProgram(Context, Device, Source, Options));
    if (!Program)
      return false;
    cl_int Err = CL_SUCCESS;
    KernelRef K(clCreateKernel(Program, "k", &Err));
    EXPECT_CL_OK(Err);
    MemRef InBuf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            In.size() * 4, In.data()));
    MemRef OutBuf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             Out.size() * 4, Out.data()));
    EXPECT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
    EXPECT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
    EXPECT_CL_OK(clSetKernelArg(K, 2, Local * 16, nullptr));
    EXPECT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local,
                                        0, nullptr, nullptr));
    EXPECT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0, Out.size() * 4,
                                     Out.data(), 0, nullptr, nullptr));
    return !HasFailure();
  }
};

// Each group stages its block of float4 (contiguous), and every second
// float of the block (strided), then writes 2*x + lid back: the contiguous
// result to Out[0..N), the strided one spread with stride 2 into the second
// half.
const char *Source = R"(
kernel void k(global const float *In, global float *Out, local float4 *L) {
  size_t lid = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
  size_t total = get_global_size(0);
  event_t e = async_work_group_copy(L, (global const float4 *)In + g * n, n, 0);
  wait_group_events(1, &e);
  float4 v = L[lid] * 2.0f + (float)lid;
  prefetch(In + g * n * 4, n * 4);
  local float *Lf = (local float *)L;
  // The next copy overwrites L, and the work-items share the copying:
  // every read of L above must be done before any of them starts it.
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e2 = async_work_group_strided_copy(Lf, In + g * n * 4, n * 2, 2, 0);
  wait_group_events(1, &e2);
  vstore4(v, g * n + lid, Out);
  float a = Lf[2 * lid], b = Lf[2 * lid + 1];
  Out[total * 4 + (g * n + lid) * 2] = a;
  Out[total * 4 + (g * n + lid) * 2 + 1] = b;
}
)";

TEST_P(AsyncCopy, StageThroughLocal) {
  for (size_t Local : {1u, 8u, 64u}) {
    for (const char *Std : {"", "-cl-std=CL3.0"}) {
      SCOPED_TRACE("local size " + std::to_string(Local) + " " + Std);
      const size_t Global = 256;
      std::vector<cl_float> In(Global * 4), Out(Global * 4 + Global * 2, -1);
      for (size_t I = 0; I < In.size(); ++I)
        In[I] = float(I) * 0.5f;
      ASSERT_TRUE(runLocal(Source, Global, Local, In, Out, Std));
      for (size_t I = 0; I < Global; ++I) {
        size_t Lid = I % Local, G = I / Local;
        for (int C = 0; C < 4; ++C)
          ASSERT_EQ(Out[I * 4 + C], In[I * 4 + C] * 2 + float(Lid))
              << "contiguous copy, work-item " << I;
        // Strided: local float j came from In[G * Local * 4 + 2 * j].
        for (int C = 0; C < 2; ++C)
          ASSERT_EQ(Out[Global * 4 + I * 2 + C],
                    In[G * Local * 4 + 2 * (2 * Lid + C)])
              << "strided copy, work-item " << I;
      }
    }
  }
}

// The work-items of a 2-D group share the copy of a range that is not a
// multiple of the group's size; after wait_group_events each one reads the
// whole local copy (elements other work-items copied), and the group
// writes it back, scaled, with a strided local-to-global copy.
const char *SharedSource = R"(
kernel void k(global const int *In, global int *Out, global int *Sums,
              local int *L, uint Num) {
  size_t g = get_group_id(0) + get_num_groups(0) * get_group_id(1);
  size_t lin = get_local_id(1) * get_local_size(0) + get_local_id(0);
  event_t e = async_work_group_copy(L, In + g * Num, Num, 0);
  wait_group_events(1, &e);
  int Sum = 0;
  for (uint I = 0; I < Num; ++I)
    Sum += L[I] * (int)(I + 1);
  Sums[g * get_local_size(0) * get_local_size(1) + lin] = Sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint I = lin; I < Num; I += get_local_size(0) * get_local_size(1))
    L[I] *= 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(Out + g * Num * 2, L, Num, 2, 0);
  wait_group_events(1, &e);
}
)";

TEST_P(AsyncCopy, SharedAmongWorkItems) {
  KernelRef K(makeKernel(SharedSource, "k"));
  ASSERT_TRUE(K.get());
  const size_t Global[2] = {8, 8}, Local[2] = {4, 4}, Groups = 4, Items = 16;
  for (cl_uint Num : {1u, 15u, 16u, 37u}) {
    SCOPED_TRACE("range of " + std::to_string(Num));
    std::vector<cl_int> In(Groups * Num), Out(Groups * Num * 2, -1),
        Sums(Groups * Items, 0);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = cl_int(I * 7 % 101) - 50;
    MemRef InBuf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            In.size() * 4, In.data()));
    MemRef OutBuf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             Out.size() * 4, Out.data()));
    MemRef SumBuf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             Sums.size() * 4, Sums.data()));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &SumBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 3, Num * 4, nullptr));
    ASSERT_CL_OK(clSetKernelArg(K, 4, sizeof(Num), &Num));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, Local, 0,
                                        nullptr, nullptr));
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0, Out.size() * 4,
                                     Out.data(), 0, nullptr, nullptr));
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, SumBuf, CL_TRUE, 0,
                                     Sums.size() * 4, Sums.data(), 0, nullptr,
                                     nullptr));
    for (size_t G = 0; G < Groups; ++G) {
      cl_int Want = 0;
      for (size_t I = 0; I < Num; ++I)
        Want += In[G * Num + I] * cl_int(I + 1);
      for (size_t W = 0; W < Items; ++W)
        ASSERT_EQ(Sums[G * Items + W], Want)
            << "group " << G << " work-item " << W;
      for (size_t I = 0; I < Num; ++I) {
        ASSERT_EQ(Out[G * Num * 2 + I * 2], In[G * Num + I] * 3)
            << "group " << G << " element " << I;
        ASSERT_EQ(Out[G * Num * 2 + I * 2 + 1], -1)
            << "group " << G << " gap after element " << I;
      }
    }
  }
}

WEFT_INSTANTIATE_DEVICE_TEST(AsyncCopy);

} // namespace
