//===- half.cl - The half overloads of cl_khr_fp16 ------------------------===//
//
// Every builtin that Clang's opencl-c.h declares under cl_khr_fp16: math,
// common, geometric and relational functions, select/bitselect/shuffle,
// conversions, vloadn/vstoren and the async copies of half and halfn.
//
// x86 has no half arithmetic (short of AVX512-FP16): LLVM computes in
// float and rounds back, with F16C's vcvtps2ph/vcvtph2ps where the CPU has
// them and libgcc's __extendhfsf2/__truncsfhf2 otherwise. The math
// functions do the same: the float builtin on the operands widened
// exactly, rounded once to half. The float results are within a few float
// ulps (2^-13 of a half ulp each), so the half result is within
// 0.5 + 2^-10 half ulps, inside every bound of the specification's half
// table (2 or 4 ulps; 1 for rsqrt). Where the float result is exact
// (fmod, remainder, frexp, ldexp, rounding functions, fdim, min/max) or
// correctly rounded with at least 2p + 2 bits (+, -, *, /, sqrt: 24 >=
// 2 * 11 + 2), rounding it again to half is the correctly rounded result.
// The exceptions get their own code: fma (a double sum rounded to odd),
// nextafter and nan (half bit patterns), fract (kept below 1 in half), and
// the conversions that would round twice.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// TwoSum in fmaHalf must not be contracted into fused operations.
#pragma OPENCL FP_CONTRACT OFF

#define FOR_WIDTHS(M, ...)                                                     \
  M(1, __VA_ARGS__)                                                            \
  M(2, __VA_ARGS__)                                                            \
  M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)
#define FOR_VECTOR_WIDTHS(M, ...)                                              \
  M(2, __VA_ARGS__)                                                            \
  M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)

#define H(N) WEFT_SUFFIX(half, N)
#define F(N) WEFT_SUFFIX(float, N)
#define D(N) WEFT_SUFFIX(double, N)
#define I(N) WEFT_SUFFIX(int, N)
#define SH(N) WEFT_SUFFIX(short, N)
#define US(N) WEFT_SUFFIX(ushort, N)

// Element type conversions valid for scalars and vectors alike.
#define CVT_1(T, X) ((T)(X))
#define CVT_2(T, X) __builtin_convertvector(X, T)
#define CVT_3(T, X) __builtin_convertvector(X, T)
#define CVT_4(T, X) __builtin_convertvector(X, T)
#define CVT_8(T, X) __builtin_convertvector(X, T)
#define CVT_16(T, X) __builtin_convertvector(X, T)
#define CVT(N, T, X) CVT_##N(T, X)
#define TOF(N, X) CVT(N, F(N), X)
#define TOH(N, X) CVT(N, H(N), X)

//===----------------------------------------------------------------------===//
// Math, common and geometric functions computed in float
//===----------------------------------------------------------------------===//

#define DEF_F1(N, NAME)                                                        \
  H(N) WEFT_OVL NAME(H(N) X) { return TOH(N, NAME(TOF(N, X))); }
#define DEF_F2(N, NAME)                                                        \
  H(N) WEFT_OVL NAME(H(N) X, H(N) Y) {                                         \
    return TOH(N, NAME(TOF(N, X), TOF(N, Y)));                                 \
  }
#define DEF_F3(N, NAME)                                                        \
  H(N) WEFT_OVL NAME(H(N) X, H(N) Y, H(N) Z) {                                 \
    return TOH(N, NAME(TOF(N, X), TOF(N, Y), TOF(N, Z)));                      \
  }
// The forms of vectors with a scalar operand: f(halfn, half),
// f(halfn, half, half) (clamp), f(halfn, halfn, half) (mix),
// f(half, halfn) (step), f(half, half, halfn) (smoothstep).
#define DEF_F2_VS(N, NAME)                                                     \
  H(N) WEFT_OVL NAME(H(N) X, half Y) {                                         \
    return TOH(N, NAME(TOF(N, X), (float)Y));                                  \
  }
#define DEF_F3_VSS(N, NAME)                                                    \
  H(N) WEFT_OVL NAME(H(N) X, half Y, half Z) {                                 \
    return TOH(N, NAME(TOF(N, X), (float)Y, (float)Z));                        \
  }
