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
#define DEF_GEOMETRIC_WIDTH(T, S)                                              \
  S WEFT_OVL length(T X) { return __builtin_elementwise_sqrt(dot(X, X)); }     \
  S WEFT_OVL distance(T X, T Y) { return length(X - Y); }                      \
  T WEFT_OVL normalize(T X) {                                                  \
    return X * ((S)1 / __builtin_elementwise_sqrt(dot(X, X)));                 \
  }
DEF_GEOMETRIC(float)
DEF_GEOMETRIC(double)

// Within one work-item program order already orders its accesses, and a
// barrier-free work-group has nothing to synchronize with; the fences
// become real once work-items of a group run concurrently.
void WEFT_OVL mem_fence(cl_mem_fence_flags Flags) {}
void WEFT_OVL read_mem_fence(cl_mem_fence_flags Flags) {}
void WEFT_OVL write_mem_fence(cl_mem_fence_flags Flags) {}
