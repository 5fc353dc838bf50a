//===- tests/api/NonUniformTest.cpp - non-uniform work-groups -----------===//
//
// A program built with -cl-std=CL3.0 (or CL2.0, which Weft's devices do not
// list) may be enqueued with a global size that is not a multiple of the
// local size: the last group of each such dimension is smaller. Each test
// checks every work-item against a reference computed here from the NDRange
// shape alone; the error tests check that OpenCL C 1.x and
// -cl-uniform-work-group-size programs still refuse it.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <cstdint>

using namespace weft_test;

namespace {

class NonUniformWorkGroups : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    cl_bool Supported =
        deviceInfo<cl_bool>(Device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT);
    if (!Supported) {
      // Weft's CPU devices support them; another platform may not.
      EXPECT_FALSE(testingWeft()) << "Weft devices support non-uniform groups";
      GTEST_SKIP() << "device without non-uniform work-group support";
    }
  }

  /// Runs "queries" over Global x Local (WorkDim dimensions) and checks
  /// every work-item's view of its group.
  void checkQueries(cl_uint WorkDim, const size_t Global[3],
                    const size_t Local[3]) {
    SCOPED_TRACE(testing::Message()
                 << "global " << Global[0] << "x" << Global[1] << "x"
                 << Global[2] << " local " << Local[0] << "x" << Local[1] << "x"
                 << Local[2]);
    KernelRef K(
        makeKernel(kernelSource("nonuniform.cl"), "queries", "-cl-std=CL3.0"));
    ASSERT_NE(K.get(), nullptr);
    size_t Total = Global[0] * Global[1] * Global[2];
    MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, Total * 8 * sizeof(cl_ulong)));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Out));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, WorkDim, nullptr, Global,
                                        Local, 0, nullptr, nullptr));
    std::vector<cl_ulong> Got(Total * 8, ~0ull);
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Out, CL_TRUE, 0,
                                     Got.size() * sizeof(cl_ulong), Got.data(),
                                     0, nullptr, nullptr));
    auto Pack = [](const size_t V[3]) {
      return cl_ulong(V[0]) | cl_ulong(V[1]) << 16 | cl_ulong(V[2]) << 32;
    };
    size_t Id[3];
    for (Id[2] = 0; Id[2] < Global[2]; ++Id[2])
      for (Id[1] = 0; Id[1] < Global[1]; ++Id[1])
        for (Id[0] = 0; Id[0] < Global[0]; ++Id[0]) {
          size_t Size[3], Lid[3], Group[3], Groups[3];
          for (int D = 0; D < 3; ++D) {
            Group[D] = Id[D] / Local[D];
            Lid[D] = Id[D] % Local[D];
            Groups[D] = (Global[D] + Local[D] - 1) / Local[D];
            Size[D] = std::min(Local[D], Global[D] - Group[D] * Local[D]);
          }
          size_t G = (Id[2] * Global[1] + Id[1]) * Global[0] + Id[0];
          const cl_ulong *W = &Got[8 * G];
          SCOPED_TRACE(testing::Message() << "work-item " << Id[0] << ","
                                          << Id[1] << "," << Id[2]);
          ASSERT_EQ(W[0], Pack(Size)) << "get_local_size";
          ASSERT_EQ(W[1], Pack(Local)) << "get_enqueued_local_size";
          ASSERT_EQ(W[2], Pack(Lid)) << "get_local_id";
          ASSERT_EQ(W[3], Pack(Group)) << "get_group_id";
          ASSERT_EQ(W[4], Pack(Id)) << "get_global_id";
          ASSERT_EQ(W[5], Pack(Groups)) << "get_num_groups";
          ASSERT_EQ(W[6], (Lid[2] * Size[1] + Lid[1]) * Size[0] + Lid[0])
              << "get_local_linear_id";
          ASSERT_EQ(W[7], G) << "get_global_linear_id";
        }
  }
};

TEST_P(NonUniformWorkGroups, DeviceReportsSupport) {
  EXPECT_EQ(
      deviceInfo<cl_bool>(Device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT),
      CL_TRUE);
}

TEST_P(NonUniformWorkGroups, Queries1D) {
  size_t Global[3] = {1000, 1, 1}, Local[3] = {64, 1, 1};
  checkQueries(1, Global, Local);
  size_t Small[3] = {5, 1, 1}, Large[3] = {7, 1, 1};
  // Larger than the whole NDRange: one group, of the global size.
  checkQueries(1, Small, Large);
}

