//===- examples/MersenneTwister.cpp - MT19937 streams, Box-Muller normals
//--===//
//
// Every work-item runs its own MT19937 generator (624-word state in private
// memory, seeded with init_genrand(Seed + global id), the seeding of the
// reference implementation and of std::mt19937) and turns each pair of
// 32-bit outputs into two standard normal numbers with the Box-Muller
// transform. The host checks every number against std::mt19937.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <cmath>
#include <random>

using namespace example;

static constexpr cl_uint PerItem = 256, Seed = 5489;

static const char *const Source = R"CLC(
#define MT_N 624
#define MT_M 397
kernel void mersenneTwister(global float2 *Out, uint Seed, uint PerItem) {
  uint Mt[MT_N];
  size_t Id = get_global_id(0);
  Mt[0] = Seed + (uint)Id;
  for (uint I = 1; I < MT_N; ++I)
    Mt[I] = 1812433253u * (Mt[I - 1] ^ (Mt[I - 1] >> 30)) + I;
  uint Index = MT_N;
  global float2 *Dst = Out + Id * (PerItem / 2);
  for (uint K = 0; K < PerItem / 2; ++K) {
    uint R[2];
    for (int J = 0; J < 2; ++J) {
      if (Index == MT_N) {
        for (uint I = 0; I < MT_N; ++I) {
          uint Y = (Mt[I] & 0x80000000u) | (Mt[(I + 1) % MT_N] & 0x7fffffffu);
          Mt[I] = Mt[(I + MT_M) % MT_N] ^ (Y >> 1) ^
                  ((Y & 1u) ? 0x9908b0dfu : 0u);
        }
        Index = 0;
      }
      uint Y = Mt[Index++];
      Y ^= Y >> 11;
      Y ^= (Y << 7) & 0x9d2c5680u;
      Y ^= (Y << 15) & 0xefc60000u;
      Y ^= Y >> 18;
      R[J] = Y;
    }
    // U1 in (0, 1] keeps the logarithm finite.
    float U1 = ((float)R[0] + 1.0f) * 0x1.0p-32f;
    float Theta = 6.28318531f * ((float)R[1] * 0x1.0p-32f);
    float Radius = sqrt(-2.0f * log(U1));
    Dst[K] = (float2)(Radius * cos(Theta), Radius * sin(Theta));
  }
}
)CLC";

static Result run(Session &S) {
  const size_t Items = S.Opts->Size / PerItem;
  if (Items == 0)
    throw Error("--size must be at least 256");
  const size_t Count = Items * PerItem;
  Mem OutBuf(S.buffer(CL_MEM_WRITE_ONLY, Count * sizeof(float)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "mersenneTwister"));
  setArg(K, 0, OutBuf.H);
  setArg(K, 1, Seed);
  setArg(K, 2, PerItem);

  Result R;
  // Each work-item carries 2.5 KiB of state: small work-groups keep an
  // implementation that lays private arrays out per work-group (pocl on
  // its stack) within bounds.
  const size_t Local = Items % 64 == 0 ? 64 : 0;
  R.KernelMs = S.timeMedian([&] { enqueue1D(S, K, Items, Local); });
  std::vector<float> Out(Count);
  readBuffer(S, OutBuf, Out);
  for (size_t Item = 0; Item < Items; ++Item) {
    std::mt19937 Gen(cl_uint(Seed + Item));
    for (size_t K = 0; K < PerItem; K += 2) {
      cl_uint R0 = cl_uint(Gen()), R1 = cl_uint(Gen());
      // The same float rounding of the uniforms as the kernel; the rest in
      // double.
      float U1 = (float(R0) + 1.0f) * 0x1.0p-32f;
      float Theta = 6.28318531f * (float(R1) * 0x1.0p-32f);
      double Radius = std::sqrt(-2.0 * std::log(double(U1)));
      double Want[2] = {Radius * std::cos(double(Theta)),
                        Radius * std::sin(double(Theta))};
      for (int J = 0; J < 2; ++J) {
        size_t At = Item * PerItem + K + J;
        if (!(std::fabs(Out[At] - Want[J]) <=
              2e-5 + 2e-5 * std::fabs(Want[J]))) {
          R.Detail = mismatch("Out", At, Out[At], Want[J]);
          return R;
        }
      }
    }
  }
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%.1f M numbers/s", Count / (R.KernelMs * 1e3));
  R.Detail = Buf;
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "MersenneTwister", 1 << 20,
                    "random numbers generated (256 per work-item)", run);
}
