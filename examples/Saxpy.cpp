//===- examples/Saxpy.cpp - Y = a * X + Y ---------------------------------===//

#include "common/ExampleCommon.h"

#include <cmath>

using namespace example;

static const char *const Source = R"CLC(
kernel void saxpy(global float *Y, global const float *X, float A) {
  size_t I = get_global_id(0);
  Y[I] = A * X[I] + Y[I];
}
)CLC";

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  const float A = 1.75f;
  std::vector<float> X = randomFloats(N, 3, -10, 10);
  std::vector<float> Y0 = randomFloats(N, 4, -10, 10);
  Mem XBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                    N * sizeof(float), X.data()));
  Mem YBuf(S.buffer(CL_MEM_READ_WRITE, N * sizeof(float)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "saxpy"));
  setArg(K, 0, YBuf.H);
  setArg(K, 1, XBuf.H);
  setArg(K, 2, A);

  // Y is updated in place, so every launch starts from a fresh copy.
  Result R;
  R.KernelMs = S.timeMedian(
      [&] {
        check(clEnqueueNDRangeKernel(S.Queue, K, 1, nullptr, &N, nullptr, 0,
                                     nullptr, nullptr),
              "clEnqueueNDRangeKernel");
      },
      [&] {
        check(clEnqueueWriteBuffer(S.Queue, YBuf, CL_TRUE, 0,
                                   N * sizeof(float), Y0.data(), 0, nullptr,
                                   nullptr),
              "clEnqueueWriteBuffer");
      });
  std::vector<float> Y(N);
  check(clEnqueueReadBuffer(S.Queue, YBuf, CL_TRUE, 0, N * sizeof(float),
                            Y.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  for (size_t I = 0; I < N; ++I) {
    double Want = double(A) * X[I] + Y0[I];
    // A fused multiply-add on the device is allowed.
    double Tolerance = 1e-6 * (std::fabs(A * X[I]) + std::fabs(Y0[I])) + 1e-30;
    if (!(std::fabs(Y[I] - Want) <= Tolerance)) {
      R.Detail = "Y[" + std::to_string(I) + "] = " + std::to_string(Y[I]) +
                 ", expected " + std::to_string(Want);
      return R;
    }
  }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "Saxpy", 1 << 20, "number of elements", run);
}
