//===- tests/api/ReloadTest.cpp - store, then reload, in one work-item ----===//
//
// The kernels of tests/kernels/reload_in_iteration.cl on every device
// against host references: work-items that store and then load the same
// buffer within one pass through their body, in short loops that O3
// unrolls. One where the accesses are provably apart (the work-item loop
// keeps its parallel annotation and vectorizes) and two where a reload may
// read what the same pass stored (the annotation must go, or the
// vectorizer's store sinking would make the reloads stale), without and
// with a barrier.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <cstdint>
#include <cstring>

using namespace weft_test;

namespace {

std::vector<float> randomFloats(size_t N, uint32_t Seed) {
  std::vector<uint32_t> Bits = pseudoRandomWords(N, Seed);
  std::vector<float> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = float(Bits[I] % 4001) / 16.0f - 125.0f;
  return V;
}

class ReloadInIteration : public DeviceTest {
protected:
  std::vector<float> read(cl_mem Buf, size_t N) {
    std::vector<float> Out(N);
    EXPECT_CL_OK(clEnqueueReadBuffer(Queue, Buf, CL_TRUE, 0, N * sizeof(float),
                                     Out.data(), 0, nullptr, nullptr));
    return Out;
  }

  /// reload_unknown or reload_unknown_barrier over N work-items.
  void checkReloadUnknown(const char *Name, bool WithScratch) {
    KernelRef K(makeKernel(kernelSource("reload_in_iteration.cl"), Name));
    ASSERT_NE(K.get(), nullptr);
    const size_t N = 1024;
    std::vector<float> In = randomFloats(N * 4, 3);
    MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            In.size() * sizeof(float), In.data()));
    for (size_t Local : {size_t(1), size_t(16), size_t(64)})
      for (cl_int Kth = 0; Kth < 4; ++Kth) {
        SCOPED_TRACE(testing::Message()
                     << Name << " local size " << Local << " k " << Kth);
        std::vector<float> Old = randomFloats(N * 4, 7);
        MemRef Buf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              Old.size() * sizeof(float), Old.data()));
        MemRef SumBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(float)));
        ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
        ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &SumBuf));
        ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &InBuf));
        ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_int), &Kth));
        if (WithScratch) {
          ASSERT_CL_OK(clSetKernelArg(K, 4, Local * sizeof(float), nullptr));
        }
        ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                            nullptr, nullptr));
        std::vector<float> Sum = read(SumBuf, N), Got = read(Buf, N * 4);
        for (size_t G = 0; G < N; ++G) {
          float Row[4];
          std::memcpy(Row, &Old[G * 4], sizeof(Row));
          float S = 0.0f;
          if (WithScratch) {
            size_t Group = G / Local * Local;
            S = In[(Group + (G - Group + 1) % Local) * 4];
          }
          for (int I = 0; I < 4; ++I) {
            Row[I] = In[G * 4 + I] * 2.0f;
            S += Row[Kth];
          }
          ASSERT_EQ(Sum[G], S) << "work-item " << G;
          for (int I = 0; I < 4; ++I)
            ASSERT_EQ(Got[G * 4 + I], Row[I]) << "work-item " << G;
        }
      }
  }
};

TEST_P(ReloadInIteration, StoresApartKeepParallel) {
  KernelRef K(makeKernel(kernelSource("reload_in_iteration.cl"), "halves"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 1000;
  for (size_t Local : {size_t(1), size_t(8), size_t(100)}) {
    SCOPED_TRACE(testing::Message() << "local size " << Local);
    std::vector<float> Old = randomFloats(N * 8, uint32_t(Local));
    MemRef Buf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                          Old.size() * sizeof(float), Old.data()));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                        nullptr, nullptr));
    std::vector<float> Got = read(Buf, N * 8);
    for (size_t G = 0; G < N; ++G)
      for (int I = 0; I < 4; ++I) {
        float Hi = Old[G * 8 + 4 + I];
        ASSERT_EQ(Got[G * 8 + I], Old[G * 8 + I] + Hi) << "work-item " << G;
        ASSERT_EQ(Got[G * 8 + 4 + I], Hi * 2.0f) << "work-item " << G;
      }
  }
}

TEST_P(ReloadInIteration, ReloadAtUnknownDistance) {
  checkReloadUnknown("reload_unknown", false);
}

TEST_P(ReloadInIteration, ReloadAtUnknownDistanceBetweenBarriers) {
  checkReloadUnknown("reload_unknown_barrier", true);
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(ReloadInIteration);
