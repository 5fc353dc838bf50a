//===- HalfTest.cpp - cl_khr_fp16: half arithmetic, conversions, builtins -===//
//
// The references are independent of how the device computes: a value that
// is exact as an integer times a power of two (a half, a float, a double,
// an integer, the sum, product or fma of halves, a quotient with its
// remainder's sticky bit) is rounded to half in integer arithmetic in the
// asked mode (roundHalf); the math functions are measured in half ulps
// against the host's long double libm, with the bounds of the OpenCL C
// specification's half-precision ULP table. Unary functions are tested on
// all 65536 halves; the worst error of each is printed as "[ ULP ]".
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

#include <CL/cl_ext.h>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <immintrin.h>
#include <limits>

using namespace weft_test;

namespace {

class HalfBuiltins : public BuiltinTest {
public:
  using BuiltinTest::runKernel;
};

using Ld = long double;
using U128 = unsigned __int128;
enum Mode { RTE, RTZ, RTP, RTN };
const char *const ModeSuffix[] = {"_rte", "_rtz", "_rtp", "_rtn"};

const char *Pragmas = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";

/// The exact value of a half (F16C's widening is exact).
float halfToFloat(uint16_t H) { return _cvtsh_ss(H); }
bool halfIsNan(uint16_t H) { return (H & 0x7fff) > 0x7c00; }

/// The half nearest in Mode to the finite value (-1)^Neg * M * 2^-S.
uint16_t roundHalf(bool Neg, U128 M, int S, Mode Md) {
  uint16_t Sign = Neg ? 0x8000 : 0;
  bool Up = (Md == RTP && !Neg) || (Md == RTN && Neg);
  auto Overflow = [&]() -> uint16_t {
    return Sign | (Md == RTE || Up ? 0x7c00 : 0x7bff);
  };
  if (M == 0)
    return Sign;
  int Bits = 0;
  for (U128 T = M; T; T >>= 1)
    ++Bits;
  int E = Bits - 1 - S; // floor(log2(value))
  if (E >= 17)
    return Overflow();
  E = std::max(E, -14);
  int Shift = S + (E - 10); // value / 2^(E-10) = M / 2^Shift
  U128 K, Rest = 0, HalfUlp = 0;
  if (Shift <= 0) {
    K = M << -Shift;
  } else if (Shift >= 127) {
    K = 0;
    Rest = 1; // nonzero, below half
    HalfUlp = 2;
  } else {
    K = M >> Shift;
    Rest = M & ((U128(1) << Shift) - 1);
    HalfUlp = U128(1) << (Shift - 1);
  }
  bool Inc = Rest != 0 &&
             (Md == RTE ? Rest > HalfUlp || (Rest == HalfUlp && (K & 1)) : Up);
  K += Inc;
  U128 Result = (U128(E + 14) << 10) + K;
  if (Result >= 0x7c00)
    return Overflow();
  return Sign | uint16_t(Result);
}

/// A finite double as sign, integer and scale.
void decompose(double X, bool &Neg, U128 &M, int &S) {
  Neg = std::signbit(X);
  int E;
  double Fr = std::frexp(std::fabs(X), &E);
  M = U128(uint64_t(std::ldexp(Fr, 53)));
  S = 53 - E;
}
uint16_t roundDoubleToHalf(double X, Mode Md) {
  if (std::isnan(X))
    return 0x7e00;
  if (std::isinf(X))
    return X > 0 ? 0x7c00 : 0xfc00;
  bool Neg;
  U128 M;
  int S;
  decompose(X, Neg, M, S);
  if (S < 0) // |X| >= 2^53
    return roundHalf(Neg, U128(1) << 20, 0, Md);
  return roundHalf(Neg, M, S, Md);
}
template <typename T> uint16_t roundIntToHalf(T X, Mode Md) {
  bool Neg = X < 0;
  U128 M = Neg ? U128(-(__int128)X) : U128(X);
  return roundHalf(Neg, M, 0, Md);
}

/// A half as an integer in units of 2^-24 (exact: |value| < 2^16).
__int128 halfUnits(uint16_t H) {
  return __int128(std::ldexp(double(halfToFloat(H)), 24));
}

bool sameHalf(uint16_t Got, uint16_t Want) {
  return halfIsNan(Want) ? halfIsNan(Got) : Got == Want;
}

std::vector<uint16_t> randomHalves(size_t N, uint64_t Seed) {
  Random R(Seed);
  const uint16_t Specials[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x8001,
                               0x03ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
                               0x7e00, 0x3555, 0x4248, 0xc0a0};
  std::vector<uint16_t> V(Specials, Specials + 16);
  while (V.size() < N)
    V.push_back(uint16_t(R.next() >> 20));
  return V;
}

//===----------------------------------------------------------------------===//
// The extension is claimed and enabled
//===----------------------------------------------------------------------===//

TEST_P(HalfBuiltins, ExtensionClaimed) {
  size_t Size = 0;
  ASSERT_CL_OK(
      clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS, 0, nullptr, &Size));
  std::string Ext(Size, '\0');
  ASSERT_CL_OK(
      clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS, Size, &Ext[0], nullptr));
  EXPECT_NE((" " + Ext + " ").find(" cl_khr_fp16 "), std::string::npos) << Ext;

  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0,
                               nullptr, &Size));
  std::vector<cl_name_version> Versions(Size / sizeof(cl_name_version));
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS_WITH_VERSION, Size,
                               Versions.data(), nullptr));
  bool Found = false;
  for (const cl_name_version &V : Versions)
    Found |= std::string(V.name) == "cl_khr_fp16" &&
             V.version == CL_MAKE_VERSION(1, 0, 0);
  EXPECT_TRUE(Found);

  cl_device_fp_config Config =
      deviceInfo<cl_device_fp_config>(Device, CL_DEVICE_HALF_FP_CONFIG);
  EXPECT_TRUE(Config & CL_FP_ROUND_TO_NEAREST);
  EXPECT_TRUE(Config & CL_FP_INF_NAN);
  EXPECT_TRUE(Config & CL_FP_DENORM);
  EXPECT_GT(deviceInfo<cl_uint>(Device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF),
            0u);
  EXPECT_GT(deviceInfo<cl_uint>(Device, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF),
            0u);

  // The macro is defined and the pragma accepted.
  std::vector<uint16_t> O(1);
  ASSERT_TRUE(runKernel(std::string("#ifndef cl_khr_fp16\n#error no macro\n"
                                    "#endif\n") +
                            Pragmas +
                            "kernel void k(global half *O) { O[0] = "
                            "(half)1.5f * (half)2; }\n",
                        "k", 1, {out(O)}));
  EXPECT_EQ(O[0], 0x4200);
}

