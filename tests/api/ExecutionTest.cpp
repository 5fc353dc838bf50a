//===- tests/api/ExecutionTest.cpp - end-to-end kernels -------------------===//
//
// Kernels from tests/kernels/, run on every device and compared with a
// reference computed here on the host.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

using namespace weft_test;

namespace {

class KernelExecution : public DeviceTest {
protected:
  template <typename T>
  std::vector<T> read(cl_mem M, size_t Count) {
    std::vector<T> V(Count);
    EXPECT_CL_OK(clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, Count * sizeof(T),
                                     V.data(), 0, nullptr, nullptr));
    return V;
  }
  template <typename T> cl_mem upload(const std::vector<T> &V) {
    return makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                      V.size() * sizeof(T), const_cast<T *>(V.data()));
  }
};

std::vector<float> randomFloats(size_t N, unsigned Seed, float Lo, float Hi) {
  std::vector<float> V(N);
  uint32_t X = 0x9e3779b9u * (Seed + 1);
  for (float &F : V) {
    X = X * 1664525u + 1013904223u;
    F = Lo + (Hi - Lo) * float(X >> 8) / float(1u << 24);
  }
  return V;
}

/// Distance in units in the last place between two floats.
double ulpDistance(float Got, double Want) {
  if (std::isnan(Want))
    return std::isnan(Got) ? 0 : 1e9;
  if (std::isinf(Want))
    return Got == Want ? 0 : 1e9;
  float WantF = float(Want);
  double Ulp = std::nextafter(std::fabs(WantF), INFINITY) - std::fabs(WantF);
  if (Ulp == 0)
    Ulp = std::numeric_limits<float>::denorm_min();
  return std::fabs(double(Got) - Want) / Ulp;
}

TEST_P(KernelExecution, VectorAdd) {
  KernelRef K(makeKernel(kernelSource("vector_add.cl"), "vector_add"));
  ASSERT_NE(K.get(), nullptr);
  struct Case {
    size_t N;
    size_t Local; // 0: let the implementation choose
  };
  for (Case C : {Case{1, 1}, Case{64, 64}, Case{1000, 8}, Case{1024, 256},
                 Case{1000, 0}, Case{12345, 0}, Case{7, 0},
                 Case{1 << 20, 128}}) {
    SCOPED_TRACE("N=" + std::to_string(C.N) +
                 " local=" + std::to_string(C.Local));
    std::vector<float> A = randomFloats(C.N, 1, -100, 100),
                       B = randomFloats(C.N, 2, -100, 100);
    MemRef ABuf(upload(A)), BBuf(upload(B));
    MemRef CBuf(makeBuffer(CL_MEM_WRITE_ONLY, C.N * sizeof(float)));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &CBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &ABuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &BBuf));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &C.N,
                                        C.Local ? &C.Local : nullptr, 0,
                                        nullptr, nullptr));
    std::vector<float> Out = read<float>(CBuf, C.N);
    for (size_t I = 0; I < C.N; ++I)
      ASSERT_EQ(Out[I], A[I] + B[I]) << "at " << I;
  }
}

