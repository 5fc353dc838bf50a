//===- convert.cl - convert_<type>() with the default rounding ------------===//
//
// C casts and __builtin_convertvector already round the way the default
// conversions must (toward zero to integers, to nearest to floating point).
// The _sat and _rt* variants are left to the full library.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#define DEF_CONVERT_SCALAR(D, S) D WEFT_OVL convert_##D(S X) { return (D)X; }
#define DEF_CONVERT_VECTOR(D, S, N)                                            \
  D##N WEFT_OVL convert_##D##N(S##N X) {                                       \
    return __builtin_convertvector(X, D##N);                                   \
  }
#define DEF_CONVERT(D, S)                                                      \
  DEF_CONVERT_SCALAR(D, S)                                                     \
  DEF_CONVERT_VECTOR(D, S, 2)                                                  \
  DEF_CONVERT_VECTOR(D, S, 3)                                                  \
  DEF_CONVERT_VECTOR(D, S, 4)                                                  \
  DEF_CONVERT_VECTOR(D, S, 8)                                                  \
  DEF_CONVERT_VECTOR(D, S, 16)
#define DEF_CONVERT_FROM_ALL(D)                                                \
  DEF_CONVERT(D, char)                                                         \
  DEF_CONVERT(D, uchar)                                                        \
  DEF_CONVERT(D, short)                                                        \
  DEF_CONVERT(D, ushort)                                                       \
  DEF_CONVERT(D, int)                                                          \
  DEF_CONVERT(D, uint)                                                         \
  DEF_CONVERT(D, long)                                                         \
  DEF_CONVERT(D, ulong)                                                        \
  DEF_CONVERT(D, float)                                                        \
  DEF_CONVERT(D, double)

DEF_CONVERT_FROM_ALL(char)
DEF_CONVERT_FROM_ALL(uchar)
DEF_CONVERT_FROM_ALL(short)
DEF_CONVERT_FROM_ALL(ushort)
DEF_CONVERT_FROM_ALL(int)
DEF_CONVERT_FROM_ALL(uint)
DEF_CONVERT_FROM_ALL(long)
DEF_CONVERT_FROM_ALL(ulong)
DEF_CONVERT_FROM_ALL(float)
DEF_CONVERT_FROM_ALL(double)
