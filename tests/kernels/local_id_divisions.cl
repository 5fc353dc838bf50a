// Work-items numbered linearly as CLBlast's tile copies number them,
// tid = x + W * y, and split again by divisors given at build time
// (FoldLocalIdDivisions rewrites the divisions when the local size makes
// that exact). LocalIdDivisionTest.cpp holds the reference.

__kernel void split_linear_id(__global int *out) {
  int tid = get_local_id(0) + W * get_local_id(1);
  size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[4 * g + 0] = tid % D1;
  out[4 * g + 1] = tid / D1;
  out[4 * g + 2] = tid % D2;
  out[4 * g + 3] = tid / D2;
}

// A tile copied through local memory at [tid / D1][tid % D1] and read back
// reversed after a barrier: each group writes its slice of in, reversed.
__kernel void reverse_tile(__global const float *in, __global float *out) {
  __local float tile[TILE];
  int tid = get_local_id(0) + W * get_local_id(1);
  size_t base = (get_group_id(1) * get_num_groups(0) + get_group_id(0)) * TILE;
  int row = tid / D1, col = tid % D1;
  tile[row * D1 + col] = in[base + row * D1 + col];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + tid] = tile[TILE - 1 - tid];
}

// CLBlast's GlobalToLocalB with NDIMB = 8 and 16 work-items in x: tid % 8
// and tid / 8 with x up to 15, each work-item copying two neighbouring
// vectors of two rows (2 * (tid % 8) + i of row 2 * (tid / 8) + k), so
// that across work-items each copy steps by two vectors, tile after tile
// of 32 rows. After each tile's barrier every work-item adds four vectors
// of the tile, rotated, to its sums, so a misplaced copy shows.
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef VEC
#define VEC float4
#endif
__kernel void strided_tile(int rows, int ld, __global const VEC *in,
                           __global VEC *out) {
  __local VEC tile[32 * 16];
  int tid = get_local_id(0) + 16 * get_local_id(1);
  int lb0 = tid % 8, lb1 = tid / 8;
  VEC sum[4] = {0, 0, 0, 0};
  for (int kwg = 0; kwg < rows; kwg += 32) {
#pragma unroll
    for (int k = 0; k < 2; ++k)
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        int ng = i + lb0 * 2, kg = k + lb1 * 2;
        int idn = ng + get_group_id(0) * 16, idk = kg + kwg;
        tile[kg * 16 + ng] = in[idk * ld + idn];
      }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int j = 0; j < 4; ++j)
      sum[j] += tile[(tid * 4 + j + 5 + kwg) % 512];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#pragma unroll
  for (int j = 0; j < 4; ++j)
    out[get_group_id(0) * 512 + tid * 4 + j] = sum[j];
}
