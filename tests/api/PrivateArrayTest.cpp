//===- tests/api/PrivateArrayTest.cpp - private tiles, end to end ---------===//
//
// The kernels of tests/kernels/private_tiles.cl on every device against
// references computed here: a CLBlast-shaped tiled matrix product whose
// accumulators live in a private float4 array indexed by unrolled loops
// across barriers (PromotePrivateArrays turns it into registers), at four
// tilings, and a private array indexed by data, which must stay in memory.
// fma in k order keeps the product exact.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <cmath>
#include <cstdint>
#include <string>

using namespace weft_test;

namespace {

class PrivateArrays : public DeviceTest {};

struct Tiling {
  int MDimC, NDimC, MWG, NWG, KWG;
};

TEST_P(PrivateArrays, TiledMatrixProduct) {
  // KWG 16 and 32: the k loop carries the accumulators over more trips
  // than O3 unrolls by itself, and HorizontalLoops unrolls it instead of
  // making it horizontal; the last tiling is CLBlast's default.
  for (Tiling T : {Tiling{4, 8, 16, 16, 8}, Tiling{2, 4, 16, 8, 4},
                   Tiling{4, 8, 16, 16, 16}, Tiling{8, 16, 32, 32, 32}}) {
    std::string Options = "-DMDIMC=" + std::to_string(T.MDimC) +
                          " -DNDIMC=" + std::to_string(T.NDimC) +
                          " -DMWG=" + std::to_string(T.MWG) +
                          " -DNWG=" + std::to_string(T.NWG) +
                          " -DKWG=" + std::to_string(T.KWG);
    SCOPED_TRACE(Options);
    KernelRef K(
        makeKernel(kernelSource("private_tiles.cl"), "tiled_gemm", Options));
    ASSERT_NE(K.get(), nullptr);
    const cl_int M = T.MWG * 2, N = T.NWG * 3, Depth = T.KWG * 3;
    std::vector<float> A(size_t(Depth) * M), B(size_t(Depth) * N);
    std::vector<uint32_t> Bits = pseudoRandomWords(A.size() + B.size(), 11);
    for (size_t I = 0; I < A.size(); ++I)
      A[I] = float(Bits[I] % 2001) / 1000.0f - 1.0f;
    for (size_t I = 0; I < B.size(); ++I)
      B[I] = float(Bits[A.size() + I] % 2001) / 1000.0f - 1.0f;
    // Each work-item computes MWG/MDIMC x NWG/NDIMC elements of C.
    const size_t Local[2] = {size_t(T.MDimC), size_t(T.NDimC)};
    const size_t Global[2] = {size_t(M / T.MWG * T.MDimC),
                              size_t(N / T.NWG * T.NDimC)};
    std::vector<float> C = runGemmKernel(K, M, N, Depth, A, B, Global, Local);
    if (HasFailure())
      return;
    expectHostProduct(C, A, B, M, N, Depth);
    if (HasFailure())
      return;
  }
}

TEST_P(PrivateArrays, ArrayIndexedByData) {
  KernelRef K(
      makeKernel(kernelSource("private_tiles.cl"), "private_histogram"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 100;
  std::vector<uint32_t> In = pseudoRandomWords(N * 8, 5), Out(N, 0xdeadbeef);
  MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(uint32_t)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                      nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                   N * sizeof(uint32_t), Out.data(), 0, nullptr,
                                   nullptr));
  for (size_t G = 0; G < N; ++G) {
    uint32_t Bins[8] = {};
    for (size_t I = 0; I < 8; ++I)
      ++Bins[In[G * 8 + I] & 7];
    uint32_t Want = 0;
    for (int I = 0; I < 8; ++I)
      Want |= Bins[I] << (4 * I);
    ASSERT_EQ(Out[G], Want) << "work-item " << G;
  }
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(PrivateArrays);
