//===- tests/api/LocalIdDivisionTest.cpp - tid % D, tid / D, end to end ---===//
//
// The kernels of tests/kernels/local_id_divisions.cl on every device
// against references computed here from each work-item's local ids:
// tid = x + W * y divided by D1 and D2 for local sizes where the
// compiler may rewrite the divisions into the ids (W == Lx, D a multiple
// of or equal to Lx), where it must not (Lx = 9 > W), with a smaller last
// group (OpenCL 3.0 non-uniform work-groups), where x exceeds D (x + 16y
// by 8: the division stays on x alone), and tiles copied through local
// memory at [tid / D1][tid % D1] and CLBlast's double4 B tile (two vectors
// a work-item, stepping by two across work-items: WidenWorkItemLoops's
// interleaved groups).
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <string>

using namespace weft_test;

namespace {

class LocalIdDivisions : public DeviceTest {
protected:
  /// Runs strided_tile on T4 vectors (float4 or double4) and checks every
  /// lane of the rotated sums against the host.
  template <typename T> void checkStridedTile(cl_kernel K) {
    // 3 groups of 16 columns, 3 tiles of 32 rows; rows one vector longer
    // than the columns used. Small integers keep the sums exact.
    const size_t Groups = 3, Local[2] = {16, 8}, Global[2] = {16 * Groups, 8};
    const cl_int Rows = 96, Ld = 16 * Groups + 1, Lanes = 4;
    std::vector<T> In(size_t(Rows) * Ld * Lanes);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = T(int(I * 7 % 61) - 30);
    std::vector<T> Out(Groups * 512 * Lanes, T(-99));
    MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
    MemRef OutBuf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_int), &Rows));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_int), &Ld));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, Local, 0,
                                        nullptr, nullptr));
    ASSERT_CL_OK(readInto(OutBuf, Out));
    for (size_t G = 0; G < Groups; ++G)
      for (size_t Tid = 0; Tid < 512; ++Tid)
        for (int L = 0; L < Lanes; ++L) {
          T Want = 0;
          for (int Kwg = 0; Kwg < Rows; Kwg += 32) {
            size_t E = (Tid + 5 + Kwg) % 512, Row = Kwg + E / 16, Col = E % 16;
            Want += In[(Row * Ld + G * 16 + Col) * Lanes + L];
          }
          ASSERT_EQ(Out[(G * 512 + Tid) * Lanes + L], Want)
              << "group " << G << " vector " << Tid << " lane " << L;
        }
  }
};

struct SplitCase {
  int W, D1, D2;
  size_t Local[2], Global[2];
};

TEST_P(LocalIdDivisions, SplitLinearId) {
  for (SplitCase C : {SplitCase{8, 8, 16, {8, 16}, {16, 32}},
                      SplitCase{8, 8, 16, {9, 4}, {18, 8}},
                      SplitCase{8, 4, 3, {8, 4}, {16, 8}},
                      SplitCase{4, 8, 2, {4, 6}, {8, 12}},
                      SplitCase{8, 8, 16, {8, 4}, {20, 6}},
                      SplitCase{16, 8, 32, {16, 8}, {32, 16}}}) {
    std::string Options = "-cl-std=CL3.0 -DTILE=1 -DW=" + std::to_string(C.W) +
                          " -DD1=" + std::to_string(C.D1) +
                          " -DD2=" + std::to_string(C.D2);
    SCOPED_TRACE(Options + " local " + std::to_string(C.Local[0]) + "x" +
                 std::to_string(C.Local[1]) + " global " +
                 std::to_string(C.Global[0]) + "x" +
                 std::to_string(C.Global[1]));
    KernelRef K(makeKernel(kernelSource("local_id_divisions.cl"),
                           "split_linear_id", Options));
    ASSERT_NE(K.get(), nullptr);
    const size_t Items = C.Global[0] * C.Global[1];
    std::vector<cl_int> Out(4 * Items, -99);
    MemRef Buf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                          Out.size() * sizeof(cl_int), Out.data()));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, C.Global, C.Local,
                                        0, nullptr, nullptr));
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Buf, CL_TRUE, 0,
                                     Out.size() * sizeof(cl_int), Out.data(), 0,
                                     nullptr, nullptr));
    for (size_t GY = 0; GY < C.Global[1]; ++GY)
      for (size_t GX = 0; GX < C.Global[0]; ++GX) {
        int Tid = int(GX % C.Local[0]) + C.W * int(GY % C.Local[1]);
        size_t G = GY * C.Global[0] + GX;
        ASSERT_EQ(Out[4 * G + 0], Tid % C.D1) << "x " << GX << " y " << GY;
        ASSERT_EQ(Out[4 * G + 1], Tid / C.D1) << "x " << GX << " y " << GY;
        ASSERT_EQ(Out[4 * G + 2], Tid % C.D2) << "x " << GX << " y " << GY;
        ASSERT_EQ(Out[4 * G + 3], Tid / C.D2) << "x " << GX << " y " << GY;
      }
  }
}

TEST_P(LocalIdDivisions, ReverseTile) {
  // W == Lx: tid numbers the group's work-items 0..TILE-1.
  for (int D1 : {8, 4, 16}) {
    const size_t Local[2] = {8, 4}, Global[2] = {32, 8};
    const int Tile = 32;
    std::string Options = "-DW=8 -DTILE=32 -DD2=1 -DD1=" + std::to_string(D1);
    SCOPED_TRACE(Options);
    KernelRef K(makeKernel(kernelSource("local_id_divisions.cl"),
                           "reverse_tile", Options));
    ASSERT_NE(K.get(), nullptr);
    const size_t N = Global[0] * Global[1];
    std::vector<float> In(N), Out(N, -1.0f);
    for (size_t I = 0; I < N; ++I)
      In[I] = float(I) * 0.5f;
    MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            N * sizeof(float), In.data()));
    MemRef OutBuf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             N * sizeof(float), Out.data()));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, Local, 0,
                                        nullptr, nullptr));
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                     N * sizeof(float), Out.data(), 0, nullptr,
                                     nullptr));
    for (size_t I = 0; I < N; ++I) {
      size_t Base = I / Tile * Tile;
      ASSERT_EQ(Out[I], In[Base + Tile - 1 - I % Tile]) << "element " << I;
    }
  }
}

TEST_P(LocalIdDivisions, StridedVectorTile) {
  cl_device_fp_config Fp64 = 0;
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(Fp64),
                               &Fp64, nullptr));
  for (bool Double : {false, true}) {
    if (Double && !Fp64)
      continue;
    std::string Options =
        std::string(Double ? "-DVEC=double4" : "-DVEC=float4") +
        " -DD1=1 -DD2=1 -DW=1 -DTILE=1";
    SCOPED_TRACE(Options);
    KernelRef K(makeKernel(kernelSource("local_id_divisions.cl"),
                           "strided_tile", Options));
    ASSERT_NE(K.get(), nullptr);
    if (Double)
      checkStridedTile<double>(K);
    else
      checkStridedTile<float>(K);
  }
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(LocalIdDivisions);
