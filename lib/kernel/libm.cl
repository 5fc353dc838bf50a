//===- libm.cl - Math builtins computed through the host's libm -----------===//
//
// The rest of the math table (OpenCL C 1.2 section 6.12.2) beyond math.cl.
// The double forms call glibc's double functions (declared here under asm
// labels; the JIT resolves them from libm.so.6) or compose them where the
// OpenCL function has no C counterpart (pown, rootn, powr, maxmag, ...).
// The float forms of the functions sleef.cl gives vector forms call SLEEF's
// float functions of the same accuracy (Sleef_hypotf_u35), so that a
// vectorized loop runs them 16 to a register rather than 8 in double; the
// pi forms call SLEEF's u10 functions (see sleef.cl). The other float forms
// compute in double and round once: glibc's double functions are within a
// few tenths of an ulp of the exact result, far below what float's error
// bounds allow, and denormal float results come out right.
//
// Vectors go component by component through the scalar function, except
// those whose vector forms are SLEEF's (sleef.cl). (Only scalars cross to
// libm: an asm-labelled declaration must not take a vector, whose C ABI
// passing depends on the target level.)
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

// const: no errno in OpenCL, so the calls are pure functions of their
// arguments, which lets the loop vectorizer replace them (see
// lib/llvmopencl/CpuSimd/VectorMathVariants.cpp).
#define LIBM1(NAME)                                                            \
  double libm_##NAME(double) __attribute__((const)) __asm__(#NAME);
#define LIBM2(NAME)                                                            \
  double libm_##NAME(double, double) __attribute__((const)) __asm__(#NAME);
LIBM1(acos) LIBM1(acosh) LIBM1(asin) LIBM1(asinh) LIBM1(atan) LIBM1(atanh)
LIBM1(cbrt) LIBM1(cosh) LIBM1(erf) LIBM1(erfc) LIBM1(exp10) LIBM1(expm1)
LIBM1(log1p) LIBM1(sinh) LIBM1(tanh) LIBM1(tgamma) LIBM1(lgamma)
LIBM1(sin) LIBM1(cos) LIBM1(tan)
LIBM2(atan2) LIBM2(fmod) LIBM2(hypot) LIBM2(remainder) LIBM2(pow)
double libm_lgamma_r(double, __private int *) __asm__("lgamma_r");

// SLEEF's scalar functions: Sleef_<name>f_<accuracy> of floats,
// Sleef_<name>_<accuracy> of doubles; VectorMathVariants.cpp gives their
// calls the vector forms of the same name and accuracy.
#define SLEEF_FLOAT1(NAME, ACC)                                                \
  float Sleef_##NAME##f_##ACC(float) __attribute__((const));
#define SLEEF_FLOAT2(NAME, ACC)                                                \
  float Sleef_##NAME##f_##ACC(float, float) __attribute__((const));
#define SLEEF_DOUBLE1(NAME, ACC)                                               \
  double Sleef_##NAME##_##ACC(double) __attribute__((const));
#define SLEEF_DOUBLE2(NAME, ACC)                                               \
  double Sleef_##NAME##_##ACC(double, double) __attribute__((const));
SLEEF_FLOAT1(acos, u35) SLEEF_FLOAT1(asin, u35) SLEEF_FLOAT1(atan, u35)
SLEEF_FLOAT1(sinh, u35) SLEEF_FLOAT1(cosh, u35) SLEEF_FLOAT1(tanh, u35)
SLEEF_FLOAT1(atanh, u10) SLEEF_FLOAT1(cbrt, u10) SLEEF_FLOAT1(erf, u10)
SLEEF_FLOAT1(erfc, u15) SLEEF_FLOAT1(exp10, u10) SLEEF_FLOAT1(expm1, u10)
SLEEF_FLOAT2(atan2, u35) SLEEF_FLOAT2(hypot, u35)
SLEEF_FLOAT1(acos, u10) SLEEF_FLOAT1(asin, u10) SLEEF_FLOAT1(atan, u10)
SLEEF_FLOAT2(atan2, u10)
SLEEF_DOUBLE1(acos, u10) SLEEF_DOUBLE1(asin, u10) SLEEF_DOUBLE1(atan, u10)
SLEEF_DOUBLE2(atan2, u10)

#define FOR_VECTOR_WIDTHS(M, ...)                                              \
  M(2, __VA_ARGS__)                                                            \
  M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)

// Component-by-component vector forms of scalar functions.
#define VEC1(N, NAME, T)                                                       \
  T##N WEFT_OVL NAME(T##N X) {                                                 \
    T##N R;                                                                    \
    for (int I = 0; I < N; ++I)                                                \
      R[I] = NAME(X[I]);                                                       \
    return R;                                                                  \
  }
#define VEC2(N, NAME, T)                                                       \
  T##N WEFT_OVL NAME(T##N X, T##N Y) {                                         \
    T##N R;                                                                    \
    for (int I = 0; I < N; ++I)                                                \
      R[I] = NAME(X[I], Y[I]);                                                 \
    return R;                                                                  \
  }
