//===- image.cl - Image and sampler builtins -------------------------------===//
//
// Image types are opaque in OpenCL C; on x86 clang passes them as
// `ptr addrspace(1)` and samplers as `ptr addrspace(2)`. The runtime passes
// a pointer to an image descriptor (WeftImage below, laid out as
// weft::ImageDescriptor in lib/CL/Image.h) for every image argument, and the
// sampler's bitfield (CLK_* bits, the value clang hands to
// __translate_sampler_initializer) as the sampler's pointer value.
//
// The builtins are defined with their real OpenCL C signatures, so clang
// mangles them exactly as the kernels call them. They reach the descriptor
// through weft_desc(), declared for every image type under one assembler
// name and defined once as the identity on a descriptor pointer: the IR
// types agree, so the call is an identity that inlining removes.
//
// Addressing and filtering follow the OpenCL C specification's section
// "Image Addressing and Filtering"; conversions follow "Conversion Rules"
// for normalized, integer, half and float channel types. Coordinates the
// specification leaves undefined (out of range with CLK_ADDRESS_NONE, or
// sampler-less reads and writes outside the image) never touch memory
// outside the image: reads return the border colour, writes are dropped.
//
// Compiled as OpenCL C 3.0 with the image features, so the read_write
// overloads exist; the mangled names are the same for kernels in 1.2.
//
//===----------------------------------------------------------------------===//

#include "weft-builtins.h"

typedef struct {
  global uchar *Data;
  int Width, Height, Depth, ArraySize;
  ulong RowPitch, SlicePitch; // strides of y and of z (slice or layer)
  uint Order, Type, ElementSize, NumChannels;
  uint ImageType, Reserved;
} WeftImage;

typedef global WeftImage *ImgPtr;

#define WEFT_DESC_DECL(T)                                                      \
  ImgPtr WEFT_OVL weft_desc(read_only T I) __asm__("weft_image_desc");         \
  ImgPtr WEFT_OVL weft_desc(write_only T I) __asm__("weft_image_desc");        \
  ImgPtr WEFT_OVL weft_desc(read_write T I) __asm__("weft_image_desc");
WEFT_DESC_DECL(image1d_t)
WEFT_DESC_DECL(image1d_buffer_t)
WEFT_DESC_DECL(image1d_array_t)
WEFT_DESC_DECL(image2d_t)
WEFT_DESC_DECL(image2d_array_t)
WEFT_DESC_DECL(image3d_t)

ImgPtr weft_desc_identity(ImgPtr P) __asm__("weft_image_desc");
ImgPtr weft_desc_identity(ImgPtr P) { return P; }

uint weft_sampler_bits(sampler_t S) __asm__("weft_sampler_value");
uint weft_sampler_identity(constant void *S) __asm__("weft_sampler_value");
uint weft_sampler_identity(constant void *S) { return (uint)(ulong)S; }

// `const sampler_t s = CLK_...;` in a kernel becomes a call of this with the
// literal's bits.
constant void *__translate_sampler_initializer(int Bits) {
  return (constant void *)(ulong)(uint)Bits;
}

//===----------------------------------------------------------------------===//
// Channel conversions
//===----------------------------------------------------------------------===//

static float halfToFloat(uint H) {
  uint Sign = (H & 0x8000u) << 16;
  uint Exp = (H >> 10) & 0x1f;
  uint Mant = H & 0x3ff;
  if (Exp == 0) {
    float F = (float)Mant * 0x1p-24f;
    return Sign ? -F : F;
  }
  if (Exp == 31)
    return as_float(Sign | 0x7f800000u | (Mant << 13));
  return as_float(Sign | ((Exp + 112) << 23) | (Mant << 13));
}

// Round to nearest even, as write_imagef requires for CL_HALF_FLOAT.
static uint floatToHalf(float F) {
  uint X = as_uint(F);
  uint Sign = (X >> 16) & 0x8000u;
  uint Abs = X & 0x7fffffffu;
  if (Abs >= 0x7f800000u) // Inf or NaN (kept quiet)
    return Sign | 0x7c00u | (Abs > 0x7f800000u ? 0x200u : 0u);
  if (Abs >= 0x477ff000u) // rounds to infinity
    return Sign | 0x7c00u;
  if (Abs < 0x38800000u) // below the smallest normal half: scale exactly
    return Sign | (uint)__builtin_rintf(as_float(Abs) * 0x1p24f);
  uint R = Abs - 0x38000000u;
  R += 0xfffu + ((R >> 13) & 1u);
  return Sign | (R >> 13);
}