// Every work-group runs once, however the device shares them out: the
// first groups take far longer than the last, so on the pthread device the
// workers that finish their share take from the back of the others' while
// those still run, and the same NDRange launched again is shared the same
// way. Each work-item counts itself into its group's counter.
TEST_P(KernelExecution, EveryWorkGroupRunsOnceUnderUnevenWork) {
  const char *Source =
      "kernel void count(global uint *Counts, global float *Sink) {\n"
      "  size_t G = get_group_id(0), N = get_num_groups(0);\n"
      "  float X = (float)get_local_id(0);\n"
      "  for (size_t I = 0; I < (N - G) * 64; ++I)\n"
      "    X = X * 0.999f + 1.0f;\n"
      "  atomic_inc(&Counts[G]);\n"
      "  if (X < 0.0f) Sink[0] = X;\n"
      "}\n";
  KernelRef K(makeKernel(Source, "count"));
  ASSERT_NE(K.get(), nullptr);
  const size_t Local = 16;
  for (size_t Groups : {size_t(1), size_t(2), size_t(3), size_t(7),
                        size_t(64), size_t(1000)}) {
    SCOPED_TRACE(Groups);
    std::vector<cl_uint> Counts(Groups, 0);
    MemRef CountBuf(upload(Counts));
    MemRef Sink(makeBuffer(CL_MEM_READ_WRITE, sizeof(float)));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &CountBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &Sink));
    size_t Global = Groups * Local;
    const int Launches = 3;
    for (int L = 0; L < Launches; ++L)
      ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global,
                                          &Local, 0, nullptr, nullptr));
    std::vector<cl_uint> Got = read<cl_uint>(CountBuf, Groups);
    for (size_t G = 0; G < Groups; ++G)
      ASSERT_EQ(Got[G], cl_uint(Local * Launches)) << "group " << G;
  }
}

TEST_P(KernelExecution, Saxpy) {
  KernelRef K(makeKernel(kernelSource("saxpy.cl"), "saxpy"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 4096, Local = 64;
  std::vector<float> X = randomFloats(N, 3, -10, 10),
                     Y = randomFloats(N, 4, -10, 10);
  const float A = 2.5f;
  MemRef XBuf(upload(X)), YBuf(upload(Y));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &YBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &XBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(float), &A));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                      nullptr, nullptr));
  std::vector<float> Out = read<float>(YBuf, N);
  for (size_t I = 0; I < N; ++I) {
    // A contracted multiply-add is allowed: the result may differ from the
    // twice-rounded host value by the rounding of the product.
    double Exact = double(A) * double(X[I]) + double(Y[I]);
    ASSERT_NEAR(Out[I], Exact, 1e-6 * (std::fabs(A * X[I]) + std::fabs(Y[I])) +
                                   1e-30)
        << "at " << I;
  }
}

/// Runs work_item_ids.cl over the given range and checks every value.
void checkWorkItemIds(KernelExecution *, cl_context Context,
                      cl_command_queue Queue, cl_kernel K, cl_uint Dims,
                      const size_t *Global, const size_t *Local,
                      const size_t *Offset) {
  size_t G[3] = {1, 1, 1}, L[3] = {1, 1, 1}, O[3] = {0, 0, 0};
  for (cl_uint D = 0; D < Dims; ++D) {
    G[D] = Global[D];
    if (Local)
      L[D] = Local[D];
    if (Offset)
      O[D] = Offset[D];
  }
  const size_t Total = G[0] * G[1] * G[2], Stride = 22;
  cl_int Err = CL_SUCCESS;
  MemRef Out(clCreateBuffer(Context, CL_MEM_WRITE_ONLY,
                            Total * Stride * sizeof(cl_int), nullptr, &Err));
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Out));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, Dims, Offset, Global, Local, 0,
                                      nullptr, nullptr));
  std::vector<cl_int> V(Total * Stride);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Out, CL_TRUE, 0,
                                   V.size() * sizeof(cl_int), V.data(), 0,
                                   nullptr, nullptr));
  if (!Local) {
    // The implementation chose: read its choice back and check it is sane.
    for (cl_uint D = 0; D < 3; ++D) {
      L[D] = size_t(V[18 + D]);
      ASSERT_GE(L[D], 1u);
      ASSERT_EQ(G[D] % L[D], 0u) << "chosen local size does not divide";
    }
  }
  for (size_t Z = 0; Z < G[2]; ++Z)
    for (size_t Y = 0; Y < G[1]; ++Y)
      for (size_t X = 0; X < G[0]; ++X) {
        const cl_int *P = &V[((Z * G[1] + Y) * G[0] + X) * Stride];
        size_t Pos[3] = {X, Y, Z};
        for (cl_uint D = 0; D < 3; ++D) {
          SCOPED_TRACE("work-item (" + std::to_string(X) + "," +
                       std::to_string(Y) + "," + std::to_string(Z) +
                       ") dimension " + std::to_string(D));
          ASSERT_EQ(P[D], cl_int(Pos[D] + O[D])) << "get_global_id";
          ASSERT_EQ(P[3 + D], cl_int(O[D])) << "get_global_offset";
          ASSERT_EQ(P[6 + D], cl_int(Pos[D] % L[D])) << "get_local_id";
          ASSERT_EQ(P[9 + D], cl_int(Pos[D] / L[D])) << "get_group_id";
          ASSERT_EQ(P[12 + D], cl_int(G[D] / L[D])) << "get_num_groups";
          ASSERT_EQ(P[15 + D], cl_int(G[D])) << "get_global_size";
          ASSERT_EQ(P[18 + D], cl_int(L[D])) << "get_local_size";
        }
        ASSERT_EQ(P[21], cl_int(Dims)) << "get_work_dim";
      }
}

