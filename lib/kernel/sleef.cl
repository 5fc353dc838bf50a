//===- sleef.cl - Vector forms of the math builtins through SLEEF ---------===//
//
// exp(float16), atan(double8), pow(float4, float4), ... call SLEEF's vector
// functions (Debian's libsleef.so.3, which the JIT loads) for the widest
// registers of this library's level, instead of going component by
// component through libm:
//
//            float4    float8   float16   double2   double4  double8
//   baseline sse2      2 x 4    4 x 4     sse2      2 x 2    4 x 2
//   avx2     avx2128   avx2     2 x 8     avx2128   avx2     2 x 4
//   avx512   avx2128   avx2     avx512f   avx2128   avx2     avx512f
//
// Narrower widths are padded (float2 and float3 run as a float4, double3
// as a double4), wider ones split in halves. A vector crosses to SLEEF only
// in the registers the level's -march passes it in, so every call matches
// the C ABI SLEEF was compiled for.
//
// Accuracy: the OpenCL ULP table's, not beyond it. sin, cos, tan, asin,
// acos, atan, atan2, sinh, cosh, tanh and hypot call SLEEF's 3.5-ulp (u35)
// functions, within their bounds of 4 to 6 ulp; the others its 1-ulp (u10)
// ones (erfc u15), as bounds of 2 or 3 ulp require, and so do the pi forms
// (an error of e ulp of acos can be 4e ulp of acospi). The scalar forms'
// loop-vectorized calls take the same functions
// (lib/llvmopencl/CpuSimd/VectorMathVariants.cpp, which also moves the float pi
// forms to u35 under -cl-fast-relaxed-math). Not through SLEEF: acosh,
// asinh and log1p (SLEEF overflows to infinity for huge arguments) and, as
// MathAccuracy found, sinpi, cospi and tgamma (SLEEF 3.5's give zeros the
// wrong sign, and its float cospi returns 1 for odd integers and
// half-integers beyond 2^22), fmod and remainder (NaN for tiny divisors),
// and lgamma (no bound to test it against): libm, component by component.
// tests/builtins/MathTest.cpp checks every width against the bounds.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#if defined(__AVX512F__)
#define ISA_F4 avx2128
#define ISA_D2 avx2128
#define HAVE_F8_D4 1
#define HAVE_F16_D8 1
#elif defined(__AVX2__)
#define ISA_F4 avx2128
#define ISA_D2 avx2128
#define HAVE_F8_D4 1
#define HAVE_F16_D8 0
#else
#define ISA_F4 sse2
#define ISA_D2 sse2
#define HAVE_F8_D4 0
#define HAVE_F16_D8 0
#endif
#define ISA_F8 avx2
#define ISA_D4 avx2
#define ISA_F16 avx512f
#define ISA_D8 avx512f

// Sleef_<name><f|d><width>_<accuracy><isa>, with the macros expanded.
#define SLEEF_FN(NAME, TW, ACC, ISA) SLEEF_FN_(NAME, TW, ACC, ISA)
#define SLEEF_FN_(NAME, TW, ACC, ISA) Sleef_##NAME##TW##_##ACC##ISA

// A form that is one SLEEF call, its result R passed through
// FIX(SLEEF function, R, X[, Y]): KEEP, or a repair of SLEEF's result
// where it misses the bound (below). LINK DEF is the overload it defines:
// the builtin NAME itself, or a static helper of a pinned accuracy.
#define CALL1(LINK, DEF, NAME, ACC, FIX, T, TW, ISA)                           \
  T SLEEF_FN(NAME, TW, ACC, ISA)(T) __attribute__((const));                    \
  LINK T WEFT_OVL DEF(T X) {                                                   \
    return FIX(SLEEF_FN(NAME, TW, ACC, ISA),                                   \
               SLEEF_FN(NAME, TW, ACC, ISA)(X), X);                            \
  }
#define CALL2(LINK, DEF, NAME, ACC, FIX, T, TW, ISA)                           \
  T SLEEF_FN(NAME, TW, ACC, ISA)(T, T) __attribute__((const));                 \
  LINK T WEFT_OVL DEF(T X, T Y) {                                              \
    return FIX(SLEEF_FN(NAME, TW, ACC, ISA),                                   \
               SLEEF_FN(NAME, TW, ACC, ISA)(X, Y), X, Y);                      \
  }