static int clampInt(int V, int Lo, int Hi) { return V < Lo ? Lo : V > Hi ? Hi : V; }
static int minInt(int A, int B) { return A < B ? A : B; }
static int maxInt(int A, int B) { return A > B ? A : B; }
static uint minUint(uint A, uint B) { return A < B ? A : B; }

static uint channelBytes(uint Type) {
  switch (Type) {
  case CLK_SNORM_INT8:
  case CLK_UNORM_INT8:
  case CLK_SIGNED_INT8:
  case CLK_UNSIGNED_INT8:
    return 1;
  case CLK_SNORM_INT16:
  case CLK_UNORM_INT16:
  case CLK_SIGNED_INT16:
  case CLK_UNSIGNED_INT16:
  case CLK_HALF_FLOAT:
    return 2;
  default:
    return 4;
  }
}

static bool hasAlpha(uint Order) {
  switch (Order) {
  case CLK_A:
  case CLK_RA:
  case CLK_RGBA:
  case CLK_BGRA:
  case CLK_ARGB:
  case CLK_ABGR:
  case CLK_INTENSITY:
  case CLK_sRGBA:
  case CLK_sBGRA:
    return true;
  default:
    return false;
  }
}

static bool isSrgb(uint Order) {
  return Order == CLK_sRGBA || Order == CLK_sBGRA;
}

static global uchar *texelAddress(ImgPtr I, int X, int Y, int Z) {
  return I->Data + (ulong)Z * I->SlicePitch + (ulong)Y * I->RowPitch +
         (ulong)X * I->ElementSize;
}

static bool inside(ImgPtr I, int X, int Y, int Z) {
  return X >= 0 && X < I->Width && Y >= 0 && Y < I->Height && Z >= 0 &&
         Z < I->Depth * I->ArraySize;
}

/// The stored channels in storage order, each as 32 bits: integers sign-
/// or zero-extended, half and float as their bit patterns.
static uint4 loadRaw(ImgPtr I, int X, int Y, int Z) {
  global uchar *P = texelAddress(I, X, Y, Z);
  uint4 R = (uint4)(0);
  for (uint C = 0; C < I->NumChannels; ++C) {
    uint V;
    switch (I->Type) {
    case CLK_SNORM_INT8:
    case CLK_SIGNED_INT8:
      V = (uint)(int)((global char *)P)[C];
      break;
    case CLK_UNORM_INT8:
    case CLK_UNSIGNED_INT8:
      V = P[C];
      break;
    case CLK_SNORM_INT16:
    case CLK_SIGNED_INT16:
      V = (uint)(int)((global short *)P)[C];
      break;
    case CLK_UNORM_INT16:
    case CLK_UNSIGNED_INT16:
    case CLK_HALF_FLOAT:
      V = ((global ushort *)P)[C];
      break;
    default:
      V = ((global uint *)P)[C];
      break;
    }
    R[C] = V;
  }
  return R;
}

static void storeRaw(ImgPtr I, int X, int Y, int Z, uint4 R) {
  global uchar *P = texelAddress(I, X, Y, Z);
  uint Bytes = channelBytes(I->Type);
  for (uint C = 0; C < I->NumChannels; ++C) {
    if (Bytes == 1)
      P[C] = (uchar)R[C];
    else if (Bytes == 2)
      ((global ushort *)P)[C] = (ushort)R[C];
    else
      ((global uint *)P)[C] = R[C];
  }
}

/// Storage order -> (r, g, b, a), with Zero and One for missing channels.
static uint4 swizzleIn(uint Order, uint4 C, uint Zero, uint One) {
  switch (Order) {
  case CLK_R:
  case CLK_Rx:
    return (uint4)(C.x, Zero, Zero, One);
  case CLK_A:
    return (uint4)(Zero, Zero, Zero, C.x);
  case CLK_RG:
  case CLK_RGx:
    return (uint4)(C.x, C.y, Zero, One);
  case CLK_RA:
    return (uint4)(C.x, Zero, Zero, C.y);
  case CLK_BGRA:
  case CLK_sBGRA:
    return (uint4)(C.z, C.y, C.x, C.w);
  case CLK_ARGB:
    return (uint4)(C.y, C.z, C.w, C.x);
  case CLK_ABGR:
    return (uint4)(C.w, C.z, C.y, C.x);
  case CLK_INTENSITY:
    return (uint4)(C.x, C.x, C.x, C.x);
  case CLK_LUMINANCE:
    return (uint4)(C.x, C.x, C.x, One);
  default: // RGBA, sRGBA
    return C;
  }
}