//===----------------------------------------------------------------------===//
// Arithmetic: correctly rounded +, -, *, /, scalar and vector
//===----------------------------------------------------------------------===//

uint16_t hostArith(unsigned Op, uint16_t A, uint16_t B) {
  float FA = halfToFloat(A), FB = halfToFloat(B);
  float Approx = Op == 0   ? FA + FB
                 : Op == 1 ? FA - FB
                 : Op == 2 ? FA * FB
                           : FA / FB;
  // Special operands, exact zeros and division by zero: the float result
  // is exact (and its sign right), so its half is the answer.
  if (!std::isfinite(FA) || !std::isfinite(FB) || Approx == 0 ||
      (Op == 3 && FB == 0))
    return _cvtss_sh(Approx, 0);
  __int128 UA = halfUnits(A), UB = halfUnits(B);
  if (Op == 0 || Op == 1) {
    __int128 R = Op == 0 ? UA + UB : UA - UB;
    return roundHalf(R < 0, U128(R < 0 ? -R : R), 24, RTE);
  }
  bool Neg = (UA < 0) != (UB < 0);
  U128 MA = U128(UA < 0 ? -UA : UA), MB = U128(UB < 0 ? -UB : UB);
  if (Op == 2)
    return roundHalf(Neg, MA * MB, 48, RTE);
  U128 Q = (MA << 64) / MB, Rem = (MA << 64) % MB;
  return roundHalf(Neg, (Q << 1) | (Rem != 0), 65, RTE);
}

TEST_P(HalfBuiltins, Arithmetic) {
  const size_t N = 1 << 16;
  std::vector<uint16_t> A = randomHalves(N, 11), B = randomHalves(N, 12);
  const char *Ops[] = {"+", "-", "*", "/"};
  for (unsigned W : {1u, 4u, 16u}) {
    std::string V = vecType("half", W);
    std::string Source = std::string(Pragmas) + loadStoreMacros(W) +
                         "kernel void k(global const half *A, global const "
                         "half *B, global half *O0, global half *O1, global "
                         "half *O2, global half *O3) {\n  size_t i = "
                         "get_global_id(0);\n  " +
                         V + " a = LD(i, A), b = LD(i, B);\n";
    for (unsigned Op = 0; Op < 4; ++Op)
      Source += "  ST(a " + std::string(Ops[Op]) + " b, i, O" +
                std::to_string(Op) + ");\n";
    Source += "}\n";
    std::vector<uint16_t> O[4] = {
        std::vector<uint16_t>(N), std::vector<uint16_t>(N),
        std::vector<uint16_t>(N), std::vector<uint16_t>(N)};
    ASSERT_TRUE(
        runKernel(Source, "k", N / W,
                  {in(A), in(B), out(O[0]), out(O[1]), out(O[2]), out(O[3])}));
    unsigned Failures = 0;
    for (unsigned Op = 0; Op < 4; ++Op)
      for (size_t I = 0; I < N; ++I) {
        uint16_t Want = hostArith(Op, A[I], B[I]);
        if (!sameHalf(O[Op][I], Want) && Failures++ < 10)
          ADD_FAILURE() << V << ": 0x" << std::hex << A[I] << " " << Ops[Op]
                        << " 0x" << B[I] << " = 0x" << O[Op][I] << ", want 0x"
                        << Want;
      }
  }
}

//===----------------------------------------------------------------------===//
// Conversions to half in every mode, and from half with _sat
//===----------------------------------------------------------------------===//

template <typename T> struct TypeName;
#define WEFT_NAME(T, N)                                                        \
  template <> struct TypeName<T> { static constexpr const char *Value = N; };
WEFT_NAME(cl_char, "char")
WEFT_NAME(cl_uchar, "uchar")
WEFT_NAME(cl_short, "short")
WEFT_NAME(cl_ushort, "ushort")
WEFT_NAME(cl_int, "int")
WEFT_NAME(cl_uint, "uint")
WEFT_NAME(cl_long, "long")
WEFT_NAME(cl_ulong, "ulong")
WEFT_NAME(cl_float, "float")
WEFT_NAME(cl_double, "double")
#undef WEFT_NAME

template <typename T> std::vector<T> toHalfInputs(size_t N) {
  Random R(7);
  std::vector<T> V;
  if constexpr (std::is_floating_point_v<T>) {
    // Exact halves, midpoints between neighbours and a float ulp either
    // side of them, random values over and around the half range, random
    // bit patterns, specials.
    const T Specials[] = {T(0),
                          -T(0),
                          T(65504),
                          T(65520),
                          T(-65520),
                          T(65519.99),
                          T(1e-8),
                          T(-1e-8),
                          T(0x1p-25),
                          T(0x1p-24),
                          T(0x1.8p-25),
                          T(1e30),
                          T(-1e30),
                          std::numeric_limits<T>::infinity(),
                          -std::numeric_limits<T>::infinity(),
                          std::numeric_limits<T>::quiet_NaN()};
    V.assign(std::begin(Specials), std::end(Specials));
    while (V.size() < N) {
      uint64_t X = R.next();
      uint16_t H = uint16_t(X >> 48);
      if ((H & 0x7c00) == 0x7c00)
        continue;
      double A = halfToFloat(H), B = halfToFloat(uint16_t(H + 1));
      switch (X % 6) {
      case 0:
        V.push_back(T(A));
        break;
      case 1:
        V.push_back(T((A + B) / 2));
        break;
      case 2:
        V.push_back(std::nextafter(T((A + B) / 2), T(1e9)));
        break;
      case 3:
        V.push_back(std::nextafter(T((A + B) / 2), T(-1e9)));
        break;
      case 4:
        V.push_back(T(std::ldexp(double(int32_t(X)) / 2147483648.0,
                                 int((X >> 32) % 60) - 30)));
        break;
      default: {
        T Y;
        if (sizeof(T) == 4) {
          uint32_t Bits = uint32_t(X >> 8);
          std::memcpy(&Y, &Bits, 4);
        } else {
          std::memcpy(&Y, &X, 8);
        }
        V.push_back(Y);
      }
      }
    }
  } else {
    using L = std::numeric_limits<T>;
    const T Specials[] = {T(0),     L::min(), L::max(), T(1),    T(65504),
                          T(65519), T(65520), T(65535), T(2049), T(2051)};
    V.assign(std::begin(Specials), std::end(Specials));
    while (V.size() < N) {
      uint64_t X = R.next();
      switch (X % 3) {
      case 0: // the midpoints of the integers' halves
        V.push_back(T(int64_t((X >> 8) % 140000) - (L::is_signed ? 70000 : 0)));
        break;
      default:
        V.push_back(T(X >> (X % 64)));
      }
    }
  }
  V.resize(N);
  return V;
}

