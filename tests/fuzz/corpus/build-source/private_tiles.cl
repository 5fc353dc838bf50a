// Kernels that keep per-work-item tiles in private arrays indexed by short
// unrolled loops, as CLBlast's Xgemm does (tests/api/PrivateArrayTest.cpp).

#ifndef MDIMC
#define MDIMC 4 // work-items in x
#define NDIMC 8 // work-items in y
#define MWG 16  // tile of C per group, in M
#define NWG 16  // and in N
#define KWG 8   // K per local tile
#endif
#define MWI (MWG / MDIMC) // C elements per work-item in M (a multiple of 4)
#define NWI (NWG / NDIMC) // and in N
#define WGS (MDIMC * NDIMC)

// C (N rows of M) = sum over k of A (K rows of M) times B (K rows of N):
// C[n][m] = sum_k A[k][m] * B[k][n], accumulated with fma in k order.
__kernel __attribute__((reqd_work_group_size(MDIMC, NDIMC, 1)))
void tiled_gemm(int M, int N, int K, __global const float4 *A,
                __global const float *B, __global float4 *C) {
  __local float4 alm[KWG * MWG / 4];
  __local float blm[KWG * NWG];
  float4 apm[MWI / 4];
  float bpm[NWI];
  float4 cpm[NWI * (MWI / 4)];
  // As CLBlast: a volatile private index.
  volatile int tid = get_local_id(0) + MDIMC * get_local_id(1);
#pragma unroll
  for (int mi = 0; mi < MWI / 4; ++mi)
#pragma unroll
    for (int ni = 0; ni < NWI; ++ni)
      cpm[ni * (MWI / 4) + mi] = (float4)(0.0f);
  for (int kwg = 0; kwg < K; kwg += KWG) {
#pragma unroll
    for (int i = 0; i < (KWG * MWG / 4 + WGS - 1) / WGS; ++i) {
      int Idx = tid + i * WGS;
      if (Idx < KWG * MWG / 4) {
        int k = Idx / (MWG / 4), m = Idx % (MWG / 4);
        alm[Idx] = A[(kwg + k) * (M / 4) + get_group_id(0) * (MWG / 4) + m];
      }
    }
#pragma unroll
    for (int i = 0; i < (KWG * NWG + WGS - 1) / WGS; ++i) {
      int Idx = tid + i * WGS;
      if (Idx < KWG * NWG) {
        int k = Idx / NWG, n = Idx % NWG;
        blm[Idx] = B[(kwg + k) * N + get_group_id(1) * NWG + n];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < KWG; ++k) {
#pragma unroll
      for (int mi = 0; mi < MWI / 4; ++mi)
        apm[mi] = alm[k * (MWG / 4) + get_local_id(0) * (MWI / 4) + mi];
#pragma unroll
      for (int ni = 0; ni < NWI; ++ni)
        bpm[ni] = blm[k * NWG + get_local_id(1) * NWI + ni];
#pragma unroll
      for (int ni = 0; ni < NWI; ++ni)
#pragma unroll
        for (int mi = 0; mi < MWI / 4; ++mi)
          cpm[ni * (MWI / 4) + mi] =
              fma(apm[mi], (float4)(bpm[ni]), cpm[ni * (MWI / 4) + mi]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#pragma unroll
  for (int ni = 0; ni < NWI; ++ni)
#pragma unroll
    for (int mi = 0; mi < MWI / 4; ++mi) {
      int n = get_group_id(1) * NWG + get_local_id(1) * NWI + ni;
      int m4 = get_group_id(0) * (MWG / 4) + get_local_id(0) * (MWI / 4) + mi;
      C[n * (M / 4) + m4] = cpm[ni * (MWI / 4) + mi];
    }
}

// A private array indexed by data inside a short constant loop: unrolling
// cannot give it constant indices, so it stays in memory (and must still
// count right). Out[g] = histogram of In[g*8 .. g*8+7] & 7, packed in 4
// bits per bin.
__kernel void private_histogram(__global uint *Out, __global const uint *In) {
  size_t g = get_global_id(0);
  uint Bins[8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    Bins[i] = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    Bins[In[g * 8 + i] & 7] += 1;
  uint Packed = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    Packed |= Bins[i] << (4 * i);
  Out[g] = Packed;
}
