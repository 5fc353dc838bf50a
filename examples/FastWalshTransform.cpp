//===- examples/FastWalshTransform.cpp - Walsh-Hadamard transform in place
//-===//
//
// The unnormalized Walsh-Hadamard transform (natural order) of Size = 2^L
// values: L butterfly passes; pass h replaces every pair (i, i + h), i in
// the lower half of a block of 2h, by (x_i + x_{i+h}, x_i - x_{i+h}). One
// launch per pass, one work-item per butterfly.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <cmath>

using namespace example;

static const char *const Source = R"CLC(
kernel void walshPass(global float *X, uint Half) {
  uint I = get_global_id(0);
  uint Low = (I / Half) * 2 * Half + I % Half;
  float A = X[Low], B = X[Low + Half];
  X[Low] = A + B;
  X[Low + Half] = A - B;
}
)CLC";

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  if (N < 2 || (N & (N - 1)))
    throw Error("--size must be a power of two of at least 2");
  std::vector<float> Input = randomFloats(N, 61, -1, 1);
  Mem XBuf(S.buffer(CL_MEM_READ_WRITE, N * sizeof(float)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "walshPass"));
  setArg(K, 0, XBuf.H);

  Result R;
  R.KernelMs = S.timeMedian(
      [&] {
        for (cl_uint Half = 1; Half < N; Half *= 2) {
          setArg(K, 1, Half);
          enqueue1D(S, K, N / 2, 0);
        }
      },
      [&] { writeBuffer(S, XBuf, Input); });
  std::vector<float> X(N);
  readBuffer(S, XBuf, X);

  std::vector<double> Want(Input.begin(), Input.end());
  unsigned Log2 = 0;
  for (size_t Half = 1; Half < N; Half *= 2, ++Log2)
    for (size_t Block = 0; Block < N; Block += 2 * Half)
      for (size_t I = Block; I < Block + Half; ++I) {
        double A = Want[I], B = Want[I + Half];
        Want[I] = A + B;
        Want[I + Half] = A - B;
      }
  // Outputs grow like sqrt(N); each of the L passes rounds once.
  double Tolerance = 1e-6 * Log2 * std::sqrt(double(N)) + 1e-6;
  for (size_t I = 0; I < N; ++I)
    if (!(std::fabs(X[I] - Want[I]) <= Tolerance)) {
      R.Detail = mismatch("X", I, X[I], Want[I]);
      return R;
    }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "FastWalshTransform", 1 << 20,
                    "number of values (a power of two)", run);
}