TEST_P(NonUniformWorkGroups, Queries2D) {
  size_t Global[3] = {37, 11, 1}, Local[3] = {8, 4, 1};
  checkQueries(2, Global, Local);
  // Only y is non-uniform.
  size_t GlobalY[3] = {16, 10, 1}, LocalY[3] = {16, 3, 1};
  checkQueries(2, GlobalY, LocalY);
}

TEST_P(NonUniformWorkGroups, Queries3D) {
  size_t Global[3] = {10, 7, 5}, Local[3] = {4, 3, 2};
  checkQueries(3, Global, Local);
}

TEST_P(NonUniformWorkGroups, NullLocalSizeForPrimeGlobalSize) {
  // The implementation chooses; whatever it chose, the work-items must
  // agree with it, and a remainder group lets it avoid groups of one.
  KernelRef K(
      makeKernel(kernelSource("nonuniform.cl"), "queries", "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 1009;
  MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, N * 8 * sizeof(cl_ulong)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Out));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                      nullptr, nullptr));
  std::vector<cl_ulong> Got(N * 8);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Out, CL_TRUE, 0,
                                   Got.size() * sizeof(cl_ulong), Got.data(), 0,
                                   nullptr, nullptr));
  size_t Enqueued = Got[1] & 0xffff;
  ASSERT_GE(Enqueued, 1u);
  if (testingWeft()) {
    EXPECT_GT(Enqueued, 1u) << "a prime global size need not mean groups of 1";
  }
  for (size_t G = 0; G < N; ++G) {
    size_t Group = G / Enqueued, Lid = G % Enqueued;
    size_t Size = std::min(Enqueued, N - Group * Enqueued);
    ASSERT_EQ(Got[8 * G + 0], cl_ulong(Size) | 1ull << 16 | 1ull << 32)
        << "work-item " << G;
    ASSERT_EQ(Got[8 * G + 1], cl_ulong(Enqueued) | 1ull << 16 | 1ull << 32);
    ASSERT_EQ(Got[8 * G + 2], cl_ulong(Lid)) << "work-item " << G;
    ASSERT_EQ(Got[8 * G + 3], cl_ulong(Group)) << "work-item " << G;
  }
}

TEST_P(NonUniformWorkGroups, BarrierAndLocalMemory2D) {
  KernelRef K(makeKernel(kernelSource("nonuniform.cl"), "reverse_rows",
                         "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  const size_t Global[2] = {45, 9}, Local[2] = {16, 4};
  const size_t N = Global[0] * Global[1];
  std::vector<cl_uint> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = cl_uint(I * 2654435761u);
  MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          N * sizeof(cl_uint), In.data()));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(cl_uint)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  ASSERT_CL_OK(
      clSetKernelArg(K, 2, Local[0] * Local[1] * sizeof(cl_uint), nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, Local, 0,
                                      nullptr, nullptr));
  std::vector<cl_uint> Out(N);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                   N * sizeof(cl_uint), Out.data(), 0, nullptr,
                                   nullptr));
  for (size_t Y = 0; Y < Global[1]; ++Y)
    for (size_t X = 0; X < Global[0]; ++X) {
      size_t Start = X / Local[0] * Local[0];
      size_t Width = std::min(Local[0], Global[0] - Start);
      size_t From = Start + (Width - 1 - (X - Start));
      ASSERT_EQ(Out[Y * Global[0] + X], In[Y * Global[0] + From] + Local[0])
          << "work-item " << X << "," << Y;
    }
}

TEST_P(NonUniformWorkGroups, ReductionInRemainderGroup) {
  KernelRef K(
      makeKernel(kernelSource("nonuniform.cl"), "group_sum", "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  for (size_t Local : {size_t(1), size_t(7), size_t(64), size_t(256)}) {
    const size_t N = 1000;
    const size_t Groups = (N + Local - 1) / Local;
    SCOPED_TRACE(testing::Message() << "local size " << Local);
    std::vector<cl_uint> In(N);
    for (size_t I = 0; I < N; ++I)
      In[I] = cl_uint(I * I + 3);
    MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            N * sizeof(cl_uint), In.data()));
    MemRef SumBuf(makeBuffer(CL_MEM_WRITE_ONLY, Groups * sizeof(cl_uint)));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &SumBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, Local * sizeof(cl_uint), nullptr));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                        nullptr, nullptr));
    std::vector<cl_uint> Sums(Groups);
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, SumBuf, CL_TRUE, 0,
                                     Groups * sizeof(cl_uint), Sums.data(), 0,
                                     nullptr, nullptr));
    for (size_t G = 0; G < Groups; ++G) {
      cl_uint Want = 0;
      for (size_t I = G * Local; I < std::min(N, (G + 1) * Local); ++I)
        Want += In[I];
      ASSERT_EQ(Sums[G], Want) << "group " << G;
    }
  }
}