TEST_P(KernelExecution, WorkItemIds2DWithOffset) {
  KernelRef K(makeKernel(kernelSource("work_item_ids.cl"), "work_item_ids"));
  ASSERT_NE(K.get(), nullptr);
  size_t Global[2] = {24, 10}, Local[2] = {4, 5}, Offset[2] = {3, 7};
  checkWorkItemIds(this, Context, Queue, K, 2, Global, Local, Offset);
}

TEST_P(KernelExecution, WorkItemIds3D) {
  KernelRef K(makeKernel(kernelSource("work_item_ids.cl"), "work_item_ids"));
  ASSERT_NE(K.get(), nullptr);
  size_t Global[3] = {8, 6, 4}, Local[3] = {2, 3, 2};
  checkWorkItemIds(this, Context, Queue, K, 3, Global, Local, nullptr);
  size_t Offset[3] = {1, 2, 3};
  checkWorkItemIds(this, Context, Queue, K, 3, Global, Local, Offset);
}

TEST_P(KernelExecution, WorkItemIdsChosenLocalSize) {
  KernelRef K(makeKernel(kernelSource("work_item_ids.cl"), "work_item_ids"));
  ASSERT_NE(K.get(), nullptr);
  size_t Global1[1] = {100};
  checkWorkItemIds(this, Context, Queue, K, 1, Global1, nullptr, nullptr);
  size_t Global2[2] = {30, 14};
  checkWorkItemIds(this, Context, Queue, K, 2, Global2, nullptr, nullptr);
}