#define DEF_F3_VVS(N, NAME)                                                    \
  H(N) WEFT_OVL NAME(H(N) X, H(N) Y, half Z) {                                 \
    return TOH(N, NAME(TOF(N, X), TOF(N, Y), (float)Z));                       \
  }
#define DEF_F2_SV(N, NAME)                                                     \
  H(N) WEFT_OVL NAME(half X, H(N) Y) {                                         \
    return TOH(N, NAME((float)X, TOF(N, Y)));                                  \
  }
#define DEF_F3_SSV(N, NAME)                                                    \
  H(N) WEFT_OVL NAME(half X, half Y, H(N) Z) {                                 \
    return TOH(N, NAME((float)X, (float)Y, TOF(N, Z)));                        \
  }
// f(halfn, intn), and f(halfn, int) for ldexp.
#define DEF_FI(N, NAME)                                                        \
  H(N) WEFT_OVL NAME(H(N) X, I(N) K) { return TOH(N, NAME(TOF(N, X), K)); }
#define DEF_FI_VS(N, NAME)                                                     \
  H(N) WEFT_OVL NAME(H(N) X, int K) { return TOH(N, NAME(TOF(N, X), K)); }

#define UNARY(NAME) FOR_WIDTHS(DEF_F1, NAME)
#define BINARY(NAME) FOR_WIDTHS(DEF_F2, NAME)
#define TERNARY(NAME) FOR_WIDTHS(DEF_F3, NAME)

UNARY(acos)
UNARY(acosh) UNARY(acospi) UNARY(asin) UNARY(asinh) UNARY(asinpi) UNARY(
    atan) UNARY(atanh) UNARY(atanpi) UNARY(cbrt) UNARY(ceil) UNARY(cos)
    UNARY(cosh) UNARY(cospi) UNARY(erf) UNARY(erfc) UNARY(exp) UNARY(
        exp10) UNARY(exp2) UNARY(expm1) UNARY(fabs) UNARY(floor) UNARY(lgamma)
        UNARY(log) UNARY(log10) UNARY(log1p) UNARY(log2) UNARY(logb) UNARY(
            rint) UNARY(round) UNARY(rsqrt) UNARY(sin) UNARY(sinh) UNARY(sinpi)
            UNARY(sqrt) UNARY(tan) UNARY(tanh) UNARY(tanpi) UNARY(tgamma) UNARY(
                trunc) UNARY(degrees) UNARY(radians) UNARY(sign)

                BINARY(atan2) BINARY(atan2pi) BINARY(copysign) BINARY(fdim)
                    BINARY(fmod) BINARY(hypot) BINARY(pow) BINARY(powr) BINARY(
                        remainder) BINARY(fmax) BINARY(fmin) BINARY(max)
                        BINARY(min) BINARY(step) FOR_VECTOR_WIDTHS(
                            DEF_F2_VS, fmax) FOR_VECTOR_WIDTHS(DEF_F2_VS, fmin)
                            FOR_VECTOR_WIDTHS(DEF_F2_VS, max) FOR_VECTOR_WIDTHS(
                                DEF_F2_VS, min) FOR_VECTOR_WIDTHS(DEF_F2_SV,
                                                                  step)

// maxmag, minmag: x or y by magnitude, fmax/fmin when the magnitudes are
// equal or unordered (so that a NaN operand gives the other one).
#define DEF_MAGNITUDE(N, NAME, CMP, FALLBACK)                                  \
  H(N) WEFT_OVL NAME(H(N) X, H(N) Y) {                                         \
    H(N) AX = __builtin_elementwise_abs(X), AY = __builtin_elementwise_abs(Y); \
    return AX CMP AY ? X : AY CMP AX ? Y : FALLBACK(X, Y);                     \
  }
                                FOR_WIDTHS(DEF_MAGNITUDE, maxmag, >,
                                           fmax) FOR_WIDTHS(DEF_MAGNITUDE,
                                                            minmag, <, fmin)

