//===- relational.cl - Relational builtins (OpenCL C 1.2 section 6.12.6) --===//
//
// OpenCL C's own comparison operators already follow the builtins'
// convention: a scalar comparison is the int 1 or 0, a vector comparison
// is -1 or 0 in the signed integer type of the operands' element size
// (intN for float, longN for double). So every predicate is one
// expression valid for scalars and vectors alike, and stays a vector
// compare in IR.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

// R is the result type: int for scalars, the signed integer vector of the
// element size otherwise. IB is the integer type of the same layout as T,
// for the sign bit.
#define DEF_FLOAT_RELATIONAL(T, R, IB, INF, MINNORM, SHIFT)                    \
  R WEFT_OVL isequal(T X, T Y) { return X == Y; }                              \
  R WEFT_OVL isnotequal(T X, T Y) { return X != Y; }                           \
  R WEFT_OVL isgreater(T X, T Y) { return X > Y; }                             \
  R WEFT_OVL isgreaterequal(T X, T Y) { return X >= Y; }                       \
  R WEFT_OVL isless(T X, T Y) { return X < Y; }                                \
  R WEFT_OVL islessequal(T X, T Y) { return X <= Y; }                          \
  R WEFT_OVL islessgreater(T X, T Y) { return (X < Y) | (X > Y); }             \
  R WEFT_OVL isfinite(T X) { return __builtin_elementwise_abs(X) < INF; }      \
  R WEFT_OVL isinf(T X) { return __builtin_elementwise_abs(X) == INF; }        \
  R WEFT_OVL isnan(T X) { return X != X; }                                     \
  R WEFT_OVL isnormal(T X) {                                                   \
    T A = __builtin_elementwise_abs(X);                                        \
    return (A >= MINNORM) & (A < INF);                                         \
  }                                                                            \
  R WEFT_OVL isordered(T X, T Y) { return (X == X) & (Y == Y); }               \
  R WEFT_OVL isunordered(T X, T Y) { return (X != X) | (Y != Y); }             \
  R WEFT_OVL signbit(T X) { return SIGNBIT(IB, X, SHIFT); }

// Scalars: the sign bit shifted down logically (1 or 0); vectors: shifted
// arithmetically (-1 or 0).
#define SIGNBIT_SCALAR(IB, X, SHIFT) (int)(as_u##IB(X) >> SHIFT)
#define SIGNBIT_VECTOR(IB, X, SHIFT) as_##IB(X) >> SHIFT

#define SIGNBIT SIGNBIT_SCALAR
DEF_FLOAT_RELATIONAL(float, int, int, INFINITY, FLT_MIN, 31)
DEF_FLOAT_RELATIONAL(double, int, long, (double)INFINITY, DBL_MIN, 63)
#undef SIGNBIT
#define SIGNBIT SIGNBIT_VECTOR
#define DEF_FLOAT_RELATIONAL_VECTORS(N)                                        \
  DEF_FLOAT_RELATIONAL(float##N, int##N, int##N, INFINITY, FLT_MIN, 31)        \
  DEF_FLOAT_RELATIONAL(double##N, long##N, long##N, (double)INFINITY, DBL_MIN, \
                       63)
DEF_FLOAT_RELATIONAL_VECTORS(2)
DEF_FLOAT_RELATIONAL_VECTORS(3)
DEF_FLOAT_RELATIONAL_VECTORS(4)
DEF_FLOAT_RELATIONAL_VECTORS(8)
DEF_FLOAT_RELATIONAL_VECTORS(16)
#undef SIGNBIT

// any and all look at the most significant bit of each component.
#define DEF_ANY_ALL_SCALAR(T, S, N)                                            \
  int WEFT_OVL any(T X) { return X < 0; }                                      \
  int WEFT_OVL all(T X) { return X < 0; }
#define DEF_ANY_ALL_VECTOR(T, S, N)                                            \
  int WEFT_OVL any(T X) { return __builtin_reduce_or(X) < 0; }                 \
  int WEFT_OVL all(T X) { return __builtin_reduce_and(X) < 0; }
#define DEF_ANY_ALL(T, S, N)                                                   \
  WEFT_IF_VECTOR(N, DEF_ANY_ALL_VECTOR(T, S, N))                               \
  WEFT_IF_SCALAR(N, DEF_ANY_ALL_SCALAR(T, S, N))
WEFT_WIDTHS(DEF_ANY_ALL, char)
WEFT_WIDTHS(DEF_ANY_ALL, short)
WEFT_WIDTHS(DEF_ANY_ALL, int)
WEFT_WIDTHS(DEF_ANY_ALL, long)

// bitselect: each bit from B where C has a one, else from A. Floating
// point operands go through their integer layout.
#define DEF_BITSELECT_INT(T, S, N)                                             \
  T WEFT_OVL bitselect(T A, T B, T C) { return (A & ~C) | (B & C); }
#define DEF_BITSELECT_FLOAT(T, I)                                              \
  T WEFT_OVL bitselect(T A, T B, T C) {                                        \
    I IA = as_##I(A), IB = as_##I(B), IC = as_##I(C);                          \
    return as_##T((IA & ~IC) | (IB & IC));                                     \
  }
WEFT_INTEGER_TYPES(DEF_BITSELECT_INT)
// One more expansion level, so that I is expanded before it is pasted.
#define DEF_BITSELECT_FLOAT_(T, I) DEF_BITSELECT_FLOAT(T, I)
#define DEF_BITSELECT_FLOATS(T, S, N)                                          \
  DEF_BITSELECT_FLOAT_(T, WEFT_INT_OF_##S(N))
#define WEFT_INT_OF_float(N) WEFT_SUFFIX(uint, N)
#define WEFT_INT_OF_double(N) WEFT_SUFFIX(ulong, N)
WEFT_FLOAT_TYPES(DEF_BITSELECT_FLOATS)

// select: for scalars, C != 0 picks B; for vectors, the most significant
// bit of each component of C does. C is signed or unsigned of A's element
// size.
#define DEF_SELECT_SCALAR(T, I, U)                                             \
  T WEFT_OVL select(T A, T B, I C) { return C ? B : A; }                       \
  T WEFT_OVL select(T A, T B, U C) { return C ? B : A; }
#define DEF_SELECT_VECTOR(T, I, U)                                             \
  T WEFT_OVL select(T A, T B, I C) { return C < (I)0 ? B : A; }                \
  T WEFT_OVL select(T A, T B, U C) { return as_##I(C) < (I)0 ? B : A; }
#define DEF_SELECT_WIDTHS(S, I, U)                                             \
  DEF_SELECT_SCALAR(S, I, U)                                                   \
  DEF_SELECT_VECTOR(S##2, I##2, U##2)                                          \
  DEF_SELECT_VECTOR(S##3, I##3, U##3)                                          \
  DEF_SELECT_VECTOR(S##4, I##4, U##4)                                          \
  DEF_SELECT_VECTOR(S##8, I##8, U##8)                                          \
  DEF_SELECT_VECTOR(S##16, I##16, U##16)
DEF_SELECT_WIDTHS(char, char, uchar)
DEF_SELECT_WIDTHS(uchar, char, uchar)
DEF_SELECT_WIDTHS(short, short, ushort)
DEF_SELECT_WIDTHS(ushort, short, ushort)
DEF_SELECT_WIDTHS(int, int, uint)
DEF_SELECT_WIDTHS(uint, int, uint)
DEF_SELECT_WIDTHS(long, long, ulong)
DEF_SELECT_WIDTHS(ulong, long, ulong)
DEF_SELECT_WIDTHS(float, int, uint)
DEF_SELECT_WIDTHS(double, long, ulong)
