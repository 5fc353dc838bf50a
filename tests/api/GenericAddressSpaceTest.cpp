//===- tests/api/GenericAddressSpaceTest.cpp - generic pointers -----------===//
//
// OpenCL C 3.0's generic address space (__opencl_c_generic_address_space):
// pointers to global, local and private memory passed through the same
// generic parameters, and the queries that tell them apart (to_global,
// to_local, to_private, get_fence), in every work-group method.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <algorithm>

using namespace weft_test;

namespace {

const char *const Source = R"(
// One function for every address space: a generic pointer parameter.
int bump(int *P, int By) {
  *P += By;
  return *P;
}

// What the queries say about P: bit 0 to_global, 1 to_local, 2
// to_private (each non-null), then get_fence's value from bit 4.
int classify(int *P) {
  return (to_global(P) != 0) | (to_local(P) != 0) << 1 |
         (to_private(P) != 0) << 2 | (int)get_fence(P) << 4;
}

kernel void spaces(global int *G, global int *Out, local int *L) {
  size_t I = get_global_id(0), Lid = get_local_id(0);
  local int Automatic[64];
  int Private[4] = {10, 20, 30, 40};
  L[Lid] = 100 * (int)Lid;
  Automatic[Lid] = 7;
  barrier(CLK_LOCAL_MEM_FENCE);
  int *P = (I & 1) ? (int *)&L[Lid] : (int *)&G[I]; // chosen at run time
  Out[8 * I + 0] = bump(&G[I], 1);
  Out[8 * I + 1] = bump(&L[Lid], 2);
  Out[8 * I + 2] = bump(&Private[Lid & 3], 3);
  Out[8 * I + 3] = classify(&G[I]);
  Out[8 * I + 4] = classify(&L[Lid]);
  Out[8 * I + 5] = classify(&Private[1]);
  Out[8 * I + 6] = classify(&Automatic[Lid]);
  Out[8 * I + 7] = classify(P);
  barrier(CLK_LOCAL_MEM_FENCE);
  // A private value live across the barrier: its pointer still private.
  Out[8 * I + 2] += (to_private(&Private[2]) != 0) * 1000;
}
)";

class GenericAddressSpace : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    if (!deviceInfo<cl_bool>(Device, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT)) {
      EXPECT_FALSE(testingWeft()) << "Weft supports the generic address space";
      GTEST_SKIP() << "no generic address space";
    }
  }
};

TEST_P(GenericAddressSpace, PointersOfEverySpaceThroughOneFunction) {
  KernelRef K(makeKernel(Source, "spaces", "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  for (size_t Local : {size_t(1), size_t(16), size_t(64)}) {
    SCOPED_TRACE("local size " + std::to_string(Local));
    const size_t N = 128;
    std::vector<cl_int> G(N);
    for (size_t I = 0; I < N; ++I)
      G[I] = cl_int(3 * I);
    MemRef GBuf(makeBufferFrom(G)), Out(makeBufferFrom(std::vector<cl_int>(8 * N)));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &GBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &Out));
    ASSERT_CL_OK(clSetKernelArg(K, 2, Local * sizeof(cl_int), nullptr));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                        nullptr, nullptr));
    std::vector<cl_int> R(8 * N);
    ASSERT_CL_OK(readInto(Out, R));
    const int Global = 1 | 1 << 4, LocalSpace = 2 | 2 << 4, Private = 4;
    for (size_t I = 0; I < N; ++I) {
      size_t Lid = I % Local;
      int Values[4] = {10, 20, 30, 40};
      EXPECT_EQ(R[8 * I + 0], cl_int(3 * I + 1)) << I;
      EXPECT_EQ(R[8 * I + 1], cl_int(100 * Lid + 2)) << I;
      EXPECT_EQ(R[8 * I + 2], Values[Lid & 3] + 3 + 1000) << I;
      EXPECT_EQ(R[8 * I + 3], Global) << I;
      EXPECT_EQ(R[8 * I + 4], LocalSpace) << I;
      EXPECT_EQ(R[8 * I + 5], Private) << I;
      EXPECT_EQ(R[8 * I + 6], LocalSpace) << I;
      EXPECT_EQ(R[8 * I + 7], (I & 1) ? LocalSpace : Global) << I;
    }
  }
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(GenericAddressSpace);