template <typename T> uint16_t hostToHalf(T X, Mode Md) {
  if constexpr (std::is_floating_point_v<T>)
    return roundDoubleToHalf(double(X), Md);
  else
    return roundIntToHalf(X, Md);
}

template <typename T> void checkToHalf(HalfBuiltins &Test) {
  const size_t N = 1 << 14;
  std::vector<T> X = toHalfInputs<T>(N);
  std::string S = TypeName<T>::Value;
  for (unsigned W : {1u, 8u}) {
    std::string V = vecType(S, W), H = vecType("half", W);
    std::string Source = std::string(Pragmas) + loadStoreMacros(W) +
                         "kernel void k(global const " + S +
                         " *X, global half *O) {\n  size_t i = "
                         "get_global_id(0);\n  " +
                         V + " x = LD(i, X);\n  ST(convert_" + H +
                         "(x), i, O);\n";
    for (unsigned M = 0; M < 4; ++M)
      Source += "  ST(convert_" + H + ModeSuffix[M] + "(x), i, O + " +
                std::to_string(M + 1) + " * get_global_size(0) * " +
                std::to_string(W) + ");\n";
    Source += "}\n";
    std::vector<uint16_t> O(5 * N);
    ASSERT_TRUE(Test.runKernel(Source, "k", N / W, {in(X), out(O)}));
    unsigned Failures = 0;
    for (unsigned M = 0; M < 5; ++M)
      for (size_t I = 0; I < N; ++I) {
        Mode Md = M == 0 ? RTE : Mode(M - 1);
        uint16_t Want = hostToHalf(X[I], Md), Got = O[M * N + I];
        if (!sameHalf(Got, Want) && Failures++ < 10)
          ADD_FAILURE() << "convert_" << H << (M ? ModeSuffix[M - 1] : "")
                        << "(" << std::hexfloat << Ld(X[I]) << ") = 0x"
                        << std::hex << Got << ", want 0x" << Want;
      }
  }
}

TEST_P(HalfBuiltins, ToHalfRounding) {
  checkToHalf<cl_float>(*this);
  checkToHalf<cl_double>(*this);
  checkToHalf<cl_char>(*this);
  checkToHalf<cl_uchar>(*this);
  checkToHalf<cl_short>(*this);
  checkToHalf<cl_ushort>(*this);
  checkToHalf<cl_int>(*this);
  checkToHalf<cl_uint>(*this);
  checkToHalf<cl_long>(*this);
  checkToHalf<cl_ulong>(*this);
}

/// convert_T[_sat][mode](half): the host rounds the exact value; _sat
/// clamps (NaN to 0). Without _sat, out-of-range results are undefined
/// and not checked.
template <typename T> void checkFromHalf(HalfBuiltins &Test) {
  const size_t N = 1 << 16;
  std::vector<uint16_t> X(N);
  for (size_t I = 0; I < N; ++I)
    X[I] = uint16_t(I);
  std::string S = TypeName<T>::Value;
  for (unsigned W : {1u, 4u}) {
    std::string V = vecType(S, W), H = vecType("half", W);
    std::string Source = std::string(Pragmas) + loadStoreMacros(W) +
                         "kernel void k(global const half *X, global " + S +
                         " *O) {\n  size_t i = get_global_id(0), n = "
                         "get_global_size(0) * " +
                         std::to_string(W) + ";\n  " + H + " x = LD(i, X);\n";
    const char *Suffixes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
    for (unsigned K = 0; K < 10; ++K)
      Source += "  ST(convert_" + V + (K >= 5 ? "_sat" : "") + Suffixes[K % 5] +
                "(x), i, O + " + std::to_string(K) + " * n);\n";
    Source += "}\n";
    std::vector<T> O(10 * N);
    ASSERT_TRUE(Test.runKernel(Source, "k", N / W, {in(X), out(O)}));
    unsigned Failures = 0;
    for (unsigned K = 0; K < 10; ++K)
      for (size_t I = 0; I < N; ++I) {
        double F = halfToFloat(X[I]);
        unsigned M = K % 5;
        double R = std::isnan(F)      ? 0
                   : M == 0 || M == 2 ? std::trunc(F)
                   : M == 1           ? std::nearbyint(F)
                   : M == 3           ? std::ceil(F)
                                      : std::floor(F);
        double Lo = double(std::numeric_limits<T>::min()),
               Hi = double(std::numeric_limits<T>::max());
        T Want;
        if (K >= 5)
          Want = R <= Lo   ? std::numeric_limits<T>::min()
                 : R >= Hi ? std::numeric_limits<T>::max()
                           : T(R);
        else if (std::isnan(F) || R < Lo || R > Hi)
          continue;
        else
          Want = T(R);
        if (O[K * N + I] != Want && Failures++ < 10)
          ADD_FAILURE() << "convert_" << V << (K >= 5 ? "_sat" : "")
                        << Suffixes[M] << "(" << F
                        << ") = " << int64_t(O[K * N + I]) << ", want "
                        << int64_t(Want);
      }
  }
}

