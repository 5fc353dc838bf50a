//===- half-image.cl - read_imageh and write_imageh (cl_khr_fp16) ---------===//
//
// The half forms of the image builtins are the float forms (image.cl) with
// the colour converted: a read rounds the float4 to half4 once (to
// nearest even), a write widens the half4 exactly, so a half image
// round-trips every half value. Compiled as OpenCL C 3.0 like image.cl, for
// the read_write overloads.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define TO_HALF4(V) __builtin_convertvector(V, half4)
#define TO_FLOAT4(V) __builtin_convertvector(V, float4)

#define DEF_SAMPLED_READ(T, FC, IC)                                            \
  half4 WEFT_OVL read_imageh(read_only T I, sampler_t S, FC C) {               \
    return TO_HALF4(read_imagef(I, S, C));                                     \
  }                                                                            \
  half4 WEFT_OVL read_imageh(read_only T I, sampler_t S, IC C) {               \
    return TO_HALF4(read_imagef(I, S, C));                                     \
  }
DEF_SAMPLED_READ(image1d_t, float, int)
DEF_SAMPLED_READ(image1d_array_t, float2, int2)
DEF_SAMPLED_READ(image2d_t, float2, int2)
DEF_SAMPLED_READ(image2d_array_t, float4, int4)
DEF_SAMPLED_READ(image3d_t, float4, int4)

#define DEF_TEXEL(Access, T, IC)                                               \
  half4 WEFT_OVL read_imageh(Access T I, IC C) {                               \
    return TO_HALF4(read_imagef(I, C));                                        \
  }
#define DEF_WRITE(Access, T, IC)                                               \
  void WEFT_OVL write_imageh(Access T I, IC C, half4 V) {                      \
    write_imagef(I, C, TO_FLOAT4(V));                                          \
  }
#define FOR_IMAGE_TYPES(M, Access)                                             \
  M(Access, image1d_t, int)                                                    \
  M(Access, image1d_buffer_t, int)                                             \
  M(Access, image1d_array_t, int2)                                             \
  M(Access, image2d_t, int2)                                                   \
  M(Access, image2d_array_t, int4)                                             \
  M(Access, image3d_t, int4)
FOR_IMAGE_TYPES(DEF_TEXEL, read_only)
FOR_IMAGE_TYPES(DEF_TEXEL, read_write)
FOR_IMAGE_TYPES(DEF_WRITE, write_only)
FOR_IMAGE_TYPES(DEF_WRITE, read_write)