/// (r, g, b, a) -> storage order.
static uint4 swizzleOut(uint Order, uint4 C) {
  switch (Order) {
  case CLK_A:
    return (uint4)(C.w, 0, 0, 0);
  case CLK_RA:
    return (uint4)(C.x, C.w, 0, 0);
  case CLK_BGRA:
  case CLK_sBGRA:
    return (uint4)(C.z, C.y, C.x, C.w);
  case CLK_ARGB:
    return (uint4)(C.w, C.x, C.y, C.z);
  case CLK_ABGR:
    return (uint4)(C.w, C.z, C.y, C.x);
  default: // R, RG, RGBA, INTENSITY, LUMINANCE: the leading channels
    return C;
  }
}

static float srgbToLinear(float C) {
  return C <= 0.04045f ? C / 12.92f
                       : __builtin_powf((C + 0.055f) / 1.055f, 2.4f);
}

static float linearToSrgb(float C) {
  if (!(C > 0.0f))
    return 0.0f;
  if (C >= 1.0f)
    return 1.0f;
  return C <= 0.0031308f ? C * 12.92f
                         : 1.055f * __builtin_powf(C, 1.0f / 2.4f) - 0.055f;
}

static float rawToFloat(uint Type, uint V) {
  switch (Type) {
  case CLK_UNORM_INT8:
    return (float)V / 255.0f;
  case CLK_UNORM_INT16:
    return (float)V / 65535.0f;
  case CLK_SNORM_INT8:
    return __builtin_fmaxf(-1.0f, (float)(int)V / 127.0f);
  case CLK_SNORM_INT16:
    return __builtin_fmaxf(-1.0f, (float)(int)V / 32767.0f);
  case CLK_HALF_FLOAT:
    return halfToFloat(V);
  case CLK_FLOAT:
    return as_float(V);
  case CLK_SIGNED_INT8:
  case CLK_SIGNED_INT16:
  case CLK_SIGNED_INT32:
    return (float)(int)V;
  default:
    return (float)V;
  }
}

/// Rounds to nearest even and saturates to [Lo, Hi]; NaN becomes 0.
static int saturateRte(float F, float Lo, float Hi) {
  if (!(F == F))
    return 0;
  return (int)__builtin_rintf(__builtin_fminf(__builtin_fmaxf(F, Lo), Hi));
}

static uint floatToRaw(uint Type, float F) {
  switch (Type) {
  case CLK_UNORM_INT8:
    return (uint)saturateRte(F * 255.0f, 0.0f, 255.0f);
  case CLK_UNORM_INT16:
    return (uint)saturateRte(F * 65535.0f, 0.0f, 65535.0f);
  case CLK_SNORM_INT8:
    return (uint)saturateRte(F * 127.0f, -128.0f, 127.0f);
  case CLK_SNORM_INT16:
    return (uint)saturateRte(F * 32767.0f, -32768.0f, 32767.0f);
  case CLK_HALF_FLOAT:
    return floatToHalf(F);
  default:
    return as_uint(F);
  }
}

static uint intToRaw(uint Type, int V) {
  switch (Type) {
  case CLK_SIGNED_INT8:
    return (uint)clampInt(V, -128, 127);
  case CLK_SIGNED_INT16:
    return (uint)clampInt(V, -32768, 32767);
  default:
    return (uint)V;
  }
}

static uint uintToRaw(uint Type, uint V) {
  switch (Type) {
  case CLK_UNSIGNED_INT8:
    return minUint(V, 255u);
  case CLK_UNSIGNED_INT16:
    return minUint(V, 65535u);
  default:
    return V;
  }
}

static float4 borderF(ImgPtr I) {
  return (float4)(0.0f, 0.0f, 0.0f, hasAlpha(I->Order) ? 0.0f : 1.0f);
}

static uint4 borderI(ImgPtr I) {
  return (uint4)(0, 0, 0, hasAlpha(I->Order) ? 0 : 1);
}