// mad may be computed any way: half arithmetic, contracted into
// llvm.fmuladd, which a CPU with AVX512-FP16 runs as one vfmadd on halves
// and any other computes in float between conversions
// (PromoteHalfArithmetic.cpp).
#define DEF_MAD(N, _)                                                          \
  H(N) WEFT_OVL mad(H(N) X, H(N) Y, H(N) Z) {                                  \
    _Pragma("OPENCL FP_CONTRACT ON") return X * Y + Z;                         \
  }
                                    FOR_WIDTHS(DEF_MAD, ) TERNARY(
                                        clamp) TERNARY(mix) TERNARY(smoothstep)
                                        FOR_VECTOR_WIDTHS(
                                            DEF_F3_VSS,
                                            clamp) FOR_VECTOR_WIDTHS(DEF_F3_VVS,
                                                                     mix)
                                            FOR_VECTOR_WIDTHS(DEF_F3_SSV,
                                                              smoothstep)

                                                FOR_WIDTHS(DEF_FI, ldexp)
                                                    FOR_VECTOR_WIDTHS(DEF_FI_VS,
                                                                      ldexp)
                                                        FOR_WIDTHS(DEF_FI, pown)
                                                            FOR_WIDTHS(DEF_FI,
                                                                       rootn)

    // ilogb from the bit pattern (a denormal's exponent from its leading
    // one), with opencl-c-base.h's FP_ILOGB0 and FP_ILOGBNAN.
    static inline int ilogbHalf(half X) {
  uint A = as_ushort(X) & 0x7fffu;
  if (A == 0)
    return FP_ILOGB0;
  if (A >= 0x7c00u)
    return A == 0x7c00u ? INT_MAX : FP_ILOGBNAN;
  if (A < 0x0400u) // denormal: 2^-24 times the mantissa
    return 31 - (int)clz(A) - 24;
  return (int)(A >> 10) - 15;
}
#define DEF_ILOGB(N, _)                                                        \
  I(N) WEFT_OVL ilogb(H(N) X) {                                                \
    WEFT_IF_SCALAR(N, return ilogbHalf(X);)                                    \
    WEFT_IF_VECTOR(N, I(N) R; for (int K = 0; K < N; ++K) R[K] =               \
                          ilogbHalf(X[K]);                                     \
                   return R;)                                                  \
  }
FOR_WIDTHS(DEF_ILOGB, )

// fma: the product of two halves is exact in double (22 bits), the sum
// with a third is not always. TwoSum gives the sum's rounding error; a sum
// rounded to nearest that lost something moves to its odd neighbour on
// the side of the error (round to odd), as does the double -> float step.
// Rounding to odd keeps every bit that decides the final rounding, so the
// float, rounded once to half, is the correctly rounded fma.
static inline float roundToOddFloat(double X) {
  float F = (float)X;
  if (X == X && (double)F != X && !(as_uint(F) & 1))
    F = as_float(as_uint(F) +
                 (__builtin_fabs(X) > __builtin_fabs((double)F) ? 1u : -1u));
  return F;
}
static inline half fmaHalf(half A, half B, half C) {
  double P = (double)A * (double)B, Cd = (double)C;
  double S = P + Cd;
  double Bv = S - P;
  double E = (P - (S - Bv)) + (Cd - Bv);
  if (E != 0 && !__builtin_isinf(S) && !(as_ulong(S) & 1))
    S = as_double(as_ulong(S) + ((E > 0) == (S > 0) ? 1ul : -1ul));
  return (half)roundToOddFloat(S);
}
#define DEF_FMA(N, _)                                                          \
  H(N) WEFT_OVL fma(H(N) X, H(N) Y, H(N) Z) {                                  \
    WEFT_IF_SCALAR(N, return fmaHalf(X, Y, Z);)                                \
    WEFT_IF_VECTOR(N, H(N) R; for (int K = 0; K < N; ++K) R[K] =               \
                          fmaHalf(X[K], Y[K], Z[K]);                           \
                   return R;)                                                  \
  }
FOR_WIDTHS(DEF_FMA, )

// nextafter steps through the half bit patterns (the float neighbour would
// round back to X).
static inline half nextafterHalf(half X, half Y) {
  if (X != X || Y != Y)
    return X + Y;
  if (X == Y)
    return Y;
  if (X == 0)
    return as_half((ushort)(Y > 0 ? 0x0001 : 0x8001));
  ushort B = as_ushort(X);
  return as_half((ushort)((X < Y) == (X > 0) ? B + 1 : B - 1));
}
#define DEF_NEXTAFTER(N, _)                                                    \
  H(N) WEFT_OVL nextafter(H(N) X, H(N) Y) {                                    \
    WEFT_IF_SCALAR(N, return nextafterHalf(X, Y);)                             \
    WEFT_IF_VECTOR(N, H(N) R; for (int K = 0; K < N; ++K) R[K] =               \
                          nextafterHalf(X[K], Y[K]);                           \
                   return R;)                                                  \
  }