TEST_P(HalfBuiltins, FromHalf) {
  checkFromHalf<cl_char>(*this);
  checkFromHalf<cl_uchar>(*this);
  checkFromHalf<cl_short>(*this);
  checkFromHalf<cl_ushort>(*this);
  checkFromHalf<cl_int>(*this);
  checkFromHalf<cl_uint>(*this);
  checkFromHalf<cl_long>(*this);
  checkFromHalf<cl_ulong>(*this);

  // half -> float and double are exact; as_half reinterprets.
  const size_t N = 1 << 16;
  std::vector<uint16_t> X(N), Same(N);
  for (size_t I = 0; I < N; ++I)
    X[I] = uint16_t(I);
  std::vector<float> F(N);
  std::vector<double> D(N);
  ASSERT_TRUE(runKernel(
      std::string(Pragmas) +
          "kernel void k(global const ushort *X, global float *F, global "
          "double *D, global half *S) {\n  size_t i = get_global_id(0);\n  "
          "half4 h = as_half4(vload4(i, X));\n  vstore4(convert_float4_rtz(h), "
          "i, F);\n  vstore4(convert_double4(h), i, D);\n  "
          "vstore4(convert_half4_rtp(h), i, S);\n}\n",
      "k", N / 4, {in(X), out(F), out(D), out(Same)}));
  for (size_t I = 0; I < N; ++I) {
    float Want = halfToFloat(X[I]);
    if (std::isnan(Want)) {
      EXPECT_TRUE(std::isnan(F[I]) && std::isnan(D[I]) && halfIsNan(Same[I]));
      continue;
    }
    EXPECT_EQ(F[I], Want) << std::hex << X[I];
    EXPECT_EQ(D[I], double(Want)) << std::hex << X[I];
    EXPECT_EQ(Same[I], X[I]);
  }
}

//===----------------------------------------------------------------------===//
// Math functions in half ulps
//===----------------------------------------------------------------------===//

Ld sinpiRef(Ld X) {
  Ld R = X - 2 * ::nearbyintl(X / 2);
  if (R > Ld(0.5))
    R = 1 - R;
  else if (R < Ld(-0.5))
    R = -1 - R;
  return R == 0 ? std::copysign(Ld(0), X) : ::sinl(M_PIl * R);
}
Ld cospiRef(Ld X) {
  Ld R = ::fabsl(X - 2 * ::nearbyintl(X / 2));
  if (R == Ld(0.5))
    return 0;
  return R < Ld(0.5) ? ::sinl(M_PIl * (Ld(0.5) - R))
                     : -::sinl(M_PIl * (R - Ld(0.5)));
}
Ld tanpiRef(Ld X) {
  Ld R = X - ::nearbyintl(X);
  if (R == 0)
    return std::copysign(Ld(0), ::fmodl(::fabsl(X), 2) == 0 ? X : -X);
  if (::fabsl(R) == Ld(0.5))
    return ::fmodl(::fabsl(::floorl(X)), 2) == 0 ? INFINITY : -INFINITY;
  return ::tanl(M_PIl * R);
}
Ld powrRef(Ld X, Ld Y) {
  // OpenCL C 1.2, 7.5.1: NaN for x < 0 and NaN operands, 0^0, inf^0, 1^inf;
  // both zeros are +0.
  if (std::isnan(X) || std::isnan(Y) || X < 0 || (X == 0 && Y == 0) ||
      (std::isinf(X) && Y == 0) || (X == 1 && std::isinf(Y)))
    return NAN;
  return ::powl(::fabsl(X), Y);
}
Ld maxmagRef(Ld X, Ld Y) {
  Ld AX = ::fabsl(X), AY = ::fabsl(Y);
  return AX > AY ? X : AY > AX ? Y : ::fmaxl(X, Y);
}
Ld minmagRef(Ld X, Ld Y) {
  Ld AX = ::fabsl(X), AY = ::fabsl(Y);
  return AX < AY ? X : AY < AX ? Y : ::fminl(X, Y);
}

struct HalfFunction {
  const char *Name;
  unsigned Arity;
  double Ulps; // the specification's half bound; 0: correctly rounded
  std::function<Ld(Ld, Ld)> Ref;
};

#define U1(F) [](Ld X, Ld) { return F(X); }
#define U2(F) [](Ld X, Ld Y) { return F(X, Y); }
// OpenCL C 3.0, "ULP values for half precision built-in math functions".
const HalfFunction Functions[] = {
    {"acos", 1, 2, U1(::acosl)},
    {"acosh", 1, 2, U1(::acoshl)},
    {"acospi", 1, 2, [](Ld X, Ld) { return ::acosl(X) / M_PIl; }},
    {"asin", 1, 2, U1(::asinl)},
    {"asinh", 1, 2, U1(::asinhl)},
    {"asinpi", 1, 2, [](Ld X, Ld) { return ::asinl(X) / M_PIl; }},
    {"atan", 1, 2, U1(::atanl)},
    {"atanh", 1, 2, U1(::atanhl)},
    {"atanpi", 1, 2, [](Ld X, Ld) { return ::atanl(X) / M_PIl; }},
    {"atan2", 2, 2, U2(::atan2l)},
    {"atan2pi", 2, 2, [](Ld X, Ld Y) { return ::atan2l(X, Y) / M_PIl; }},
    {"cbrt", 1, 2, U1(::cbrtl)},
    {"ceil", 1, 0, U1(::ceill)},
    {"copysign", 2, 0, U2(::copysignl)},
    {"cos", 1, 2, U1(::cosl)},
    {"cosh", 1, 2, U1(::coshl)},
    {"cospi", 1, 2, U1(cospiRef)},
    {"erfc", 1, 4, U1(::erfcl)},
    {"erf", 1, 4, U1(::erfl)},
    {"exp", 1, 2, U1(::expl)},
    {"exp2", 1, 2, U1(::exp2l)},
    {"exp10", 1, 2, [](Ld X, Ld) { return ::powl(10, X); }},
    {"expm1", 1, 2, U1(::expm1l)},
    {"fabs", 1, 0, U1(::fabsl)},
    {"fdim", 2, 0, U2(::fdiml)},
    {"floor", 1, 0, U1(::floorl)},
    {"fmax", 2, 0, U2(::fmaxl)},
    {"fmin", 2, 0, U2(::fminl)},
    {"fmod", 2, 0, U2(::fmodl)},
    {"hypot", 2, 2, U2(::hypotl)},
    {"log", 1, 2, U1(::logl)},
    {"log2", 1, 2, U1(::log2l)},
    {"log10", 1, 2, U1(::log10l)},
    {"log1p", 1, 2, U1(::log1pl)},
    {"logb", 1, 0, U1(::logbl)},
    {"maxmag", 2, 0, U2(maxmagRef)},
    {"minmag", 2, 0, U2(minmagRef)},
    {"pow", 2, 4, U2(::powl)},
    {"powr", 2, 4, U2(powrRef)},
    {"remainder", 2, 0, U2(::remainderl)},
    {"rint", 1, 0, U1(::rintl)},
    {"round", 1, 0, U1(::roundl)},
    {"rsqrt", 1, 1, [](Ld X, Ld) { return 1 / ::sqrtl(X); }},
    {"sin", 1, 2, U1(::sinl)},
    {"sinh", 1, 2, U1(::sinhl)},
    {"sinpi", 1, 2, U1(sinpiRef)},
    {"sqrt", 1, 0, U1(::sqrtl)},
    {"tan", 1, 2, U1(::tanl)},
    {"tanh", 1, 2, U1(::tanhl)},
    {"tanpi", 1, 2, U1(tanpiRef)},
    {"tgamma", 1, 4, U1(::tgammal)},
    {"trunc", 1, 0, U1(::truncl)},
    {"pown", 3, 4, [](Ld X, Ld N) { return ::powl(X, N); }},
    {"rootn", 3, 4,
     [](Ld X, Ld N) {
       if (N == 0 || (X < 0 && ::fmodl(N, 2) == 0))
         return Ld(NAN);
       Ld R = ::powl(::fabsl(X), 1 / N);
       return X < 0 ? -R : std::copysign(R, X);
     }},
    {"ldexp", 3, 0, [](Ld X, Ld N) { return ::ldexpl(X, int(N)); }},
};