TEST_P(NonUniformWorkGroups, UniformProgramsRefuse) {
  const size_t Global = 100, Local = 16;
  for (const char *Options :
       {"", "-cl-std=CL1.1", "-cl-std=CL1.2",
        "-cl-std=CL3.0 -cl-uniform-work-group-size"}) {
    SCOPED_TRACE(Options);
    // group_sum only uses OpenCL C 1.2 builtins.
    KernelRef K(
        makeKernel(kernelSource("nonuniform.cl"), "group_sum", Options));
    ASSERT_NE(K.get(), nullptr);
    MemRef Sums(makeBuffer(CL_MEM_WRITE_ONLY, Global * sizeof(cl_uint)));
    MemRef In(makeBuffer(CL_MEM_READ_WRITE, Global * sizeof(cl_uint)));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Sums));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &In));
    ASSERT_CL_OK(clSetKernelArg(K, 2, Local * sizeof(cl_uint), nullptr));
    EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE,
              clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local, 0,
                                     nullptr, nullptr));
    // A multiple still runs.
    const size_t Even = 96;
    EXPECT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Even, &Local, 0,
                                        nullptr, nullptr));
  }
  ASSERT_CL_OK(clFinish(Queue));
}

TEST_P(NonUniformWorkGroups, KernelLimitsStillApply) {
  KernelRef K(
      makeKernel(kernelSource("nonuniform.cl"), "queries", "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, 64));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Out));
  size_t Max = 0;
  ASSERT_CL_OK(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_WORK_GROUP_SIZE,
                                        sizeof(Max), &Max, nullptr));
  EXPECT_GE(Max, 1u);
  // The enqueued size is what the limit and the zero check apply to, even
  // when the remainder group would be small enough.
  size_t Global = Max + 1, TooLarge = Max + 1, Zero = 0;
  EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE,
            clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &TooLarge, 0,
                                   nullptr, nullptr));
  EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE,
            clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Zero, 0,
                                   nullptr, nullptr));
}

TEST_P(NonUniformWorkGroups, SurvivesProgramBinary) {
  KernelRef Built(
      makeKernel(kernelSource("nonuniform.cl"), "queries", "-cl-std=CL3.0"));
  ASSERT_NE(Built.get(), nullptr);
  size_t Size = 0;
  ASSERT_CL_OK(clGetProgramInfo(Program, CL_PROGRAM_BINARY_SIZES, sizeof(Size),
                                &Size, nullptr));
  std::vector<unsigned char> Binary(Size);
  unsigned char *Ptr = Binary.data();
  ASSERT_CL_OK(clGetProgramInfo(Program, CL_PROGRAM_BINARIES, sizeof(Ptr), &Ptr,
                                nullptr));
  const unsigned char *Bytes = Binary.data();
  cl_int Status = CL_SUCCESS, Err = CL_SUCCESS;
  ProgramRef Loaded(clCreateProgramWithBinary(Context, 1, &Device, &Size,
                                              &Bytes, &Status, &Err));
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(clBuildProgram(Loaded, 1, &Device, "", nullptr, nullptr));
  KernelRef K(clCreateKernel(Loaded, "queries", &Err));
  ASSERT_CL_OK(Err);
  const size_t Global = 10, Local = 4;
  MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, Global * 8 * sizeof(cl_ulong)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Out));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local, 0,
                                      nullptr, nullptr));
  cl_ulong Last[8];
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Out, CL_TRUE,
                                   9 * 8 * sizeof(cl_ulong), sizeof(Last), Last,
                                   0, nullptr, nullptr));
  EXPECT_EQ(Last[0], 2u | 1ull << 16 | 1ull << 32) << "get_local_size";
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(NonUniformWorkGroups);