static float4 fetchF(ImgPtr I, int X, int Y, int Z) {
  if (!inside(I, X, Y, Z))
    return borderF(I);
  uint4 Raw = loadRaw(I, X, Y, Z);
  float4 F;
  for (int C = 0; C < 4; ++C)
    F[C] = rawToFloat(I->Type, Raw[C]);
  if (isSrgb(I->Order))
    F.xyz = (float3)(srgbToLinear(F.x), srgbToLinear(F.y), srgbToLinear(F.z));
  return as_float4(swizzleIn(I->Order, as_uint4(F), 0u, as_uint(1.0f)));
}

static uint4 fetchI(ImgPtr I, int X, int Y, int Z) {
  if (!inside(I, X, Y, Z))
    return borderI(I);
  return swizzleIn(I->Order, loadRaw(I, X, Y, Z), 0u, 1u);
}

static void storeF(ImgPtr I, int X, int Y, int Z, float4 Color) {
  if (!inside(I, X, Y, Z))
    return;
  if (isSrgb(I->Order))
    Color.xyz = (float3)(linearToSrgb(Color.x), linearToSrgb(Color.y),
                         linearToSrgb(Color.z));
  uint4 C = swizzleOut(I->Order, as_uint4(Color));
  uint4 Raw;
  for (int K = 0; K < 4; ++K)
    Raw[K] = floatToRaw(I->Type, as_float(C[K]));
  storeRaw(I, X, Y, Z, Raw);
}

static void storeI(ImgPtr I, int X, int Y, int Z, int4 Color) {
  if (!inside(I, X, Y, Z))
    return;
  uint4 C = swizzleOut(I->Order, as_uint4(Color));
  uint4 Raw;
  for (int K = 0; K < 4; ++K)
    Raw[K] = intToRaw(I->Type, (int)C[K]);
  storeRaw(I, X, Y, Z, Raw);
}

static void storeU(ImgPtr I, int X, int Y, int Z, uint4 Color) {
  if (!inside(I, X, Y, Z))
    return;
  uint4 C = swizzleOut(I->Order, Color);
  uint4 Raw;
  for (int K = 0; K < 4; ++K)
    Raw[K] = uintToRaw(I->Type, C[K]);
  storeRaw(I, X, Y, Z, Raw);
}

//===----------------------------------------------------------------------===//
// Addressing and filtering
//===----------------------------------------------------------------------===//

#define ADDRESS_MASK 0xe

/// floor(F) as an int, kept within [Lo, Hi] (NaN -> Lo) so that the
/// conversion is always defined.
static int floorClamped(float F, int Lo, int Hi) {
  F = __builtin_floorf(F);
  if (!(F >= (float)Lo))
    return Lo;
  if (F > (float)Hi)
    return Hi;
  return (int)F;
}

/// Nearest filtering along one axis of N texels. The result may be -1 or N
/// (the border) for CLK_ADDRESS_CLAMP and CLK_ADDRESS_NONE.
static int nearestIndex(float S, int N, uint Sampler) {
  uint Mode = Sampler & ADDRESS_MASK;
  bool Normalized = Sampler & CLK_NORMALIZED_COORDS_TRUE;
  if (Normalized && Mode == CLK_ADDRESS_REPEAT) {
    float U = (S - __builtin_floorf(S)) * (float)N;
    int I = floorClamped(U, 0, N);
    return I > N - 1 ? I - N : I;
  }
  if (Normalized && Mode == CLK_ADDRESS_MIRRORED_REPEAT) {
    float Mirror = __builtin_fabsf(S - 2.0f * __builtin_rintf(0.5f * S));
    return minInt(floorClamped(Mirror * (float)N, 0, N), N - 1);
  }
  float U = Normalized ? S * (float)N : S;
  int I = floorClamped(U, -1, N);
  if (Mode == CLK_ADDRESS_CLAMP_TO_EDGE || Mode == CLK_ADDRESS_REPEAT ||
      Mode == CLK_ADDRESS_MIRRORED_REPEAT)
    I = clampInt(I, 0, N - 1);
  return I;
}