/// Error of the half Got against the exact Want in half ulps; 1e30 for a
/// wrong special value.
double halfUlpError(uint16_t GotBits, Ld Want) {
  Ld Got = halfToFloat(GotBits);
  if (std::isnan(Want))
    return std::isnan(Got) ? 0 : 1e30;
  if (std::isnan(Got))
    return 1e30;
  if (std::isinf(Want))
    return Got == Want ? 0 : 1e30;
  if (Want == 0 && Got == 0)
    return std::signbit(Got) == std::signbit(Want) ? 0 : 1e30;
  // From 65520 on, infinity is the rounded result; between the largest
  // half and there, infinity counts as 2^16 (the next value of the
  // exponent range), as in the conformance tests.
  if (::fabsl(Want) > Ld(65504) && std::isinf(Got) &&
      std::signbit(Got) == std::signbit(Want)) {
    if (::fabsl(Want) >= Ld(65520))
      return 0;
    Got = std::copysign(Ld(65536), Got);
  }
  if (std::isinf(Got))
    return 1e30;
  int E = std::max(std::ilogb(Want), -14);
  return double(::fabsl(Got - Want) / ::ldexpl(1, E - 10));
}

void checkFunction(HalfBuiltins &Test, const HalfFunction &Fn) {
  // Unary: every half. Binary: random pairs of halves. With an integer
  // operand: every half with n from -8 to 8 (ldexp: -30 to 30).
  const size_t N = 1 << 16;
  std::vector<uint16_t> X(N), Y;
  std::vector<int32_t> K(N);
  Random R(3);
  for (size_t I = 0; I < N; ++I) {
    X[I] = uint16_t(I);
    bool Ldexp = std::string(Fn.Name) == "ldexp";
    K[I] = int32_t(R.next() % (Ldexp ? 61 : 17)) - (Ldexp ? 30 : 8);
  }
  Y = randomHalves(N, 5);
  if (Fn.Arity == 2) // half the pairs from a small range, where most cases are
    for (size_t I = 0; I < N; I += 2)
      Y[I] = uint16_t(0x3000 + R.next() % 0x1800) | uint16_t(R.next() & 0x8000);
  std::string Call = std::string(Fn.Name) + (Fn.Arity == 1   ? "(x)"
                                             : Fn.Arity == 2 ? "(x, y)"
                                                             : "(x, k)");
  std::string Source = Pragmas;
  for (unsigned W : {1u, 4u})
    Source += loadStoreMacros(W) + "kernel void k" + std::to_string(W) +
              "(global const half *X, global const half *Y, global const int "
              "*K, global half *O) {\n  size_t i = get_global_id(0);\n  " +
              vecType("half", W) + " x = LD(i, X), y = LD(i, Y);\n  " +
              vecType("int", W) + " k = LD(i, K);\n  ST(" + Call +
              ", i, O);\n}\n";
  double Limit = Fn.Ulps == 0 ? 0.5 : Fn.Ulps, Worst = 0;
  for (unsigned W : {1u, 4u}) {
    std::vector<uint16_t> O(N);
    std::string Name = "k" + std::to_string(W);
    if (!Test.runKernel(Source, Name.c_str(), N / W,
                        {in(X), in(Y), in(K), out(O)}))
      return;
    unsigned Failures = 0;
    for (size_t I = 0; I < N; ++I) {
      Ld A = halfToFloat(X[I]);
      Ld B = Fn.Arity == 3 ? Ld(K[I]) : Ld(halfToFloat(Y[I]));
      double E = halfUlpError(O[I], Fn.Ref(A, B));
      Worst = std::max(Worst, E);
      if (E > Limit && Failures++ < 5)
        ADD_FAILURE() << Fn.Name << "(" << double(A)
                      << (Fn.Arity > 1 ? ", " + std::to_string(double(B)) : "")
                      << ") on " << vecType("half", W) << ": got "
                      << halfToFloat(O[I]) << ", want " << double(Fn.Ref(A, B))
                      << " (" << E << " ulp, bound " << Limit << ")";
    }
  }
  printf("[ ULP ] %-10s half   worst %.3f (bound %g)\n", Fn.Name,
         Worst < 1e29 ? Worst : INFINITY, Limit);
}

TEST_P(HalfBuiltins, MathUlps) {
  for (const HalfFunction &Fn : Functions)
    checkFunction(*this, Fn);
}

