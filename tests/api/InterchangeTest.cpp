//===- tests/api/InterchangeTest.cpp - y loops made innermost -------------===//
//
// The kernels of tests/kernels/interchange.cl on every device against
// references computed here. tn_tiles reads its local A tile 2 * (TK + 1)
// doubles apart across x, the nest InterchangeWorkItemLoops runs y
// innermost: 2-D groups of several shapes (a y extent below x's, which
// keeps x innermost, among them), uniform NDRanges and, under OpenCL 3.0,
// non-uniform ones whose last groups are smaller in x, in y or both (the
// remainder nest, with run-time bounds). strided_rows has no barrier (the
// WorkItemLoops nest) and a stride known only at run time. Inputs are small
// integers, so every sum is exact and the results compare equal.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <string>

using namespace weft_test;

namespace {

class Interchange : public DeviceTest {};

struct TileCase {
  int LX, LY, M, N, K;
  bool Uniform;
};

size_t roundUp(size_t V, size_t To) { return (V + To - 1) / To * To; }

TEST_P(Interchange, TnTiles) {
  for (TileCase C :
       {TileCase{8, 8, 64, 64, 32, true}, TileCase{4, 8, 40, 72, 24, true},
        TileCase{8, 4, 48, 40, 16, true}, TileCase{4, 16, 16, 96, 8, true},
        TileCase{8, 8, 37, 45, 29, false}, TileCase{4, 8, 64, 27, 17, false},
        TileCase{8, 8, 21, 64, 40, false}, TileCase{2, 16, 11, 70, 9, false}}) {
    std::string Options =
        "-DLX=" + std::to_string(C.LX) + " -DLY=" + std::to_string(C.LY);
    if (!C.Uniform)
      Options += " -cl-std=CL3.0";
    SCOPED_TRACE(Options + " M " + std::to_string(C.M) + " N " +
                 std::to_string(C.N) + " K " + std::to_string(C.K));
    KernelRef Kern(
        makeKernel(kernelSource("interchange.cl"), "tn_tiles", Options));
    ASSERT_NE(Kern.get(), nullptr);
    std::vector<double> A(size_t(C.K) * C.M), B(size_t(C.K) * C.N);
    for (size_t I = 0; I < A.size(); ++I)
      A[I] = double(int(I * 7 % 11) - 5);
    for (size_t I = 0; I < B.size(); ++I)
      B[I] = double(int(I * 5 % 9) - 4);
    std::vector<double> Out(size_t(C.M) * C.N, -1000.0);
    MemRef ABuf(makeBufferFrom(A, CL_MEM_READ_ONLY));
    MemRef BBuf(makeBufferFrom(B, CL_MEM_READ_ONLY));
    MemRef CBuf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(Kern, 0, sizeof(int), &C.M));
    ASSERT_CL_OK(clSetKernelArg(Kern, 1, sizeof(int), &C.N));
    ASSERT_CL_OK(clSetKernelArg(Kern, 2, sizeof(int), &C.K));
    ASSERT_CL_OK(clSetKernelArg(Kern, 3, sizeof(cl_mem), &ABuf));
    ASSERT_CL_OK(clSetKernelArg(Kern, 4, sizeof(cl_mem), &BBuf));
    ASSERT_CL_OK(clSetKernelArg(Kern, 5, sizeof(cl_mem), &CBuf));
    size_t Local[2] = {size_t(C.LX), size_t(C.LY)};
    size_t Global[2] = {size_t(C.M + 1) / 2, size_t(C.N + 1) / 2};
    if (C.Uniform) {
      Global[0] = roundUp(Global[0], Local[0]);
      Global[1] = roundUp(Global[1], Local[1]);
    }
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, Kern, 2, nullptr, Global, Local,
                                        0, nullptr, nullptr));
    ASSERT_CL_OK(readInto(CBuf, Out));
    for (int M = 0; M < C.M; ++M)
      for (int N = 0; N < C.N; ++N) {
        double Ref = 0.0;
        for (int K = 0; K < C.K; ++K)
          Ref += A[size_t(K) * C.M + M] * B[size_t(K) * C.N + N];
        ASSERT_EQ(Out[size_t(M) * C.N + N], Ref)
            << "C[" << M << "][" << N << "]";
      }
  }
}

struct RowCase {
  size_t LX, LY;
  int Width, Height;
  bool Uniform;
};

TEST_P(Interchange, StridedRows) {
  for (RowCase C :
       {RowCase{8, 8, 32, 24, true}, RowCase{4, 16, 20, 48, true},
        RowCase{8, 8, 29, 19, false}, RowCase{16, 4, 35, 10, false}}) {
    std::string Options = C.Uniform ? "" : "-cl-std=CL3.0";
    SCOPED_TRACE("local " + std::to_string(C.LX) + "x" + std::to_string(C.LY) +
                 " size " + std::to_string(C.Width) + "x" +
                 std::to_string(C.Height));
    KernelRef Kern(
        makeKernel(kernelSource("interchange.cl"), "strided_rows", Options));
    ASSERT_NE(Kern.get(), nullptr);
    int Stride = C.Height + 3;
    std::vector<float> In(size_t(4 * C.Width) * Stride);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = float(int(I * 3 % 17) - 8);
    std::vector<float> Out(size_t(C.Width) * C.Height, -1000.0f);
    MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
    MemRef OutBuf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(Kern, 0, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(Kern, 1, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(Kern, 2, sizeof(int), &Stride));
    ASSERT_CL_OK(clSetKernelArg(Kern, 3, sizeof(int), &C.Width));
    ASSERT_CL_OK(clSetKernelArg(Kern, 4, sizeof(int), &C.Height));
    size_t Local[2] = {C.LX, C.LY};
    size_t Global[2] = {size_t(C.Width), size_t(C.Height)};
    if (C.Uniform) {
      Global[0] = roundUp(Global[0], Local[0]);
      Global[1] = roundUp(Global[1], Local[1]);
    }
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, Kern, 2, nullptr, Global, Local,
                                        0, nullptr, nullptr));
    ASSERT_CL_OK(readInto(OutBuf, Out));
    for (int Y = 0; Y < C.Height; ++Y)
      for (int X = 0; X < C.Width; ++X) {
        float Ref = 0.0f;
        for (int J = 0; J < 4; ++J)
          Ref += In[size_t(4 * X + J) * Stride + Y] * float(J + 1);
        ASSERT_EQ(Out[size_t(Y) * C.Width + X], Ref)
            << "(" << X << ", " << Y << ")";
      }
  }
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(Interchange);
