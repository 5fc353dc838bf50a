//===- tests/api/GatherTest.cpp - accesses consecutive only sometimes -----===//
//
// The kernels of tests/kernels/gathers.cl on every device against
// references computed here. Their addresses are functions of the id that
// the vectorizer cannot prove consecutive, so they become gathers and
// scatters, and VersionGathers gives each a vector access for when the
// active lanes turn out consecutive at run time. Each kernel runs with
// arguments that make the lanes consecutive, permuted within a vector and
// between vectors, and (wrap16) consecutive in 16 bits but not as
// addresses; with several local sizes, so that groups start and end at
// other lanes of a vector. IntIndexWithLocalOffset runs an int index of
// size_t ids whose extension ExposeIndexExtensions rewrites so that the
// vectorizer sees consecutive loads.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <algorithm>

using namespace weft_test;

namespace {

class Gathers : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    Max = deviceInfo<size_t>(Device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  }

  /// Local sizes to run with: the implementation's choice (0) and a few
  /// the device allows that divide N.
  std::vector<size_t> localSizes(size_t N) const {
    std::vector<size_t> Sizes{0};
    for (size_t L : {size_t(8), size_t(48), size_t(256)})
      if (L <= Max && N % L == 0)
        Sizes.push_back(L);
    return Sizes;
  }

  void run(cl_kernel K, size_t N, size_t Local) {
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N,
                                        Local ? &Local : nullptr, 0, nullptr,
                                        nullptr));
    ASSERT_CL_OK(clFinish(Queue));
  }

  size_t Max = 1;
};

TEST_P(Gathers, BitonicSortAllPasses) {
  KernelRef K(makeKernel(kernelSource("gathers.cl"), "bitonic_pass"));
  ASSERT_NE(K.get(), nullptr);
  // Passes 0-11: pairs 1 to 2048 elements apart, so the lanes of a vector
  // are consecutive in the later passes and interleaved in the first.
  const unsigned Log2 = 12;
  const size_t N = size_t(1) << Log2;
  for (size_t Local : localSizes(N / 2)) {
    SCOPED_TRACE(testing::Message() << "local size " << Local);
    std::vector<uint32_t> Keys = pseudoRandomWords(N, uint32_t(Local) + 5);
    for (uint32_t &Key : Keys)
      Key %= 1000; // duplicates too
    std::vector<uint32_t> Want = Keys;
    std::sort(Want.begin(), Want.end());
    MemRef Buf(makeBufferFrom(Keys));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
    for (cl_uint Stage = 0; Stage < Log2; ++Stage)
      for (cl_uint Pass = Stage + 1; Pass-- > 0;) {
        ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_uint), &Stage));
        ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_uint), &Pass));
        run(K, N / 2, Local);
      }
    std::vector<uint32_t> Got(N);
    ASSERT_CL_OK(readInto(Buf, Got));
    for (size_t I = 0; I < N; ++I)
      ASSERT_EQ(Got[I], Want[I]) << "key " << I;
  }
}

TEST_P(Gathers, XorPermutations) {
  KernelRef K(makeKernel(kernelSource("gathers.cl"), "xor_permute"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 1536;
  std::vector<int32_t> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = int32_t(I * 7919 % 10007) - 5000;
  MemRef InBuf(makeBufferFrom(In));
  // Masks below and at multiples of every vector width; all keep I ^ M
  // inside [0, 1536) because 1536 is a multiple of 512.
  const cl_uint Masks[] = {0, 1, 5, 15, 16, 32, 48, 64, 256, 511};
  for (size_t Local : localSizes(N))
    for (cl_uint M1 : Masks)
      for (cl_uint M2 : {cl_uint(0), cl_uint(3), cl_uint(64), cl_uint(480)}) {
        SCOPED_TRACE(testing::Message()
                     << "local size " << Local << " M1 " << M1 << " M2 " << M2);
        std::vector<int32_t> Out(N, -1);
        MemRef OutBuf(makeBufferFrom(Out));
        ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
        ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
        ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_uint), &M1));
        ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_uint), &M2));
        run(K, N, Local);
        std::vector<int32_t> Got(N);
        ASSERT_CL_OK(readInto(OutBuf, Got));
        for (size_t I = 0; I < N; ++I)
          ASSERT_EQ(Got[I ^ M1], In[I ^ M2] * 3 + int32_t(I))
              << "work-item " << I;
      }
}

TEST_P(Gathers, MaskedScatters) {
  KernelRef K(makeKernel(kernelSource("gathers.cl"), "masked_xor"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 1024;
  std::vector<int32_t> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = int32_t(I * 31 % 977);
  MemRef InBuf(makeBufferFrom(In));
  for (size_t Local : localSizes(N))
    for (cl_uint M : {cl_uint(0), cl_uint(2), cl_uint(16), cl_uint(80)})
      for (cl_uint B : {cl_uint(0), cl_uint(3), cl_uint(4), cl_uint(9)}) {
        SCOPED_TRACE(testing::Message()
                     << "local size " << Local << " M " << M << " B " << B);
        std::vector<int32_t> Out(N, -7);
        MemRef OutBuf(makeBufferFrom(Out));
        ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
        ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
        ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_uint), &M));
        ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_uint), &B));
        run(K, N, Local);
        std::vector<int32_t> Got(N);
        ASSERT_CL_OK(readInto(OutBuf, Got));
        std::vector<int32_t> Want(N, -7);
        for (size_t I = 0; I < N; ++I)
          if (((I >> B) & 1) == 0)
            Want[I ^ M] = In[I ^ M] + 1;
        for (size_t I = 0; I < N; ++I)
          ASSERT_EQ(Got[I], Want[I]) << "element " << I;
      }
}

