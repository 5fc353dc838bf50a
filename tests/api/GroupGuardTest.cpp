//===- tests/api/GroupGuardTest.cpp - Bounds guards around loops ----------===//
//
// The kernels of tests/kernels/group_guards.cl on every device against
// references computed here: guards on affine functions of the local ids
// that hold in every work-item of some groups (the copy VersionGroupGuards
// makes for them), in some work-items only (the guard's left and right
// edges, a negative offset) and in none (groups past the end), for two
// local sizes; a guard whose values reach the ends of the int range, or
// wrap past its top in some work-items (size_t arithmetic cut to int); a `&&`
// chain in two dimensions with `return`; barriers under a guard that holds
// in whole groups.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <climits>
#include <string>

using namespace weft_test;

namespace {

class GroupGuards : public DeviceTest {};

struct ColumnCase {
  int LX, N, Rows, Off;
  size_t Groups;
};

TEST_P(GroupGuards, Columns) {
  for (ColumnCase C : {ColumnCase{8, 64, 5, 0, 4},   // every group whole
                       ColumnCase{8, 53, 5, 0, 4},   // last groups partial
                       ColumnCase{8, 64, 3, -5, 5},  // first group partial
                       ColumnCase{4, 30, 7, 3, 5},   // smaller groups
                       ColumnCase{8, 16, 4, 40, 3}}) // no work-item inside
  {
    std::string Options = "-DLX=" + std::to_string(C.LX);
    SCOPED_TRACE(Options + " n " + std::to_string(C.N) + " off " +
                 std::to_string(C.Off));
    KernelRef K(makeKernel(kernelSource("group_guards.cl"), "guarded_columns",
                           Options));
    ASSERT_NE(K.get(), nullptr);
    std::vector<float> In(size_t(C.N) * C.Rows), Out(C.N, -1.0f);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = float(I % 13) - 6.0f;
    MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
    MemRef OutBuf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(int), &C.N));
    ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(int), &C.Rows));
    ASSERT_CL_OK(clSetKernelArg(K, 4, sizeof(int), &C.Off));
    size_t Local = C.LX, Global = C.LX * C.Groups;
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local,
                                        0, nullptr, nullptr));
    ASSERT_CL_OK(readInto(OutBuf, Out));
    std::vector<float> Ref(C.N, -1.0f);
    for (size_t G = 0; G < Global; ++G) {
      int Col = int(G % Local) * 2 + int(G / Local) * 2 * C.LX + C.Off;
      if (Col + 1 >= C.N || Col < 0)
        continue;
      float S0 = 0.0f, S1 = 0.0f;
      for (int R = 0; R < C.Rows; ++R) {
        S0 += In[size_t(R) * C.N + Col] * float(R + 1);
        S1 += In[size_t(R) * C.N + Col + 1] * float(2 * R + 1);
      }
      Ref[Col] = S0;
      Ref[Col + 1] = S1;
    }
    for (int I = 0; I < C.N; ++I)
      ASSERT_EQ(Out[I], Ref[I]) << "column " << I;
  }
}

// col = lx + off near the ends of the int range: the test of the whole
// group must neither wrap nor reject groups it should take.
TEST_P(GroupGuards, EndsOfIntRange) {
  struct Case {
    int N, Off;
  };
  for (Case C : {Case{INT_MAX, INT_MAX - 7},     // the top work-item fails
                 Case{INT_MAX, INT_MAX - 8},     // all pass, at the top
                 Case{INT_MIN + 4, INT_MIN},     // half pass, at the bottom
                 Case{INT_MIN + 8, INT_MIN}}) {  // all pass, at the bottom
    SCOPED_TRACE("n " + std::to_string(C.N) + " off " + std::to_string(C.Off));
    KernelRef K(makeKernel(kernelSource("group_guards.cl"), "guarded_offset",
                           "-DLX=8"));
    ASSERT_NE(K.get(), nullptr);
    const int Reps = 5;
    const size_t Local = 8, Global = 16;
    std::vector<cl_int> Out(Global, 99);
    MemRef OutBuf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(int), &C.N));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(int), &C.Off));
    ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(int), &Reps));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local,
                                        0, nullptr, nullptr));
    ASSERT_CL_OK(readInto(OutBuf, Out));
    for (size_t G = 0; G < Global; ++G) {
      long long Col = (long long)(G % Local) + C.Off;
      cl_int Ref = -1;
      if (Col < C.N) {
        Ref = 0;
        for (int R = 0; R < Reps; ++R)
          Ref += cl_int(G % Local) * 2 + R;
      }
      ASSERT_EQ(Out[G], Ref) << "work-item " << G;
    }
  }
}

