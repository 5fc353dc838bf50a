// Reverses every work-group's slice of the input through local memory.
// Needs a barrier between the writes and the reads of Scratch.
kernel void reverse_in_group(global int *Out, global const int *In,
                             local int *Scratch) {
  size_t L = get_local_id(0), N = get_local_size(0);
  Scratch[L] = In[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[get_global_id(0)] = Scratch[N - 1 - L];
}
