//===- math.cl - Math builtins (OpenCL C 1.2 section 6.12.2) --------------===//
//
// Where an LLVM intrinsic has the exact semantics (sqrt, fma, floor, fabs,
// fmin/fmax as minnum/maxnum, ...) the builtin is clang's elementwise
// builtin, which becomes that intrinsic on the whole vector. The
// transcendental intrinsics (sin, exp, pow, ...) are lowered by the code
// generator to the host libm (sinf, exp, ...), resolved in-process when the
// kernel is loaded, for the scalar forms; their vector forms call SLEEF
// (sleef.cl), and VectorMathVariants.cpp gives the scalar calls SLEEF
// variants for the loop vectorizer.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#define DEF_UNARY(T, S, N, NAME, BUILTIN)                                      \
  T WEFT_OVL NAME(T X) { return BUILTIN(X); }

#define DEF_BINARY(T, S, N, NAME, BUILTIN)                                     \
  T WEFT_OVL NAME(T X, T Y) { return BUILTIN(X, Y); }

#define DEF_BINARY_SCALAR(T, S, N, NAME, BUILTIN)                              \
  DEF_BINARY(T, S, N, NAME, BUILTIN)                                           \
  WEFT_IF_VECTOR(N, T WEFT_OVL NAME(T X, S Y) { return BUILTIN(X, (T)Y); })

#define DEF_TERNARY(T, S, N, NAME, BUILTIN)                                    \
  T WEFT_OVL NAME(T X, T Y, T Z) { return BUILTIN(X, Y, Z); }

// Type lists bound to one builtin each (the preprocessor cannot pass extra
// arguments through WEFT_WIDTHS, so each gets a two-line adaptor).
#define FLOAT_UNARY(NAME, BUILTIN)                                             \
  FLOAT_UNARY_LIST(NAME, BUILTIN, float)                                       \
  FLOAT_UNARY_LIST(NAME, BUILTIN, double)