TEST_P(KernelExecution, ScalarAndVectorArguments) {
  KernelRef K(makeKernel(kernelSource("scalar_args.cl"), "scalar_args"));
  ASSERT_NE(K.get(), nullptr);
  MemRef Ints(makeBuffer(CL_MEM_WRITE_ONLY, 10 * sizeof(cl_long)));
  MemRef Floats(makeBuffer(CL_MEM_WRITE_ONLY, 5 * sizeof(cl_float)));
  cl_char C = -5;
  cl_uchar UC = 250;
  cl_short S = -30000;
  cl_ushort US = 60000;
  cl_int I = -2000000000;
  cl_uint U = 4000000000u;
  cl_long L = -(cl_long(1) << 40) - 3;
  cl_ulong UL = (cl_ulong(1) << 63) + 5;
  cl_float F = 3.25f;
  cl_float4 V = {{1.5f, -2.5f, 1e10f, -0.0f}};
  cl_int2 I2 = {{-7, 123456}};
  int Arg = 0;
  ASSERT_CL_OK(clSetKernelArg(K, Arg++, sizeof(cl_mem), &Ints));
  ASSERT_CL_OK(clSetKernelArg(K, Arg++, sizeof(cl_mem), &Floats));
  ASSERT_CL_OK(clSetKernelArg(K, Arg++, sizeof(C), &C));
  ASSERT_CL_OK(clSetKernelArg(K, Arg++, sizeof(UC), &UC));
  ASSERT_CL_OK(clSetKernelArg(K, Arg++, sizeof(S), &S));
  ASSERT_CL_OK(clSetKernelArg(K, Arg++, sizeof(US), &US));
  ASSERT_CL_OK(clSetKernelArg(K, Arg++, sizeof(I), &I));
  ASSERT_CL_OK(clSetKernelArg(K, Arg++, sizeof(U), &U));
  ASSERT_CL_OK(clSetKernelArg(K, Arg++, sizeof(L), &L));
  ASSERT_CL_OK(clSetKernelArg(K, Arg++, sizeof(UL), &UL));
  ASSERT_CL_OK(clSetKernelArg(K, Arg++, sizeof(F), &F));
  ASSERT_CL_OK(clSetKernelArg(K, Arg++, sizeof(V), &V));
  ASSERT_CL_OK(clSetKernelArg(K, Arg++, sizeof(I2), &I2));
  size_t One = 1;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, nullptr, 0,
                                      nullptr, nullptr));
  std::vector<cl_long> GotI = read<cl_long>(Ints, 10);
  std::vector<cl_float> GotF = read<cl_float>(Floats, 5);
  EXPECT_EQ(GotI[0], C);
  EXPECT_EQ(GotI[1], UC);
  EXPECT_EQ(GotI[2], S);
  EXPECT_EQ(GotI[3], US);
  EXPECT_EQ(GotI[4], I);
  EXPECT_EQ(GotI[5], cl_long(U));
  EXPECT_EQ(GotI[6], L);
  EXPECT_EQ(cl_ulong(GotI[7]), UL);
  EXPECT_EQ(GotI[8], -7);
  EXPECT_EQ(GotI[9], 123456);
  EXPECT_EQ(GotF[0], F);
  for (int J = 0; J < 4; ++J)
    EXPECT_EQ(GotF[1 + J], V.s[J]) << "component " << J;
  EXPECT_TRUE(std::signbit(GotF[4])) << "-0.0f lost its sign";
}

TEST_P(KernelExecution, Float4Buffers) {
  KernelRef K(makeKernel(kernelSource("float4_scale.cl"), "float4_scale"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 512, Local = 32;
  std::vector<float> In = randomFloats(4 * N, 5, -4, 4);
  MemRef InBuf(upload(In));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, 4 * N * sizeof(float)));
  cl_float4 Scale = {{2.0f, -1.0f, 0.5f, 3.0f}};
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(Scale), &Scale));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                      nullptr, nullptr));
  std::vector<float> Out = read<float>(OutBuf, 4 * N);
  for (size_t I = 0; I < N; ++I)
    for (size_t C = 0; C < 4; ++C)
      ASSERT_EQ(Out[4 * I + C], In[4 * I + (3 - C)] * Scale.s[C])
          << "element " << I << " component " << C;
}

/// vector_stream.cl: work-item loops over float2/float4/float8 that the
/// compiler runs several work-items at a time (WidenWorkItemLoops).
TEST_P(KernelExecution, VectorStreamsStrided) {
  KernelRef K(makeKernel(kernelSource("vector_stream.cl"), "sum_strided4"));
  ASSERT_NE(K.get(), nullptr);
  for (size_t Local : {size_t(256), size_t(64), size_t(12), size_t(6)}) {
    SCOPED_TRACE("local=" + std::to_string(Local));
    const size_t Groups = 5, N = Groups * Local;
    std::vector<float> A = randomFloats(4 * N * 16, 7, -8, 8);
    MemRef ABuf(upload(A));
    MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(float)));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &ABuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                        nullptr, nullptr));
    std::vector<float> Out = read<float>(OutBuf, N);
    for (size_t G = 0; G < N; ++G) {
      size_t Id = G / Local * Local * 16 + G % Local;
      float S[4] = {0, 0, 0, 0};
      for (size_t I = 0; I < 16; ++I)
        for (size_t C = 0; C < 4; ++C)
          S[C] += A[4 * (Id + I * Local) + C];
      ASSERT_EQ(Out[G], S[0] + S[1] + S[2] + S[3]) << "work-item " << G;
    }
  }
}

