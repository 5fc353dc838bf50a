//===- examples/MatrixMultiplication.cpp - naive C = A * B, 2D NDRange ----===//

#include "common/ExampleCommon.h"

#include <cmath>

using namespace example;

// One work-item per element of C; row-major N x N matrices.
static const char *const Source = R"CLC(
kernel void matmul(global float *C, global const float *A,
                   global const float *B, uint N) {
  size_t Col = get_global_id(0), Row = get_global_id(1);
  float Sum = 0.0f;
  for (uint K = 0; K < N; ++K)
    Sum += A[Row * N + K] * B[K * N + Col];
  C[Row * N + Col] = Sum;
}
)CLC";

static Result run(Session &S) {
  const cl_uint N = cl_uint(S.Opts->Size);
  const size_t Elements = size_t(N) * N;
  std::vector<float> A = randomFloats(Elements, 5, -1, 1);
  std::vector<float> B = randomFloats(Elements, 6, -1, 1);
  Mem ABuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                    Elements * sizeof(float), A.data()));
  Mem BBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                    Elements * sizeof(float), B.data()));
  Mem CBuf(S.buffer(CL_MEM_WRITE_ONLY, Elements * sizeof(float)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "matmul"));
  setArg(K, 0, CBuf.H);
  setArg(K, 1, ABuf.H);
  setArg(K, 2, BBuf.H);
  setArg(K, 3, N);

  // 8x8 work-groups when they tile the matrix; otherwise let the
  // implementation choose (global sizes stay divisible by local sizes).
  size_t Global[2] = {N, N}, Local[2] = {8, 8};
  const size_t *LocalPtr = N % 8 == 0 ? Local : nullptr;
  Result R;
  R.KernelMs = S.timeMedian([&] {
    check(clEnqueueNDRangeKernel(S.Queue, K, 2, nullptr, Global, LocalPtr, 0,
                                 nullptr, nullptr),
          "clEnqueueNDRangeKernel");
  });
  std::vector<float> C(Elements);
  check(clEnqueueReadBuffer(S.Queue, CBuf, CL_TRUE, 0, Elements * sizeof(float),
                            C.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  for (size_t Row = 0; Row < N; ++Row)
    for (size_t Col = 0; Col < N; ++Col) {
      double Want = 0, Magnitude = 0;
      for (size_t K = 0; K < N; ++K) {
        double Term = double(A[Row * N + K]) * B[K * N + Col];
        Want += Term;
        Magnitude += std::fabs(Term);
      }
      // Float accumulation error grows with N; bound it by the sum of |terms|.
      double Tolerance = 1e-6 * N * Magnitude + 1e-6;
      double Got = C[Row * N + Col];
      if (!(std::fabs(Got - Want) <= Tolerance)) {
        R.Detail = "C[" + std::to_string(Row) + "][" + std::to_string(Col) +
                   "] = " + std::to_string(Got) + ", expected " +
                   std::to_string(Want);
        return R;
      }
    }
  double Gflops = 2.0 * N * N * N / (R.KernelMs * 1e6);
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%.2f GFLOP/s", Gflops);
  R.Detail = Buf;
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "MatrixMultiplication", 256,
                    "matrix order N (N x N matrices)", run);
}