#define KEEP(FN, R, ...) (R)

// SLEEF's cosh and sinh compute exp(|x|) and overflow from ln(max) on
// (709.78 for double, 88.72 for float), below their own threshold
// ln(2 max): cosh(-0x1.63p+9) and sinh(-0x1.62fp+6) were infinite. Beyond
// 709 (88), where e^-|x| is far below an ulp, both are e^|x| / 2, computed
// as (e^(|x|/2) / 2) e^(|x|/2), which overflows only with the result: 2.5
// ulp at most with an exp of 1 ulp, inside their bound of 4.
#define LARGE_HYPERBOLIC(X)                                                    \
  (__builtin_elementwise_abs(X) >                                              \
   (__typeof__((X)[0]))(sizeof((X)[0]) == 4 ? 88 : 709))
#define HALF_EXP_OF_ABS(X)                                                     \
  ({                                                                           \
    __typeof__(X) E_ = exp(__builtin_elementwise_abs(X) * 0.5f);               \
    (E_ * 0.5f) * E_;                                                          \
  })
#define FIX_COSH(FN, R, X)                                                     \
  ({                                                                           \
    __typeof__(R) R_ = (R);                                                    \
    if (any(LARGE_HYPERBOLIC(X)))                                              \
      R_ = LARGE_HYPERBOLIC(X) ? HALF_EXP_OF_ABS(X) : R_;                      \
    R_;                                                                        \
  })
#define FIX_SINH(FN, R, X)                                                     \
  ({                                                                           \
    __typeof__(R) R_ = (R);                                                    \
    if (any(LARGE_HYPERBOLIC(X)))                                              \
      R_ = LARGE_HYPERBOLIC(X)                                                 \
               ? __builtin_elementwise_copysign(HALF_EXP_OF_ABS(X), X)         \
               : R_;                                                           \
    R_;                                                                        \
  })
// SLEEF's double exp overflows just below ln(DBL_MAX)
// (exp(0x1.62e42fefa39eep+9) was infinite): there it is (e^(x/2))^2, the
// square repaired as pow's below.
#define FIX_EXP(FN, R, X)                                                      \
  ({                                                                           \
    __typeof__(R) R_ = (R);                                                    \
    __typeof__(R_ < 0) Redo_ = isinf(R_) & isfinite(X);                        \
    if (sizeof(R_[0]) == 8 && any(Redo_))                                      \
      R_ = Redo_ ? SQUARE_OF_HALF_POWER(FN(X * 0.5f)) : R_;                    \
    R_;                                                                        \
  })
// The square of a half power H, DBL_MAX where it overflows from H's error
// alone (H within 2 ulp above 2^512), as libm.cl's squareOfHalfPower.
#define SQUARE_OF_HALF_POWER(H)                                                \
  ({                                                                           \
    __typeof__(H) H_ = (H), S_ = H_ * H_;                                      \
    isinf(S_) & (H_ <= (__typeof__(S_[0]))0x1.0000000000002p+512)             \
        ? (__typeof__(S_))(__typeof__(S_[0]))DBL_MAX                           \
        : S_;                                                                  \
  })
// SLEEF's double pow overflows within a few ulp of the largest finite
// value (pow(-DBL_MAX, 1) gave -inf). An infinity from finite nonzero
// operands is recomputed as (|x|^(y/2))^2, with the sign the first result
// had (that of x for odd integers y): 2.5 ulp at most, within pow's 16; a
// square that overflows from the half power's error alone (the half power
// within 2 ulp above 2^512) is within 5 ulp of DBL_MAX and becomes it, as
// in libm.cl's powDouble. (SLEEF's float pow reaches FLT_MAX.)
#define FIX_POW(FN, R, X, Y)                                                   \
  ({                                                                           \
    __typeof__(R) R_ = (R);                                                    \
    __typeof__(R_ < 0) Redo_ =                                                 \
        isinf(R_) & isfinite(X) & isfinite(Y) & (X != 0);                      \
    if (sizeof(R_[0]) == 8 && any(Redo_)) {                                    \
      __typeof__(R) S_ = SQUARE_OF_HALF_POWER(                                 \
          FN(__builtin_elementwise_abs(X), Y * 0.5f));                         \
      R_ = Redo_ ? __builtin_elementwise_copysign(S_, R_) : R_;                \
    }                                                                          \
    R_;                                                                        \
  })