TEST_P(Gathers, SixteenBitIndexWraps) {
  KernelRef K(makeKernel(kernelSource("gathers.cl"), "wrap16"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 512, Table = 65536;
  std::vector<float> In(Table + 64);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = float(I % 4093) - 2000.0f;
  MemRef InBuf(makeBufferFrom(In));
  // The index runs past 65535 and back to 0 mid-vector, at several lanes.
  for (size_t Local : localSizes(N))
    for (cl_uint Off : {cl_uint(0), cl_uint(65536 - 100), cl_uint(65536 - 7),
                        cl_uint(65536 - 256), cl_uint(65536 + 5)})
      for (cl_uint M : {cl_uint(0), cl_uint(2), cl_uint(64)}) {
        SCOPED_TRACE(testing::Message()
                     << "local size " << Local << " Off " << Off << " M " << M);
        std::vector<float> Out(N, -1.0f);
        MemRef OutBuf(makeBufferFrom(Out));
        ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
        ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
        ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_uint), &Off));
        ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_uint), &M));
        run(K, N, Local);
        std::vector<float> Got(N);
        ASSERT_CL_OK(readInto(OutBuf, Got));
        for (size_t I = 0; I < N; ++I)
          ASSERT_EQ(Got[I], In[uint16_t((I ^ M) + Off)]) << "work-item " << I;
      }
}

TEST_P(Gathers, EightAndOneByteElements) {
  KernelRef KD(makeKernel(kernelSource("gathers.cl"), "xor_double"));
  ASSERT_NE(KD.get(), nullptr);
  KernelRef KC(makeKernel(kernelSource("gathers.cl"), "xor_char"));
  ASSERT_NE(KC.get(), nullptr);
  const size_t N = 2048;
  std::vector<double> InD(N);
  std::vector<uint8_t> InC(N);
  for (size_t I = 0; I < N; ++I) {
    InD[I] = double(I) * 1.25 - 100.0;
    InC[I] = uint8_t(I * 13 + 1);
  }
  MemRef InDBuf(makeBufferFrom(InD)), InCBuf(makeBufferFrom(InC));
  for (size_t Local : localSizes(N))
    for (cl_uint M : {cl_uint(0), cl_uint(1), cl_uint(7), cl_uint(8),
                      cl_uint(63), cl_uint(64), cl_uint(1024)}) {
      SCOPED_TRACE(testing::Message() << "local size " << Local << " M " << M);
      std::vector<double> OutD(N, -1.0);
      std::vector<uint8_t> OutC(N, 0);
      MemRef OutDBuf(makeBufferFrom(OutD)), OutCBuf(makeBufferFrom(OutC));
      ASSERT_CL_OK(clSetKernelArg(KD, 0, sizeof(cl_mem), &OutDBuf));
      ASSERT_CL_OK(clSetKernelArg(KD, 1, sizeof(cl_mem), &InDBuf));
      ASSERT_CL_OK(clSetKernelArg(KD, 2, sizeof(cl_uint), &M));
      ASSERT_CL_OK(clSetKernelArg(KC, 0, sizeof(cl_mem), &OutCBuf));
      ASSERT_CL_OK(clSetKernelArg(KC, 1, sizeof(cl_mem), &InCBuf));
      ASSERT_CL_OK(clSetKernelArg(KC, 2, sizeof(cl_uint), &M));
      run(KD, N, Local);
      run(KC, N, Local);
      std::vector<double> GotD(N);
      ASSERT_CL_OK(readInto(OutDBuf, GotD));
      std::vector<uint8_t> GotC(N);
      ASSERT_CL_OK(readInto(OutCBuf, GotC));
      for (size_t I = 0; I < N; ++I) {
        ASSERT_EQ(GotD[I], InD[I ^ M] * 0.5) << "double work-item " << I;
        ASSERT_EQ(GotC[I], uint8_t(InC[I ^ M] + 1)) << "char work-item " << I;
      }
    }
}

TEST_P(Gathers, IntIndexWithLocalOffset) {
  KernelRef K(makeKernel(kernelSource("gathers.cl"), "local_offset_sums"));
  ASSERT_NE(K.get(), nullptr);
  const size_t Groups = 6;
  for (size_t Local : {size_t(16), size_t(64), size_t(256)}) {
    if (Local > Max)
      continue;
    SCOPED_TRACE(testing::Message() << "local size " << Local);
    const size_t N = Groups * Local;
    std::vector<float> A(N * 16);
    for (size_t I = 0; I < A.size(); ++I)
      A[I] = float(int(I * 37 % 101) - 50);
    std::vector<float> B(N, -1.0f);
    MemRef ABuf(makeBufferFrom(A)), BBuf(makeBufferFrom(B));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &ABuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &BBuf));
    run(K, N, Local);
    std::vector<float> Got(N);
    ASSERT_CL_OK(readInto(BBuf, Got));
    for (size_t G = 0; G < Groups; ++G)
      for (size_t L = 0; L < Local; ++L) {
        // Small integers: the sum is exact in any order.
        float Want = 0;
        for (size_t F = 0; F < 16; ++F)
          Want += A[G * Local * 16 + F * Local + L] * float(F % 4 + 1);
        ASSERT_EQ(Got[G * Local + L], Want) << "work-item " << G * Local + L;
      }
  }
}

WEFT_INSTANTIATE_DEVICE_TEST(Gathers);

} // namespace
