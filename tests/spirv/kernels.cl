// Kernels compiled to SPIR-V at build time (clang-15, llvm-spirv-15) for
// tests/api/SpirvTest.cpp, which also builds this file as OpenCL C and
// compares both with host references.

// Work-group memory and a barrier: each group reversed in place.
kernel void reverse_groups(global const int *In, global int *Out,
                           local int *Tile) {
  size_t L = get_local_id(0), N = get_local_size(0);
  Tile[L] = In[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[get_global_id(0)] = Tile[N - 1 - L];
}

// Global atomics: a histogram of the low 4 bits.
kernel void histogram(global const uint *In, volatile global int *Bins) {
  atomic_inc(&Bins[In[get_global_id(0)] & 15]);
}

// A helper that writes through a private pointer.
static float split(float X, float *Whole) {
  return fract(X, Whole);
}

// Math builtins, a private pointer passed to a builtin and to a helper.
kernel void math(global const float *In, global float *Out) {
  size_t I = get_global_id(0);
  float X = In[I], Whole;
  float Part = split(X, &Whole);
  Out[4 * I] = sin(X) * exp(-X);
  Out[4 * I + 1] = pow(X, 1.5f);
  Out[4 * I + 2] = Part;
  Out[4 * I + 3] = Whole + sqrt(X);
}

// Vector loads and stores, saturating conversions.
kernel void vectors(global const float *In, global int *Out, float Scale) {
  size_t I = get_global_id(0);
  float4 V = vload4(I, In) * Scale;
  vstore4(convert_int4_sat(V), I, Out);
}

// An image read with a sampler argument, written to another image.
kernel void copy_image(read_only image2d_t Src, write_only image2d_t Dst,
                       sampler_t Sampler) {
  int2 P = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(Dst, P, read_imagef(Src, Sampler, P) * 2.0f);
}

// An async copy into work-group memory.
kernel void async_sum(global const int *In, global int *Out,
                      local int *Tile) {
  size_t N = get_local_size(0);
  event_t E = async_work_group_copy(Tile, In + get_group_id(0) * N, N, 0);
  wait_group_events(1, &E);
  size_t L = get_local_id(0);
  Out[get_global_id(0)] = Tile[L] + Tile[(L + 1) % N];
}
