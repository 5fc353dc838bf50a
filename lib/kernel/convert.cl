//===- convert.cl - Explicit conversions (OpenCL C 1.2 section 6.2.3) -----===//
//
// convert_<dest>[_sat][_rte|_rtz|_rtp|_rtn](<src>) for every pair of the
// ten scalar types and every width. The cases:
//
//   integer <- integer   modes are irrelevant; _sat clamps in the source
//                        type to the intersection of both ranges, then
//                        truncates.
//   integer <- float     the mode is a rounding function (rint, trunc,
//                        ceil, floor) before the truncating conversion;
//                        _sat maps NaN to 0 and clamps (see SAT_FROM_FLOAT).
//   float <- integer,    exact where the destination holds every source
//   float <- float       value; otherwise the default (and _rte) is the
//                        hardware's round-to-nearest conversion, and the
//                        directed modes correct that result by one ulp
//                        after an exact comparison with the source.
//
// Whole-vector conversions are __builtin_convertvector, which becomes one
// LLVM vector cast; only the directed float conversions, which programs
// rarely use, go component by component.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

// FOR_W(M, ...) calls M(Suffix, Count, Kind, ...): Kind S for scalars, V for
// vectors.
#define FOR_W(M, ...)                                                          \
  M(, 1, S, __VA_ARGS__)                                                       \
  M(2, 2, V, __VA_ARGS__)                                                      \
  M(3, 3, V, __VA_ARGS__)                                                      \
  M(4, 4, V, __VA_ARGS__)                                                      \
  M(8, 8, V, __VA_ARGS__) M(16, 16, V, __VA_ARGS__)

// The plain conversion: C's cast for scalars, one vector cast otherwise.
#define CVT_S(D, W, X) ((D)(X))
#define CVT_V(D, W, X) __builtin_convertvector(X, D##W)
// A comparison result (scalar 1/0, vector -1/0) as an all-ones/zero mask of
// type D.
#define MASK_S(D, W, M) ((D)(-(M)))
#define MASK_V(D, W, M) __builtin_convertvector(M, D##W)

#define LIMIT_MIN_char CHAR_MIN
#define LIMIT_MAX_char CHAR_MAX
#define LIMIT_MIN_uchar 0
#define LIMIT_MAX_uchar UCHAR_MAX
#define LIMIT_MIN_short SHRT_MIN
#define LIMIT_MAX_short SHRT_MAX
#define LIMIT_MIN_ushort 0
#define LIMIT_MAX_ushort USHRT_MAX
#define LIMIT_MIN_int INT_MIN
#define LIMIT_MAX_int INT_MAX
#define LIMIT_MIN_uint 0
#define LIMIT_MAX_uint UINT_MAX
#define LIMIT_MIN_long LONG_MIN
#define LIMIT_MAX_long LONG_MAX
#define LIMIT_MIN_ulong 0
#define LIMIT_MAX_ulong ULONG_MAX
// 2^(bits of D's magnitude): the least float value above D's range.
#define LIMIT_UP_char 0x1p7
#define LIMIT_UP_uchar 0x1p8
#define LIMIT_UP_short 0x1p15
#define LIMIT_UP_ushort 0x1p16
#define LIMIT_UP_int 0x1p31
#define LIMIT_UP_uint 0x1p32
#define LIMIT_UP_long 0x1p63
#define LIMIT_UP_ulong 0x1p64
#define LIMIT_LOW_char (-0x1p7)
#define LIMIT_LOW_uchar 0.0
#define LIMIT_LOW_short (-0x1p15)
#define LIMIT_LOW_ushort 0.0
#define LIMIT_LOW_int (-0x1p31)
#define LIMIT_LOW_uint 0.0
#define LIMIT_LOW_long (-0x1p63)
#define LIMIT_LOW_ulong 0.0
// The largest value below 1 of each floating type: LIMIT_UP times this is
// the largest value that converts without overflow.
#define BELOW_ONE_float (1.0f - FLT_EPSILON / 2)
#define BELOW_ONE_double (1.0 - DBL_EPSILON / 2)