/// Linear filtering along one axis: the two texels and the weight of the
/// second.
static void linearIndices(float S, int N, uint Sampler, int *I0, int *I1,
                          float *Weight) {
  uint Mode = Sampler & ADDRESS_MASK;
  bool Normalized = Sampler & CLK_NORMALIZED_COORDS_TRUE;
  float U;
  if (Normalized && Mode == CLK_ADDRESS_REPEAT) {
    U = (S - __builtin_floorf(S)) * (float)N;
    int A = floorClamped(U - 0.5f, -1, N);
    int B = A + 1;
    *I0 = A < 0 ? N + A : A;
    *I1 = B > N - 1 ? B - N : B;
  } else if (Normalized && Mode == CLK_ADDRESS_MIRRORED_REPEAT) {
    float Mirror = __builtin_fabsf(S - 2.0f * __builtin_rintf(0.5f * S));
    U = Mirror * (float)N;
    int A = floorClamped(U - 0.5f, -1, N);
    *I0 = maxInt(A, 0);
    *I1 = minInt(A + 1, N - 1);
  } else {
    U = Normalized ? S * (float)N : S;
    int A = floorClamped(U - 0.5f, -2, N);
    int B = A + 1;
    if (Mode == CLK_ADDRESS_CLAMP_TO_EDGE || Mode == CLK_ADDRESS_REPEAT ||
        Mode == CLK_ADDRESS_MIRRORED_REPEAT) {
      A = clampInt(A, 0, N - 1);
      B = clampInt(B, 0, N - 1);
    } else {
      A = clampInt(A, -1, N);
      B = clampInt(B, -1, N);
    }
    *I0 = A;
    *I1 = B;
  }
  float T = U - 0.5f;
  *Weight = T - __builtin_floorf(T);
}

/// The layer of an image array: rint of the unnormalized coordinate,
/// clamped to the array.
static int layerIndex(float S, int Layers) {
  float R = __builtin_rintf(S);
  if (!(R >= 0.0f))
    return 0;
  if (R > (float)(Layers - 1))
    return Layers - 1;
  return (int)R;
}

/// Sampler-based read of float channels. Dims is 1, 2 or 3; an array's
/// layer coordinate follows the last spatial one.
static float4 sampleF(ImgPtr I, uint Sampler, float4 Coord, int Dims,
                      bool Arrayed) {
  int Size[3] = {I->Width, I->Height, I->Depth};
  int Fixed[3] = {0, 0, 0};
  if (Arrayed)
    Fixed[2] = layerIndex(Coord[Dims], I->ArraySize);
  if ((Sampler & 0x30) != CLK_FILTER_LINEAR) {
    int Idx[3] = {Fixed[0], Fixed[1], Fixed[2]};
    for (int D = 0; D < Dims; ++D)
      Idx[D] = nearestIndex(Coord[D], Size[D], Sampler);
    return fetchF(I, Idx[0], Idx[1], Idx[2]);
  }
  int Lo[3] = {Fixed[0], Fixed[1], Fixed[2]};
  int Hi[3] = {Fixed[0], Fixed[1], Fixed[2]};
  float W[3] = {0.0f, 0.0f, 0.0f};
  for (int D = 0; D < Dims; ++D)
    linearIndices(Coord[D], Size[D], Sampler, &Lo[D], &Hi[D], &W[D]);
  float4 Sum = (float4)(0.0f);
  int Corners = 1 << Dims;
  for (int K = 0; K < Corners; ++K) {
    int Idx[3] = {Lo[0], Lo[1], Lo[2]};
    float Weight = 1.0f;
    for (int D = 0; D < Dims; ++D) {
      bool Upper = (K >> D) & 1;
      Idx[D] = Upper ? Hi[D] : Lo[D];
      Weight *= Upper ? W[D] : 1.0f - W[D];
    }
    Sum += Weight * fetchF(I, Idx[0], Idx[1], Idx[2]);
  }
  return Sum;
}

/// Sampler-based read of integer channels: always nearest.
static uint4 sampleI(ImgPtr I, uint Sampler, float4 Coord, int Dims,
                     bool Arrayed) {
  int Size[3] = {I->Width, I->Height, I->Depth};
  int Idx[3] = {0, 0, 0};
  if (Arrayed)
    Idx[2] = layerIndex(Coord[Dims], I->ArraySize);
  for (int D = 0; D < Dims; ++D)
    Idx[D] = nearestIndex(Coord[D], Size[D], Sampler);
  return fetchI(I, Idx[0], Idx[1], Idx[2]);
}

/// Integer coordinates of a sampler-less access: (x, y, z), with an array's
/// layer as z.
static int4 texelCoord(int4 C, int Dims, bool Arrayed) {
  if (Dims == 1)
    return Arrayed ? (int4)(C.x, 0, C.y, 0) : (int4)(C.x, 0, 0, 0);
  if (Dims == 2)
    return (int4)(C.x, C.y, Arrayed ? C.z : 0, 0);
  return (int4)(C.x, C.y, C.z, 0);
}

