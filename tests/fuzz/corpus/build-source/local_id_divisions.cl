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