// col = (int)(get_local_id(0) + off), a size_t sum cut to int: past
// INT_MAX it wraps to negative values, which the exact test of the whole
// group must not take for non-negative ones.
TEST_P(GroupGuards, WrapPastIntMax) {
  for (cl_uint Off : {cl_uint(INT_MAX) - 3, cl_uint(INT_MAX) - 7, 5u}) {
    SCOPED_TRACE("off " + std::to_string(Off));
    KernelRef K(makeKernel(kernelSource("group_guards.cl"), "guarded_wrap",
                           "-DLX=8"));
    ASSERT_NE(K.get(), nullptr);
    const int Reps = 3;
    const size_t Local = 8, Global = 16;
    std::vector<cl_int> Out(Global, 99);
    MemRef OutBuf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_uint), &Off));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(int), &Reps));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local,
                                        0, nullptr, nullptr));
    ASSERT_CL_OK(readInto(OutBuf, Out));
    for (size_t G = 0; G < Global; ++G) {
      uint64_t Sum = uint64_t(G % Local) + Off;
      int32_t Col = int32_t(uint32_t(Sum));
      cl_int Ref = -1;
      if (Col >= 0) {
        Ref = 0;
        for (int R = 0; R < Reps; ++R)
          Ref += cl_int(G % Local) * 2 + R;
      }
      ASSERT_EQ(Out[G], Ref) << "work-item " << G;
    }
  }
}

TEST_P(GroupGuards, BlockWithReturn) {
  const int W = 21, H = 10, Depth = 4;
  KernelRef K(makeKernel(kernelSource("group_guards.cl"), "guarded_block",
                         "-DLX=8"));
  ASSERT_NE(K.get(), nullptr);
  std::vector<cl_int> In(size_t(W) * H * Depth), Out(size_t(W) * H, -7);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = cl_int(I % 5) - 2;
  MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
  MemRef OutBuf(makeBufferFrom(Out));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(int), &W));
  ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(int), &H));
  ASSERT_CL_OK(clSetKernelArg(K, 4, sizeof(int), &Depth));
  // Groups of 8x4 over 24x12: the right and bottom groups are partial.
  size_t Local[2] = {8, 4}, Global[2] = {24, 12};
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, Local, 0,
                                      nullptr, nullptr));
  ASSERT_CL_OK(readInto(OutBuf, Out));
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X) {
      cl_int Acc = 0;
      for (int D = 0; D < Depth; ++D)
        Acc = Acc * 3 + In[(size_t(D) * H + Y) * W + X];
      ASSERT_EQ(Out[size_t(Y) * W + X], Acc) << "x " << X << " y " << Y;
    }
}

TEST_P(GroupGuards, TilesWithBarriers) {
  for (int LX : {8, 4}) {
    const int N = 5 * LX + 3, Rows = 6;
    std::string Options = "-DLX=" + std::to_string(LX);
    SCOPED_TRACE(Options);
    KernelRef K(makeKernel(kernelSource("group_guards.cl"), "guarded_tiles",
                           Options));
    ASSERT_NE(K.get(), nullptr);
    std::vector<float> In(size_t(N) * Rows), Out(N, 0.5f);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = float(I % 11) - 4.0f;
    MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
    MemRef OutBuf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(int), &N));
    ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(int), &Rows));
    ASSERT_CL_OK(clSetKernelArg(K, 4, sizeof(float) * LX, nullptr));
    size_t Local = LX, Global = size_t(LX) * 7;
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local,
                                        0, nullptr, nullptr));
    ASSERT_CL_OK(readInto(OutBuf, Out));
    const int Whole = N / LX * LX;
    for (int Col = 0; Col < N; ++Col) {
      float S = 0.0f;
      if (Col < Whole) {
        int Mirror = Col / LX * LX + LX - 1 - Col % LX;
        for (int R = 0; R < Rows; ++R)
          S += In[size_t(R) * N + Mirror] * float(R + 1);
      } else {
        for (int R = 0; R < Rows; ++R)
          S += In[size_t(R) * N + Col];
        S = -S;
      }
      ASSERT_EQ(Out[Col], S) << "column " << Col;
    }
  }
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(GroupGuards);