#define VEC3(N, NAME, T)                                                       \
  T##N WEFT_OVL NAME(T##N X, T##N Y, T##N Z) {                                 \
    T##N R;                                                                    \
    for (int I = 0; I < N; ++I)                                                \
      R[I] = NAME(X[I], Y[I], Z[I]);                                           \
    return R;                                                                  \
  }
// f(floatN, intN) and f(floatN, int) style.
#define VEC_FI(N, NAME, T, I)                                                  \
  T##N WEFT_OVL NAME(T##N X, I##N Y) {                                         \
    T##N R;                                                                    \
    for (int K = 0; K < N; ++K)                                                \
      R[K] = NAME(X[K], Y[K]);                                                 \
    return R;                                                                  \
  }
#define VEC_RETI(N, NAME, T, I)                                                \
  I##N WEFT_OVL NAME(T##N X) {                                                 \
    I##N R;                                                                    \
    for (int K = 0; K < N; ++K)                                                \
      R[K] = NAME(X[K]);                                                       \
    return R;                                                                  \
  }

// A function of both types: D is its double body over X (and Y, Z), the
// float body D in double, rounded; DEF1 and DEF2 add the component-by-
// component vector forms. The _SLEEF forms, whose vector forms are
// sleef.cl's, take a float body of their own.
#define DEF1_SCALAR(NAME, DBODY)                                               \
  double WEFT_OVL NAME(double X) { return DBODY; }                             \
  float WEFT_OVL NAME(float X) { return (float)NAME((double)X); }
#define DEF1(NAME, DBODY)                                                      \
  DEF1_SCALAR(NAME, DBODY)                                                     \
  FOR_VECTOR_WIDTHS(VEC1, NAME, float)                                         \
  FOR_VECTOR_WIDTHS(VEC1, NAME, double)
#define DEF2_SCALAR(NAME, DBODY)                                               \
  double WEFT_OVL NAME(double X, double Y) { return DBODY; }                   \
  float WEFT_OVL NAME(float X, float Y) {                                      \
    return (float)NAME((double)X, (double)Y);                                  \
  }
#define DEF2(NAME, DBODY)                                                      \
  DEF2_SCALAR(NAME, DBODY)                                                     \
  FOR_VECTOR_WIDTHS(VEC2, NAME, float)                                         \
  FOR_VECTOR_WIDTHS(VEC2, NAME, double)
#define DEF1_SLEEF(NAME, DBODY, FBODY)                                         \
  double WEFT_OVL NAME(double X) { return DBODY; }                             \
  float WEFT_OVL NAME(float X) { return FBODY; }
#define DEF2_SLEEF(NAME, DBODY, FBODY)                                         \
  double WEFT_OVL NAME(double X, double Y) { return DBODY; }                   \
  float WEFT_OVL NAME(float X, float Y) { return FBODY; }

// x or y by magnitude; fmax/fmin when the magnitudes are equal or
// unordered, so that a NaN operand gives the other one.
static inline double maxmagMinmag(double X, double Y, bool Max) {
  double AX = __builtin_fabs(X), AY = __builtin_fabs(Y);
  if (AX > AY)
    return Max ? X : Y;
  if (AY > AX)
    return Max ? Y : X;
  return Max ? __builtin_fmax(X, Y) : __builtin_fmin(X, Y);
}

// pow of doubles. Where the loop vectorizer puts SLEEF's pow in place of
// libm's (lib/llvmopencl/CpuSimd/VectorMathVariants.cpp), results within a few ulp
// of DBL_MAX come out infinite: pow(-DBL_MAX, 1) gave -inf. An infinity
// from finite nonzero operands is recomputed as (|x|^(y/2))^2, whose half
// power is far from overflow, with the sign the first result had (that of
// x for odd integers y): 2.5 ulp at most with a pow of 1 ulp. The square of
// a half power within 2 ulp above 2^512 may overflow from its own error
// alone: the result is then within 5 ulp of DBL_MAX, which it becomes
// (sleef.cl repairs SLEEF's vector pow the same way).
static inline double squareOfHalfPower(double H) {
  double R = H * H;
  return __builtin_isinf(R) && H <= 0x1.0000000000002p+512 ? DBL_MAX : R;
}
static inline double powDouble(double X, double Y) {
  double R = libm_pow(X, Y);
  if (__builtin_isinf(R) && __builtin_isfinite(X) && __builtin_isfinite(Y) &&
      X != 0) {
    double H = libm_pow(__builtin_fabs(X), Y * 0.5);
    R = __builtin_copysign(squareOfHalfPower(H), R);
  }
  return R;
}

// powr is pow restricted to x >= 0, with its own special cases (OpenCL C
// 1.2, 7.5.1): NaN for x < 0, for a NaN operand (powr(1, NaN) too, where
// pow gives 1), for 0^0, inf^0 and 1^inf. Both zeros are +0: powr(-0, 3)
// is +0 and powr(-0, -3) +inf, where pow keeps the sign of x.
static inline double powrDouble(double X, double Y) {
  if (X < 0 || X != X || Y != Y || (X == 0 && Y == 0) ||
      (__builtin_isinf(X) && Y == 0) || (X == 1 && __builtin_isinf(Y)))
    return __builtin_nan("");
  return powDouble(__builtin_fabs(X), Y);
}

