// A tiled GEMM shaped like CLBlast's Xgemm (tests/api/VectorMadGemmTest.cpp):
// each work-item keeps VWN accumulators of VWM floats (realM), copies its
// share of a KWG-row tile of A (realM) and of B (realN) into local memory,
// and multiplies per component, as CLBlast's MultiplyAddVector does without
// USE_VECTOR_MAD. The k loop of a tile carries the accumulators over KWG
// trips, so HorizontalLoops leaves it to full unrolling and keeps the
// vectors, which RevectorizeWorkItemLoops rebuilds from the per-component
// code and WidenWorkItemLoops runs several work-items per register.
//
// C[n][m] = sum over k of A[k][m] * B[k][n], all three row-major in floats
// (doubles with -DUSE_DOUBLE, where VWM may also be 1: CLBlast's DGEMM
// shape, a scalar of A times a double4 of B that is the same for every
// work-item in x, whose lanes O3 loads one by one);
// work-item (x, y) of group (gx, gy) computes the realM at column
// gx * LX + x of the VWN rows (gy * LY + y) * VWN + w of C.

#ifndef LX
#define LX 8
#endif
#ifndef LY
#define LY 16
#endif
#ifndef VWM
#define VWM 4
#endif
#ifndef VWN
#define VWN 2
#endif
#define KWG 16

#ifdef USE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double2 real2;
typedef double4 real4;
#else
typedef float real;
typedef float2 real2;
typedef float4 real4;
#endif

#if VWM == 4
typedef real4 realM;
#define MADM(c, a, s)                                                          \
  c.x = mad(a.x, s, c.x);                                                      \
  c.y = mad(a.y, s, c.y);                                                      \
  c.z = mad(a.z, s, c.z);                                                      \
  c.w = mad(a.w, s, c.w)
#elif VWM == 2
typedef real2 realM;
#define MADM(c, a, s)                                                          \
  c.x = mad(a.x, s, c.x);                                                      \
  c.y = mad(a.y, s, c.y)
#else
typedef real realM;
#define MADM(c, a, s) c = mad(a, s, c)
#endif

#if VWN == 4
typedef real4 realN;
#define MADN(c, a, b)                                                          \
  MADM(c[0], a, b.x);                                                          \
  MADM(c[1], a, b.y);                                                          \
  MADM(c[2], a, b.z);                                                          \
  MADM(c[3], a, b.w)
#else
typedef real2 realN;
#define MADN(c, a, b)                                                          \
  MADM(c[0], a, b.x);                                                          \
  MADM(c[1], a, b.y)
#endif

__kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
void vmad_gemm(int M, int N, int K, __global const realM *A,
               __global const realN *B, __global realM *C) {
  __local realM alm[KWG * LX];
  __local realN blm[KWG * LY];
  const int x = get_local_id(0), y = get_local_id(1);
  const int Col = get_group_id(0) * LX + x; // in realM
  const int Row = get_group_id(1) * LY + y; // in realN
  const int Md = M / VWM, Nd = N / VWN;
  realM cpm[VWN];
  for (int w = 0; w < VWN; ++w)
    cpm[w] = (realM)(0);
  for (int kt = 0; kt < K; kt += KWG) {
    for (int k = y; k < KWG; k += LY)
      alm[k * LX + x] = A[(kt + k) * Md + get_group_id(0) * LX + x];
    for (int k = x; k < KWG; k += LX)
      blm[k * LY + y] = B[(kt + k) * Nd + get_group_id(1) * LY + y];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < KWG; ++k) {
      realM a = alm[k * LX + x];
      realN b = blm[k * LY + y];
      MADN(cpm, a, b);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int w = 0; w < VWN; ++w)
    C[(Row * VWN + w) * Md + Col] = cpm[w];
}