// A form that is two calls of the half width.
#define SPLIT1(LINK, DEF, T)                                                   \
  LINK T WEFT_OVL DEF(T X) { return (T)(DEF(X.lo), DEF(X.hi)); }
#define SPLIT2(LINK, DEF, T)                                                   \
  LINK T WEFT_OVL DEF(T X, T Y) {                                              \
    return (T)(DEF(X.lo, Y.lo), DEF(X.hi, Y.hi));                              \
  }

// Padded forms (float2 as a float4, float3 and double3 as a float4 and a
// double4): the extra lanes repeat real ones, so that they raise no
// exception and take no slow path the real lanes do not.
#define PAD1_2(LINK, DEF, S)                                                   \
  LINK S##2 WEFT_OVL DEF(S##2 X) { return DEF((S##4)(X, X)).lo; }
#define PAD1_3(LINK, DEF, S)                                                   \
  LINK S##3 WEFT_OVL DEF(S##3 X) { return DEF((S##4)(X, X.z)).xyz; }
#define PAD2_2(LINK, DEF, S)                                                   \
  LINK S##2 WEFT_OVL DEF(S##2 X, S##2 Y) {                                     \
    return DEF((S##4)(X, X), (S##4)(Y, Y)).lo;                                 \
  }
#define PAD2_3(LINK, DEF, S)                                                   \
  LINK S##3 WEFT_OVL DEF(S##3 X, S##3 Y) {                                     \
    return DEF((S##4)(X, X.z), (S##4)(Y, Y.z)).xyz;                            \
  }

// The widths of the table above whose presence depends on the level.
#if HAVE_F8_D4
#define WIDE8_1(LINK, DEF, NAME, ACC, FIX)                                     \
  CALL1(LINK, DEF, NAME, ACC, FIX, float8, f8, ISA_F8)                         \
  CALL1(LINK, DEF, NAME, ACC, FIX, double4, d4, ISA_D4)
#define WIDE8_2(LINK, DEF, NAME, ACC, FIX)                                     \
  CALL2(LINK, DEF, NAME, ACC, FIX, float8, f8, ISA_F8)                         \
  CALL2(LINK, DEF, NAME, ACC, FIX, double4, d4, ISA_D4)
#else
#define WIDE8_1(LINK, DEF, NAME, ACC, FIX)                                     \
  SPLIT1(LINK, DEF, float8) SPLIT1(LINK, DEF, double4)
#define WIDE8_2(LINK, DEF, NAME, ACC, FIX)                                     \
  SPLIT2(LINK, DEF, float8) SPLIT2(LINK, DEF, double4)
#endif
#if HAVE_F16_D8
#define WIDE16_1(LINK, DEF, NAME, ACC, FIX)                                    \
  CALL1(LINK, DEF, NAME, ACC, FIX, float16, f16, ISA_F16)                      \
  CALL1(LINK, DEF, NAME, ACC, FIX, double8, d8, ISA_D8)
#define WIDE16_2(LINK, DEF, NAME, ACC, FIX)                                    \
  CALL2(LINK, DEF, NAME, ACC, FIX, float16, f16, ISA_F16)                      \
  CALL2(LINK, DEF, NAME, ACC, FIX, double8, d8, ISA_D8)
#else
#define WIDE16_1(LINK, DEF, NAME, ACC, FIX)                                    \
  SPLIT1(LINK, DEF, float16) SPLIT1(LINK, DEF, double8)
#define WIDE16_2(LINK, DEF, NAME, ACC, FIX)                                    \
  SPLIT2(LINK, DEF, float16) SPLIT2(LINK, DEF, double8)
#endif

// Every vector form of a function of one or two arguments (the padded and
// split forms go through the repaired calls), each after the forms it
// calls: a static helper has no prototype in opencl-c.h.
#define SLEEF1_AS(LINK, DEF, NAME, ACC, FIX)                                   \
  CALL1(LINK, DEF, NAME, ACC, FIX, float4, f4, ISA_F4)                         \
  CALL1(LINK, DEF, NAME, ACC, FIX, double2, d2, ISA_D2)                        \
  PAD1_2(LINK, DEF, float) PAD1_3(LINK, DEF, float)                            \
  WIDE8_1(LINK, DEF, NAME, ACC, FIX) PAD1_3(LINK, DEF, double)                 \
  WIDE16_1(LINK, DEF, NAME, ACC, FIX) SPLIT1(LINK, DEF, double16)
#define SLEEF2_AS(LINK, DEF, NAME, ACC, FIX)                                   \
  CALL2(LINK, DEF, NAME, ACC, FIX, float4, f4, ISA_F4)                         \
  CALL2(LINK, DEF, NAME, ACC, FIX, double2, d2, ISA_D2)                        \
  PAD2_2(LINK, DEF, float) PAD2_3(LINK, DEF, float)                            \
  WIDE8_2(LINK, DEF, NAME, ACC, FIX) PAD2_3(LINK, DEF, double)                 \
  WIDE16_2(LINK, DEF, NAME, ACC, FIX) SPLIT2(LINK, DEF, double16)
#define SLEEF1_FIXED(NAME, ACC, FIX) SLEEF1_AS(, NAME, NAME, ACC, FIX)
#define SLEEF2_FIXED(NAME, ACC, FIX) SLEEF2_AS(, NAME, NAME, ACC, FIX)
#define SLEEF1(NAME, ACC) SLEEF1_FIXED(NAME, ACC, KEEP)
#define SLEEF2(NAME, ACC) SLEEF2_FIXED(NAME, ACC, KEEP)

SLEEF1_FIXED(exp, u10, FIX_EXP)
SLEEF1(exp2, u10)
SLEEF1(exp10, u10)
SLEEF1(expm1, u10)
SLEEF1(log, u10)
SLEEF1(log2, u10)
SLEEF1(log10, u10)
SLEEF1(sin, u35)
SLEEF1(cos, u35)
SLEEF1(tan, u35)
SLEEF1(asin, u35)
SLEEF1(acos, u35)
SLEEF1(atan, u35)
SLEEF1_FIXED(sinh, u35, FIX_SINH)
SLEEF1_FIXED(cosh, u35, FIX_COSH)
SLEEF1(tanh, u35)
SLEEF1(atanh, u10)
SLEEF1(cbrt, u10)
SLEEF1(erf, u10)
SLEEF1(erfc, u15)
SLEEF2_FIXED(pow, u10, FIX_POW)
SLEEF2(atan2, u35)
SLEEF2(hypot, u35)

// The pi forms: SLEEF's u10 result scaled by 1/pi. The quotient lies one
// or two binades below, so 1 ulp of acos is 2 to 4 ulp of acospi; with the
// two roundings of the scaling (half an ulp each) 5 at most, within the
// bounds of 5 and 6. u35 could reach 15.
SLEEF1_AS(static, acosU10, acos, u10, KEEP)
SLEEF1_AS(static, asinU10, asin, u10, KEEP)
SLEEF1_AS(static, atanU10, atan, u10, KEEP)
SLEEF2_AS(static, atan2U10, atan2, u10, KEEP)
#define PI_FORMS(N, _)                                                         \
  float##N WEFT_OVL acospi(float##N X) { return acosU10(X) * M_1_PI_F; }       \
  float##N WEFT_OVL asinpi(float##N X) { return asinU10(X) * M_1_PI_F; }       \
  float##N WEFT_OVL atanpi(float##N X) { return atanU10(X) * M_1_PI_F; }       \
  float##N WEFT_OVL atan2pi(float##N Y, float##N X) {                          \
    return atan2U10(Y, X) * M_1_PI_F;                                          \
  }                                                                            \
  double##N WEFT_OVL acospi(double##N X) { return acosU10(X) * M_1_PI; }       \
  double##N WEFT_OVL asinpi(double##N X) { return asinU10(X) * M_1_PI; }       \
  double##N WEFT_OVL atanpi(double##N X) { return atanU10(X) * M_1_PI; }       \
  double##N WEFT_OVL atan2pi(double##N Y, double##N X) {                       \
    return atan2U10(Y, X) * M_1_PI;                                            \
  }
PI_FORMS(2, ) PI_FORMS(3, ) PI_FORMS(4, ) PI_FORMS(8, ) PI_FORMS(16, )