// cosh and sinh of doubles: libm's are right up to the overflow threshold
// (ln(2 DBL_MAX) = 710.47...), but SLEEF's, which the loop vectorizer may
// put in their place, compute exp(|x|) and overflow beyond ln(DBL_MAX) =
// 709.78. There both are e^|x| / 2 (e^-|x| is far below an ulp), computed
// as (e^(|x|/2) / 2) e^(|x|/2) that overflows only with the result: 2.5
// ulp at most with an exp of 1 ulp, inside the bound of 4.
static inline double halfExpOfLarge(double A) {
  double E = __builtin_exp(A * 0.5);
  return (E * 0.5) * E;
}
static inline double coshDouble(double X) {
  double A = __builtin_fabs(X);
  double R = libm_cosh(X);
  if (A > 709.0)
    R = halfExpOfLarge(A);
  return R;
}
static inline double sinhDouble(double X) {
  double A = __builtin_fabs(X);
  double R = libm_sinh(X);
  if (A > 709.0)
    R = __builtin_copysign(halfExpOfLarge(A), X);
  return R;
}
// SLEEF's float cosh and sinh overflow the same way from ln(FLT_MAX) =
// 88.72 on; beyond 88 they are e^|x| / 2 computed likewise (sleef.cl's
// FIX_COSH and FIX_SINH for the vector forms).
static inline float halfExpOfLargeFloat(float A) {
  float E = __builtin_expf(A * 0.5f);
  return (E * 0.5f) * E;
}
static inline float coshFloat(float X) {
  float A = __builtin_fabsf(X);
  float R = Sleef_coshf_u35(X);
  if (A > 88.0f)
    R = halfExpOfLargeFloat(A);
  return R;
}
static inline float sinhFloat(float X) {
  float A = __builtin_fabsf(X);
  float R = Sleef_sinhf_u35(X);
  if (A > 88.0f)
    R = __builtin_copysignf(halfExpOfLargeFloat(A), X);
  return R;
}

// glibc's cbrt errs by up to 3 ulp; one Newton step on c^3 = x, with c^3 - x
// computed exactly through FMA, brings it within the bound of 2.
// Far from 1 the operand is scaled by 2^(+-900) (the root by 2^(-+300)) so
// that the cube and its error terms stay normal and finite.
static inline double cbrtDouble(double X) {
  double A = __builtin_fabs(X);
  if (A == 0 || __builtin_isinf(A) || X != X)
    return libm_cbrt(X);
  double Scale = 1;
  if (A > 0x1p900) {
    X *= 0x1p-900;
    Scale = 0x1p300;
  } else if (A < 0x1p-900) {
    X *= 0x1p900;
    Scale = 0x1p-300;
  }
  double C = libm_cbrt(X);
  double C2 = C * C, E2 = __builtin_fma(C, C, -C2);
  double C3 = C2 * C, E3 = __builtin_fma(C2, C, -C3);
  double Residual = ((C3 - X) + E3) + E2 * C;
  return (C - Residual / (3.0 * C2)) * Scale;
}

DEF1_SLEEF(acos, libm_acos(X), Sleef_acosf_u35(X))
DEF1(acosh, libm_acosh(X))
DEF1_SLEEF(asin, libm_asin(X), Sleef_asinf_u35(X))
DEF1(asinh, libm_asinh(X))
DEF1_SLEEF(atan, libm_atan(X), Sleef_atanf_u35(X))
DEF1_SLEEF(atanh, libm_atanh(X), Sleef_atanhf_u10(X))
DEF1_SLEEF(cbrt, cbrtDouble(X), Sleef_cbrtf_u10(X))
DEF1_SLEEF(cosh, coshDouble(X), coshFloat(X))
DEF1_SLEEF(erf, libm_erf(X), Sleef_erff_u10(X))
DEF1_SLEEF(erfc, libm_erfc(X), Sleef_erfcf_u15(X))
DEF1_SLEEF(exp10, libm_exp10(X), Sleef_exp10f_u10(X))
DEF1_SLEEF(expm1, libm_expm1(X), Sleef_expm1f_u10(X))
DEF1(log1p, libm_log1p(X))
DEF1_SLEEF(sinh, sinhDouble(X), sinhFloat(X))
DEF1_SLEEF(tanh, libm_tanh(X), Sleef_tanhf_u35(X))
DEF1(tgamma, libm_tgamma(X))
DEF1(lgamma, libm_lgamma(X))
DEF1_SLEEF(acospi, Sleef_acos_u10(X) * M_1_PI, Sleef_acosf_u10(X) * M_1_PI_F)
DEF1_SLEEF(asinpi, Sleef_asin_u10(X) * M_1_PI, Sleef_asinf_u10(X) * M_1_PI_F)
DEF1_SLEEF(atanpi, Sleef_atan_u10(X) * M_1_PI, Sleef_atanf_u10(X) * M_1_PI_F)
DEF2_SLEEF(atan2, libm_atan2(X, Y), Sleef_atan2f_u35(X, Y))
DEF2_SLEEF(atan2pi, Sleef_atan2_u10(X, Y) * M_1_PI,
           Sleef_atan2f_u10(X, Y) * M_1_PI_F)