FOR_WIDTHS(DEF_NEXTAFTER, )

// nan(code): a quiet NaN with the code in the 9 payload bits below the
// quiet bit.
#define DEF_NAN(N, _)                                                          \
  H(N) WEFT_OVL nan(US(N) C) {                                                 \
    return __builtin_astype((US(N))((US(N))0x7e00 | (C & (US(N))0x1ff)),      \
                            H(N));                                             \
  }
FOR_WIDTHS(DEF_NAN, )

// Geometric functions: dot products in float are exact for n <= 4 only up
// to the final sums, which round once in float; the results round once
// more to half, well inside the bounds.
#define DEF_GEOMETRIC(N, _)                                                    \
  half WEFT_OVL dot(H(N) X, H(N) Y) {                                          \
    return (half)dot(TOF(N, X), TOF(N, Y));                                    \
  }                                                                            \
  half WEFT_OVL length(H(N) X) { return (half)length(TOF(N, X)); }             \
  half WEFT_OVL distance(H(N) X, H(N) Y) {                                     \
    return (half)distance(TOF(N, X), TOF(N, Y));                               \
  }                                                                            \
  H(N) WEFT_OVL normalize(H(N) X) { return TOH(N, normalize(TOF(N, X))); }
DEF_GEOMETRIC(1, )
DEF_GEOMETRIC(2, )
DEF_GEOMETRIC(3, )
DEF_GEOMETRIC(4, )
half3 WEFT_OVL cross(half3 X, half3 Y) {
  return TOH(3, cross(TOF(3, X), TOF(3, Y)));
}
half4 WEFT_OVL cross(half4 X, half4 Y) {
  return TOH(4, cross(TOF(4, X), TOF(4, Y)));
}

//===----------------------------------------------------------------------===//
// Functions with a pointer result
//===----------------------------------------------------------------------===//

// fract through float could round x - floor(x) up to 1: clamp in half.
#define DEF_FRACT(N, AS)                                                       \
  H(N) WEFT_OVL fract(H(N) X, AS H(N) * Floor) {                               \
    F(N) Fl;                                                                   \
    H(N) R = TOH(N, fract(TOF(N, X), &Fl));                                    \
    *Floor = TOH(N, Fl);                                                       \
    return R > (H(N))0x1.ffcp-1h ? (H(N))0x1.ffcp-1h : R;                    \
  }
// The other results are exact in float (or the float function's own,
// rounded once).
#define DEF_PTR(N, AS, NAME, P, PF)                                            \
  H(N) WEFT_OVL NAME(H(N) X, AS P * Out) {                                     \
    PF O;                                                                      \
    H(N) R = TOH(N, NAME(TOF(N, X), &O));                                      \
    *Out = CVT(N, P, O);                                                       \
    return R;                                                                  \
  }
#define DEF_POINTER_FUNCTIONS(N, AS)                                           \
  DEF_FRACT(N, AS)                                                             \
  DEF_PTR(N, AS, modf, H(N), F(N))                                             \
  DEF_PTR(N, AS, sincos, H(N), F(N))                                           \
  DEF_PTR(N, AS, frexp, I(N), I(N))                                            \
  DEF_PTR(N, AS, lgamma_r, I(N), I(N))                                         \
  H(N) WEFT_OVL remquo(H(N) X, H(N) Y, AS I(N) * Quo) {                        \
    I(N) Q;                                                                    \
    H(N) R = TOH(N, remquo(TOF(N, X), TOF(N, Y), &Q));                         \
    *Quo = Q;                                                                  \
    return R;                                                                  \
  }
FOR_WIDTHS(DEF_POINTER_FUNCTIONS, __global)
FOR_WIDTHS(DEF_POINTER_FUNCTIONS, __local)
FOR_WIDTHS(DEF_POINTER_FUNCTIONS, __private)

//===----------------------------------------------------------------------===//
// Relational functions, select, bitselect, shuffle
//===----------------------------------------------------------------------===//

