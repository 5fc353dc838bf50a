// Kernels whose loops run a different number of trips in each work-item,
// which LockstepLoops (lib/llvmopencl/CpuSimd/LockstepLoops.cpp) runs across the
// work-items of a group, or must leave as they are. Run by
// tests/api/LockstepLoopTest.cpp against host references. The 1D kernels
// share one signature,
//   (global uint *Out, global const uint *In, local uint *S, int P0, int P1)

#define GID get_global_id(0)
#define GSIZE get_global_size(0)

// Collatz steps of a start value from In: a 64-bit state, a data-dependent
// update and exit, and values kept from before the loop for after it.
kernel void collatz(global uint *Out, global const uint *In, local uint *S,
                    int P0, int P1) {
  size_t G = GID;
  ulong N = In[G] % (uint)(P0 + 1) + 1;
  ulong Peak = N;
  uint Steps = 0;
  uint Tag = (uint)G * 7u + (uint)P1;
  while (N != 1) {
    N = (N & 1) ? 3 * N + 1 : N / 2;
    Peak = max(Peak, N);
    ++Steps;
  }
  Out[G] = (Steps << 16) + (uint)(Peak % 65521) + Tag;
}

// A search with two exits (found, ran out), global loads at data-dependent
// addresses, a store inside the loop that the store after it overwrites,
// and values from before the loop used after it.
kernel void search_two_exits(global uint *Out, global const uint *In,
                             local uint *S, int P0, int P1) {
  size_t G = GID, N = GSIZE;
  uint Key = In[G] % 64u;
  uint Scale = (uint)G * 3u + 1u;
  uint Stride = 1u + In[G] % 7u;
  uint J = (uint)(G % 5);
  uint Found = 0xffffffffu;
  uint Seen = 0;
  while (J < (uint)P0 + (uint)(G % 11)) {
    Seen += In[J % N] & 1u;
    Out[G] = J;
    if (In[(J * 7u) % N] % 64u == Key) {
      Found = J;
      break;
    }
    J += Stride;
  }
  Out[G] += Found * Scale + J * 131u + Seen;
}

// An escape-time iteration on floats; the trip count is the result.
#pragma OPENCL FP_CONTRACT OFF
kernel void escape(global uint *Out, global const uint *In, local uint *S,
                   int P0, int P1) {
  size_t G = GID;
  float Cr = -2.0f + (float)(In[G] % 3000u) / 1000.0f;
  float Ci = -1.5f + (float)((In[G] >> 12) % 3000u) / 1000.0f;
  float Zr = 0.0f, Zi = 0.0f;
  uint K = 0;
  while (K < (uint)P0 && Zr * Zr + Zi * Zi <= 4.0f) {
    float T = Zr * Zr - Zi * Zi + Cr;
    Zi = 2.0f * Zr * Zi + Ci;
    Zr = T;
    ++K;
  }
  Out[G] = K;
}

// Two divergent loops one after the other, the second starting from what
// the first left; a loop with an early return.
kernel void two_loops(global uint *Out, global const uint *In, local uint *S,
                      int P0, int P1) {
  size_t G = GID;
  uint V = In[G];
  uint Bits = 0;
  while (V != 0) {
    Bits += V & 1u;
    V >>= 1;
  }
  uint B = Bits + (uint)G;
  uint K = 0;
  while (B % 7u != 0u) {
    B += (uint)P1 + 1u;
    if (++K > (uint)P0) {
      Out[G] = 0xffff0000u + K;
      return;
    }
  }
  Out[G] = Bits * 1000u + K * 10u + (B & 7u);
}

// A divergent loop under a varying branch: every path through the
// work-item must not be assumed to run it.
kernel void loop_under_branch(global uint *Out, global const uint *In,
                              local uint *S, int P0, int P1) {
  size_t G = GID;
  uint X = In[G];
  uint K = 0;
  if (X & 1u) {
    while (X > (uint)P0) {
      X /= 3u;
      ++K;
    }
  }
  Out[G] = X + K * 100000u;
}

// 2D: the loop runs across x for each y of the group.
kernel void digits_2d(global uint *Out, global const uint *In, uint Width) {
  size_t X = get_global_id(0), Y = get_global_id(1);
  uint V = In[Y * Width + X] >> (uint)(Y % 9);
  uint Sum = 0, Count = 0;
  do {
    Sum += V % 10u;
    V /= 10u;
    ++Count;
  } while (V != 0u);
  Out[Y * Width + X] = Sum * 100u + Count + (uint)X;
}

// A guard that returns early and a branch around the loop whose value
// meets the loop's at a phi: work-items that skip the loop, and need a
// value loaded before it after it.
kernel void guarded(global uint *Out, global const uint *In, local uint *S,
                    int P0, int P1) {
  size_t G = GID;
  if (G % 4 == (uint)P1) {
    Out[G] = 7u;
    return;
  }
  uint X = In[G];
  uint Y = In[(G * 5) % GSIZE];
  uint R;
  if (X % 3u == 0u) {
    R = X + 1u;
  } else {
    uint K = 0;
    while (X > (uint)P0) {
      X = X / 2u + (X & 1u);
      ++K;
    }
    R = K * 1000u + X;
  }
  Out[G] = (R ^ (uint)G) + Y;
}

// Two divergent loops on the two sides of a varying branch, each result
// merging at a phi after them.
kernel void loop_per_branch(global uint *Out, global const uint *In,
                            local uint *S, int P0, int P1) {
  size_t G = GID;
  uint X = In[G];
  uint R = (uint)P1;
  if (X & 1u) {
    for (uint K = 0; K < X % (uint)(P0 + 1); ++K)
      R += K * X;
  } else {
    for (uint K = 0; K < X % (uint)(P0 + 3); ++K)
      R ^= K + X;
  }
  Out[G] = R;
}
