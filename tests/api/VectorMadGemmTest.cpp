//===- tests/api/VectorMadGemmTest.cpp - per-component float4 GEMM --------===//
//
// The kernel of tests/kernels/vector_mad_gemm.cl (CLBlast's Xgemm in small:
// local tiles of A and B, float2/float4 accumulators updated per
// component) on every device, against a reference computed here, for
// several work-group shapes and vector widths. On the pthread device the
// per-component code is rebuilt into vector fmuladds
// (RevectorizeWorkItemLoops), the B element splatted from a scalar load,
// and the copy and compute work-item loops run several work-items per
// register (WidenWorkItemLoops): WEFT_DEBUG=compile logs "rebuilt by the
// SLP vectorizer" and "widened across" for each variant. Small integers
// keep every sum exact, whatever the order or fusing.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <string>

using namespace weft_test;

namespace {

class VectorMadGemm : public DeviceTest {};

struct Shape {
  int LX, LY, VWM, VWN;
};

TEST_P(VectorMadGemm, MatchesHostProduct) {
  for (Shape S : {Shape{8, 16, 4, 2}, Shape{4, 8, 4, 4}, Shape{16, 4, 2, 4},
                  Shape{8, 8, 2, 2}, Shape{16, 2, 4, 2}}) {
    std::string Options =
        "-DLX=" + std::to_string(S.LX) + " -DLY=" + std::to_string(S.LY) +
        " -DVWM=" + std::to_string(S.VWM) + " -DVWN=" + std::to_string(S.VWN);
    SCOPED_TRACE(Options);
    KernelRef K(
        makeKernel(kernelSource("vector_mad_gemm.cl"), "vmad_gemm", Options));
    ASSERT_NE(K.get(), nullptr);
    // 3 x 2 groups, 4 tiles of 16 rows of k.
    const size_t GX = 3, GY = 2;
    const cl_int M = cl_int(GX * S.LX * S.VWM), N = cl_int(GY * S.LY * S.VWN),
                 Kd = 64;
    std::vector<float> A(size_t(Kd) * M), B(size_t(Kd) * N);
    for (size_t I = 0; I < A.size(); ++I)
      A[I] = float(int(I * 7 % 13) - 6);
    for (size_t I = 0; I < B.size(); ++I)
      B[I] = float(int(I * 5 % 11) - 5);
    std::vector<float> C(size_t(M) * N, -99.0f);
    MemRef ABuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           A.size() * sizeof(float), A.data()));
    MemRef BBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           B.size() * sizeof(float), B.data()));
    MemRef CBuf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                           C.size() * sizeof(float), C.data()));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_int), &M));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_int), &N));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_int), &Kd));
    ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_mem), &ABuf));
    ASSERT_CL_OK(clSetKernelArg(K, 4, sizeof(cl_mem), &BBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 5, sizeof(cl_mem), &CBuf));
    const size_t Local[2] = {size_t(S.LX), size_t(S.LY)},
                 Global[2] = {GX * S.LX, GY * S.LY};
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, Local, 0,
                                        nullptr, nullptr));
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, CBuf, CL_TRUE, 0,
                                     C.size() * sizeof(float), C.data(), 0,
                                     nullptr, nullptr));
    for (cl_int Row = 0; Row < N; ++Row)
      for (cl_int Col = 0; Col < M; ++Col) {
        float Sum = 0.0f;
        for (cl_int Kk = 0; Kk < Kd; ++Kk)
          Sum += A[size_t(Kk) * M + Col] * B[size_t(Kk) * N + Row];
        ASSERT_EQ(C[size_t(Row) * M + Col], Sum)
            << "row " << Row << " column " << Col;
      }
  }
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(VectorMadGemm);