DEF2(fmod, libm_fmod(X, Y))
DEF2_SLEEF(hypot, libm_hypot(X, Y), Sleef_hypotf_u35(X, Y))
DEF2(remainder, libm_remainder(X, Y))
DEF2(maxmag, maxmagMinmag(X, Y, true))
DEF2(minmag, maxmagMinmag(X, Y, false))
DEF2(powr, powrDouble(X, Y))

// fdim rounds the difference once, in its own type.
#define DEF_FDIM(N, T)                                                         \
  T##N WEFT_OVL fdim(T##N X, T##N Y) {                                         \
    return X > Y ? X - Y : X == X && Y == Y ? (T##N)0 : X + Y;                 \
  }
DEF_FDIM(, float)
DEF_FDIM(, double)
FOR_VECTOR_WIDTHS(DEF_FDIM, float)
FOR_VECTOR_WIDTHS(DEF_FDIM, double)

// sinpi, cospi, tanpi: the argument is reduced exactly (x minus an even
// integer is exact in binary floating point) to [-1, 1], then to the
// quarter period around 0 or 1/2 where sin or cos of pi*r is accurate.
static inline double reducePi(double X, int *Quadrant) {
  double R = X - 2.0 * __builtin_rint(X * 0.5); // [-1, 1]
  double Q = __builtin_rint(R * 2.0);          // -2 .. 2
  *Quadrant = (int)Q & 3;
  return R - Q * 0.5; // [-1/4, 1/4]
}
double WEFT_OVL sinpi(double X) {
  if (__builtin_isinf(X) || X != X)
    return __builtin_nan("");
  if (__builtin_fabs(X) >= 0x1p52) // an integer: signed zero
    return X * 0.0;
  int Q;
  double R = reducePi(X, &Q) * M_PI;
  double S = Q == 0 ? libm_sin(R) : Q == 1 ? libm_cos(R)
             : Q == 2                        ? -libm_sin(R)
                                             : -libm_cos(R);
  return S == 0 ? __builtin_copysign(0.0, X) : S;
}
double WEFT_OVL cospi(double X) {
  if (__builtin_isinf(X) || X != X)
    return __builtin_nan("");
  if (__builtin_fabs(X) >= 0x1p53)
    return 1.0;
  int Q;
  double R = reducePi(X, &Q) * M_PI;
  double C = Q == 0 ? libm_cos(R) : Q == 1 ? -libm_sin(R)
             : Q == 2                        ? -libm_cos(R)
                                             : libm_sin(R);
  return C == 0 ? 0.0 : C;
}
// tanpi has period 1: reduced exactly to [-1/2, 1/2]. Integers give signed
// zeros (the sign of n for even n, of -n for odd n) and n + 1/2 the poles
// (+inf for even n, -inf for odd n), as the specification lists.
double WEFT_OVL tanpi(double X) {
  if (__builtin_isinf(X) || X != X)
    return __builtin_nan("");
  if (__builtin_fabs(X) >= 0x1p53) // an even integer
    return __builtin_copysign(0.0, X);
  double R = X - __builtin_rint(X);
  double A = __builtin_fabs(R);
  if (A == 0) {
    bool Even = __builtin_fmod(__builtin_fabs(X), 2.0) == 0;
    return __builtin_copysign(0.0, Even ? X : -X);
  }
  if (A == 0.5) {
    bool Even = __builtin_fmod(__builtin_fabs(__builtin_floor(X)), 2.0) == 0;
    return Even ? __builtin_inf() : -__builtin_inf();
  }
  // tan(pi a) for a <= 1/4; 1/tan(pi (1/2 - a)) beyond, both accurate.
  double T = A <= 0.25 ? libm_tan(A * M_PI) : 1.0 / libm_tan((0.5 - A) * M_PI);
  return R < 0 ? -T : T;
}
float WEFT_OVL sinpi(float X) { return (float)sinpi((double)X); }
float WEFT_OVL cospi(float X) { return (float)cospi((double)X); }
float WEFT_OVL tanpi(float X) { return (float)tanpi((double)X); }
FOR_VECTOR_WIDTHS(VEC1, sinpi, float)
FOR_VECTOR_WIDTHS(VEC1, sinpi, double)
FOR_VECTOR_WIDTHS(VEC1, cospi, float)
FOR_VECTOR_WIDTHS(VEC1, cospi, double)
FOR_VECTOR_WIDTHS(VEC1, tanpi, float)
FOR_VECTOR_WIDTHS(VEC1, tanpi, double)