/// fma rounds once: the exact a * b + c (in units of 2^-48) rounded to
/// half. Random triples, a third with c near -a * b to exercise
/// cancellation and ties.
TEST_P(HalfBuiltins, FmaCorrectlyRounded) {
  const size_t N = 1 << 16;
  std::vector<uint16_t> A = randomHalves(N, 21), B = randomHalves(N, 22),
                        C = randomHalves(N, 23), O(N);
  for (size_t I = 0; I < N; I += 3) {
    float P = halfToFloat(A[I]) * halfToFloat(B[I]);
    C[I] = _cvtss_sh(-P, 0) ^ uint16_t(I & 1); // near -a*b, off by an ulp
  }
  ASSERT_TRUE(runKernel(std::string(Pragmas) +
                            "kernel void k(global const half *A, global const "
                            "half *B, global const half *C, global half *O) "
                            "{\n  size_t i = get_global_id(0);\n  "
                            "vstore2(fma(vload2(i, A), vload2(i, B), "
                            "vload2(i, C)), i, O);\n}\n",
                        "k", N / 2, {in(A), in(B), in(C), out(O)}));
  unsigned Failures = 0;
  for (size_t I = 0; I < N; ++I) {
    float FA = halfToFloat(A[I]), FB = halfToFloat(B[I]),
          FC = halfToFloat(C[I]);
    uint16_t Want;
    if (!std::isfinite(FA) || !std::isfinite(FB) || !std::isfinite(FC)) {
      Want = _cvtss_sh(std::fma(FA, FB, FC), 0); // exact specials
    } else {
      __int128 Exact =
          halfUnits(A[I]) * halfUnits(B[I]) + (halfUnits(C[I]) << 24);
      if (Exact == 0) // the sign of an exact zero
        Want = _cvtss_sh(std::fma(FA, FB, FC), 0);
      else
        Want = roundHalf(Exact < 0, U128(Exact < 0 ? -Exact : Exact), 48, RTE);
    }
    if (!sameHalf(O[I], Want) && Failures++ < 10)
      ADD_FAILURE() << "fma(" << FA << ", " << FB << ", " << FC << ") = 0x"
                    << std::hex << O[I] << ", want 0x" << Want;
  }
}

/// clpeak's half kernel in small: chains of mads and of products and sums
/// carried through a kernel loop. The loop becomes a region of its own per
/// trip, so x, y and z live in context arrays of halves between trips, and
/// the work-item loop runs at the float width with F16C conversions around
/// each operation (HalfConversionCalls.cpp). Every operation's result is
/// rounded to half: a mad is the float fma rounded once (its product of
/// halves is exact, fused or not), + and * round each. Halves below 1 in
/// magnitude, so most chains stay finite for the 12 trips.
TEST_P(HalfBuiltins, ChainsAcrossLoopTrips) {
  const size_t N = 1 << 12, Trips = 12;
  Random R(51);
  std::vector<uint16_t> X(N), Y(N), O(3 * N);
  for (size_t I = 0; I < N; ++I) {
    X[I] = uint16_t(R.next() % 0x3c00) | uint16_t(R.next() & 0x8000);
    Y[I] = uint16_t(R.next() % 0x3c00) | uint16_t(R.next() & 0x8000);
  }
  auto Round = [](float F) { return halfToFloat(_cvtss_sh(F, 0)); };
  for (unsigned W : {1u, 4u}) {
    std::string V = vecType("half", W);
    std::string Source =
        std::string(Pragmas) + "#pragma OPENCL FP_CONTRACT OFF\n" +
        loadStoreMacros(W) +
        "kernel void k(global const half *X, global const half *Y, global "
        "half *O) {\n  size_t i = get_global_id(0), n = get_global_size(0);\n"
        "  " + V + " x = LD(i, X), y = LD(i, Y), z = 0;\n"
        "  for (int t = 0; t < " + std::to_string(Trips) + "; ++t) {\n"
        "    x = mad(y, x, y);\n    y = mad(x, y, x);\n    z = z + x * y;\n"
        "  }\n  ST(x, i, O);\n  ST(y, i + n, O);\n  ST(z, i + 2 * n, O);\n}\n";
    SCOPED_TRACE(V);
    ASSERT_TRUE(runKernel(Source, "k", N / W, {in(X), in(Y), out(O)}, "", 64));
    unsigned Failures = 0;
    for (size_t I = 0; I < N; ++I) {
      float FX = halfToFloat(X[I]), FY = halfToFloat(Y[I]), FZ = 0;
      for (size_t T = 0; T < Trips; ++T) {
        FX = Round(std::fma(FY, FX, FY));
        FY = Round(std::fma(FX, FY, FX));
        FZ = Round(FZ + Round(FX * FY));
      }
      const float Want[] = {FX, FY, FZ};
      for (unsigned C = 0; C < 3; ++C) {
        uint16_t Got = O[C * N + I], WantBits = _cvtss_sh(Want[C], 0);
        if (!sameHalf(Got, WantBits) && Failures++ < 10)
          ADD_FAILURE() << "xyz"[C] << " of work-item " << I / W << " lane "
                        << I % W << ": 0x" << std::hex << Got << ", want 0x"
                        << WantBits;
      }
    }
  }
}

/// Functions of half bit patterns and with pointer results.
TEST_P(HalfBuiltins, BitLevelFunctions) {
  const size_t N = 1 << 16;
  std::vector<uint16_t> X(N), Y = randomHalves(N, 31), Next(N), Ilogb(N),
                              Fract(N), Floor(N), Frexp(N), Nan(N);
  std::vector<int32_t> Exp(N), IlogbOut(N);
  for (size_t I = 0; I < N; ++I)
    X[I] = uint16_t(I);
  ASSERT_TRUE(runKernel(
      std::string(Pragmas) +
          "kernel void k(global const half *X, global const half *Y, global "
          "half *Next, global int *Ilogb, global half *Fract, global half "
          "*Floor, global half *Frexp, global int *Exp, global ushort *Nan) "
          "{\n  size_t i = get_global_id(0);\n  half x = X[i];\n  Next[i] = "
          "nextafter(x, Y[i]);\n  Ilogb[i] = ilogb(x);\n  half f;\n  Fract[i] "
          "= fract(x, &f);\n  Floor[i] = f;\n  int e;\n  Frexp[i] = frexp(x, "
          "&e);\n  Exp[i] = e;\n  Nan[i] = as_ushort(nan((ushort)i));\n}\n",
      "k", N,
      {in(X), in(Y), out(Next), out(IlogbOut), out(Fract), out(Floor),
       out(Frexp), out(Exp), out(Nan)}));
  unsigned Failures = 0;
  auto Fail = [&](const char *What, size_t I) {
    if (Failures++ < 10)
      ADD_FAILURE() << What << " of 0x" << std::hex << X[I];
  };
  for (size_t I = 0; I < N; ++I) {
    float F = halfToFloat(X[I]), G = halfToFloat(Y[I]);
    // nextafter: the neighbouring half pattern towards y.
    uint16_t WantNext;
    if (std::isnan(F) || std::isnan(G))
      WantNext = 0x7e00;
    else if (F == G)
      WantNext = Y[I];
    else if (F == 0)
      WantNext = G > 0 ? 0x0001 : 0x8001;
    else
      WantNext = uint16_t((F < G) == (F > 0) ? X[I] + 1 : X[I] - 1);
    if (!sameHalf(Next[I], WantNext))
      Fail("nextafter", I);
    int WantIlogb = std::isnan(F) ? INT_MAX : F == 0 ? INT_MIN : std::ilogb(F);
    if (IlogbOut[I] != WantIlogb)
      Fail("ilogb", I);
    if (std::isfinite(F)) {
      float Fl = std::floor(F);
      float Want = std::min(halfToFloat(_cvtss_sh(F - Fl, 0)), 0x1.ffcp-1f);
      if (halfToFloat(Fract[I]) != Want || halfToFloat(Floor[I]) != Fl)
        Fail("fract", I);
      int E;
      float M = std::frexp(F, &E);
      if (halfToFloat(Frexp[I]) != M || (F != 0 && Exp[I] != E))
        Fail("frexp", I);
    }
    if (Nan[I] != (0x7e00 | (I & 0x1ff)))
      Fail("nan", I);
  }
}