TEST_P(KernelExecution, VectorStreamsGlobalOffset) {
  KernelRef K(makeKernel(kernelSource("vector_stream.cl"), "sum_global2"));
  ASSERT_NE(K.get(), nullptr);
  const size_t Local = 64, N = 4 * Local;
  // Offsets that are multiples of 8 work-items run the widened loop, the
  // others the original one (a run-time test of the offset's low bits).
  for (size_t Offset : {size_t(0), size_t(1), size_t(3), size_t(4),
                        size_t(8), size_t(13)}) {
    SCOPED_TRACE("offset=" + std::to_string(Offset));
    std::vector<float> A = randomFloats(2 * (Offset + 16 * N), 8, -8, 8);
    MemRef ABuf(upload(A));
    MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(float)));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &ABuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, &Offset, &N, &Local, 0,
                                        nullptr, nullptr));
    std::vector<float> Out = read<float>(OutBuf, N);
    for (size_t G = 0; G < N; ++G) {
      float S[2] = {0, 0};
      for (size_t I = 0; I < 16; ++I)
        for (size_t C = 0; C < 2; ++C)
          S[C] += A[2 * (Offset + G + I * N) + C];
      ASSERT_EQ(Out[G], S[0] - S[1]) << "work-item " << G;
    }
  }
}

TEST_P(KernelExecution, VectorStreamsShuffles) {
  KernelRef K(makeKernel(kernelSource("vector_stream.cl"), "mix8"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 512, Local = 128;
  std::vector<float> A = randomFloats(8 * N, 9, -4, 4),
                     B = randomFloats(8 * N, 10, -4, 4);
  const float Factor = 1.5f;
  MemRef ABuf(upload(A)), BBuf(upload(B));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, 8 * N * sizeof(float)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &ABuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &BBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(float), &Factor));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                      nullptr, nullptr));
  std::vector<float> Out = read<float>(OutBuf, 8 * N);
  for (size_t I = 0; I < N; ++I) {
    const float *X = &A[8 * I], *Y = &B[8 * I];
    float M[8];
    for (int C = 0; C < 8; ++C)
      M[C] = X[C] > Y[C] ? X[C] : Y[C];
    float V[8] = {M[7], X[1] * Factor, Y[0], M[3] - X[0],
                  X[5], Y[6],          Factor, M[2]};
    for (int C = 0; C < 8; ++C) {
      // A contracted multiply-add may differ by the product's rounding.
      double Exact = double(V[C]) + double(X[(C + 1) % 8]) * double(Y[7 - C]);
      ASSERT_NEAR(Out[8 * I + C], Exact, 1e-6 * (std::fabs(Exact) + 16))
          << "element " << I << " component " << C;
    }
  }
}

TEST_P(KernelExecution, DoubleArguments) {
  std::string Extensions = deviceString(Device, CL_DEVICE_EXTENSIONS);
  if (!splitWords(Extensions).count("cl_khr_fp64"))
    GTEST_SKIP() << "the device does not support double precision";
  KernelRef K(makeKernel(kernelSource("double_axpy.cl"), "double_axpy"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 1000;
  std::vector<double> X(N), Y(N);
  for (size_t I = 0; I < N; ++I) {
    X[I] = 1.0 / double(I + 3);
    Y[I] = std::sqrt(double(I));
  }
  const double A = 1.0 + 1e-12;
  MemRef XBuf(upload(X)), YBuf(upload(Y));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &YBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &XBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(double), &A));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                      nullptr, nullptr));
  std::vector<double> Out = read<double>(YBuf, N);
  for (size_t I = 0; I < N; ++I) {
    double Want = A * X[I] + Y[I];
    // 1e-12 of A is far below float precision: only double keeps it.
    ASSERT_NEAR(Out[I], Want, 4e-16 * (std::fabs(Want) + 1)) << "at " << I;
  }
}

