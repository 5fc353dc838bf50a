//===- ConversionTest.cpp - convert_*, _sat, rounding modes, halves -------===//
//
// References: float -> integer rounds with the host's rint/trunc/ceil/floor
// and saturates with exact power-of-two bounds; integer/double -> float in
// the directed modes is the host FPU's own conversion under fesetround;
// integer -> integer saturation clamps in 128-bit arithmetic; half
// conversions are F16C's (double -> half through round-to-odd float, which
// rounds correctly for every mode).
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

#include <cfenv>
#include <cmath>
#include <cstring>
#include <immintrin.h>
#include <limits>
#include <type_traits>

using namespace weft_test;

namespace {

class Conversions : public BuiltinTest {
public:
  using BuiltinTest::runKernel;
};

template <typename T> struct TypeName;
#define WEFT_NAME(T, N)                                                        \
  template <> struct TypeName<T> {                                             \
    static constexpr const char *Value = N;                                    \
  };
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

const char *const Modes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
const int HostModes[] = {FE_TONEAREST, FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD,
                         FE_DOWNWARD};

const char *fp64Pragma() {
  return "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
}

template <typename F> std::vector<F> floatInputs(size_t N) {
  using L = std::numeric_limits<F>;
  std::vector<F> V = {F(0), -F(0), F(0.5), F(-0.5), F(1.5), F(2.5), F(-2.5),
                      F(127.5), F(-128.5), F(255.5), F(32767.5), F(65535.5),
                      F(2147483647.0), F(-2147483648.0), F(4294967295.0),
                      F(9.2233720368547758e18), F(-9.2233720368547758e18),
                      F(1.8446744073709552e19), L::max(), -L::max(),
                      L::infinity(), -L::infinity(), L::quiet_NaN(),
                      L::denorm_min(), F(-0.75), F(0.999999)};
  Random R(11);
  while (V.size() < N) {
    uint64_t X = R.next();
    // Magnitudes up to 2^70, both signs, half of them near integers.
    F M = F(double(X >> 11) / double(1ull << 53));
    F Y = std::ldexp(M, int(X % 71));
    if (X & (1u << 9))
      Y = std::round(Y) + F((X >> 10) % 3) * F(0.5) - F(0.5);
    V.push_back(X & (1u << 8) ? -Y : Y);
  }
  V.resize(N);
  return V;
}

/// convert_D_sat<mode>(X) on the host.
template <typename D, typename F> D satReference(F X, unsigned Mode) {
  if (std::isnan(X))
    return D(0);
  long double R = Mode == 1   ? std::nearbyint((long double)X)
                  : Mode == 3 ? std::ceil((long double)X)
                  : Mode == 4 ? std::floor((long double)X)
                              : std::trunc((long double)X);
  constexpr int Bits = sizeof(D) * 8 - std::is_signed_v<D>;
  long double Up = std::ldexp(1.0L, Bits);
  if (R >= Up)
    return std::numeric_limits<D>::max();
  if (R < (std::is_signed_v<D> ? -Up : 0.0L))
    return std::numeric_limits<D>::min();
  return D(R);
}

template <typename D, typename F>
void checkFloatToInt(Conversions &Test, const std::string &Prefix) {
  const std::string DS = TypeName<D>::Value, FS = TypeName<F>::Value;
  const size_t N = 1024;
  std::vector<F> X = floatInputs<F>(N);
  std::string Source = Prefix;
  for (unsigned W : {1u, 4u}) {
    Source += loadStoreMacros(W);
    Source += "kernel void k" + std::to_string(W) + "(global const " + FS +
              " *X, global " + DS + " *O) {\n"
              "  size_t i = get_global_id(0), n = get_global_size(0);\n";
    for (unsigned M = 0; M < 5; ++M)
      Source += "  ST(convert_" + vecType(DS, W) + "_sat" + Modes[M] +
                "(LD(i, X)), i + " + std::to_string(M) + " * n, O);\n";
    // Without _sat only in-range results are defined: the kernel clamps
    // the input to a range every type holds.
    for (unsigned M = 0; M < 5; ++M)
      Source += "  ST(convert_" + vecType(DS, W) + Modes[M] + "(clamp(LD(i, X), (" +
                FS + ")0, (" + FS + ")100)), i + " + std::to_string(5 + M) +
                " * n, O);\n";
    Source += "}\n";
  }
  for (unsigned W : {1u, 4u}) {
    SCOPED_TRACE(DS + " <- " + vecType(FS, W));
    std::vector<D> O(10 * N);
    std::string Name = "k" + std::to_string(W);
    if (!Test.runKernel(Source, Name.c_str(), N / W, {in(X), out(O)}))
      return;
    unsigned Failures = 0;
    for (unsigned M = 0; M < 10 && Failures < 10; ++M)
      for (size_t I = 0; I < N && Failures < 10; ++I) {
        F In = M < 5 ? X[I] : std::fmin(std::fmax(X[I], F(0)), F(100));
        if (std::isnan(X[I]) && M >= 5)
          continue; // clamp of NaN is unspecified
        D Want = satReference<D>(In, M % 5);
        if (O[M * N + I] != Want) {
          ++Failures;
          ADD_FAILURE() << "convert_" << DS << (M < 5 ? "_sat" : "")
                        << Modes[M % 5] << "(" << In << "): got "
                        << +O[M * N + I] << ", want " << +Want;
        }
      }
  }
}

TEST_P(Conversions, FloatToInteger) {
  checkFloatToInt<cl_char, float>(*this, "");
  checkFloatToInt<cl_uchar, float>(*this, "");
  checkFloatToInt<cl_short, float>(*this, "");
  checkFloatToInt<cl_ushort, float>(*this, "");
  checkFloatToInt<cl_int, float>(*this, "");
  checkFloatToInt<cl_uint, float>(*this, "");
  checkFloatToInt<cl_long, float>(*this, "");
  checkFloatToInt<cl_ulong, float>(*this, "");
  if (!deviceHasDouble())
    return;
  checkFloatToInt<cl_char, double>(*this, fp64Pragma());
  checkFloatToInt<cl_int, double>(*this, fp64Pragma());
  checkFloatToInt<cl_uint, double>(*this, fp64Pragma());
  checkFloatToInt<cl_long, double>(*this, fp64Pragma());
  checkFloatToInt<cl_ulong, double>(*this, fp64Pragma());
}

/// The host FPU's conversion in rounding mode Mode; volatile keeps the
/// compiler from folding it in the default mode.
template <typename D, typename S> D hostConvert(S X, int Mode) {
  volatile S In = X;
  std::fesetround(Mode);
  volatile D Out = D(In);
  std::fesetround(FE_TONEAREST);
  return Out;
}

template <typename D, typename S>
void checkToFloat(Conversions &Test, std::vector<S> X) {
  const std::string DS = TypeName<D>::Value, SS = TypeName<S>::Value;
  const size_t N = X.size();
  std::string Source = fp64Pragma();
  for (unsigned W : {1u, 16u}) {
    Source += loadStoreMacros(W);
    Source += "kernel void k" + std::to_string(W) + "(global const " + SS +
              " *X, global " + DS + " *O) {\n"
              "  size_t i = get_global_id(0), n = get_global_size(0);\n";
    for (unsigned M = 0; M < 5; ++M)
      Source += "  ST(convert_" + vecType(DS, W) + Modes[M] +
                "(LD(i, X)), i + " + std::to_string(M) + " * n, O);\n";
    Source += "}\n";
  }
  for (unsigned W : {1u, 16u}) {
    SCOPED_TRACE(DS + " <- " + vecType(SS, W));
    std::vector<D> O(5 * N);
    std::string Name = "k" + std::to_string(W);
    if (!Test.runKernel(Source, Name.c_str(), N / W, {in(X), out(O)}))
      return;
    unsigned Failures = 0;
    for (unsigned M = 0; M < 5 && Failures < 10; ++M)
      for (size_t I = 0; I < N && Failures < 10; ++I) {
        D Want = hostConvert<D>(X[I], HostModes[M]);
        D Got = O[M * N + I];
        if (std::memcmp(&Got, &Want, sizeof(D)) &&
            !(std::isnan(Got) && std::isnan(Want))) {
          ++Failures;
          ADD_FAILURE() << "convert_" << DS << Modes[M] << "(" << +X[I]
                        << "): got " << Got << ", want " << Want;
        }
      }
  }
}

template <typename S> std::vector<S> integerPatterns(size_t N) {
  using L = std::numeric_limits<S>;
  std::vector<S> V = {S(0), S(1), L::max(), L::min(), S(L::max() - 1),
                      S(16777217), S(-16777217), S(0x7fffffc0), S(0x7fffffbf)};
  Random R(5);
  while (V.size() < N) {
    uint64_t X = R.next();
    V.push_back(S(X >> (X % 40)));
  }
  V.resize(N);
  return V;
}

TEST_P(Conversions, ToFloatRounding) {
  if (!deviceHasDouble())
    GTEST_SKIP() << "the test kernels use double";
  const size_t N = 1024;
  checkToFloat<cl_float>(*this, integerPatterns<cl_int>(N));
  checkToFloat<cl_float>(*this, integerPatterns<cl_uint>(N));
  checkToFloat<cl_float>(*this, integerPatterns<cl_long>(N));
  checkToFloat<cl_float>(*this, integerPatterns<cl_ulong>(N));
  checkToFloat<cl_double>(*this, integerPatterns<cl_long>(N));
  checkToFloat<cl_double>(*this, integerPatterns<cl_ulong>(N));
  checkToFloat<cl_double>(*this, integerPatterns<cl_int>(N));
  std::vector<double> D = floatInputs<double>(N);
  D[100] = 1e300;
  D[101] = -1e300;
  D[102] = 1e-300;
  D[103] = -1e-300;
  D[104] = 3.4028235677973366e38; // just above FLT_MAX
  checkToFloat<cl_float>(*this, D);
}

template <typename D, typename S>
void addIntPair(std::string &Source, std::vector<std::string> &Names) {
  const std::string DS = TypeName<D>::Value, SS = TypeName<S>::Value;
  for (unsigned W : {1u, 16u}) {
    std::string Name = DS + "_" + SS + std::to_string(W);
    Source += loadStoreMacros(W) + "kernel void " + Name + "(global const " +
              SS + " *X, global " + DS + " *O) {\n"
              "  size_t i = get_global_id(0), n = get_global_size(0);\n"
              "  ST(convert_" + vecType(DS, W) + "(LD(i, X)), i, O);\n"
              "  ST(convert_" + vecType(DS, W) + "_sat(LD(i, X)), i + n, O);\n"
              "  ST(convert_" + vecType(DS, W) + "_sat_rtp(LD(i, X)), i + 2 * n, O);\n}\n";
    Names.push_back(Name);
  }
}

template <typename D, typename S>
void checkIntPair(Conversions &Test, const std::string &Source) {
  const std::string DS = TypeName<D>::Value, SS = TypeName<S>::Value;
  const size_t N = 512;
  std::vector<S> X = integerPatterns<S>(N);
  for (unsigned W : {1u, 16u}) {
    std::string Name = DS + "_" + SS + std::to_string(W);
    SCOPED_TRACE(Name);
    std::vector<D> O(3 * N);
    if (!Test.runKernel(Source, Name.c_str(), N / W, {in(X), out(O)}))
      return;
    for (size_t I = 0; I < N; ++I) {
      __int128 V = X[I];
      __int128 Lo = std::numeric_limits<D>::min(),
               Hi = std::numeric_limits<D>::max();
      D Sat = D(V < Lo ? Lo : V > Hi ? Hi : V);
      ASSERT_EQ(O[I], D(X[I])) << "convert_" << DS << "(" << +X[I] << ")";
      ASSERT_EQ(O[N + I], Sat) << "convert_" << DS << "_sat(" << +X[I] << ")";
      ASSERT_EQ(O[2 * N + I], Sat) << "_sat_rtp(" << +X[I] << ")";
    }
  }
}

#define WEFT_FOR_INT_TYPES(M, D)                                               \
  M(D, cl_char) M(D, cl_uchar) M(D, cl_short) M(D, cl_ushort) M(D, cl_int)     \
      M(D, cl_uint) M(D, cl_long) M(D, cl_ulong)
#define WEFT_FOR_INT_PAIRS(M)                                                  \
  WEFT_FOR_INT_TYPES(M, cl_char)                                               \
  WEFT_FOR_INT_TYPES(M, cl_uchar) WEFT_FOR_INT_TYPES(M, cl_short)              \
      WEFT_FOR_INT_TYPES(M, cl_ushort) WEFT_FOR_INT_TYPES(M, cl_int)           \
          WEFT_FOR_INT_TYPES(M, cl_uint) WEFT_FOR_INT_TYPES(M, cl_long)        \
              WEFT_FOR_INT_TYPES(M, cl_ulong)

TEST_P(Conversions, IntegerToIntegerSaturation) {
  std::string Source;
  std::vector<std::string> Names;
#define WEFT_ADD(D, S) addIntPair<D, S>(Source, Names);
  WEFT_FOR_INT_PAIRS(WEFT_ADD)
#undef WEFT_ADD
#define WEFT_CHECK(D, S) checkIntPair<D, S>(*this, Source);
  WEFT_FOR_INT_PAIRS(WEFT_CHECK)
#undef WEFT_CHECK
}

/// Round-to-odd double -> float: truncate, then set the last bit if
/// anything was lost. Rounding that float to half in any mode equals
/// rounding the double directly (the float keeps 13 more bits).
float roundToOdd(double X) {
  float F = hostConvert<float>(X, FE_TOWARDZERO);
  if (double(F) != X && !std::isnan(X)) {
    uint32_t B;
    std::memcpy(&B, &F, 4);
    B |= 1;
    std::memcpy(&F, &B, 4);
  }
  return F;
}

uint16_t f16c(float X, unsigned Mode) {
  __m128 V = _mm_set_ss(X);
  switch (Mode) {
  case 2:
    return uint16_t(_mm_extract_epi16(_mm_cvtps_ph(V, _MM_FROUND_TO_ZERO), 0));
  case 3:
    return uint16_t(
        _mm_extract_epi16(_mm_cvtps_ph(V, _MM_FROUND_TO_POS_INF), 0));
  case 4:
    return uint16_t(
        _mm_extract_epi16(_mm_cvtps_ph(V, _MM_FROUND_TO_NEG_INF), 0));
  default:
    return uint16_t(
        _mm_extract_epi16(_mm_cvtps_ph(V, _MM_FROUND_TO_NEAREST_INT), 0));
  }
}

TEST_P(Conversions, HalfLoadStore) {
  if (!__builtin_cpu_supports("f16c"))
    GTEST_SKIP() << "the host reference needs F16C";
  // Every half bit pattern through vload_half and vload_half4.
  std::vector<cl_ushort> H(65536);
  for (size_t I = 0; I < H.size(); ++I)
    H[I] = cl_ushort(I);
  std::vector<float> F(2 * H.size());
  const char *LoadSource = R"(
kernel void k(global const half *H, global float *F) {
  size_t i = get_global_id(0), n = get_global_size(0);
  F[i] = vload_half(i, H);
  if (i % 4 == 0)
    vstore4(vload_half4(i / 4, H), i / 4, F + n);
}
)";
  ASSERT_TRUE(runKernel(LoadSource, "k", H.size(), {in(H), out(F)}));
  for (size_t I = 0; I < H.size(); ++I) {
    float Want = _cvtsh_ss(H[I]);
    for (int Form = 0; Form < 2; ++Form) {
      float Got = F[Form * H.size() + I];
      ASSERT_TRUE(std::memcmp(&Got, &Want, 4) == 0 ||
                  (std::isnan(Got) && std::isnan(Want)))
          << (Form ? "vload_half4" : "vload_half") << " of 0x" << std::hex
          << I << ": got " << Got << ", want " << Want;
    }
  }