// The half comparison operators give int 1/0 for scalars and short -1/0
// for vectors, the builtins' convention.
#define DEF_RELATIONAL(N, R)                                                   \
  R WEFT_OVL isequal(H(N) X, H(N) Y) { return X == Y; }                        \
  R WEFT_OVL isnotequal(H(N) X, H(N) Y) { return X != Y; }                     \
  R WEFT_OVL isgreater(H(N) X, H(N) Y) { return X > Y; }                       \
  R WEFT_OVL isgreaterequal(H(N) X, H(N) Y) { return X >= Y; }                 \
  R WEFT_OVL isless(H(N) X, H(N) Y) { return X < Y; }                          \
  R WEFT_OVL islessequal(H(N) X, H(N) Y) { return X <= Y; }                    \
  R WEFT_OVL islessgreater(H(N) X, H(N) Y) { return (X < Y) | (X > Y); }       \
  R WEFT_OVL isfinite(H(N) X) {                                                \
    return __builtin_elementwise_abs(X) < (H(N))INFINITY;                      \
  }                                                                            \
  R WEFT_OVL isinf(H(N) X) {                                                   \
    return __builtin_elementwise_abs(X) == (H(N))INFINITY;                     \
  }                                                                            \
  R WEFT_OVL isnan(H(N) X) { return X != X; }                                  \
  R WEFT_OVL isnormal(H(N) X) {                                                \
    H(N) A = __builtin_elementwise_abs(X);                                     \
    return (A >= (H(N))HALF_MIN) & (A < (H(N))INFINITY);                       \
  }                                                                            \
  R WEFT_OVL isordered(H(N) X, H(N) Y) { return (X == X) & (Y == Y); }         \
  R WEFT_OVL isunordered(H(N) X, H(N) Y) { return (X != X) | (Y != Y); }
DEF_RELATIONAL(1, int)
DEF_RELATIONAL(2, short2)
DEF_RELATIONAL(3, short3)
DEF_RELATIONAL(4, short4)
DEF_RELATIONAL(8, short8)
DEF_RELATIONAL(16, short16)

int WEFT_OVL signbit(half X) { return as_ushort(X) >> 15; }
#define DEF_SIGNBIT(N, _)                                                      \
  SH(N) WEFT_OVL signbit(H(N) X) { return __builtin_astype(X, SH(N)) >> 15; }
FOR_VECTOR_WIDTHS(DEF_SIGNBIT, )

#define DEF_BITSELECT(N, _)                                                    \
  H(N) WEFT_OVL bitselect(H(N) A, H(N) B, H(N) C) {                            \
    US(N) IA = __builtin_astype(A, US(N)), IB = __builtin_astype(B, US(N));    \
    US(N) IC = __builtin_astype(C, US(N));                                     \
    return __builtin_astype((US(N))((IA & ~IC) | (IB & IC)), H(N));                     \
  }
FOR_WIDTHS(DEF_BITSELECT, )

half WEFT_OVL select(half A, half B, short C) { return C ? B : A; }
half WEFT_OVL select(half A, half B, ushort C) { return C ? B : A; }
#define DEF_SELECT(N, _)                                                       \
  H(N) WEFT_OVL select(H(N) A, H(N) B, SH(N) C) {                              \
    return C < (SH(N))0 ? B : A;                                               \
  }                                                                            \
  H(N) WEFT_OVL select(H(N) A, H(N) B, US(N) C) {                              \
    return __builtin_astype(C, SH(N)) < (SH(N))0 ? B : A;                      \
  }
FOR_VECTOR_WIDTHS(DEF_SELECT, )

// shuffle(x, mask): component mask[i] % m of x; shuffle2 indexes the
// concatenation of x and y, mask[i] % 2m.
#define DEF_SHUFFLE(N, M)                                                      \
  H(N) WEFT_OVL shuffle(H(M) X, US(N) Mask) {                                  \
    H(N) R;                                                                    \
    for (int K = 0; K < N; ++K)                                                \
      R[K] = X[Mask[K] % M];                                                   \
    return R;                                                                  \
  }                                                                            \
  H(N) WEFT_OVL shuffle2(H(M) X, H(M) Y, US(N) Mask) {                         \
    H(N) R;                                                                    \
    for (int K = 0; K < N; ++K) {                                              \
      int J = Mask[K] % (2 * M);                                               \
      R[K] = J < M ? X[J] : Y[J - M];                                          \
    }                                                                          \
    return R;                                                                  \
  }