TEST_P(KernelExecution, LocalMemoryArgument) {
  KernelRef K(makeKernel(kernelSource("private_local_scratch.cl"),
                         "private_local_scratch"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 256, Local = 32;
  MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(cl_int)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Out));
  ASSERT_CL_OK(clSetKernelArg(K, 1, Local * sizeof(cl_int), nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                      nullptr, nullptr));
  std::vector<cl_int> V = read<cl_int>(Out, N);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(V[I], cl_int(2 * I + 1)) << "at " << I;
}

TEST_P(KernelExecution, FloatMathBuiltins) {
  KernelRef K(makeKernel(kernelSource("math_builtins.cl"), "math_builtins"));
  ASSERT_NE(K.get(), nullptr);
  const cl_uint N = 1024;
  std::vector<float> In = randomFloats(N, 6, -8, 8);
  In[0] = 0.0f;
  In[1] = -0.0f;
  In[2] = 1.0f;
  In[3] = 88.0f; // exp near the top of the float range
  MemRef InBuf(upload(In));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, 10 * N * sizeof(float)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(N), &N));
  size_t Global = N;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, nullptr, 0,
                                      nullptr, nullptr));
  std::vector<float> Out = read<float>(OutBuf, 10 * N);
  // Maximum errors of the OpenCL 3.0 full-profile ULP table.
  const struct {
    const char *Name;
    double MaxUlp;
  } Rows[] = {{"sqrt", 3},  {"exp", 3},   {"log", 3},   {"sin", 4},
              {"cos", 4},   {"floor", 0}, {"fmin+fmax", 0},
              {"fma", 0},   {"clamp", 0}, {"pow", 16}};
  for (cl_uint I = 0; I < N; ++I) {
    double X = In[I];
    float XF = In[I];
    double Want[10] = {
        std::sqrt(std::fabs(X)),
        std::exp(X),
        std::log(double(std::fabs(XF) + 0.5f)),
        std::sin(X),
        std::cos(X),
        std::floor(double(XF * 3.0f)),
        double(std::fmin(XF, 0.25f) + std::fmax(XF, -0.25f)),
        double(std::fma(XF, XF, 1.0f)),
        double(std::fmin(std::fmax(XF, -1.0f), 1.0f)),
        std::pow(double(std::fabs(XF) + 1.0f), 1.5)};
    for (int F = 0; F < 10; ++F) {
      float Got = Out[F * N + I];
      ASSERT_LE(ulpDistance(Got, Want[F]), Rows[F].MaxUlp)
          << Rows[F].Name << "(" << XF << ") = " << Got << ", want "
          << Want[F];
    }
  }
}

TEST_P(KernelExecution, IntegerBuiltins) {
  KernelRef K(makeKernel(kernelSource("int_builtins.cl"), "int_builtins"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 256;
  std::vector<cl_uint> In(N + 1);
  uint32_t X = 12345;
  for (cl_uint &V : In) {
    X ^= X << 13;
    X ^= X >> 17;
    X ^= X << 5;
    V = X;
  }
  In[0] = 0;
  In[1] = 0xffffffffu;
  In[2] = 1;
  MemRef InBuf(upload(In));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, 8 * N * sizeof(cl_uint)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                      nullptr, nullptr));
  std::vector<cl_uint> Out = read<cl_uint>(OutBuf, 8 * N);
  for (size_t I = 0; I < N; ++I) {
    uint32_t A = In[I], B = In[I + 1];
    unsigned R = B & 31;
    uint32_t Clz = 0;
    while (Clz < 32 && !(A & (0x80000000u >> Clz)))
      ++Clz;
    int64_t Diff = int64_t(int32_t(A)) - int64_t(int32_t(B));
    uint64_t Sum = uint64_t(A) + B;
    uint32_t Want[8] = {uint32_t(__builtin_popcount(A)),
                        Clz,
                        R ? (A << R) | (A >> (32 - R)) : A,
                        uint32_t(Diff < 0 ? -Diff : Diff),
                        Sum > 0xffffffffu ? 0xffffffffu : uint32_t(Sum),
                        uint32_t((uint64_t(A) * B) >> 32),
                        A < B ? A : B,
                        uint32_t(std::max(int32_t(A), int32_t(B)))};
    static const char *Names[8] = {"popcount", "clz",     "rotate",
                                   "abs_diff", "add_sat", "mul_hi",
                                   "min",      "max"};
    for (int F = 0; F < 8; ++F)
      ASSERT_EQ(Out[I * 8 + F], Want[F])
          << Names[F] << "(" << A << ", " << B << ")";
  }
}

