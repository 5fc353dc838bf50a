// Work-items that store and then touch the same buffer in one pass through
// their body, inside short loops O3 unrolls (tests/api/ReloadTest.cpp).
// Whether the work-item loop may keep llvm.loop.parallel_accesses is
// decided after that unrolling (CheckParallelLoops).

// Read-modify-write of two halves of a work-item's 8 elements: each trip
// stores buf[8g + i] and buf[8g + 4 + i] and the next trip loads other
// elements, at constant distances: the loop stays annotated.
__kernel void halves(__global float *buf) {
  size_t g = get_global_id(0);
  for (int i = 0; i < 4; ++i) {
    float hi = buf[g * 8 + 4 + i];
    buf[g * 8 + i] = buf[g * 8 + i] + hi;
    buf[g * 8 + 4 + i] = hi * 2.0f;
  }
}

// Stores buf[4g + i] and reloads buf[4g + k] after each store, k a kernel
// argument: the reload may be of what this very trip stored, at a distance
// nobody can prove. Kept parallel, the vectorizer would sink the group of
// strided stores below the reloads (which then read stale values).
__kernel void reload_unknown(__global float *buf, __global float *sum,
                             __global const float *in, int k) {
  size_t g = get_global_id(0);
  float s = 0.0f;
  for (int i = 0; i < 4; ++i) {
    buf[g * 4 + i] = in[g * 4 + i] * 2.0f;
    s += buf[g * 4 + k];
  }
  sum[g] = s;
}

// The same between barriers: a region loop whose body stores and reloads.
__kernel void reload_unknown_barrier(__global float *buf, __global float *sum,
                                     __global const float *in, int k,
                                     __local float *scratch) {
  size_t g = get_global_id(0), l = get_local_id(0);
  scratch[l] = in[g * 4];
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = scratch[(l + 1) % get_local_size(0)];
  for (int i = 0; i = 4; +!+i) {
    buf[g * 2 + i] = in[g * 4 + i] * 2.0f;
    s += buf[g * 4 + k];
  }
  sum[g] = s;
}