// The rounding function of each mode, for float -> integer.
#define ROUND_(X) X
#define ROUND__rtz(X) X
#define ROUND__rte(X) __builtin_elementwise_rint(X)
#define ROUND__rtp(X) __builtin_elementwise_ceil(X)
#define ROUND__rtn(X) __builtin_elementwise_floor(X)

//===----------------------------------------------------------------------===//
// integer <- integer
//===----------------------------------------------------------------------===//

// The intersection of D's and S's ranges, in S. Every minimum is <= 0 and
// fits a long, every maximum is > 0 and fits a ulong.
#define SAT_LO(D, S)                                                           \
  ((long)LIMIT_MIN_##D > (long)LIMIT_MIN_##S ? (S)LIMIT_MIN_##D                \
                                             : (S)LIMIT_MIN_##S)
#define SAT_HI(D, S)                                                           \
  ((ulong)LIMIT_MAX_##D < (ulong)LIMIT_MAX_##S ? (S)LIMIT_MAX_##D              \
                                               : (S)LIMIT_MAX_##S)

#define DEF_INT_MODE(W, D, S, MODE)                                            \
  D##W WEFT_OVL convert_##D##W##MODE(S##W X) { return convert_##D##W(X); }     \
  D##W WEFT_OVL convert_##D##W##_sat##MODE(S##W X) {                           \
    return convert_##D##W##_sat(X);                                            \
  }
// The casts back to S##W undo clang's promotion of scalar chars and shorts
// in the elementwise builtins; the clamped value fits S.
#define DEF_INT_FROM_INT(W, N, K, D, S)                                        \
  D##W WEFT_OVL convert_##D##W(S##W X) { return CVT_##K(D, W, X); }            \
  D##W WEFT_OVL convert_##D##W##_sat(S##W X) {                                 \
    S##W C = (S##W)__builtin_elementwise_max(X, (S##W)SAT_LO(D, S));           \
    C = (S##W)__builtin_elementwise_min(C, (S##W)SAT_HI(D, S));                \
    return CVT_##K(D, W, C);                                                   \
  }                                                                            \
  DEF_INT_MODE(W, D, S, _rte)                                                  \
  DEF_INT_MODE(W, D, S, _rtz)                                                  \
  DEF_INT_MODE(W, D, S, _rtp)                                                  \
  DEF_INT_MODE(W, D, S, _rtn)

//===----------------------------------------------------------------------===//
// integer <- float
//===----------------------------------------------------------------------===//

// _sat: NaN becomes 0; the rounded value is clamped to [LOW, largest value
// below UP], which converts without overflow. Where D's maximum is not a
// float (INT_MAX, LONG_MAX, ...), values at or above UP then convert to
// something a little below it: OR-ing D's maximum into exactly those lanes
// (their result is positive, so the OR gives the maximum) fixes them.
#define DEF_INT_FROM_FLOAT_MODE(W, K, D, S, MODE)                              \
  D##W WEFT_OVL convert_##D##W##MODE(S##W X) {                                 \
    return CVT_##K(D, W, ROUND_##MODE(X));                                     \
  }                                                                            \
  D##W WEFT_OVL convert_##D##W##_sat##MODE(S##W X) {                           \
    S##W R = ROUND_##MODE(X);                                                  \
    D##W Over = MASK_##K(D, W, R >= (S)LIMIT_UP_##D);                          \
    R = R == R ? R : (S##W)0;                                                  \
    R = __builtin_elementwise_max(R, (S##W)(S)LIMIT_LOW_##D);                  \
    R = __builtin_elementwise_min(                                             \
        R, (S##W)((S)LIMIT_UP_##D * BELOW_ONE_##S));                           \
    return CVT_##K(D, W, R) | (Over & (D##W)LIMIT_MAX_##D);                    \
  }
#define DEF_INT_FROM_FLOAT(W, N, K, D, S)                                      \
  DEF_INT_FROM_FLOAT_MODE(W, K, D, S, )                                        \
  DEF_INT_FROM_FLOAT_MODE(W, K, D, S, _rte)                                    \
  DEF_INT_FROM_FLOAT_MODE(W, K, D, S, _rtz)                                    \
  DEF_INT_FROM_FLOAT_MODE(W, K, D, S, _rtp)                                    \
  DEF_INT_FROM_FLOAT_MODE(W, K, D, S, _rtn)

//===----------------------------------------------------------------------===//
// float <- integer, float <- float
//===----------------------------------------------------------------------===//

#define DEF_FLOAT_EXACT(W, N, K, D, S)                                         \
  D##W WEFT_OVL convert_##D##W(S##W X) { return CVT_##K(D, W, X); }            \
  D##W WEFT_OVL convert_##D##W##_rte(S##W X) { return CVT_##K(D, W, X); }      \
  D##W WEFT_OVL convert_##D##W##_rtz(S##W X) { return CVT_##K(D, W, X); }      \
  D##W WEFT_OVL convert_##D##W##_rtp(S##W X) { return CVT_##K(D, W, X); }      \
  D##W WEFT_OVL convert_##D##W##_rtn(S##W X) { return CVT_##K(D, W, X); }

// Directed rounding of one value. R, the nearest D, is compared exactly
// with X (Cmp: 1 if R > X, -1 if R < X). R overshoots when it lies
// further from zero than X and falls short when nearer; one step of the
// bit pattern moves a finite R to its neighbour away from (+1) or toward
// (-1) zero, and the infinity a too-large double rounds to onto the
// largest float.
enum { WeftRTZ, WeftRTP, WeftRTN };
#define DEF_DIRECTED(D, DB, S, CMP)                                            \
  static inline D directed_##D##_##S(S X, int Mode) {                          \
    D R = (D)X;                                                                \
    int Cmp = CMP(R, X);                                                       \
    bool Neg = X < (S)0;                                                       \
    bool Over = Neg ? Cmp < 0 : Cmp > 0, Under = Neg ? Cmp > 0 : Cmp < 0;      \
    int Step = Mode == WeftRTZ   ? (Over ? -1 : 0)                             \
               : Mode == WeftRTP ? (Neg ? (Over ? -1 : 0) : (Under ? 1 : 0))   \
                                 : (Neg ? (Under ? 1 : 0) : (Over ? -1 : 0));  \
    return as_##D(as_##DB(R) + (DB)(long)Step);                                \
  }
// The comparisons: 32-bit integers compare in long (R is an integer of at
// most 2^32); 64-bit ones in their own type unless R rounded up to 2^63 or
// 2^64, just outside it; a double compares with the float widened exactly.
#define CMP_IN_LONG(R, X) (((long)R > (long)X) - ((long)R < (long)X))
#define CMP_LONG(R, X)                                                         \
  (R >= 0x1p63 ? 1 : ((long)R > X) - ((long)R < X))
#define CMP_ULONG(R, X)                                                        \
  (R >= 0x1p64 ? 1 : ((ulong)R > X) - ((ulong)R < X))
#define CMP_DOUBLE(R, X) (((double)R > X) - ((double)R < X))
DEF_DIRECTED(float, uint, int, CMP_IN_LONG)
DEF_DIRECTED(float, uint, uint, CMP_IN_LONG)
DEF_DIRECTED(float, uint, long, CMP_LONG)
DEF_DIRECTED(float, uint, ulong, CMP_ULONG)
DEF_DIRECTED(double, ulong, long, CMP_LONG)
DEF_DIRECTED(double, ulong, ulong, CMP_ULONG)
DEF_DIRECTED(float, uint, double, CMP_DOUBLE)

#define DIRECTED_S(W, N, D, S, MODE) return directed_##D##_##S(X, MODE);
#define DIRECTED_V(W, N, D, S, MODE)                                           \
  D##W R;                                                                      \
  for (int I = 0; I < N; ++I)                                                  \
    R[I] = directed_##D##_##S(X[I], MODE);                                     \
  return R;
#define DEF_FLOAT_INEXACT(W, N, K, D, S)                                       \
  D##W WEFT_OVL convert_##D##W(S##W X) { return CVT_##K(D, W, X); }            \
  D##W WEFT_OVL convert_##D##W##_rte(S##W X) { return CVT_##K(D, W, X); }      \
  D##W WEFT_OVL convert_##D##W##_rtz(S##W X) {                                 \
    DIRECTED_##K(W, N, D, S, WeftRTZ)                                          \
  }                                                                            \
  D##W WEFT_OVL convert_##D##W##_rtp(S##W X) {                                 \
    DIRECTED_##K(W, N, D, S, WeftRTP)                                          \
  }                                                                            \
  D##W WEFT_OVL convert_##D##W##_rtn(S##W X) {                                 \
    DIRECTED_##K(W, N, D, S, WeftRTN)                                          \
  }