// Integer division and remainder by zero, and of the signed minimum by -1,
// have undefined results in OpenCL C, but must not stop the program: x86's
// div/idiv trap on both, which would be SIGFPE for the whole host process.
// Every type and vector width divides a mix of ordinary, zero and -1
// divisors; the defined lanes must match the host, the others may hold
// anything, and the process must live on.
class IntegerDivision : public KernelExecution {
protected:
  template <typename T> void check(const char *TypeName) {
    const char *Source =
        "kernel void divide(global const TYPE *A, global const TYPE *B,\n"
        "                   global TYPE *Q, global TYPE *R) {\n"
        "  size_t I = get_global_id(0);\n"
        "  Q[I] = A[I] / B[I];\n  R[I] = A[I] % B[I];\n}\n";
    for (unsigned Width : {1u, 2u, 4u, 8u, 16u}) {
      std::string Type = TypeName;
      if (Width > 1)
        Type += std::to_string(Width);
      SCOPED_TRACE(Type);
      KernelRef K(makeKernel(Source, "divide", "-DTYPE=" + Type));
      ASSERT_NE(K.get(), nullptr);
      const size_t Items = 64, N = Items * Width;
      const T Min = std::numeric_limits<T>::min();
      std::vector<T> A(N), B(N);
      uint32_t X = 12345u + Width;
      for (size_t I = 0; I < N; ++I) {
        X = X * 1664525u + 1013904223u;
        A[I] = static_cast<T>(X >> 3);
        B[I] = static_cast<T>((X >> 11) % 97) - T(std::is_signed<T>::value ? 48 : 0);
        // Zero divisors, and the signed minimum over -1, in every lane
        // position.
        if (I % 5 == 0)
          B[I] = 0;
        if (std::is_signed<T>::value && I % 7 == 3) {
          A[I] = Min;
          B[I] = T(-1);
        }
      }
      MemRef ABuf(upload(A)), BBuf(upload(B));
      MemRef QBuf(upload(std::vector<T>(N))), RBuf(upload(std::vector<T>(N)));
      ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &ABuf));
      ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &BBuf));
      ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &QBuf));
      ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_mem), &RBuf));
      ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Items,
                                          nullptr, 0, nullptr, nullptr));
      std::vector<T> Q = read<T>(QBuf, N), R = read<T>(RBuf, N);
      for (size_t I = 0; I < N; ++I) {
        if (B[I] == 0 || (std::is_signed<T>::value && A[I] == Min &&
                          B[I] == T(-1)))
          continue;
        ASSERT_EQ(Q[I], T(A[I] / B[I])) << "element " << I;
        ASSERT_EQ(R[I], T(A[I] % B[I])) << "element " << I;
      }
    }
  }
};

TEST_P(IntegerDivision, ByZeroAndOverflowDoNotStopTheProgram) {
  check<cl_char>("char");
  check<cl_uchar>("uchar");
  check<cl_short>("short");
  check<cl_ushort>("ushort");
  check<cl_int>("int");
  check<cl_uint>("uint");
  check<cl_long>("long");
  check<cl_ulong>("ulong");
}