// nextafter steps in the source type: one unit of the bit pattern away
// from zero or towards it. Arithmetic and compares only, so that a
// vectorized loop needs no call per element.
double WEFT_OVL nextafter(double X, double Y) {
  if (X != X || Y != Y)
    return X + Y;
  if (X == Y)
    return Y;
  if (X == 0)
    return __builtin_copysign(0x1p-1074, Y);
  long B = as_long(X);
  return as_double((X < Y) == (X > 0) ? B + 1 : B - 1);
}
float WEFT_OVL nextafter(float X, float Y) {
  if (X != X || Y != Y)
    return X + Y;
  if (X == Y)
    return Y;
  if (X == 0)
    return __builtin_copysignf(0x1p-149f, Y);
  int B = as_int(X);
  return as_float((X < Y) == (X > 0) ? B + 1 : B - 1);
}
FOR_VECTOR_WIDTHS(VEC2, nextafter, float)
FOR_VECTOR_WIDTHS(VEC2, nextafter, double)

// The scalar double pow (the float one and the vector forms are math.cl's
// and sleef.cl's).
double WEFT_OVL pow(double X, double Y) { return powDouble(X, Y); }

// The scalar double exp, repaired like pow: SLEEF's exp, the loop
// vectorizer's substitute for libm's, overflows just below ln(DBL_MAX)
// (exp(0x1.62e42fefa39eep+9) was infinite); there it is (e^(x/2))^2.
double WEFT_OVL exp(double X) {
  double R = __builtin_exp(X);
  if (__builtin_isinf(R) && __builtin_isfinite(X))
    R = squareOfHalfPower(__builtin_exp(X * 0.5));
  return R;
}

// pown(x, n) = x^n, rootn(x, n) = x^(1/n) with the sign rules of odd n.
double WEFT_OVL pown(double X, int N) { return powDouble(X, (double)N); }
float WEFT_OVL pown(float X, int N) { return (float)pown((double)X, N); }
// rootn's special values (OpenCL C 1.2, 7.5.1): NaN for n = 0 and for x < 0
// with n even; rootn(+-0, n) is +-inf for odd n < 0, +inf for even n < 0,
// +-0 for odd n > 0 and +0 for even n > 0. So even roots are those of |x|
// and odd ones carry the sign of x, zeros and infinities included.
double WEFT_OVL rootn(double X, int N) {
  bool Odd = N & 1;
  if (N == 0 || X != X || (X < 0 && !Odd))
    return __builtin_nan("");
  double Sign = Odd ? __builtin_copysign(1.0, X) : 1.0;
  double A = __builtin_fabs(X);
  if (A == 0 || __builtin_isinf(A))
    return __builtin_copysign((A == 0) == (N > 0) ? 0.0 : __builtin_inf(),
                              Sign);
  if (N == 1 || N == -1)
    return __builtin_copysign(N == 1 ? A : 1.0 / A, Sign);
  // pow's 1/n is rounded; one Newton step on r^n = a makes the result
  // accurate where a is large or tiny. For |n| < 64, a = a' 2^(q|n|) with
  // a' in [1, 2^|n|) and the root is that of a' times 2^(+-q): r^n stays far
  // from overflow (SLEEF's pow, in vectorized loops, overflows early).
  int Q = 0, Shift = 0;
  if (N > -64 && N < 64) {
    int K = N < 0 ? -N : N, E = ilogb(A);
    Q = (E >= 0 ? E : E - K + 1) / K; // rounded down
    Shift = Q * K;
  }
  double Scaled = ldexp(A, -Shift);
  double R = libm_pow(Scaled, 1.0 / (double)N);
  double Rn = libm_pow(R, (double)N);
  if (Rn != 0 && !__builtin_isinf(Rn))
    R = R - R * ((Rn - Scaled) / Rn) / (double)N;
  R = ldexp(R, N > 0 ? Q : -Q);
  return __builtin_copysign(R, Sign);
}
float WEFT_OVL rootn(float X, int N) { return (float)rootn((double)X, N); }
FOR_VECTOR_WIDTHS(VEC_FI, pown, float, int)
FOR_VECTOR_WIDTHS(VEC_FI, pown, double, int)
FOR_VECTOR_WIDTHS(VEC_FI, rootn, float, int)
FOR_VECTOR_WIDTHS(VEC_FI, rootn, double, int)

// ldexp, ilogb, logb, nan: from the bit patterns, on whole vectors, where
// LLVM's ldexp and frexp are calls of libm's per element.
//
// ldexp of floats: x 2^k is exact in double for |k| <= 300 (2^k a normal
// double), rounded once to float; beyond 300 the float result is already
// infinite or zero.
#define LDEXP_FLOAT(N, _)                                                      \
  float##N WEFT_OVL ldexp(float##N X, int##N K) {                              \
    long##N E = convert_long##N(clamp(K, -300, 300)) + 1023;                   \
    return convert_float##N(convert_double##N(X) * as_double##N(E << 52));     \
  }
