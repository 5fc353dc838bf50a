//===- common.cl - Integer, geometric and synchronization builtins --------===//
//
// Integer min/max/clamp/abs map to LLVM's smin/umin/smax/umax/abs
// intrinsics through clang's elementwise builtins, on whole vectors.
// Geometric functions are written per width (they exist for 1 to 4 only).
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#define DEF_INT_MINMAX(T, S, N)                                                \
  T WEFT_OVL min(T X, T Y) { return __builtin_elementwise_min(X, Y); }         \
  T WEFT_OVL max(T X, T Y) { return __builtin_elementwise_max(X, Y); }         \
  T WEFT_OVL clamp(T X, T L, T H) {                                            \
    return __builtin_elementwise_min(__builtin_elementwise_max(X, L), H);      \
  }                                                                            \
  WEFT_IF_VECTOR(                                                              \
      N,                                                                       \
      T WEFT_OVL min(T X, S Y) { return __builtin_elementwise_min(X, (T)Y); }  \
      T WEFT_OVL max(T X, S Y) { return __builtin_elementwise_max(X, (T)Y); }  \
      T WEFT_OVL clamp(T X, S L, S H) {                                        \
        return __builtin_elementwise_min(__builtin_elementwise_max(X, (T)L),   \
                                         (T)H);                                \
      })
WEFT_INTEGER_TYPES(DEF_INT_MINMAX)

// abs returns the unsigned type of the same width; abs(INT_MIN) is
// 2^31, which the bit pattern of the wrapped negation already is.
#define DEF_ABS_SIGNED(T, S, N)                                                \
  u##T WEFT_OVL abs(T X) {                                                     \
    return __builtin_astype((T)__builtin_elementwise_abs(X), u##T);             \
  }
#define DEF_ABS_UNSIGNED(T, S, N)                                              \
  T WEFT_OVL abs(T X) { return X; }
WEFT_WIDTHS(DEF_ABS_SIGNED, char)
WEFT_WIDTHS(DEF_ABS_SIGNED, short)
WEFT_WIDTHS(DEF_ABS_SIGNED, int)
WEFT_WIDTHS(DEF_ABS_SIGNED, long)
WEFT_WIDTHS(DEF_ABS_UNSIGNED, uchar)
WEFT_WIDTHS(DEF_ABS_UNSIGNED, ushort)
WEFT_WIDTHS(DEF_ABS_UNSIGNED, uint)
WEFT_WIDTHS(DEF_ABS_UNSIGNED, ulong)