//===----------------------------------------------------------------------===//
// Relational conventions, select, bitselect, shuffle, vload/vstore
//===----------------------------------------------------------------------===//

TEST_P(HalfBuiltins, RelationalAndSelect) {
  const uint16_t Specials[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x0400, 0x8400,
                               0x0001, 0x8001, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
                               0x7e00, 0xfe00, 0x3800, 0xc280};
  const size_t K = 16, N = K * K;
  std::vector<uint16_t> A(N), B(N);
  for (size_t I = 0; I < N; ++I) {
    A[I] = Specials[I / K];
    B[I] = Specials[I % K];
  }
  const char *Preds[] = {"isequal(a, b)",
                         "isnotequal(a, b)",
                         "isgreater(a, b)",
                         "isgreaterequal(a, b)",
                         "isless(a, b)",
                         "islessequal(a, b)",
                         "islessgreater(a, b)",
                         "isfinite(a)",
                         "isinf(a)",
                         "isnan(a)",
                         "isnormal(a)",
                         "isordered(a, b)",
                         "isunordered(a, b)",
                         "signbit(a)"};
  const unsigned P = 14;
  std::string Source = std::string(Pragmas) +
                       "kernel void k(global const half *A, global const half "
                       "*B, global int *S, global short *V) {\n  size_t i = "
                       "get_global_id(0), n = get_global_size(0);\n  half4 "
                       "a4 = vload4(i, A), b4 = vload4(i, B);\n";
  for (unsigned J = 0; J < P; ++J) {
    std::string Pr = Preds[J];
    Source += "  for (int c = 0; c < 4; ++c) {\n    half a = A[4 * i + c], b = "
              "B[4 * i + c];\n    S[" +
              std::to_string(J) + " * 4 * n + 4 * i + c] = " + Pr +
              ";\n  }\n  {\n    half4 a = a4, b = b4;\n    vstore4(" + Pr +
              ", i, V + " + std::to_string(J) + " * 4 * n);\n  }\n";
  }
  // select with short and ushort masks, bitselect, shuffle, shuffle2.
  Source += "  short4 m = (short4)(-1, 0, 0x8000, 1);\n"
            "  vstore4(as_short4(select(a4, b4, m)), i, V + 14 * 4 * n);\n"
            "  vstore4(as_short4(select(a4, b4, as_ushort4(m))), i, V + 15 * "
            "4 * n);\n"
            "  vstore4(as_short4(bitselect(a4, b4, as_half4((short4)(0x00ff, "
            "0x7fff, (short)0x8000, 0)))), i, V + 16 * 4 * n);\n"
            "  vstore4(as_short4(shuffle(a4, (ushort4)(3, 2, 5, 0))), i, V + "
            "17 * 4 * n);\n"
            "  vstore4(as_short4(shuffle2(a4, b4, (ushort4)(7, 0, 4, 9))), i, "
            "V + 18 * 4 * n);\n"
            "}\n";
  std::vector<int32_t> S(P * N);
  std::vector<int16_t> V(19 * N);
  ASSERT_TRUE(runKernel(Source, "k", N / 4, {in(A), in(B), out(S), out(V)}));
  auto Host = [](unsigned J, float X, float Y, uint16_t XB) -> bool {
    switch (J) {
    case 0:
      return X == Y;
    case 1:
      return X != Y;
    case 2:
      return X > Y;
    case 3:
      return X >= Y;
    case 4:
      return X < Y;
    case 5:
      return X <= Y;
    case 6:
      return X < Y || X > Y;
    case 7:
      return std::isfinite(X);
    case 8:
      return std::isinf(X);
    case 9:
      return std::isnan(X);
    case 10:
      return (XB & 0x7c00) != 0 && (XB & 0x7c00) != 0x7c00;
    case 11:
      return !std::isnan(X) && !std::isnan(Y);
    case 12:
      return std::isnan(X) || std::isnan(Y);
    default:
      return XB >> 15;
    }
  };
  for (unsigned J = 0; J < P; ++J)
    for (size_t I = 0; I < N; ++I) {
      bool Want = Host(J, halfToFloat(A[I]), halfToFloat(B[I]), A[I]);
      EXPECT_EQ(S[J * N + I], Want ? 1 : 0)
          << Preds[J] << " scalar, 0x" << std::hex << A[I] << " 0x" << B[I];
      EXPECT_EQ(V[J * N + I], Want ? -1 : 0)
          << Preds[J] << " half4, 0x" << std::hex << A[I] << " 0x" << B[I];
    }
  const int16_t Mask[4] = {-1, 0, int16_t(0x8000), 1};
  const uint16_t Bits[4] = {0x00ff, 0x7fff, 0x8000, 0};
  const unsigned Shuf[4] = {3, 2, 5 % 4, 0}, Shuf2[4] = {7, 0, 4, 9 % 8};
  for (size_t I = 0; I < N; ++I) {
    size_t C = I % 4, Base = I - C;
    uint16_t Sel = Mask[C] < 0 ? B[I] : A[I];
    EXPECT_EQ(uint16_t(V[14 * N + I]), Sel) << "select short4";
    EXPECT_EQ(uint16_t(V[15 * N + I]), Sel) << "select ushort4";
    EXPECT_EQ(uint16_t(V[16 * N + I]),
              uint16_t((A[I] & ~Bits[C]) | (B[I] & Bits[C])))
        << "bitselect";
    EXPECT_EQ(uint16_t(V[17 * N + I]), A[Base + Shuf[C]]) << "shuffle";
    unsigned J = Shuf2[C];
    EXPECT_EQ(uint16_t(V[18 * N + I]), J < 4 ? A[Base + J] : B[Base + J - 4])
        << "shuffle2";
  }
}