// ldexp of doubles: a denormal x is first scaled into the normal range.
// A normal result is x with its exponent field replaced (exact); below the
// normal range x gets the exponent 64 higher (at least the smallest normal
// one) and one multiplication by 2^-64 rounds it, once. Zeros, infinities
// and NaN stay.
#define LDEXP_DOUBLE(N, _)                                                     \
  double##N WEFT_OVL ldexp(double##N X, int##N K) {                            \
    long##N Field = (as_long##N(X) >> 52) & 0x7ff;                             \
    double##N Y = Field == 0 ? X * 0x1p64 : X;                                 \
    long##N Bits = as_long##N(Y);                                              \
    long##N Rest = Bits & (long##N)0x800fffffffffffffL;                        \
    long##N E = ((Bits >> 52) & 0x7ff) -                                       \
                (Field == 0 ? (long##N)64 : (long##N)0) +                      \
                convert_long##N(clamp(K, -2200, 2200));                        \
    double##N Normal = as_double##N(Rest | (E << 52));                         \
    double##N Low = as_double##N(Rest | (max(E + 64, 1L) << 52)) * 0x1p-64;    \
    double##N R = E >= 2047   ? __builtin_elementwise_copysign(                \
                                  (double##N)INFINITY, X)                      \
                  : E >= 1 ? Normal                                            \
                           : Low;                                              \
    return Field == 0x7ff || X == 0 ? X : R;                                   \
  }
LDEXP_FLOAT(, ) LDEXP_DOUBLE(, )
FOR_VECTOR_WIDTHS(LDEXP_FLOAT, )
FOR_VECTOR_WIDTHS(LDEXP_DOUBLE, )
#define DEF_LDEXP_SCALAR_N(N, T)                                               \
  T##N WEFT_OVL ldexp(T##N X, int K) { return ldexp(X, (int##N)K); }
FOR_VECTOR_WIDTHS(DEF_LDEXP_SCALAR_N, float)
FOR_VECTOR_WIDTHS(DEF_LDEXP_SCALAR_N, double)

// ilogb from the bit pattern, a denormal's exponent from its leading one:
// glibc's ilogb gives INT_MIN for NaN, opencl-c-base.h's FP_ILOGBNAN is
// INT_MAX (and FP_ILOGB0 is INT_MIN). Infinities give INT_MAX, as in C99.
int WEFT_OVL ilogb(double X) {
  ulong A = as_ulong(X) & 0x7ffffffffffffffful;
  if (A == 0)
    return FP_ILOGB0;
  if (A >= 0x7ff0000000000000ul)
    return A == 0x7ff0000000000000ul ? INT_MAX : FP_ILOGBNAN;
  if (A < 0x0010000000000000ul) // denormal: 2^-1074 times the mantissa
    return 63 - (int)clz(A) - 1074;
  return (int)(A >> 52) - 1023;
}
int WEFT_OVL ilogb(float X) {
  uint A = as_uint(X) & 0x7fffffffu;
  if (A == 0)
    return FP_ILOGB0;
  if (A >= 0x7f800000u)
    return A == 0x7f800000u ? INT_MAX : FP_ILOGBNAN;
  if (A < 0x00800000u) // denormal: 2^-149 times the mantissa
    return 31 - (int)clz(A) - 149;
  return (int)(A >> 23) - 127;
}
FOR_VECTOR_WIDTHS(VEC_RETI, ilogb, float, int)
FOR_VECTOR_WIDTHS(VEC_RETI, ilogb, double, int)

// logb is ilogb as a floating-point value, with -inf for zeros, +inf for
// infinities and NaN for NaN.
double WEFT_OVL logb(double X) {
  double A = __builtin_fabs(X);
  return X == 0 ? -INFINITY : A == INFINITY || X != X ? A : (double)ilogb(X);
}
float WEFT_OVL logb(float X) {
  float A = __builtin_fabsf(X);
  return X == 0 ? -INFINITY : A == INFINITY || X != X ? A : (float)ilogb(X);
}
FOR_VECTOR_WIDTHS(VEC1, logb, float)
FOR_VECTOR_WIDTHS(VEC1, logb, double)

// nan(code): a quiet NaN carrying the code in its mantissa.
float WEFT_OVL nan(uint C) { return as_float(0x7fc00000u | (C & 0x3fffffu)); }
double WEFT_OVL nan(ulong C) {
  return as_double(0x7ff8000000000000ul | (C & 0x7fffffffffffful));
}
#define DEF_NAN_N(N, _)                                                        \
  float##N WEFT_OVL nan(uint##N C) {                                           \
    return as_float##N((uint##N)0x7fc00000u | (C & 0x3fffffu));                \
  }                                                                            \
  double##N WEFT_OVL nan(ulong##N C) {                                         \
    return as_double##N((ulong##N)0x7ff8000000000000ul |                       \
                        (C & 0x7fffffffffffful));                              \
  }
FOR_VECTOR_WIDTHS(DEF_NAN_N, )