  // Stores of floats and doubles in every mode, scalar and vector.
  const size_t N = 4096;
  std::vector<double> D = floatInputs<double>(N);
  Random R(3);
  for (size_t I = 0; I < N; I += 2) // half-sized magnitudes, denormals too
    D[I] = std::ldexp(double(R.next() >> 11) / double(1ull << 53),
                      int(R.next() % 45) - 28) * ((I / 2) % 2 ? -1 : 1);
  D[1] = 65504.0;
  D[3] = 65519.99;
  D[5] = 65520.0;
  D[7] = std::ldexp(1.0, -25);
  D[9] = std::ldexp(1.0, -25) * 1.0000001;
  std::vector<float> Fl(N);
  for (size_t I = 0; I < N; ++I)
    Fl[I] = float(D[I]);
  std::string StoreSource = fp64Pragma();
  StoreSource += "kernel void k(global const float *F, global const double "
                 "*D, global half *O) {\n"
                 "  size_t i = get_global_id(0), n = get_global_size(0);\n";
  for (unsigned M = 0; M < 5; ++M) {
    std::string Off = std::to_string(4 * M);
    StoreSource += "  vstore_half" + std::string(Modes[M]) + "(F[i], i + " +
                   Off + " * n, O);\n";
    StoreSource += "  vstore_half" + std::string(Modes[M]) + "(D[i], i + (" +
                   Off + " + 1) * n, O);\n";
    StoreSource += "  if (i % 4 == 0) {\n    vstore_half4" +
                   std::string(Modes[M]) + "(vload4(i / 4, F), i / 4, O + (" +
                   Off + " + 2) * n);\n    vstorea_half4" +
                   std::string(Modes[M]) + "(vload4(i / 4, D), i / 4, O + (" +
                   Off + " + 3) * n);\n  }\n";
  }
  StoreSource += "}\n";
  if (!deviceHasDouble())
    GTEST_SKIP() << "the store kernel uses double";
  std::vector<cl_ushort> O(20 * N);
  ASSERT_TRUE(runKernel(StoreSource, "k", N, {in(Fl), in(D), out(O)}));
  unsigned Failures = 0;
  for (unsigned M = 0; M < 5; ++M)
    for (size_t I = 0; I < N && Failures < 10; ++I) {
      uint16_t WantF = f16c(Fl[I], M), WantD = f16c(roundToOdd(D[I]), M);
      uint16_t Got[4] = {O[(4 * M) * N + I], O[(4 * M + 1) * N + I],
                         O[(4 * M + 2) * N + I], O[(4 * M + 3) * N + I]};
      uint16_t Want[4] = {WantF, WantD, WantF, WantD};
      const char *Form[4] = {"vstore_half(float)", "vstore_half(double)",
                             "vstore_half4(float4)", "vstorea_half4(double4)"};
      for (int K = 0; K < 4; ++K) {
        bool BothNaN = (Got[K] & 0x7fff) > 0x7c00 && (Want[K] & 0x7fff) > 0x7c00;
        if (Got[K] != Want[K] && !BothNaN) {
          ++Failures;
          ADD_FAILURE() << Form[K] << Modes[M] << "(" << D[I] << "): got 0x"
                        << std::hex << Got[K] << ", want 0x" << Want[K];
        }
      }
    }
}

WEFT_INSTANTIATE_DEVICE_TEST(Conversions);

} // namespace