#define FLOAT_UNARY_LIST(NAME, BUILTIN, S)                                     \
  DEF_UNARY(S, S, 1, NAME, BUILTIN)                                            \
  DEF_UNARY(S##2, S, 2, NAME, BUILTIN)                                         \
  DEF_UNARY(S##3, S, 3, NAME, BUILTIN)                                         \
  DEF_UNARY(S##4, S, 4, NAME, BUILTIN)                                         \
  DEF_UNARY(S##8, S, 8, NAME, BUILTIN)                                         \
  DEF_UNARY(S##16, S, 16, NAME, BUILTIN)

#define FLOAT_BINARY(NAME, BUILTIN)                                            \
  FLOAT_BINARY_LIST(NAME, BUILTIN, float)                                      \
  FLOAT_BINARY_LIST(NAME, BUILTIN, double)
#define FLOAT_BINARY_LIST(NAME, BUILTIN, S)                                    \
  DEF_BINARY(S, S, 1, NAME, BUILTIN)                                           \
  DEF_BINARY(S##2, S, 2, NAME, BUILTIN)                                        \
  DEF_BINARY(S##3, S, 3, NAME, BUILTIN)                                        \
  DEF_BINARY(S##4, S, 4, NAME, BUILTIN)                                        \
  DEF_BINARY(S##8, S, 8, NAME, BUILTIN)                                        \
  DEF_BINARY(S##16, S, 16, NAME, BUILTIN)

#define FLOAT_BINARY_SCALAR(NAME, BUILTIN)                                     \
  FLOAT_BINARY_SCALAR_LIST(NAME, BUILTIN, float)                               \
  FLOAT_BINARY_SCALAR_LIST(NAME, BUILTIN, double)
#define FLOAT_BINARY_SCALAR_LIST(NAME, BUILTIN, S)                             \
  DEF_BINARY_SCALAR(S, S, 1, NAME, BUILTIN)                                    \
  DEF_BINARY_SCALAR(S##2, S, 2, NAME, BUILTIN)                                 \
  DEF_BINARY_SCALAR(S##3, S, 3, NAME, BUILTIN)                                 \
  DEF_BINARY_SCALAR(S##4, S, 4, NAME, BUILTIN)                                 \
  DEF_BINARY_SCALAR(S##8, S, 8, NAME, BUILTIN)                                 \
  DEF_BINARY_SCALAR(S##16, S, 16, NAME, BUILTIN)

// Scalar forms only: sleef.cl defines the vector forms.
#define FLOAT_UNARY_SCALAR(NAME, BUILTIN)                                      \
  DEF_UNARY(float, float, 1, NAME, BUILTIN)                                    \
  DEF_UNARY(double, double, 1, NAME, BUILTIN)

#define FLOAT_TERNARY(NAME, BUILTIN)                                           \
  FLOAT_TERNARY_LIST(NAME, BUILTIN, float)                                     \
  FLOAT_TERNARY_LIST(NAME, BUILTIN, double)
#define FLOAT_TERNARY_LIST(NAME, BUILTIN, S)                                   \
  DEF_TERNARY(S, S, 1, NAME, BUILTIN)                                          \
  DEF_TERNARY(S##2, S, 2, NAME, BUILTIN)                                       \
  DEF_TERNARY(S##3, S, 3, NAME, BUILTIN)                                       \
  DEF_TERNARY(S##4, S, 4, NAME, BUILTIN)                                       \
  DEF_TERNARY(S##8, S, 8, NAME, BUILTIN)                                       \
  DEF_TERNARY(S##16, S, 16, NAME, BUILTIN)

// Exact operations: the intrinsic is the specification's function.
FLOAT_UNARY(sqrt, __builtin_elementwise_sqrt)
FLOAT_UNARY(fabs, __builtin_elementwise_abs)
FLOAT_UNARY(floor, __builtin_elementwise_floor)
FLOAT_UNARY(ceil, __builtin_elementwise_ceil)
FLOAT_UNARY(trunc, __builtin_elementwise_trunc)
FLOAT_UNARY(round, __builtin_elementwise_round)
FLOAT_UNARY(rint, __builtin_elementwise_rint)
FLOAT_TERNARY(fma, __builtin_elementwise_fma)
FLOAT_BINARY_SCALAR(fmin, __builtin_elementwise_min)
FLOAT_BINARY_SCALAR(fmax, __builtin_elementwise_max)
FLOAT_BINARY(copysign, __builtin_elementwise_copysign)

// Transcendentals: libm through the intrinsics' default lowering (the
// vector forms are SLEEF's, in sleef.cl).
// The double exp is libm.cl's (SLEEF's overflows early).
DEF_UNARY(float, float, 1, exp, __builtin_elementwise_exp)
FLOAT_UNARY_SCALAR(exp2, __builtin_elementwise_exp2)
FLOAT_UNARY_SCALAR(log, __builtin_elementwise_log)
FLOAT_UNARY_SCALAR(log2, __builtin_elementwise_log2)
FLOAT_UNARY_SCALAR(log10, __builtin_elementwise_log10)
FLOAT_UNARY_SCALAR(sin, __builtin_elementwise_sin)
FLOAT_UNARY_SCALAR(cos, __builtin_elementwise_cos)
FLOAT_UNARY_SCALAR(tan, __builtin_elementwise_tan)
// The double pow is libm.cl's (SLEEF's overflows early).
DEF_BINARY(float, float, 1, pow, __builtin_elementwise_pow)

// Compositions whose error stays inside the OpenCL ULP table.
#define RSQRT(X) ((__typeof__(X))1 / __builtin_elementwise_sqrt(X))
FLOAT_UNARY(rsqrt, RSQRT)
// mad may be computed any way; with FP_CONTRACT on (the OpenCL default)
// this becomes llvm.fmuladd, a fused FMA wherever the CPU has one.
#define MAD(X, Y, Z) ((X) * (Y) + (Z))
FLOAT_TERNARY(mad, MAD)
#define MIX(X, Y, A) ((X) + ((Y) - (X)) * (A))
FLOAT_TERNARY(mix, MIX)

// The scalar-operand forms of min, max and clamp for floating point.
#define CLAMP(X, L, H)                                                         \
  __builtin_elementwise_min(__builtin_elementwise_max(X, L), H)
#define DEF_FLOAT_MINMAX(T, S, N)                                              \
  T WEFT_OVL min(T X, T Y) { return __builtin_elementwise_min(X, Y); }         \
  T WEFT_OVL max(T X, T Y) { return __builtin_elementwise_max(X, Y); }         \
  T WEFT_OVL clamp(T X, T L, T H) { return CLAMP(X, L, H); }                   \
  WEFT_IF_VECTOR(                                                              \
      N,                                                                       \
      T WEFT_OVL min(T X, S Y) { return __builtin_elementwise_min(X, (T)Y); }  \
      T WEFT_OVL max(T X, S Y) { return __builtin_elementwise_max(X, (T)Y); }  \
      T WEFT_OVL clamp(T X, S L, S H) { return CLAMP(X, (T)L, (T)H); }         \
      T WEFT_OVL mix(T X, T Y, S A) { return MIX(X, Y, (T)A); })
WEFT_FLOAT_TYPES(DEF_FLOAT_MINMAX)

// native_*: implementation-defined accuracy; the full-precision forms are
// already as fast as the host offers here (SLEEF for the vectors).
#define DEF_NATIVE(T, S, N)                                                    \
  T WEFT_OVL native_sqrt(T X) { return __builtin_elementwise_sqrt(X); }        \
  T WEFT_OVL native_rsqrt(T X) { return RSQRT(X); }                            \
  T WEFT_OVL native_recip(T X) { return (T)1 / X; }                            \
  T WEFT_OVL native_divide(T X, T Y) { return X / Y; }                         \
  T WEFT_OVL native_exp(T X) { return exp(X); }                                \
  T WEFT_OVL native_exp2(T X) { return exp2(X); }                              \
  T WEFT_OVL native_log(T X) { return log(X); }                                \
  T WEFT_OVL native_log2(T X) { return log2(X); }                              \
  T WEFT_OVL native_log10(T X) { return log10(X); }                            \
  T WEFT_OVL native_sin(T X) { return sin(X); }                                \
  T WEFT_OVL native_cos(T X) { return cos(X); }                                \
  T WEFT_OVL native_tan(T X) { return tan(X); }                                \
  T WEFT_OVL native_powr(T X, T Y) { return pow(X, Y); }
WEFT_SINGLE_TYPES(DEF_NATIVE)
