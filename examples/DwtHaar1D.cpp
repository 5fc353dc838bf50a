//===- examples/DwtHaar1D.cpp - full one-dimensional Haar decomposition ---===//
//
// The orthonormal Haar wavelet transform of a signal of Size = 2^L values,
// taken all the way down: every level replaces the approximation a by
//   a'[i] = (a[2i] + a[2i+1]) / sqrt(2),  d[i] = (a[2i] - a[2i+1]) / sqrt(2).
// Output layout: [a_L, d_L, d_{L-1} ..., d_1], d_j holding Size / 2^j values
// from index Size / 2^j.
//
// A work-group of W work-items takes 2W consecutive values and computes
// log2(2W) levels in local memory, barriers between levels, writing the
// details straight to their place and its one remaining approximation to a
// scratch array; the host repeats on that array (Size / 2W values) until a
// single value is left.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <cmath>

using namespace example;

static constexpr size_t GroupSize = 256;

static const char *const Source = R"CLC(
kernel void haarLevels(global const float *Signal, uint Length,
                       global float *Coefficients, global float *Approx,
                       local float *A) {
  const float InvSqrt2 = 0.70710678118654752f;
  uint I = get_local_id(0), W = get_local_size(0);
  size_t Group = get_group_id(0);
  float X0 = Signal[Group * 2 * W + 2 * I];
  float X1 = Signal[Group * 2 * W + 2 * I + 1];
  // Level 1 of this pass: details of this group start at Length / 2.
  uint Level = Length / 2;
  Coefficients[Level + Group * W + I] = (X0 - X1) * InvSqrt2;
  A[I] = (X0 + X1) * InvSqrt2;
  for (uint Active = W / 2; Active > 0; Active /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    Level /= 2;
    float Sum = 0.0f;
    if (I < Active) {
      float Y0 = A[2 * I], Y1 = A[2 * I + 1];
      Coefficients[Level + Group * Active + I] = (Y0 - Y1) * InvSqrt2;
      Sum = (Y0 + Y1) * InvSqrt2;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (I < Active)
      A[I] = Sum;
  }
  if (I == 0)
    Approx[Group] = A[0];
}
)CLC";

static void hostHaar(std::vector<double> A, std::vector<double> &Out) {
  Out.assign(A.size(), 0);
  const double InvSqrt2 = 1 / std::sqrt(2.0);
  for (size_t Length = A.size(); Length > 1; Length /= 2) {
    for (size_t I = 0; I < Length / 2; ++I) {
      Out[Length / 2 + I] = (A[2 * I] - A[2 * I + 1]) * InvSqrt2;
      A[I] = (A[2 * I] + A[2 * I + 1]) * InvSqrt2;
    }
  }
  Out[0] = A[0];
}

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  if (N < 2 || (N & (N - 1)))
    throw Error("--size must be a power of two of at least 2");
  std::vector<float> Signal = randomFloats(N, 51, -1, 1);
  Mem SignalBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                         N * sizeof(float), Signal.data()));
  Mem CoeffBuf(S.buffer(CL_MEM_READ_WRITE, N * sizeof(float)));
  // Two approximation arrays used alternately as input and output.
  Mem Approx[2] = {Mem(S.buffer(CL_MEM_READ_WRITE, N / 2 * sizeof(float))),
                   Mem(S.buffer(CL_MEM_READ_WRITE, N / 2 * sizeof(float)))};
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "haarLevels"));
  setArg(K, 2, CoeffBuf.H);

  auto Transform = [&] {
    cl_mem In = SignalBuf;
    unsigned Out = 0;
    for (size_t Length = N; Length > 1;) {
      size_t W = std::min(GroupSize, Length / 2);
      setArg(K, 0, In);
      setArg(K, 1, cl_uint(Length));
      // The final pass leaves its approximation in Coefficients[0].
      cl_mem Dest = Length == 2 * W ? cl_mem(CoeffBuf) : cl_mem(Approx[Out]);
      setArg(K, 3, Dest);
      setLocalArg(K, 4, W * sizeof(float));
      enqueue1D(S, K, Length / 2, W);
      In = Approx[Out];
      Out ^= 1;
      Length /= 2 * W;
    }
  };
  Result R;
  R.KernelMs = S.timeMedian(Transform);
  std::vector<float> Coefficients(N);
  readBuffer(S, CoeffBuf, Coefficients);
  std::vector<double> Want;
  hostHaar(std::vector<double>(Signal.begin(), Signal.end()), Want);
  // Level j sums 2^j inputs of magnitude <= 1 with 2^-j/2 weights.
  double Tolerance = 1e-5 * std::sqrt(double(N)) + 1e-5;
  for (size_t I = 0; I < N; ++I)
    if (!(std::fabs(Coefficients[I] - Want[I]) <= Tolerance)) {
      R.Detail = mismatch("Coefficients", I, Coefficients[I], Want[I]);
      return R;
    }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "DwtHaar1D", 1 << 20,
                    "signal length (a power of two)", run);
}
