// Kernels for tests/api/NonUniformTest.cpp: work-item queries, barriers and
// local memory in the smaller last work-group of a non-uniform NDRange.

#if __OPENCL_C_VERSION__ >= 200
// Eight words per work-item, at its global linear id.
kernel void queries(global ulong *Out) {
  size_t G = get_global_linear_id();
  global ulong *O = Out + 8 * G;
  O[0] = get_local_size(0) | get_local_size(1) << 16 | get_local_size(2) << 32;
  O[1] = get_enqueued_local_size(0) | get_enqueued_local_size(1) << 16 |
         get_enqueued_local_size(2) << 32;
  O[2] = get_local_id(0) | get_local_id(1) << 16 | get_local_id(2) << 32;
  O[3] = get_group_id(0) | get_group_id(1) << 16 | get_group_id(2) << 32;
  O[4] = get_global_id(0) | get_global_id(1) << 16 | get_global_id(2) << 32;
  O[5] = get_num_groups(0) | get_num_groups(1) << 16 | get_num_groups(2) << 32;
  O[6] = get_local_linear_id();
  O[7] = G;
}

// Reverses each work-group's slice of In (2D: rows of the group reversed
// in x, through local memory).
kernel void reverse_rows(global uint *Out, global const uint *In,
                         local uint *Tmp) {
  size_t W = get_global_size(0);
  size_t X = get_global_id(0), Y = get_global_id(1);
  size_t LX = get_local_id(0), LY = get_local_id(1);
  size_t NX = get_local_size(0);
  Tmp[LY * NX + LX] = In[Y * W + X];
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[Y * W + X] =
      Tmp[LY * NX + (NX - 1 - LX)] + (uint)get_enqueued_local_size(0);
}
#endif

// A tree reduction over whatever size the group has: Sums[group] = sum of
// its slice of In.
kernel void group_sum(global uint *Sums, global const uint *In,
                      local uint *Tmp) {
  size_t L = get_local_id(0), N = get_local_size(0);
  Tmp[L] = In[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t S = 1; S < N; S *= 2) {
    if (L % (2 * S) == 0 && L + S < N)
      Tmp[L] += Tmp[L + S];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (L == 0)
    Sums[get_group_id(0)] = Tmp[0];
}
