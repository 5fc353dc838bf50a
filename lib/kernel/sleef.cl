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
// The variants are SLEEF's u10 ones (erfc u15, hypot u05): within 1.5 ulp,
// inside every bound of the OpenCL ULP table, as for the scalar forms'
// loop-vectorized calls (lib/llvmopencl/VectorMathVariants.cpp), whose
// exclusions hold here too: acosh, asinh and log1p stay on libm (SLEEF
// overflows to infinity for huge arguments), as do tgamma and lgamma.
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

// A form that is one SLEEF call.
#define CALL1(NAME, ACC, T, TW, ISA)                                           \
  T SLEEF_FN(NAME, TW, ACC, ISA)(T) __attribute__((const));                    \
  T WEFT_OVL NAME(T X) { return SLEEF_FN(NAME, TW, ACC, ISA)(X); }
#define CALL2(NAME, ACC, T, TW, ISA)                                           \
  T SLEEF_FN(NAME, TW, ACC, ISA)(T, T) __attribute__((const));                 \
  T WEFT_OVL NAME(T X, T Y) { return SLEEF_FN(NAME, TW, ACC, ISA)(X, Y); }

// A form that is two calls of the half width.
#define SPLIT1(NAME, T)                                                        \
  T WEFT_OVL NAME(T X) { return (T)(NAME(X.lo), NAME(X.hi)); }
#define SPLIT2(NAME, T)                                                        \
  T WEFT_OVL NAME(T X, T Y) {                                                  \
    return (T)(NAME(X.lo, Y.lo), NAME(X.hi, Y.hi));                            \
  }

// Padded forms (float2 as a float4, float3 and double3 as a float4 and a
// double4): the extra lanes repeat real ones, so that they raise no
// exception and take no slow path the real lanes do not.
#define PAD1_2(NAME, S)                                                        \
  S##2 WEFT_OVL NAME(S##2 X) { return NAME((S##4)(X, X)).lo; }
#define PAD1_3(NAME, S)                                                        \
  S##3 WEFT_OVL NAME(S##3 X) { return NAME((S##4)(X, X.z)).xyz; }
#define PAD2_2(NAME, S)                                                        \
  S##2 WEFT_OVL NAME(S##2 X, S##2 Y) {                                         \
    return NAME((S##4)(X, X), (S##4)(Y, Y)).lo;                                \
  }
#define PAD2_3(NAME, S)                                                        \
  S##3 WEFT_OVL NAME(S##3 X, S##3 Y) {                                         \
    return NAME((S##4)(X, X.z), (S##4)(Y, Y.z)).xyz;                           \
  }

// The widths of the table above whose presence depends on the level.
#if HAVE_F8_D4
#define WIDE8_1(NAME, ACC)                                                     \
  CALL1(NAME, ACC, float8, f8, ISA_F8) CALL1(NAME, ACC, double4, d4, ISA_D4)
#define WIDE8_2(NAME, ACC)                                                     \
  CALL2(NAME, ACC, float8, f8, ISA_F8) CALL2(NAME, ACC, double4, d4, ISA_D4)
#else
#define WIDE8_1(NAME, ACC) SPLIT1(NAME, float8) SPLIT1(NAME, double4)
#define WIDE8_2(NAME, ACC) SPLIT2(NAME, float8) SPLIT2(NAME, double4)
#endif
#if HAVE_F16_D8
#define WIDE16_1(NAME, ACC)                                                    \
  CALL1(NAME, ACC, float16, f16, ISA_F16) CALL1(NAME, ACC, double8, d8, ISA_D8)
#define WIDE16_2(NAME, ACC)                                                    \
  CALL2(NAME, ACC, float16, f16, ISA_F16) CALL2(NAME, ACC, double8, d8, ISA_D8)
#else
#define WIDE16_1(NAME, ACC) SPLIT1(NAME, float16) SPLIT1(NAME, double8)
#define WIDE16_2(NAME, ACC) SPLIT2(NAME, float16) SPLIT2(NAME, double8)
#endif

// Every vector form of a function of one or two arguments.
#define SLEEF1(NAME, ACC)                                                      \
  CALL1(NAME, ACC, float4, f4, ISA_F4)                                         \
  CALL1(NAME, ACC, double2, d2, ISA_D2)                                        \
  PAD1_2(NAME, float) PAD1_3(NAME, float) PAD1_3(NAME, double)                \
  WIDE8_1(NAME, ACC)                                                           \
  WIDE16_1(NAME, ACC) SPLIT1(NAME, double16)
#define SLEEF2(NAME, ACC)                                                      \
  CALL2(NAME, ACC, float4, f4, ISA_F4)                                         \
  CALL2(NAME, ACC, double2, d2, ISA_D2)                                        \
  PAD2_2(NAME, float) PAD2_3(NAME, float) PAD2_3(NAME, double)                \
  WIDE8_2(NAME, ACC)                                                           \
  WIDE16_2(NAME, ACC) SPLIT2(NAME, double16)

SLEEF1(exp, u10)
SLEEF1(exp2, u10)
SLEEF1(exp10, u10)
SLEEF1(expm1, u10)
SLEEF1(log, u10)
SLEEF1(log2, u10)
SLEEF1(log10, u10)
SLEEF1(sin, u10)
SLEEF1(cos, u10)
SLEEF1(tan, u10)
SLEEF1(asin, u10)
SLEEF1(acos, u10)
SLEEF1(atan, u10)
SLEEF1(sinh, u10)
SLEEF1(cosh, u10)
SLEEF1(tanh, u10)
SLEEF1(atanh, u10)
SLEEF1(cbrt, u10)
SLEEF1(erf, u10)
SLEEF1(erfc, u15)
SLEEF2(pow, u10)
SLEEF2(atan2, u10)
SLEEF2(hypot, u05)
