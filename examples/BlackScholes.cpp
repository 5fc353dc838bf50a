//===- examples/BlackScholes.cpp - European option prices -----------------===//
//
// Call and put prices of the Black-Scholes model; the kernel exercises the
// exp, log and sqrt builtins and a polynomial approximation of the
// cumulative normal distribution.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <cmath>

using namespace example;

static const char *const Source = R"CLC(
// Abramowitz & Stegun 26.2.17, absolute error below 7.5e-8.
float cnd(float D) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f,
              A4 = -1.821255978f, A5 = 1.330274429f;
  float K = 1.0f / (1.0f + 0.2316419f * fabs(D));
  float Poly = K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5))));
  float W = 0.39894228040143267794f * exp(-0.5f * D * D) * Poly;
  return D > 0.0f ? 1.0f - W : W;
}

kernel void black_scholes(global float *Call, global float *Put,
                          global const float *Spot, global const float *Strike,
                          global const float *Years, float Rate,
                          float Volatility) {
  size_t I = get_global_id(0);
  float S = Spot[I], X = Strike[I], T = Years[I];
  float SqrtT = sqrt(T);
  float D1 = (log(S / X) + (Rate + 0.5f * Volatility * Volatility) * T) /
             (Volatility * SqrtT);
  float D2 = D1 - Volatility * SqrtT;
  float Discount = exp(-Rate * T);
  Call[I] = S * cnd(D1) - X * Discount * cnd(D2);
  Put[I] = X * Discount * cnd(-D2) - S * cnd(-D1);
}
)CLC";

// The host reference in double precision with the exact normal CDF.
static double normalCdf(double D) { return 0.5 * std::erfc(-D / std::sqrt(2.0)); }

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  const float Rate = 0.02f, Volatility = 0.30f;
  std::vector<float> Spot = randomFloats(N, 7, 5, 30);
  std::vector<float> Strike = randomFloats(N, 8, 1, 100);
  std::vector<float> Years = randomFloats(N, 9, 0.25f, 10);
  Mem SpotBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                       N * sizeof(float), Spot.data()));
  Mem StrikeBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                         N * sizeof(float), Strike.data()));
  Mem YearsBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                        N * sizeof(float), Years.data()));
  Mem CallBuf(S.buffer(CL_MEM_WRITE_ONLY, N * sizeof(float)));
  Mem PutBuf(S.buffer(CL_MEM_WRITE_ONLY, N * sizeof(float)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "black_scholes"));
  setArg(K, 0, CallBuf.H);
  setArg(K, 1, PutBuf.H);
  setArg(K, 2, SpotBuf.H);
  setArg(K, 3, StrikeBuf.H);
  setArg(K, 4, YearsBuf.H);
  setArg(K, 5, Rate);
  setArg(K, 6, Volatility);

  Result R;
  R.KernelMs = S.timeMedian([&] {
    check(clEnqueueNDRangeKernel(S.Queue, K, 1, nullptr, &N, nullptr, 0,
                                 nullptr, nullptr),
          "clEnqueueNDRangeKernel");
  });
  std::vector<float> Call(N), Put(N);
  check(clEnqueueReadBuffer(S.Queue, CallBuf, CL_TRUE, 0, N * sizeof(float),
                            Call.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  check(clEnqueueReadBuffer(S.Queue, PutBuf, CL_TRUE, 0, N * sizeof(float),
                            Put.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  double MaxError = 0;
  for (size_t I = 0; I < N; ++I) {
    double Sd = Spot[I], X = Strike[I], T = Years[I];
    double D1 = (std::log(Sd / X) + (Rate + 0.5 * double(Volatility) *
                                                Volatility) * T) /
                (Volatility * std::sqrt(T));
    double D2 = D1 - Volatility * std::sqrt(T);
    double Discount = std::exp(-Rate * T);
    double WantCall = Sd * normalCdf(D1) - X * Discount * normalCdf(D2);
    double WantPut = X * Discount * normalCdf(-D2) - Sd * normalCdf(-D1);
    // Single precision and the CDF approximation: about 1e-5 of the prices
    // involved; 1e-4 leaves room for the builtins' allowed ULP errors.
    double Tolerance = 1e-4 * (Sd + X);
    double ErrCall = std::fabs(Call[I] - WantCall);
    double ErrPut = std::fabs(Put[I] - WantPut);
    MaxError = std::max(MaxError, std::max(ErrCall, ErrPut) / (Sd + X));
    if (!(ErrCall <= Tolerance && ErrPut <= Tolerance)) {
      R.Detail = "option " + std::to_string(I) + ": call " +
                 std::to_string(Call[I]) + " (expected " +
                 std::to_string(WantCall) + "), put " + std::to_string(Put[I]) +
                 " (expected " + std::to_string(WantPut) + ")";
      return R;
    }
  }
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "max relative error %.1e", MaxError);
  R.Detail = Buf;
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "BlackScholes", 1 << 20, "number of options",
                    run);
}