#define DEF_SHUFFLES(M, _)                                                     \
  DEF_SHUFFLE(2, M) DEF_SHUFFLE(4, M) DEF_SHUFFLE(8, M) DEF_SHUFFLE(16, M)
DEF_SHUFFLES(2, )
DEF_SHUFFLES(4, )
DEF_SHUFFLES(8, )
DEF_SHUFFLES(16, )

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

// half -> other types: the float value is exact, and float's conversions
// (convert.cl) round it in the asked mode, with _sat where asked.
// The suffix of a width in a function name: convert_int4, convert_int.
#define NS_1
#define NS_2 2
#define NS_3 3
#define NS_4 4
#define NS_8 8
#define NS_16 16
#define DEF_FROM_HALF_INT(N, DT)                                               \
  DEF_FROM_HALF_INT_(NS_##N, N, DT)
#define DEF_FROM_HALF_INT_(S, N, DT) DEF_FROM_HALF_INT__(S, N, DT)
#define DEF_FROM_HALF_INT__(S, N, DT)                                          \
  DEF_FROM_HALF_MODES_S(S, N, DT, )                                            \
  DEF_FROM_HALF_MODES_S(S, N, DT, _sat)
#define DEF_FROM_HALF_MODES_S(S, N, DT, SAT)                                   \
  DEF_FROM_HALF_ONE(S, N, DT, SAT)                                             \
  DEF_FROM_HALF_ONE(S, N, DT, SAT##_rte)                                       \
  DEF_FROM_HALF_ONE(S, N, DT, SAT##_rtz)                                       \
  DEF_FROM_HALF_ONE(S, N, DT, SAT##_rtp)                                       \
  DEF_FROM_HALF_ONE(S, N, DT, SAT##_rtn)
#define DEF_FROM_HALF_ONE(S, N, DT, MODE)                                      \
  WEFT_SUFFIX(DT, N) WEFT_OVL convert_##DT##S##MODE(H(N) X) {                  \
    return convert_##DT##S##MODE(TOF(N, X));                                   \
  }
FOR_WIDTHS(DEF_FROM_HALF_INT, char)
FOR_WIDTHS(DEF_FROM_HALF_INT, uchar)
FOR_WIDTHS(DEF_FROM_HALF_INT, short)
FOR_WIDTHS(DEF_FROM_HALF_INT, ushort)
FOR_WIDTHS(DEF_FROM_HALF_INT, int)
FOR_WIDTHS(DEF_FROM_HALF_INT, uint)
FOR_WIDTHS(DEF_FROM_HALF_INT, long)
FOR_WIDTHS(DEF_FROM_HALF_INT, ulong)

// half -> float, double: exact in every mode.
#define DEF_EXACT_ONE(S, N, DT, SRC, MODE)                                     \
  WEFT_SUFFIX(DT, N) WEFT_OVL convert_##DT##S##MODE(WEFT_SUFFIX(SRC, N) X) {   \
    return CVT(N, WEFT_SUFFIX(DT, N), TOF(N, X));                              \
  }
#define DEF_EXACT(N, DT, SRC) DEF_EXACT_(NS_##N, N, DT, SRC)
#define DEF_EXACT_(S, N, DT, SRC) DEF_EXACT__(S, N, DT, SRC)
#define DEF_EXACT__(S, N, DT, SRC)                                             \
  DEF_EXACT_ONE(S, N, DT, SRC, )                                               \
  DEF_EXACT_ONE(S, N, DT, SRC, _rte)                                           \
  DEF_EXACT_ONE(S, N, DT, SRC, _rtz)                                           \
  DEF_EXACT_ONE(S, N, DT, SRC, _rtp)                                           \
  DEF_EXACT_ONE(S, N, DT, SRC, _rtn)
FOR_WIDTHS(DEF_EXACT, float, half)
FOR_WIDTHS(DEF_EXACT, double, half)
FOR_WIDTHS(DEF_EXACT, half, half)

// float -> half in a directed mode: the nearest half R, compared exactly
// with X (as floats), steps by one in its bit pattern when it lies on the
// wrong side: away from zero (+1) or toward it (-1). This also takes an
// infinity that X rounded to back to the largest half, and a zero to the
// smallest denormal.
enum { WeftRTE, WeftRTZ, WeftRTP, WeftRTN };
static inline half floatToHalf(float X, int Mode) {
  half R = (half)X;
  if (Mode == WeftRTE)
    return R;
  float B = (float)R;
  bool Neg = X < 0;
  bool Over = Neg ? B < X : B > X, Under = Neg ? B > X : B < X;
  int Step = Mode == WeftRTZ   ? (Over ? -1 : 0)
             : Mode == WeftRTP ? (Neg ? (Over ? -1 : 0) : (Under ? 1 : 0))
                               : (Neg ? (Under ? 1 : 0) : (Over ? -1 : 0));
  return as_half((ushort)(as_ushort(R) + Step));
}
// double -> half: rounded to odd in float first (which keeps every bit
// the final rounding looks at), then rounded in the mode.
static inline half doubleToHalf(double X, int Mode) {
  return floatToHalf(roundToOddFloat(X), Mode);
}

// One scalar conversion helper per source: the integers are clamped to
// +-2^17 first, beyond the half range, where every mode gives the same
// result as for the original value; the clamped value is exact in float.
#define DEF_FROM_SMALL(T)                                                      \
  static inline half from_##T(T X, int Mode) {                                 \
    return floatToHalf((float)X, Mode);                                        \
  }
#define DEF_FROM_SIGNED(T)                                                     \
  static inline half from_##T(T X, int Mode) {                                 \
    T C = X > (T)0x20000 ? (T)0x20000 : X < (T)-0x20000 ? (T)-0x20000 : X;     \
    return floatToHalf((float)C, Mode);                                        \
  }
#define DEF_FROM_UNSIGNED(T)                                                   \
  static inline half from_##T(T X, int Mode) {                                 \
    return floatToHalf((float)(X > (T)0x20000 ? (T)0x20000 : X), Mode);        \
  }