static float4 WEFT_OVL widenF(float C) { return (float4)(C, 0.0f, 0.0f, 0.0f); }
static float4 WEFT_OVL widenF(float2 C) { return (float4)(C, 0.0f, 0.0f); }
static float4 WEFT_OVL widenF(float4 C) { return C; }
static float4 WEFT_OVL widenF(int C) { return (float4)((float)C, 0.0f, 0.0f, 0.0f); }
static float4 WEFT_OVL widenF(int2 C) { return (float4)((float2)((float)C.x, (float)C.y), 0.0f, 0.0f); }
static float4 WEFT_OVL widenF(int4 C) { return (float4)((float)C.x, (float)C.y, (float)C.z, (float)C.w); }
static int4 WEFT_OVL widenI(int C) { return (int4)(C, 0, 0, 0); }
static int4 WEFT_OVL widenI(int2 C) { return (int4)(C, 0, 0); }
static int4 WEFT_OVL widenI(int4 C) { return C; }

//===----------------------------------------------------------------------===//
// The builtins, for every image type
//===----------------------------------------------------------------------===//

// Reads with a sampler: read_only images, float or int coordinates.
#define WEFT_SAMPLED_READS(T, FC, IC, Dims, Arrayed)                           \
  float4 WEFT_OVL read_imagef(read_only T I, sampler_t S, FC C) {              \
    return sampleF(weft_desc(I), weft_sampler_bits(S), widenF(C), Dims,        \
                   Arrayed);                                                   \
  }                                                                            \
  float4 WEFT_OVL read_imagef(read_only T I, sampler_t S, IC C) {              \
    return sampleF(weft_desc(I), weft_sampler_bits(S), widenF(C), Dims,        \
                   Arrayed);                                                   \
  }                                                                            \
  int4 WEFT_OVL read_imagei(read_only T I, sampler_t S, FC C) {                \
    return as_int4(sampleI(weft_desc(I), weft_sampler_bits(S), widenF(C),      \
                           Dims, Arrayed));                                    \
  }                                                                            \
  int4 WEFT_OVL read_imagei(read_only T I, sampler_t S, IC C) {                \
    return as_int4(sampleI(weft_desc(I), weft_sampler_bits(S), widenF(C),      \
                           Dims, Arrayed));                                    \
  }                                                                            \
  uint4 WEFT_OVL read_imageui(read_only T I, sampler_t S, FC C) {              \
    return sampleI(weft_desc(I), weft_sampler_bits(S), widenF(C), Dims,        \
                   Arrayed);                                                   \
  }                                                                            \
  uint4 WEFT_OVL read_imageui(read_only T I, sampler_t S, IC C) {              \
    return sampleI(weft_desc(I), weft_sampler_bits(S), widenF(C), Dims,        \
                   Arrayed);                                                   \
  }

// Sampler-less reads and writes, for one access qualifier.
#define WEFT_TEXEL_READS(Access, T, IC, Dims, Arrayed)                         \
  float4 WEFT_OVL read_imagef(Access T I, IC C) {                              \
    int4 P = texelCoord(widenI(C), Dims, Arrayed);                             \
    return fetchF(weft_desc(I), P.x, P.y, P.z);                                \
  }                                                                            \
  int4 WEFT_OVL read_imagei(Access T I, IC C) {                                \
    int4 P = texelCoord(widenI(C), Dims, Arrayed);                             \
    return as_int4(fetchI(weft_desc(I), P.x, P.y, P.z));                       \
  }                                                                            \
  uint4 WEFT_OVL read_imageui(Access T I, IC C) {                              \
    int4 P = texelCoord(widenI(C), Dims, Arrayed);                             \
    return fetchI(weft_desc(I), P.x, P.y, P.z);                                \
  }

#define WEFT_TEXEL_WRITES(Access, T, IC, Dims, Arrayed)                        \
  void WEFT_OVL write_imagef(Access T I, IC C, float4 V) {                     \
    int4 P = texelCoord(widenI(C), Dims, Arrayed);                             \
    storeF(weft_desc(I), P.x, P.y, P.z, V);                                    \
  }                                                                            \
  void WEFT_OVL write_imagei(Access T I, IC C, int4 V) {                       \
    int4 P = texelCoord(widenI(C), Dims, Arrayed);                             \
    storeI(weft_desc(I), P.x, P.y, P.z, V);                                    \
  }                                                                            \
  void WEFT_OVL write_imageui(Access T I, IC C, uint4 V) {                     \
    int4 P = texelCoord(widenI(C), Dims, Arrayed);                             \
    storeU(weft_desc(I), P.x, P.y, P.z, V);                                    \
  }