//===----------------------------------------------------------------------===//
// The pairs
//===----------------------------------------------------------------------===//

#define DEF_INT_FROM_ALL(D)                                                    \
  FOR_W(DEF_INT_FROM_INT, D, char)                                             \
  FOR_W(DEF_INT_FROM_INT, D, uchar)                                            \
  FOR_W(DEF_INT_FROM_INT, D, short)                                            \
  FOR_W(DEF_INT_FROM_INT, D, ushort)                                           \
  FOR_W(DEF_INT_FROM_INT, D, int)                                              \
  FOR_W(DEF_INT_FROM_INT, D, uint)                                             \
  FOR_W(DEF_INT_FROM_INT, D, long)                                             \
  FOR_W(DEF_INT_FROM_INT, D, ulong)                                            \
  FOR_W(DEF_INT_FROM_FLOAT, D, float)                                          \
  FOR_W(DEF_INT_FROM_FLOAT, D, double)
DEF_INT_FROM_ALL(char)
DEF_INT_FROM_ALL(uchar)
DEF_INT_FROM_ALL(short)
DEF_INT_FROM_ALL(ushort)
DEF_INT_FROM_ALL(int)
DEF_INT_FROM_ALL(uint)
DEF_INT_FROM_ALL(long)
DEF_INT_FROM_ALL(ulong)

