// Sub-group functions compiled to SPIR-V at build time (clang-15,
// llvm-spirv-15, OpenCL C 3.0) for tests/api/SpirvTest.cpp: the
// translator turns the GroupNonUniform instructions of SYCL's and
// chipStar's kind back into the OpenCL C builtins.

// The work-items whose value is not a multiple of 3 vote, reduce and
// ballot together; the others read their first one's value.
kernel void non_uniform(global const int *In, global int *Out,
                        global uint4 *Ballot) {
  size_t G = get_global_id(0);
  int X = In[G];
  if (X % 3) {
    Out[G] = sub_group_non_uniform_reduce_add(X) + 1000 * sub_group_elect();
    Ballot[G] = sub_group_ballot(X & 1);
  } else {
    Out[G] = sub_group_broadcast_first(X);
  }
}