DEF_FROM_SMALL(char)
DEF_FROM_SMALL(uchar)
DEF_FROM_SMALL(short)
DEF_FROM_SMALL(ushort)
DEF_FROM_SIGNED(int)
DEF_FROM_SIGNED(long)
DEF_FROM_UNSIGNED(uint)
DEF_FROM_UNSIGNED(ulong)
static inline half from_float(float X, int Mode) {
  return floatToHalf(X, Mode);
}
static inline half from_double(double X, int Mode) {
  return doubleToHalf(X, Mode);
}

#define TO_HALF_BODY_1(SRC, MODE) return from_##SRC(X, MODE);
#define TO_HALF_BODY_V(N, SRC, MODE)                                           \
  H(N) R;                                                                      \
  for (int K = 0; K < N; ++K)                                                  \
    R[K] = from_##SRC(X[K], MODE);                                             \
  return R;
#define TO_HALF_BODY(N, SRC, MODE)                                             \
  WEFT_IF_SCALAR(N, TO_HALF_BODY_1(SRC, MODE))                                 \
  WEFT_IF_VECTOR(N, TO_HALF_BODY_V(N, SRC, MODE))
#define DEF_TO_HALF_ONE(S, N, SRC, SUFFIX, MODE)                               \
  H(N) WEFT_OVL convert_half##S##SUFFIX(WEFT_SUFFIX(SRC, N) X) {               \
    TO_HALF_BODY(N, SRC, MODE)                                                 \
  }
#define DEF_TO_HALF(N, SRC) DEF_TO_HALF_(NS_##N, N, SRC)
#define DEF_TO_HALF_(S, N, SRC) DEF_TO_HALF__(S, N, SRC)
#define DEF_TO_HALF__(S, N, SRC)                                               \
  DEF_TO_HALF_ONE(S, N, SRC, , WeftRTE)                                        \
  DEF_TO_HALF_ONE(S, N, SRC, _rte, WeftRTE)                                    \
  DEF_TO_HALF_ONE(S, N, SRC, _rtz, WeftRTZ)                                    \
  DEF_TO_HALF_ONE(S, N, SRC, _rtp, WeftRTP)                                    \
  DEF_TO_HALF_ONE(S, N, SRC, _rtn, WeftRTN)
FOR_WIDTHS(DEF_TO_HALF, char)
FOR_WIDTHS(DEF_TO_HALF, uchar)
FOR_WIDTHS(DEF_TO_HALF, short)
FOR_WIDTHS(DEF_TO_HALF, ushort)
FOR_WIDTHS(DEF_TO_HALF, int)
FOR_WIDTHS(DEF_TO_HALF, uint)
FOR_WIDTHS(DEF_TO_HALF, long)
FOR_WIDTHS(DEF_TO_HALF, ulong)
FOR_WIDTHS(DEF_TO_HALF, float)
FOR_WIDTHS(DEF_TO_HALF, double)

