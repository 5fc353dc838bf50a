// Kernels whose loops horizontal inner-loop parallelization
// (lib/llvmopencl/WorkGroup/HorizontalLoops.cpp) interchanges with the work-item
// loops, or must leave alone, run by tests/api/HorizontalLoopTest.cpp
// against host references. The 1D kernels share one signature,
//   (global uint *Out, global const uint *In, local uint *S, int P0, int P1)
// P0 and P1 are uniform (trip counts, exit points).

#define GID get_global_id(0)
#define GSIZE get_global_size(0)

// A uniform loop with a per-work-item accumulator and an early uniform
// exit.
kernel void early_exit(global uint *Out, global const uint *In, local uint *S,
                       int P0, int P1) {
  size_t G = GID, N = GSIZE;
  uint Acc = In[G];
  for (int I = 0; I < P0; ++I) {
    Acc = Acc * 3u + In[(G + I) % N] + (uint)I;
    if (I == P1)
      break;
  }
  Out[G] = Acc;
}

// A return from inside a uniform loop.
kernel void early_return(global uint *Out, global const uint *In,
                         local uint *S, int P0, int P1) {
  size_t G = GID, N = GSIZE;
  uint Acc = In[G];
  for (int I = 0; I < P0; ++I) {
    Acc ^= In[(G * 7 + I) % N] + (uint)I;
    if (I == P1) {
      Out[G] = Acc + 1u;
      return;
    }
  }
  Out[G] = Acc;
}

// A trip count that depends on the work-item: must stay as it is.
kernel void varying_trips(global uint *Out, global const uint *In,
                          local uint *S, int P0, int P1) {
  size_t G = GID, N = GSIZE;
  uint Acc = 0;
  for (uint I = 0; I < get_local_id(0) % 5 + (uint)P0; ++I)
    Acc += In[(G + I) % N] * (I + 1u);
  Out[G] = Acc;
}

// Nested uniform loops.
kernel void nested(global uint *Out, global const uint *In, local uint *S,
                   int P0, int P1) {
  size_t G = GID, N = GSIZE;
  uint Acc = In[G];
  for (int I = 0; I < P0; ++I) {
    for (int J = 0; J < P1; ++J)
      Acc += In[(G + I * 3 + J) % N] ^ (uint)J;
    Acc = Acc * 5u + (uint)I;
  }
  Out[G] = Acc;
}

// Loops under a uniform condition, and one under a varying condition.
kernel void loops_in_ifs(global uint *Out, global const uint *In,
                         local uint *S, int P0, int P1) {
  size_t G = GID, N = GSIZE;
  uint Acc = In[G];
  if (P0 > 3) {
    for (int I = 0; I < P0; ++I)
      Acc = Acc * 7u + In[(G + I) % N];
  } else {
    for (int I = 0; I < P1; ++I)
      Acc ^= In[(G + 2 * I) % N] + (uint)I;
  }
  if (get_local_id(0) % 3 == 0)
    for (int I = 0; I < P0; ++I)
      Acc += (uint)I * In[(G + I) % N];
  Out[G] = Acc;
}

// A uniform loop between barriers, reading local memory.
kernel void between_barriers(global uint *Out, global const uint *In,
                             local uint *S, int P0, int P1) {
  size_t L = get_local_id(0), W = get_local_size(0), G = GID;
  S[L] = In[G];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint Acc = 0;
  for (int I = 0; I < P0; ++I)
    Acc += S[(L + I) % W] * (uint)(I + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  S[L] = Acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[G] = S[W - 1 - L] + Acc;
}

// A work-item reloads in each trip what it stored in the last one.
kernel void store_reload(global uint *Out, global const uint *In,
                         local uint *S, int P0, int P1) {
  size_t G = GID;
  Out[G] = In[G];
  for (int I = 0; I < P0; ++I)
    Out[G] = Out[G] * 3u + (uint)I;
}

// The naive matrix product; fma keeps the host reference exact.
kernel void matmul(global float *C, global const float *A,
                   global const float *B, uint N) {
  size_t Col = get_global_id(0), Row = get_global_id(1);
  float Sum = 0.0f;
  for (uint K = 0; K < N; ++K)
    Sum = fma(A[Row * N + K], B[K * N + Col], Sum);
  C[Row * N + Col] = Sum;
}

// clpeak's shape: a chain of fmas on two values of type CHAIN_T (float, floatW)
// per trip. Build with -DCHAIN_T=floatW -DCHAIN_W=<width> (float alone by default).
#ifndef CHAIN_W
#define CHAIN_W 1
#define CHAIN_T float
#endif
#define CAT(A, B) A##B
#define VLOADW(N) CAT(vload, N)
#define VSTOREW(N) CAT(vstore, N)
constant float Lanes[16] = {0, 1, 2, 3, 4, 5, 6, 7,
                            8, 9, 10, 11, 12, 13, 14, 15};
kernel void mad_chain(global float *Out, float A, int Trips) {
  size_t G = get_global_id(0);
#if CHAIN_W == 1
  CHAIN_T Y = (CHAIN_T)(G * 0.001f) + Lanes[0];
#else
  CHAIN_T Y = (CHAIN_T)(G * 0.001f) + VLOADW(CHAIN_W)(0, Lanes);
#endif
  CHAIN_T X = (CHAIN_T)(A);
  for (int I = 0; I < Trips; ++I) {
    X = fma(X, (CHAIN_T)(0.5f), Y);
    Y = fma(Y, (CHAIN_T)(0.75f), (CHAIN_T)(0.125f));
    X = fma(X, (CHAIN_T)(0.5f), Y);
    Y = fma(Y, (CHAIN_T)(0.75f), (CHAIN_T)(0.125f));
    X = fma(X, (CHAIN_T)(0.5f), Y);
    Y = fma(Y, (CHAIN_T)(0.75f), (CHAIN_T)(0.125f));
    X = fma(X, (CHAIN_T)(0.5f), Y);
    Y = fma(Y, (CHAIN_T)(0.75f), (CHAIN_T)(0.125f));
  }
  CHAIN_T R = X + Y;
#if CHAIN_W == 1
  Out[G] = R;
#else
  VSTOREW(CHAIN_W)(R, G, Out);
#endif
}
