//===- tests/api/TilePrefetchTest.cpp - tiled copies with prefetch --------===//
//
// The kernel of tests/kernels/tile_prefetch.cl on every device against a
// reference computed here: column sums of A taken tile by tile through
// local memory, the tiles in order, backwards and permuted, so that the
// copy of each tile is a work-item loop in a loop around barriers, the
// shape PrefetchWorkItemLoads prefetches for (on AMD Zen, or anywhere
// under WEFT_PREFETCH=1 as api.TilePrefetch.forced runs it, WEFT_DEBUG=
// compile logs "prefetches before work-item loop" for every variant on the
// pthread device). The prefetches of the last trip point past the end of A: they
// must neither fault nor change a result. Small integers keep the sums
// exact in any order.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <string>

using namespace weft_test;

namespace {

class TilePrefetch : public DeviceTest {};

struct Order {
  const char *Options;
  int Step;
  bool Permute;
};

TEST_P(TilePrefetch, ColumnSumsThroughLocalTiles) {
  const int LX = 8, LY = 4;
  for (int TK : {8, 16})
    for (Order O :
         {Order{"-DSTEP=1", 1, false}, Order{"-DSTEP=-1", -1, false},
          Order{"-DSTEP=1 -DPERMUTE", 1, true}, Order{"-DSTEP=2", 2, false}}) {
      std::string Options =
          std::string(O.Options) + " -DTK=" + std::to_string(TK);
      SCOPED_TRACE(Options);
      KernelRef K(
          makeKernel(kernelSource("tile_prefetch.cl"), "tile_sums", Options));
      ASSERT_NE(K.get(), nullptr);
      // 8 tiles of TK rows; 3 groups of 8 float4 columns, a row 1 float4
      // longer than the columns used (Ld4 = 25).
      const cl_int Rows = 8 * TK, Ld4 = 3 * LX + 1;
      const size_t Groups = 3, Cols = Groups * LX;
      std::vector<float> A(size_t(Rows) * Ld4 * 4);
      for (size_t I = 0; I < A.size(); ++I)
        A[I] = float(int(I * 7 % 13) - 6);
      std::vector<float> Out(Cols * LY * 4, -99.0f);
      MemRef ABuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             A.size() * sizeof(float), A.data()));
      MemRef OutBuf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               Out.size() * sizeof(float), Out.data()));
      ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_int), &Rows));
      ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_int), &Ld4));
      ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &ABuf));
      ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_mem), &OutBuf));
      const size_t Local[2] = {size_t(LX), size_t(LY)},
                   Global[2] = {Cols, size_t(LY)};
      ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, Local,
                                          0, nullptr, nullptr));
      ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                       Out.size() * sizeof(float), Out.data(),
                                       0, nullptr, nullptr));
      // The tiles each order visits (a tile visited twice counts twice).
      const int Tiles = Rows / TK;
      std::vector<int> Visited;
      if (O.Step > 0)
        for (int T = 0; T < Tiles; T += O.Step)
          Visited.push_back(O.Permute ? (T * 5) & (Tiles - 1) : T);
      else
        for (int T = Tiles - 1; T >= 0; T += O.Step)
          Visited.push_back(T);
      for (size_t Col = 0; Col < Cols; ++Col)
        for (int Y = 0; Y < LY; ++Y)
          for (int C = 0; C < 4; ++C) {
            float Sum = 0.0f;
            for (int T : Visited)
              for (int R = 0; R < TK; ++R) {
                int Row = T * TK + R;
                Sum += A[(size_t(Row) * Ld4 + Col) * 4 + C] *
                       float(Y + 1 + Row % 3);
              }
            ASSERT_EQ(Out[(Col * LY + Y) * 4 + C], Sum)
                << "column " << Col << " y " << Y << " component " << C;
          }
    }
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(TilePrefetch);