#define DEF_GEOMETRIC(S)                                                       \
  S WEFT_OVL dot(S X, S Y) { return X * Y; }                                   \
  S WEFT_OVL dot(S##2 X, S##2 Y) { return X.x * Y.x + X.y * Y.y; }             \
  S WEFT_OVL dot(S##3 X, S##3 Y) {                                             \
    return X.x * Y.x + X.y * Y.y + X.z * Y.z;                                  \
  }                                                                            \
  S WEFT_OVL dot(S##4 X, S##4 Y) {                                             \
    return X.x * Y.x + X.y * Y.y + X.z * Y.z + X.w * Y.w;                      \
  }                                                                            \
  S##3 WEFT_OVL cross(S##3 X, S##3 Y) {                                        \
    return (S##3)(X.y * Y.z - X.z * Y.y, X.z * Y.x - X.x * Y.z,                \
                  X.x * Y.y - X.y * Y.x);                                      \
  }                                                                            \
  S##4 WEFT_OVL cross(S##4 X, S##4 Y) {                                        \
    return (S##4)(X.y * Y.z - X.z * Y.y, X.z * Y.x - X.x * Y.z,                \
                  X.x * Y.y - X.y * Y.x, 0);                                   \
  }                                                                            \
  DEF_GEOMETRIC_WIDTH(S, S)                                                    \
  DEF_GEOMETRIC_WIDTH(S##2, S)                                                 \
  DEF_GEOMETRIC_WIDTH(S##3, S)                                                 \
  DEF_GEOMETRIC_WIDTH(S##4, S)
// length squares its argument, which overflows or underflows long before
// the length itself does: out of the safe range the vector is scaled by a
// power of two (exact) first. Big/Small bound dot(X, X); Up/Down scale.
#define DEF_GEOMETRIC_WIDTH(T, S)                                              \
  S WEFT_OVL length(T X) {                                                     \
    S D = dot(X, X);                                                           \
    if (D == (S)INFINITY) {                                                    \
      T Y = X * GEO_DOWN_##S;                                                  \
      return __builtin_elementwise_sqrt(dot(Y, Y)) * GEO_UP_##S;               \
    }                                                                          \
    if (D < GEO_SMALL_##S) {                                                   \
      T Y = X * GEO_UP_##S;                                                    \
      return __builtin_elementwise_sqrt(dot(Y, Y)) * GEO_DOWN_##S;             \
    }                                                                          \
    return __builtin_elementwise_sqrt(D);                                      \
  }                                                                            \
  S WEFT_OVL distance(T X, T Y) { return length(X - Y); }
#define GEO_SMALL_float 0x1p-100f
#define GEO_UP_float 0x1p+80f
#define GEO_DOWN_float 0x1p-80f
#define GEO_SMALL_double 0x1p-900
#define GEO_UP_double 0x1p+600
#define GEO_DOWN_double 0x1p-600

// fast_*: half_sqrt/half_rsqrt-level accuracy is allowed; float only.
#define DEF_FAST_GEOMETRIC(T)                                                  \
  float WEFT_OVL fast_length(T X) {                                            \
    return __builtin_elementwise_sqrt(dot(X, X));                              \
  }                                                                            \
  float WEFT_OVL fast_distance(T X, T Y) { return fast_length(X - Y); }        \
  T WEFT_OVL fast_normalize(T X) {                                             \
    float D = dot(X, X);                                                       \
    return D == 0.0f ? X : X * (1.0f / __builtin_elementwise_sqrt(D));         \
  }
DEF_FAST_GEOMETRIC(float)
DEF_FAST_GEOMETRIC(float2)
DEF_FAST_GEOMETRIC(float3)
DEF_FAST_GEOMETRIC(float4)

DEF_GEOMETRIC(float)
DEF_GEOMETRIC(double)

// normalize, with the special cases of the specification: zero stays zero,
// infinite components become +-1 and the others 0 before normalizing.
// Scaling the whole vector by a fixed power of two when its squared length
// overflowed cost the small components their bits as they became
// denormal: normalize(float4) gave 0x1.15b8p-136 for 0x1.17b8p-136.
// Floats are normalized in double, where no sum of squares of floats
// overflows or underflows, and rounded once. Doubles are scaled so that
// the largest magnitude lies in [1, 2): a component that becomes denormal
// then is one whose quotient by the length is denormal too, and loses no
// more than that quotient's own rounding.
#define NORMALIZE_SPECIALS(T, S)                                               \
  T A = __builtin_elementwise_abs(X);                                          \
  if (any(A == (S)INFINITY))                                                   \
    X = A == (S)INFINITY ? __builtin_elementwise_copysign((T)1, X) : (T)0 * X;
#define DEF_NORMALIZE_FLOAT(N)                                                 \
  float##N WEFT_OVL normalize(float##N X) {                                    \
    NORMALIZE_SPECIALS(float##N, float)                                        \
    double##N D = convert_double##N(X);                                        \
    double L2 = dot(D, D);                                                     \
    if (L2 == 0)                                                               \
      return X;                                                                \
    return convert_float##N(D / __builtin_elementwise_sqrt(L2));               \
  }
DEF_NORMALIZE_FLOAT()
DEF_NORMALIZE_FLOAT(2)
DEF_NORMALIZE_FLOAT(3)
DEF_NORMALIZE_FLOAT(4)
static inline double WEFT_OVL largestMagnitude(double A) { return A; }
static inline double WEFT_OVL largestMagnitude(double2 A) {
  return __builtin_fmax(A.x, A.y);
}
static inline double WEFT_OVL largestMagnitude(double3 A) {
  return __builtin_fmax(__builtin_fmax(A.x, A.y), A.z);
}
static inline double WEFT_OVL largestMagnitude(double4 A) {
  return __builtin_fmax(__builtin_fmax(A.x, A.y), __builtin_fmax(A.z, A.w));
}
#define DEF_NORMALIZE_DOUBLE(N)                                                \
  double##N WEFT_OVL normalize(double##N X) {                                  \
    NORMALIZE_SPECIALS(double##N, double)                                      \
    double M = largestMagnitude(__builtin_elementwise_abs(X));                 \
    if (M == 0)                                                                \
      return X;                                                                \
    X = ldexp(X, -ilogb(M));                                                   \
    return X / __builtin_elementwise_sqrt(dot(X, X));                          \
  }
DEF_NORMALIZE_DOUBLE()
DEF_NORMALIZE_DOUBLE(2)
DEF_NORMALIZE_DOUBLE(3)
DEF_NORMALIZE_DOUBLE(4)

// Common functions (section 6.12.4) that math.cl does not define.
#define DEF_COMMON(T, S, N)                                                    \
  T WEFT_OVL degrees(T R) { return R * (T)(180 / M_PI); }                      \
  T WEFT_OVL radians(T D) { return D * (T)(M_PI / 180); }                      \
  T WEFT_OVL step(T Edge, T X) { return X < Edge ? (T)0 : (T)1; }              \
  T WEFT_OVL smoothstep(T E0, T E1, T X) {                                     \
    T U = __builtin_elementwise_min(                                           \
        __builtin_elementwise_max((X - E0) / (E1 - E0), (T)0), (T)1);          \
    return U * U * ((T)3 - (T)2 * U);                                          \
  }                                                                            \
  /* 1 or -1 by sign; zeros keep theirs, NaN gives 0.                      */ \
  T WEFT_OVL sign(T X) {                                                       \
    return X > (T)0 ? (T)1 : X < (T)0 ? (T)-1 : X == X ? X : (T)0;             \
  }                                                                            \
  WEFT_IF_VECTOR(                                                              \
      N, T WEFT_OVL step(S Edge, T X) { return step((T)Edge, X); }             \
      T WEFT_OVL smoothstep(S E0, S E1, T X) {                                 \
        return smoothstep((T)E0, (T)E1, X);                                    \
      })
WEFT_FLOAT_TYPES(DEF_COMMON)

// Within one work-item program order already orders its accesses, and a
// barrier-free work-group has nothing to synchronize with; the fences
// become real once work-items of a group run concurrently.
void WEFT_OVL mem_fence(cl_mem_fence_flags Flags) {}
void WEFT_OVL read_mem_fence(cl_mem_fence_flags Flags) {}
void WEFT_OVL write_mem_fence(cl_mem_fence_flags Flags) {}