// half_* (float only): the full-precision functions meet their bounds.
#define DEF_HALF_NATIVE(T)                                                     \
  T WEFT_OVL half_cos(T X) { return cos(X); }                                  \
  T WEFT_OVL half_sin(T X) { return sin(X); }                                  \
  T WEFT_OVL half_tan(T X) { return tan(X); }                                  \
  T WEFT_OVL half_exp(T X) { return exp(X); }                                  \
  T WEFT_OVL half_exp2(T X) { return exp2(X); }                                \
  T WEFT_OVL half_exp10(T X) { return exp10(X); }                              \
  T WEFT_OVL half_log(T X) { return log(X); }                                  \
  T WEFT_OVL half_log2(T X) { return log2(X); }                                \
  T WEFT_OVL half_log10(T X) { return log10(X); }                              \
  T WEFT_OVL half_sqrt(T X) { return sqrt(X); }                                \
  T WEFT_OVL half_rsqrt(T X) { return rsqrt(X); }                              \
  T WEFT_OVL half_recip(T X) { return (T)1 / X; }                              \
  T WEFT_OVL half_divide(T X, T Y) { return X / Y; }                           \
  T WEFT_OVL half_powr(T X, T Y) { return powr(X, Y); }                        \
  T WEFT_OVL native_exp10(T X) { return exp10(X); }
DEF_HALF_NATIVE(float)
DEF_HALF_NATIVE(float2)
DEF_HALF_NATIVE(float3)
DEF_HALF_NATIVE(float4)
DEF_HALF_NATIVE(float8)
DEF_HALF_NATIVE(float16)

//===----------------------------------------------------------------------===//
// Functions with a pointer result, for each address space
//===----------------------------------------------------------------------===//

// fract: x - floor(x), kept below 1 (a tiny negative x would round to 1).
static inline double fractDouble(double X, double *Floor) {
  double F = __builtin_floor(X);
  *Floor = F;
  if (X != X)
    return X;
  if (__builtin_isinf(X))
    return __builtin_copysign(0.0, X);
  return __builtin_fmin(X - F, 0x1.fffffffffffffp-1);
}
static inline float fractFloat(float X, float *Floor) {
  float F = __builtin_floorf(X);
  *Floor = F;
  if (X != X)
    return X;
  if (__builtin_isinf(X))
    return __builtin_copysignf(0.0f, X);
  return __builtin_fminf(X - F, 0x1.fffffep-1f);
}
static inline double modfDouble(double X, double *Int) {
  double T = __builtin_trunc(X);
  *Int = T;
  return __builtin_isinf(X) ? __builtin_copysign(0.0, X)
                            : __builtin_copysign(X - T, X);
}
static inline float modfFloat(float X, float *Int) {
  float T = __builtin_truncf(X);
  *Int = T;
  return __builtin_isinf(X) ? __builtin_copysignf(0.0f, X)
                            : __builtin_copysignf(X - T, X);
}
// frexp from the bit pattern (LLVM's frexp is a call of libm's): the
// mantissa gets the exponent of [0.5, 1); a denormal is scaled into the
// normal range first. Zeros, infinities and NaN come back with 0.
static inline double frexpDouble(double X, int *E) {
  long Field = (as_long(X) >> 52) & 0x7ff;
  long Bits = as_long(Field == 0 ? X * 0x1p64 : X);
  bool Special = X == 0 || Field == 0x7ff;
  *E = Special ? 0 : (int)((Bits >> 52) & 0x7ff) - (Field == 0 ? 1086 : 1022);
  return Special ? X : as_double((Bits & 0x800fffffffffffffL) | (1022L << 52));
}
static inline float frexpFloat(float X, int *E) {
  int Field = (as_int(X) >> 23) & 0xff;
  int Bits = as_int(Field == 0 ? X * 0x1p32f : X);
  bool Special = X == 0 || Field == 0xff;
  *E = Special ? 0 : ((Bits >> 23) & 0xff) - (Field == 0 ? 158 : 126);
  return Special ? X : as_float((Bits & (int)0x807fffffu) | (126 << 23));
}
static inline double sincosDouble(double X, double *C) {
  *C = cos(X);
  return sin(X);
}
static inline float sincosFloat(float X, float *C) {
  *C = cos(X);
  return sin(X);
}
static inline double lgammarDouble(double X, int *Sign) {
  return libm_lgamma_r(X, Sign);
}
static inline float lgammarFloat(float X, int *Sign) {
  return (float)libm_lgamma_r((double)X, Sign);
}
// glibc's remquo gives only the low 3 bits of the quotient (121 came out
// as 1); OpenCL asks for 7 and the sign of x/y. The rounded quotient of
// |x| by |y| is congruent modulo 128 to that of fmod(|x|, 128 |y|), which
// differs from |x| by a multiple of 128 |y| and is exact; that one is at
// most 128, the rounded quotient of its distance to its exact remainder.
// (With 128 |y| infinite, fmod gives |x|, whose quotient is below 128.)
static inline double remquoDouble(double X, double Y, int *Quo) {
  double R = libm_remainder(X, Y);
  double AX = __builtin_fabs(X), AY = __builtin_fabs(Y);
  int Q = 0; // unspecified where R is NaN (y = 0, x infinite or NaN)
  if (R == R && !__builtin_isinf(AY)) {
    double Reduced = libm_fmod(AX, 128.0 * AY);
    double Rest = libm_remainder(Reduced, AY);
    Q = (int)__builtin_rint((Reduced - Rest) / AY);
  }
  *Quo = __builtin_signbit(X) != __builtin_signbit(Y) ? -Q : Q;
  return R;
}
static inline float remquoFloat(float X, float Y, int *Quo) {
  // remquo of the exact double images gives the float answer exactly: the
  // remainder of two floats is representable in float.
  return (float)remquoDouble((double)X, (double)Y, Quo);
}