TEST_P(HalfBuiltins, LoadStore) {
  const size_t N = 48 * 16;
  std::vector<uint16_t> X = randomHalves(N, 41), O(N, 0), O3(N, 0), Oh(N, 0),
                        Op(N, 0);
  ASSERT_TRUE(runKernel(
      std::string(Pragmas) +
          "kernel void k(global const half *X, global half *O, global half "
          "*O3, global half *Oh, global half *Op) {\n  size_t i = "
          "get_global_id(0);\n  local half L[48 * 16];\n  size_t l = "
          "get_local_id(0);\n  "
          "vstore16(vload16(i, X), l, L);\n  half8 a = vload8(2 * l, L), b = "
          "vload8(2 * l + 1, L);\n  vstore8(a, 2 * i, O);\n  vstore8(b, 2 * "
          "i + 1, O);\n  for (int j = 0; j < 5; ++j)\n    "
          "vstore3(vload3(5 * i + j, X), 5 * i + j, O3);\n  float4 f = "
          "vload_half4(i, X);\n  "
          "vstore_half4(f, i, Oh);\n  private half p[2];\n  vstore2(vload2(i, "
          "X), 0, p);\n  Op[2 * i] = p[0];\n  Op[2 * i + 1] = p[1];\n}\n",
      "k", N / 16, {in(X), out(O), out(O3), out(Oh), out(Op)}));
  for (size_t I = 0; I < N; ++I) {
    EXPECT_EQ(O[I], X[I]) << "vload16/vstore16/vload8/vstore8 at " << I;
    if (I < N / 16 * 5 * 3) {
      EXPECT_EQ(O3[I], X[I]) << "vload3/vstore3 at " << I;
    }
  }
  for (size_t I = 0; I < N / 4; ++I)
    EXPECT_TRUE(sameHalf(Oh[I], X[I])) << "vload_half4/vstore_half4 at " << I;
  for (size_t I = 0; I < N / 8; ++I)
    EXPECT_EQ(Op[I], X[I]) << "vload2/vstore2 on private memory at " << I;
}

/// write_imageh then read_imageh (sampler-less and sampled) on a
/// CL_HALF_FLOAT image: every half value comes back unchanged.
TEST_P(HalfBuiltins, Images) {
  if (!deviceInfo<cl_bool>(Device, CL_DEVICE_IMAGE_SUPPORT))
    GTEST_SKIP() << "the device has no image support";
  const size_t W = 64, H = 16, N = W * H * 4;
  std::vector<uint16_t> X = randomHalves(N, 51), Plain(N), Sampled(N);
  cl_image_format Format = {CL_RGBA, CL_HALF_FLOAT};
  cl_image_desc Desc{};
  Desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  Desc.image_width = W;
  Desc.image_height = H;
  cl_int Err;
  MemRef Image(
      clCreateImage(Context, CL_MEM_READ_WRITE, &Format, &Desc, nullptr, &Err));
  ASSERT_CL_OK(Err);
  std::string Source =
      std::string(Pragmas) +
      "kernel void put(global const half *X, write_only image2d_t I) {\n"
      "  int x = get_global_id(0), y = get_global_id(1);\n"
      "  write_imageh(I, (int2)(x, y), vload4(y * get_global_size(0) + x, "
      "X));\n}\n"
      "kernel void get(read_only image2d_t I, global half *P, global half "
      "*S) {\n"
      "  int x = get_global_id(0), y = get_global_id(1);\n"
      "  size_t i = y * get_global_size(0) + x;\n"
      "  const sampler_t Near = CLK_NORMALIZED_COORDS_FALSE | "
      "CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
      "  vstore4(read_imageh(I, (int2)(x, y)), i, P);\n"
      "  vstore4(read_imageh(I, Near, (float2)(x + 0.5f, y + 0.5f)), i, "
      "S);\n}\n";
  ProgramRef Prog(buildProgram(Context, Device, Source));
  ASSERT_TRUE(Prog);
  KernelRef Put(clCreateKernel(Prog, "put", &Err));
  ASSERT_CL_OK(Err);
  KernelRef Get(clCreateKernel(Prog, "get", &Err));
  ASSERT_CL_OK(Err);
  MemRef In(
      makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * 2, X.data()));
  MemRef OutP(makeBuffer(CL_MEM_WRITE_ONLY, N * 2, nullptr));
  MemRef OutS(makeBuffer(CL_MEM_WRITE_ONLY, N * 2, nullptr));
  cl_mem Args[] = {In, Image, OutP, OutS};
  ASSERT_CL_OK(clSetKernelArg(Put, 0, sizeof(cl_mem), &Args[0]));
  ASSERT_CL_OK(clSetKernelArg(Put, 1, sizeof(cl_mem), &Args[1]));
  ASSERT_CL_OK(clSetKernelArg(Get, 0, sizeof(cl_mem), &Args[1]));
  ASSERT_CL_OK(clSetKernelArg(Get, 1, sizeof(cl_mem), &Args[2]));
  ASSERT_CL_OK(clSetKernelArg(Get, 2, sizeof(cl_mem), &Args[3]));
  size_t Global[2] = {W, H};
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, Put, 2, nullptr, Global, nullptr,
                                      0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, Get, 2, nullptr, Global, nullptr,
                                      0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutP, CL_TRUE, 0, N * 2, Plain.data(),
                                   0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutS, CL_TRUE, 0, N * 2,
                                   Sampled.data(), 0, nullptr, nullptr));
  unsigned Failures = 0;
  for (size_t I = 0; I < N; ++I)
    if ((!sameHalf(Plain[I], X[I]) || !sameHalf(Sampled[I], X[I])) &&
        Failures++ < 10)
      ADD_FAILURE() << "texel " << I / 4 << "." << I % 4 << ": wrote 0x"
                    << std::hex << X[I] << ", read 0x" << Plain[I]
                    << " (sampled 0x" << Sampled[I] << ")";
}

WEFT_INSTANTIATE_DEVICE_TEST(HalfBuiltins);

} // namespace
