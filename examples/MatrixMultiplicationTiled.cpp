//===- examples/MatrixMultiplicationTiled.cpp - C = A * B through local tiles
//===//
//
// The same product as MatrixMultiplication, blocked for reuse: a 16x16
// work-group computes a 16x16 tile of C, stepping over K in 16-wide slabs;
// for each slab the group loads one tile of A and one of B into local
// memory (one element per work-item), waits, and accumulates from there,
// so every element of A and B is read from global memory N / 16 times
// instead of N times.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <cmath>

using namespace example;

static constexpr size_t Tile = 16;

static const char *const Source = R"CLC(
#define TILE 16
kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmulTiled(global float *C, global const float *A,
                 global const float *B, uint N) {
  local float TileA[TILE][TILE];
  local float TileB[TILE][TILE];
  uint X = get_local_id(0), Y = get_local_id(1);
  size_t Col = get_global_id(0), Row = get_global_id(1);
  float Sum = 0.0f;
  for (uint K0 = 0; K0 < N; K0 += TILE) {
    TileA[Y][X] = A[Row * N + K0 + X];
    TileB[Y][X] = B[(K0 + Y) * N + Col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint K = 0; K < TILE; ++K)
      Sum += TileA[Y][K] * TileB[K][X];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[Row * N + Col] = Sum;
}
)CLC";

static Result run(Session &S) {
  const cl_uint N = cl_uint(S.Opts->Size);
  if (N % Tile)
    throw Error("--size must be a multiple of 16");
  const size_t Elements = size_t(N) * N;
  std::vector<float> A = randomFloats(Elements, 5, -1, 1);
  std::vector<float> B = randomFloats(Elements, 6, -1, 1);
  Mem ABuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                    Elements * sizeof(float), A.data()));
  Mem BBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                    Elements * sizeof(float), B.data()));
  Mem CBuf(S.buffer(CL_MEM_WRITE_ONLY, Elements * sizeof(float)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "matmulTiled"));
  setArg(K, 0, CBuf.H);
  setArg(K, 1, ABuf.H);
  setArg(K, 2, BBuf.H);
  setArg(K, 3, N);

  size_t Global[2] = {N, N}, Local[2] = {Tile, Tile};
  Result R;
  R.KernelMs = S.timeMedian([&] { enqueue(S, K, 2, Global, Local); });
  std::vector<float> C(Elements);
  readBuffer(S, CBuf, C);
  for (size_t Row = 0; Row < N; ++Row)
    for (size_t Col = 0; Col < N; ++Col) {
      double Want = 0, Magnitude = 0;
      for (size_t K = 0; K < N; ++K) {
        double Term = double(A[Row * N + K]) * B[K * N + Col];
        Want += Term;
        Magnitude += std::fabs(Term);
      }
      double Got = C[Row * N + Col];
      if (!(std::fabs(Got - Want) <= 1e-6 * N * Magnitude + 1e-6)) {
        R.Detail = mismatch("C", Row * N + Col, Got, Want);
        return R;
      }
    }
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%.2f GFLOP/s",
           2.0 * N * N * N / (R.KernelMs * 1e6));
  R.Detail = Buf;
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "MatrixMultiplicationTiled", 256,
                    "matrix order N (a multiple of 16)", run);
}