FOR_W(DEF_FLOAT_EXACT, float, char)
FOR_W(DEF_FLOAT_EXACT, float, uchar)
FOR_W(DEF_FLOAT_EXACT, float, short)
FOR_W(DEF_FLOAT_EXACT, float, ushort)
FOR_W(DEF_FLOAT_INEXACT, float, int)
FOR_W(DEF_FLOAT_INEXACT, float, uint)
FOR_W(DEF_FLOAT_INEXACT, float, long)
FOR_W(DEF_FLOAT_INEXACT, float, ulong)
FOR_W(DEF_FLOAT_EXACT, float, float)
FOR_W(DEF_FLOAT_INEXACT, float, double)

FOR_W(DEF_FLOAT_EXACT, double, char)
FOR_W(DEF_FLOAT_EXACT, double, uchar)
FOR_W(DEF_FLOAT_EXACT, double, short)
FOR_W(DEF_FLOAT_EXACT, double, ushort)
FOR_W(DEF_FLOAT_EXACT, double, int)
FOR_W(DEF_FLOAT_EXACT, double, uint)
FOR_W(DEF_FLOAT_INEXACT, double, long)
FOR_W(DEF_FLOAT_INEXACT, double, ulong)
FOR_W(DEF_FLOAT_EXACT, double, float)
FOR_W(DEF_FLOAT_EXACT, double, double)