#define WEFT_COMMON_QUERIES(Access, T)                                         \
  int WEFT_OVL get_image_width(Access T I) { return weft_desc(I)->Width; }     \
  int WEFT_OVL get_image_channel_data_type(Access T I) {                       \
    return (int)weft_desc(I)->Type;                                            \
  }                                                                            \
  int WEFT_OVL get_image_channel_order(Access T I) {                           \
    return (int)weft_desc(I)->Order;                                           \
  }

#define WEFT_HEIGHT_QUERY(Access, T)                                           \
  int WEFT_OVL get_image_height(Access T I) { return weft_desc(I)->Height; }
#define WEFT_ARRAY_QUERY(Access, T)                                            \
  size_t WEFT_OVL get_image_array_size(Access T I) {                           \
    return (size_t)weft_desc(I)->ArraySize;                                    \
  }
#define WEFT_DIM2_QUERY(Access, T)                                             \
  int2 WEFT_OVL get_image_dim(Access T I) {                                    \
    return (int2)(weft_desc(I)->Width, weft_desc(I)->Height);                  \
  }

#define WEFT_PER_ACCESS(Access)                                                \
  WEFT_COMMON_QUERIES(Access, image1d_t)                                       \
  WEFT_COMMON_QUERIES(Access, image1d_buffer_t)                                \
  WEFT_COMMON_QUERIES(Access, image1d_array_t)                                 \
  WEFT_COMMON_QUERIES(Access, image2d_t)                                       \
  WEFT_COMMON_QUERIES(Access, image2d_array_t)                                 \
  WEFT_COMMON_QUERIES(Access, image3d_t)                                       \
  WEFT_HEIGHT_QUERY(Access, image2d_t)                                         \
  WEFT_HEIGHT_QUERY(Access, image2d_array_t)                                   \
  WEFT_HEIGHT_QUERY(Access, image3d_t)                                         \
  WEFT_ARRAY_QUERY(Access, image1d_array_t)                                    \
  WEFT_ARRAY_QUERY(Access, image2d_array_t)                                    \
  WEFT_DIM2_QUERY(Access, image2d_t)                                           \
  WEFT_DIM2_QUERY(Access, image2d_array_t)                                     \
  int WEFT_OVL get_image_depth(Access image3d_t I) {                           \
    return weft_desc(I)->Depth;                                                \
  }                                                                            \
  int4 WEFT_OVL get_image_dim(Access image3d_t I) {                            \
    ImgPtr D = weft_desc(I);                                                   \
    return (int4)(D->Width, D->Height, D->Depth, 0);                           \
  }

#define WEFT_TEXEL_ACCESS(Macro, Access)                                       \
  Macro(Access, image1d_t, int, 1, false)                                      \
  Macro(Access, image1d_buffer_t, int, 1, false)                               \
  Macro(Access, image1d_array_t, int2, 1, true)                                \
  Macro(Access, image2d_t, int2, 2, false)                                     \
  Macro(Access, image2d_array_t, int4, 2, true)                                \
  Macro(Access, image3d_t, int4, 3, false)

WEFT_SAMPLED_READS(image1d_t, float, int, 1, false)
WEFT_SAMPLED_READS(image1d_array_t, float2, int2, 1, true)
WEFT_SAMPLED_READS(image2d_t, float2, int2, 2, false)
WEFT_SAMPLED_READS(image2d_array_t, float4, int4, 2, true)
WEFT_SAMPLED_READS(image3d_t, float4, int4, 3, false)

WEFT_TEXEL_ACCESS(WEFT_TEXEL_READS, read_only)
WEFT_TEXEL_ACCESS(WEFT_TEXEL_READS, read_write)
WEFT_TEXEL_ACCESS(WEFT_TEXEL_WRITES, write_only)
WEFT_TEXEL_ACCESS(WEFT_TEXEL_WRITES, read_write)

WEFT_PER_ACCESS(read_only)
WEFT_PER_ACCESS(write_only)
WEFT_PER_ACCESS(read_write)