// NAME(T x, AS P *out) from a helper over (S x, Q *out).
#define DEF_PTR1(AS, NAME, HELPER, T, P)                                       \
  T WEFT_OVL NAME(T X, AS P *Out) {                                            \
    P O;                                                                       \
    T R = HELPER(X, &O);                                                       \
    *Out = O;                                                                  \
    return R;                                                                  \
  }
#define DEF_PTR1_VEC(N, AS, NAME, HELPER, T, P)                                \
  T##N WEFT_OVL NAME(T##N X, AS P##N *Out) {                                   \
    T##N R;                                                                    \
    P##N O;                                                                    \
    for (int I = 0; I < N; ++I) {                                              \
      P Q;                                                                     \
      R[I] = HELPER(X[I], &Q);                                                 \
      O[I] = Q;                                                                \
    }                                                                          \
    *Out = O;                                                                  \
    return R;                                                                  \
  }
#define DEF_PTR2(AS, NAME, HELPER, T, P)                                       \
  T WEFT_OVL NAME(T X, T Y, AS P *Out) {                                       \
    P O;                                                                       \
    T R = HELPER(X, Y, &O);                                                    \
    *Out = O;                                                                  \
    return R;                                                                  \
  }
#define DEF_PTR2_VEC(N, AS, NAME, HELPER, T, P)                                \
  T##N WEFT_OVL NAME(T##N X, T##N Y, AS P##N *Out) {                           \
    T##N R;                                                                    \
    P##N O;                                                                    \
    for (int I = 0; I < N; ++I) {                                              \
      P Q;                                                                     \
      R[I] = HELPER(X[I], Y[I], &Q);                                           \
      O[I] = Q;                                                                \
    }                                                                          \
    *Out = O;                                                                  \
    return R;                                                                  \
  }
// The vector sin and cos are SLEEF's (sleef.cl).
#define DEF_SINCOS_VEC(N, AS, T)                                               \
  T##N WEFT_OVL sincos(T##N X, AS T##N *Out) {                                 \
    *Out = cos(X);                                                             \
    return sin(X);                                                             \
  }
#define DEF_POINTER_FUNCTIONS(AS)                                              \
  DEF_PTR1(AS, fract, fractFloat, float, float)                                \
  DEF_PTR1(AS, fract, fractDouble, double, double)                             \
  DEF_PTR1(AS, modf, modfFloat, float, float)                                  \
  DEF_PTR1(AS, modf, modfDouble, double, double)                               \
  DEF_PTR1(AS, frexp, frexpFloat, float, int)                                  \
  DEF_PTR1(AS, frexp, frexpDouble, double, int)                                \
  DEF_PTR1(AS, sincos, sincosFloat, float, float)                              \
  DEF_PTR1(AS, sincos, sincosDouble, double, double)                           \
  DEF_PTR1(AS, lgamma_r, lgammarFloat, float, int)                             \
  DEF_PTR1(AS, lgamma_r, lgammarDouble, double, int)                           \
  DEF_PTR2(AS, remquo, remquoFloat, float, int)                                \
  DEF_PTR2(AS, remquo, remquoDouble, double, int)                              \
  FOR_VECTOR_WIDTHS(DEF_PTR1_VEC, AS, fract, fractFloat, float, float)         \
  FOR_VECTOR_WIDTHS(DEF_PTR1_VEC, AS, fract, fractDouble, double, double)      \
  FOR_VECTOR_WIDTHS(DEF_PTR1_VEC, AS, modf, modfFloat, float, float)           \
  FOR_VECTOR_WIDTHS(DEF_PTR1_VEC, AS, modf, modfDouble, double, double)        \
  FOR_VECTOR_WIDTHS(DEF_PTR1_VEC, AS, frexp, frexpFloat, float, int)           \
  FOR_VECTOR_WIDTHS(DEF_PTR1_VEC, AS, frexp, frexpDouble, double, int)         \
  FOR_VECTOR_WIDTHS(DEF_SINCOS_VEC, AS, float)                                 \
  FOR_VECTOR_WIDTHS(DEF_SINCOS_VEC, AS, double)                                \
  FOR_VECTOR_WIDTHS(DEF_PTR1_VEC, AS, lgamma_r, lgammarFloat, float, int)      \
  FOR_VECTOR_WIDTHS(DEF_PTR1_VEC, AS, lgamma_r, lgammarDouble, double, int)    \
  FOR_VECTOR_WIDTHS(DEF_PTR2_VEC, AS, remquo, remquoFloat, float, int)         \
  FOR_VECTOR_WIDTHS(DEF_PTR2_VEC, AS, remquo, remquoDouble, double, int)
DEF_POINTER_FUNCTIONS(__global)
DEF_POINTER_FUNCTIONS(__local)
DEF_POINTER_FUNCTIONS(__private)
