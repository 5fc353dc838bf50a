// weftcc's end-to-end test program. SCALED comes from <scale.h>, found only
// through weftcc's -I, and OFFSET from -b "-D OFFSET=...": results that
// match the host's mean the binary was built with both.
#include <scale.h>

__kernel void axpb(__global uint *out, __global const uint *in, uint scale,
                   uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    out[i] = SCALED(in[i], scale) + OFFSET;
}

// Never run: its arguments exercise the qualifiers --kernels prints.
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void
weighted_sum(__global float *restrict sums, __constant float *weights,
             __local float *scratch, __global const volatile int *flags,
             __read_only image2d_t image, sampler_t sampler) {
  scratch[get_local_id(0)] = weights[get_local_id(0)] * flags[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  sums[get_group_id(0)] = scratch[0] + read_imagef(image, sampler, (int2)(0, 0)).x;
}