//===----------------------------------------------------------------------===//
// vloadn, vstoren, async copies
//===----------------------------------------------------------------------===//

typedef half2 __attribute__((aligned(2))) half2_u;
typedef half4 __attribute__((aligned(2))) half4_u;
typedef half8 __attribute__((aligned(2))) half8_u;
typedef half16 __attribute__((aligned(2))) half16_u;
#define DEF_VLOAD_N(N, AS)                                                     \
  H(N) WEFT_OVL vload##N(size_t Offset, const AS half *P) {                    \
    return *(const AS half##N##_u *)(P + Offset * N);                             \
  }
#define DEF_VSTORE_N(N, AS)                                                    \
  void WEFT_OVL vstore##N(H(N) Data, size_t Offset, AS half *P) {              \
    *(AS half##N##_u *)(P + Offset * N) = Data;                                   \
  }
#define DEF_VLOAD(AS)                                                          \
  DEF_VLOAD_N(2, AS)                                                           \
  DEF_VLOAD_N(4, AS)                                                           \
  DEF_VLOAD_N(8, AS)                                                           \
  DEF_VLOAD_N(16, AS)                                                          \
  half3 WEFT_OVL vload3(size_t Offset, const AS half *P) {                     \
    P += Offset * 3;                                                           \
    return (half3)(P[0], P[1], P[2]);                                          \
  }
#define DEF_VSTORE(AS)                                                         \
  DEF_VSTORE_N(2, AS)                                                          \
  DEF_VSTORE_N(4, AS)                                                          \
  DEF_VSTORE_N(8, AS)                                                          \
  DEF_VSTORE_N(16, AS)                                                         \
  void WEFT_OVL vstore3(half3 Data, size_t Offset, AS half *P) {               \
    P += Offset * 3;                                                           \
    P[0] = Data.x;                                                             \
    P[1] = Data.y;                                                             \
    P[2] = Data.z;                                                             \
  }
DEF_VLOAD(__global)
DEF_VLOAD(__local)
DEF_VLOAD(__constant)
DEF_VLOAD(__private)
DEF_VSTORE(__global)
DEF_VSTORE(__local)
DEF_VSTORE(__private)

static size_t weft_async_first(void) {
  return (get_local_id(2) * get_local_size(1) + get_local_id(1)) *
             get_local_size(0) +
         get_local_id(0);
}
static size_t weft_async_step(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}
// As in async.cl: each work-item copies its share; wait_group_events'
// barrier publishes them.
#define DEF_ASYNC(N, _)                                                        \
  event_t WEFT_OVL async_work_group_copy(__local H(N) * Dst,                   \
                                         const __global H(N) * Src,            \
                                         size_t Num, event_t E) {              \
    for (size_t I = weft_async_first(); I < Num; I += weft_async_step())       \
      Dst[I] = Src[I];                                                         \
    return E;                                                                  \
  }                                                                            \
  event_t WEFT_OVL async_work_group_copy(__global H(N) * Dst,                  \
                                         const __local H(N) * Src,             \
                                         size_t Num, event_t E) {              \
    for (size_t I = weft_async_first(); I < Num; I += weft_async_step())       \
      Dst[I] = Src[I];                                                         \
    return E;                                                                  \
  }                                                                            \
  event_t WEFT_OVL async_work_group_strided_copy(                              \
      __local H(N) * Dst, const __global H(N) * Src, size_t Num,               \
      size_t Stride, event_t E) {                                              \
    for (size_t I = weft_async_first(); I < Num; I += weft_async_step())       \
      Dst[I] = Src[I * Stride];                                                \
    return E;                                                                  \
  }                                                                            \
  event_t WEFT_OVL async_work_group_strided_copy(                              \
      __global H(N) * Dst, const __local H(N) * Src, size_t Num,               \
      size_t Stride, event_t E) {                                              \
    for (size_t I = weft_async_first(); I < Num; I += weft_async_step())       \
      Dst[I * Stride] = Src[I];                                                \
    return E;                                                                  \
  }                                                                            \
  void WEFT_OVL prefetch(const __global H(N) * P, size_t Num) {}
FOR_WIDTHS(DEF_ASYNC, )