// A divisor that is the same for every work-item (a kernel argument), zero:
// the division may be hoisted out of the work-item loop, and still must
// not trap.
TEST_P(IntegerDivision, ByUniformZeroArgument) {
  KernelRef K(makeKernel(
      "kernel void scale(global long *A, long D, global int *C, int E) {\n"
      "  size_t I = get_global_id(0);\n"
      "  A[I] = A[I] / D + (long)(C[I] % E);\n}\n",
      "scale"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 256;
  std::vector<cl_long> A(N, std::numeric_limits<cl_long>::min());
  std::vector<cl_int> C(N, std::numeric_limits<cl_int>::min());
  MemRef ABuf(upload(A)), CBuf(upload(C));
  for (auto [D, E] : {std::pair<cl_long, cl_int>{0, 0}, {-1, -1}, {2, 3}}) {
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &ABuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(D), &D));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &CBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(E), &E));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                        nullptr, nullptr));
    ASSERT_CL_OK(clFinish(Queue));
  }
  // The last, defined, launch on whatever the undefined ones left: checked
  // against the host by running the defined launch alone.
  std::vector<cl_long> Fresh(N, 1000);
  ASSERT_CL_OK(clEnqueueWriteBuffer(Queue, ABuf, CL_TRUE, 0,
                                    N * sizeof(cl_long), Fresh.data(), 0,
                                    nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                      nullptr, nullptr));
  std::vector<cl_long> Got = read<cl_long>(ABuf, N);
  const cl_long Want =
      1000 / 2 + cl_long(std::numeric_limits<cl_int>::min() % 3);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Got[I], Want) << "element " << I;
}

// cl_khr_expect_assume: a kernel with __builtin_expect and __builtin_assume
// builds in OpenCL C 1.2 and 3.0 with the extension's macro defined, and the
// hints change nothing in what it computes.
TEST_P(KernelExecution, ExpectAssume) {
  std::set<std::string> Extensions =
      splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS));
  EXPECT_TRUE(Extensions.count("cl_khr_expect_assume"));
  const char *Source =
      "#ifndef cl_khr_expect_assume\n"
      "#error cl_khr_expect_assume is not defined\n"
      "#endif\n"
      "kernel void hinted(global int *Out, global const int *In, int N) {\n"
      "  size_t I = get_global_id(0);\n"
      "  __builtin_assume(N > 0);\n"
      "  __builtin_assume(I < 1024);\n"
      "  int X = In[I];\n"
      "  int Sum = 0;\n"
      "  for (int K = 0; K < N; ++K)\n"
      "    Sum += X + K;\n"
      "  if (__builtin_expect(X < 0, 0))\n"
      "    Sum = -Sum;\n"
      "  Out[I] = __builtin_expect(Sum, 0) + (int)__builtin_expect((long)I, 7);\n"
      "}\n";
  const size_t N = 1024;
  std::vector<cl_int> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = static_cast<cl_int>(I * 37 % 201) - 100;
  const cl_int Trips = 5;
  for (const char *Options : {"-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    SCOPED_TRACE(Options);
    KernelRef K(makeKernel(Source, "hinted", Options));
    ASSERT_NE(K.get(), nullptr);
    MemRef InBuf(upload(In));
    MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(cl_int)));
    cl_mem InMem = InBuf, OutMem = OutBuf;
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutMem));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InMem));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(Trips), &Trips));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                        nullptr, nullptr));
    std::vector<cl_int> Out = read<cl_int>(OutBuf, N);
    for (size_t I = 0; I < N; ++I) {
      cl_int Sum = Trips * In[I] + Trips * (Trips - 1) / 2;
      if (In[I] < 0)
        Sum = -Sum;
      ASSERT_EQ(Out[I], Sum + static_cast<cl_int>(I)) << "work-item " << I;
    }
  }
}

WEFT_INSTANTIATE_DEVICE_TEST(KernelExecution);
WEFT_INSTANTIATE_DEVICE_TEST(IntegerDivision);

} // namespace
