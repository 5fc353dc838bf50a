//===- examples/BinomialOption.cpp - European calls on a binomial tree ----===//
//
// Cox-Ross-Rubinstein pricing of European call options: one work-group per
// option, one work-item per leaf of a Steps-step tree. The leaves hold the
// payoff at expiry; each backward step replaces node I by the discounted
// expectation of nodes I and I+1, in local memory, with barriers between
// the steps.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <cmath>

using namespace example;

static constexpr unsigned Steps = 255; // leaves: Steps + 1 = work-group size

static const char *const Source = R"CLC(
kernel void binomialOption(global const float *Spot, global const float *Strike,
                           global const float *Expiry, float Rate,
                           float Volatility, global float *Price,
                           local float *Values) {
  const int Steps = get_local_size(0) - 1;
  size_t Option = get_group_id(0);
  int I = get_local_id(0);
  float Dt = Expiry[Option] / Steps;
  float VolDt = Volatility * sqrt(Dt);
  float Up = exp(VolDt), Down = 1.0f / Up;
  float Growth = exp(Rate * Dt);
  float PUp = (Growth - Down) / (Up - Down);
  float PUpDisc = PUp / Growth, PDownDisc = (1.0f - PUp) / Growth;
  // Leaf I: Steps - I down moves and I up moves.
  float AtExpiry = Spot[Option] * exp(VolDt * (float)(2 * I - Steps));
  Values[I] = fmax(AtExpiry - Strike[Option], 0.0f);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int Step = Steps; Step > 0; --Step) {
    float Value = 0.0f;
    if (I < Step)
      Value = PUpDisc * Values[I + 1] + PDownDisc * Values[I];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (I < Step)
      Values[I] = Value;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (I == 0)
    Price[Option] = Values[0];
}
)CLC";

static double hostPrice(double Spot, double Strike, double Expiry, double Rate,
                        double Volatility) {
  double Dt = Expiry / Steps, VolDt = Volatility * std::sqrt(Dt);
  double Up = std::exp(VolDt), Down = 1 / Up, Growth = std::exp(Rate * Dt);
  double PUp = (Growth - Down) / (Up - Down);
  std::vector<double> V(Steps + 1);
  for (unsigned I = 0; I <= Steps; ++I)
    V[I] = std::fmax(Spot * std::exp(VolDt * (2.0 * I - Steps)) - Strike, 0);
  for (unsigned Step = Steps; Step > 0; --Step)
    for (unsigned I = 0; I < Step; ++I)
      V[I] = (PUp * V[I + 1] + (1 - PUp) * V[I]) / Growth;
  return V[0];
}

static Result run(Session &S) {
  const size_t Options = S.Opts->Size;
  const float Rate = 0.02f, Volatility = 0.30f;
  std::vector<float> Spot = randomFloats(Options, 21, 5, 30);
  std::vector<float> Strike = randomFloats(Options, 22, 5, 40);
  std::vector<float> Expiry = randomFloats(Options, 23, 0.25f, 10);
  Mem SpotBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                       Options * sizeof(float), Spot.data()));
  Mem StrikeBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                         Options * sizeof(float), Strike.data()));
  Mem ExpiryBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                         Options * sizeof(float), Expiry.data()));
  Mem PriceBuf(S.buffer(CL_MEM_WRITE_ONLY, Options * sizeof(float)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "binomialOption"));
  setArg(K, 0, SpotBuf.H);
  setArg(K, 1, StrikeBuf.H);
  setArg(K, 2, ExpiryBuf.H);
  setArg(K, 3, Rate);
  setArg(K, 4, Volatility);
  setArg(K, 5, PriceBuf.H);
  setLocalArg(K, 6, (Steps + 1) * sizeof(float));

  Result R;
  R.KernelMs =
      S.timeMedian([&] { enqueue1D(S, K, Options * (Steps + 1), Steps + 1); });
  std::vector<float> Price(Options);
  readBuffer(S, PriceBuf, Price);
  for (size_t I = 0; I < Options; ++I) {
    double Want = hostPrice(Spot[I], Strike[I], Expiry[I], Rate, Volatility);
    // 255 rounded float steps plus exp() of up to Steps * VolDt.
    if (!(std::fabs(Price[I] - Want) <= 1e-3 * Want + 1e-3)) {
      R.Detail = mismatch("Price", I, Price[I], Want);
      return R;
    }
  }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "BinomialOption", 512,
                    "number of options (one work-group of 256 each)", run);
}
