//===- examples/NBody.cpp - one all-pairs gravitational time step ---------===//
//
// Size bodies, each a float4 (x, y, z, mass). One work-item per body sums
// the softened accelerations from all bodies, then advances its velocity
// and position by one time step. The bodies are read in tiles of the
// work-group size staged through local memory, every work-item loading one
// body of the tile, so a tile is read once per group instead of once per
// work-item.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <cmath>

using namespace example;

static constexpr size_t GroupSize = 64;
static constexpr float Dt = 0.005f, Softening2 = 0.01f;

static const char *const Source = R"CLC(
kernel void nbodyStep(global const float4 *Pos, global const float4 *Vel,
                      global float4 *NewPos, global float4 *NewVel,
                      uint N, float Dt, float Softening2,
                      local float4 *Tile) {
  size_t I = get_global_id(0);
  uint L = get_local_id(0), W = get_local_size(0);
  float4 Me = Pos[I];
  float3 Acc = (float3)(0.0f);
  for (uint Base = 0; Base < N; Base += W) {
    Tile[L] = Pos[Base + L];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint J = 0; J < W; ++J) {
      float4 Other = Tile[J];
      float3 D = Other.xyz - Me.xyz;
      float Dist2 = dot(D, D) + Softening2;
      float InvDist = rsqrt(Dist2);
      Acc += D * (Other.w * InvDist * InvDist * InvDist);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float4 V = Vel[I];
  V.xyz += Acc * Dt;
  NewVel[I] = V;
  NewPos[I] = (float4)(Me.xyz + V.xyz * Dt, Me.w);
}
)CLC";

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  if (N == 0 || N % GroupSize)
    throw Error("--size must be a multiple of 64");
  std::vector<float> Pos = randomFloats(4 * N, 101, -10, 10);
  std::vector<float> Vel = randomFloats(4 * N, 102, -1, 1);
  for (size_t I = 0; I < N; ++I) {
    Pos[4 * I + 3] = 1.0f + (Pos[4 * I + 3] + 10) / 20; // mass in [1, 2)
    Vel[4 * I + 3] = 0;
  }
  const size_t Bytes = 4 * N * sizeof(float);
  Mem PosBuf(
      S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes, Pos.data()));
  Mem VelBuf(
      S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes, Vel.data()));
  Mem NewPosBuf(S.buffer(CL_MEM_WRITE_ONLY, Bytes));
  Mem NewVelBuf(S.buffer(CL_MEM_WRITE_ONLY, Bytes));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "nbodyStep"));
  setArg(K, 0, PosBuf.H);
  setArg(K, 1, VelBuf.H);
  setArg(K, 2, NewPosBuf.H);
  setArg(K, 3, NewVelBuf.H);
  setArg(K, 4, cl_uint(N));
  setArg(K, 5, Dt);
  setArg(K, 6, Softening2);
  setLocalArg(K, 7, GroupSize * 4 * sizeof(float));

  Result R;
  R.KernelMs = S.timeMedian([&] { enqueue1D(S, K, N, GroupSize); });
  std::vector<float> NewPos(4 * N), NewVel(4 * N);
  readBuffer(S, NewPosBuf, NewPos);
  readBuffer(S, NewVelBuf, NewVel);
  for (size_t I = 0; I < N; ++I) {
    double Acc[3] = {0, 0, 0}, Scale = 0;
    for (size_t J = 0; J < N; ++J) {
      double D[3], Dist2 = Softening2;
      for (int C = 0; C < 3; ++C) {
        D[C] = double(Pos[4 * J + C]) - Pos[4 * I + C];
        Dist2 += D[C] * D[C];
      }
      double F = Pos[4 * J + 3] / (Dist2 * std::sqrt(Dist2));
      for (int C = 0; C < 3; ++C)
        Acc[C] += D[C] * F;
      Scale += std::sqrt(Dist2) * F;
    }
    for (int C = 0; C < 3; ++C) {
      double V = Vel[4 * I + C] + Acc[C] * Dt;
      double X = Pos[4 * I + C] + V * Dt;
      // Float sums of N terms (rsqrt may be a few ulp off): relative to the
      // sum of the terms' magnitudes.
      double Tolerance = 1e-4 * Scale * Dt + 1e-5;
      size_t At = 4 * I + C;
      if (!(std::fabs(NewVel[At] - V) <= Tolerance)) {
        R.Detail = mismatch("NewVel", At, NewVel[At], V);
        return R;
      }
      if (!(std::fabs(NewPos[At] - X) <= Tolerance * Dt + 1e-5)) {
        R.Detail = mismatch("NewPos", At, NewPos[At], X);
        return R;
      }
    }
  }
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%.2f G interactions/s",
           double(N) * N / (R.KernelMs * 1e6));
  R.Detail = Buf;
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "NBody", 4096,
                    "number of bodies (a multiple of 64)", run);
}
