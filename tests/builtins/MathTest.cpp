//===- MathTest.cpp - accuracy of the math builtins in ulps ---------------===//
//
// Every function of the math table that has a bound in the OpenCL C 1.2
// ULP table (full profile, round to nearest), for float and double, scalar
// and every vector width (2, 3, 4, 8, 16), on special values and a dense random
// sample (uniform over the function's interesting range plus random finite bit
// patterns). Scalars run twice: in work-groups the vectorizer turns into
// SIMD loops (SLEEF's vector functions) and in groups of one work-item
// (the scalar functions: SLEEF's or glibc's). The reference is the host's long double libm (64-bit significand:
// 40 bits beyond float, 11 beyond double, ample to measure errors of an ulp).
// Each function's worst error is printed ("[ ULP ] name type worst") and
// the test fails above the specification's bound; infinities, NaN and the
// sign of zero must match exactly.
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace weft_test;

namespace {

class MathAccuracy : public BuiltinTest {
public:
  using BuiltinTest::runKernel;
};

using Ld = long double;

// The pi functions reduce exactly, then evaluate sin near 0 where
// long double's pi costs no accuracy.
Ld sinpiRef(Ld X) {
  Ld R = X - 2 * ::nearbyintl(X / 2); // exact, [-1, 1]
  if (R > Ld(0.5))
    R = 1 - R;
  else if (R < Ld(-0.5))
    R = -1 - R;
  if (R == 0)
    return std::copysign(Ld(0), X);
  return ::sinl(M_PIl * R);
}
Ld cospiRef(Ld X) {
  Ld R = ::fabsl(X - 2 * ::nearbyintl(X / 2)); // [0, 1]
  if (R == Ld(0.5))
    return 0;
  return R < Ld(0.5) ? ::sinl(M_PIl * (Ld(0.5) - R))
                     : -::sinl(M_PIl * (R - Ld(0.5)));
}
// tanpi of an integer is a signed zero (the sign of n for even n, of -n
// for odd), of n + 1/2 an infinity (+ for even n, - for odd).
Ld tanpiRef(Ld X) {
  Ld R = X - ::nearbyintl(X); // [-1/2, 1/2]
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

struct MathFunction {
  const char *Name;
  unsigned Arity;
  double FloatUlps, DoubleUlps;
  double Lo, Hi; // the range of the uniform sample
  std::function<Ld(Ld, Ld)> Ref;
};

#define U1(F) [](Ld X, Ld) { return F(X); }
#define U2(F) [](Ld X, Ld Y) { return F(X, Y); }
const MathFunction Functions[] = {
    {"acos", 1, 4, 4, -1, 1, U1(::acosl)},
    {"acosh", 1, 4, 4, 1, 1e4, U1(::acoshl)},
    {"acospi", 1, 5, 5, -1, 1, [](Ld X, Ld) { return ::acosl(X) / M_PIl; }},
    {"asin", 1, 4, 4, -1, 1, U1(::asinl)},
    {"asinh", 1, 4, 4, -1e4, 1e4, U1(::asinhl)},
    {"asinpi", 1, 5, 5, -1, 1, [](Ld X, Ld) { return ::asinl(X) / M_PIl; }},
    {"atan", 1, 5, 5, -10, 10, U1(::atanl)},
    {"atanh", 1, 5, 5, -1, 1, U1(::atanhl)},
    {"atanpi", 1, 5, 5, -10, 10, [](Ld X, Ld) { return ::atanl(X) / M_PIl; }},
    {"atan2", 2, 6, 6, -10, 10, U2(::atan2l)},
    {"atan2pi", 2, 6, 6, -10, 10,
     [](Ld X, Ld Y) { return ::atan2l(X, Y) / M_PIl; }},
    {"cbrt", 1, 2, 2, -1e6, 1e6, U1(::cbrtl)},
    {"ceil", 1, 0, 0, -1e3, 1e3, U1(::ceill)},
    {"cos", 1, 4, 4, -100, 100, U1(::cosl)},
    {"cosh", 1, 4, 4, -80, 80, U1(::coshl)},
    {"cospi", 1, 4, 4, -100, 100, U1(cospiRef)},
    {"erfc", 1, 16, 16, -5, 20, U1(::erfcl)},
    {"erf", 1, 16, 16, -5, 5, U1(::erfl)},
    {"exp", 1, 3, 3, -100, 100, U1(::expl)},
    {"exp2", 1, 3, 3, -140, 140, U1(::exp2l)},
    {"exp10", 1, 3, 3, -40, 40, [](Ld X, Ld) { return ::powl(10, X); }},
    {"expm1", 1, 3, 3, -10, 10, U1(::expm1l)},
    {"fabs", 1, 0, 0, -1e3, 1e3, U1(::fabsl)},
    {"fdim", 2, 0, 0, -1e3, 1e3, U2(::fdiml)},
    {"floor", 1, 0, 0, -1e3, 1e3, U1(::floorl)},
    {"fmax", 2, 0, 0, -1e3, 1e3, U2(::fmaxl)},
    {"fmin", 2, 0, 0, -1e3, 1e3, U2(::fminl)},
    {"fmod", 2, 0, 0, -1e3, 1e3, U2(::fmodl)},
    {"hypot", 2, 4, 4, -1e3, 1e3, U2(::hypotl)},
    {"log", 1, 3, 3, 0, 1e3, U1(::logl)},
    {"log2", 1, 3, 3, 0, 1e3, U1(::log2l)},
    {"log10", 1, 3, 3, 0, 1e3, U1(::log10l)},
    {"log1p", 1, 2, 2, -1, 1e3, U1(::log1pl)},
    {"logb", 1, 0, 0, -1e3, 1e3, U1(::logbl)},
    {"pow", 2, 16, 16, 0, 20, U2(::powl)},
    {"powr", 2, 16, 16, 0, 20, U2(powrRef)},
    {"remainder", 2, 0, 0, -1e3, 1e3, U2(::remainderl)},
    {"rint", 1, 0, 0, -1e3, 1e3, U1(::rintl)},
    {"round", 1, 0, 0, -1e3, 1e3, U1(::roundl)},
    {"rsqrt", 1, 2, 2, 0, 1e6, [](Ld X, Ld) { return 1 / ::sqrtl(X); }},
    {"sin", 1, 4, 4, -100, 100, U1(::sinl)},
    {"sinh", 1, 4, 4, -80, 80, U1(::sinhl)},
    {"sinpi", 1, 4, 4, -100, 100, U1(sinpiRef)},
    {"sqrt", 1, 0, 0, 0, 1e6, U1(::sqrtl)},
    {"tan", 1, 5, 5, -100, 100, U1(::tanl)},
    {"tanh", 1, 5, 5, -20, 20, U1(::tanhl)},
    {"tanpi", 1, 6, 6, -100, 100, U1(tanpiRef)},
    {"tgamma", 1, 16, 16, -10, 30, U1(::tgammal)},
    {"trunc", 1, 0, 0, -1e3, 1e3, U1(::truncl)},
};

template <typename F> std::vector<F> mathInputs(const MathFunction &Fn,
                                                size_t N, unsigned Seed) {
  using L = std::numeric_limits<F>;
  std::vector<F> V = {F(0), -F(0), F(1), F(-1), F(0.5), F(-0.5), F(2),
                      L::min(), L::denorm_min(), -L::denorm_min(), L::max(),
                      -L::max(), L::infinity(), -L::infinity(), L::quiet_NaN(),
                      F(Fn.Lo), F(Fn.Hi), F(1e-7), F(-1e-7), F(100.5)};
  // The edges of the range: the largest and smallest values and their
  // neighbours, and the arguments where exponentials and hyperbolic
  // functions overflow or underflow (ln max, ln 2max, ln min, ln of the
  // smallest denormal, and in base 2 and 10), each with its neighbours.
  const F Edges[] = {L::max(), L::min(), L::denorm_min(),
                     F(::logl(L::max())), F(::logl(2 * Ld(L::max()))),
                     F(::logl(L::min())), F(::logl(L::denorm_min())),
                     F(L::max_exponent), F(L::min_exponent - L::digits),
                     F(::log10l(L::max())), F(::log10l(L::denorm_min())),
                     F(Fn.Hi)};
  for (F E : Edges)
    for (F P : {std::nextafter(E, F(0)), E, std::nextafter(E, L::infinity())})
      for (F S : {P, -P})
        V.push_back(S);
  // A second sequence (the y of two-argument functions) lists the special
  // values in the reverse order, so that NaN, infinities and signed zeros
  // meet other values in each argument position.
  if (Seed % 2 == 0)
    std::reverse(V.begin(), V.end());
  Random R(Seed);
  while (V.size() < N) {
    uint64_t X = R.next();
    if (X % 4 == 0) { // any finite bit pattern
      F Y;
      if (sizeof(F) == 4) {
        uint32_t B = uint32_t(X >> 32);
        std::memcpy(&Y, &B, 4);
      } else {
        std::memcpy(&Y, &X, 8);
      }
      if (std::isfinite(Y))
        V.push_back(Y);
    } else {
      double U = double(X >> 11) / double(1ull << 53);
      V.push_back(F(Fn.Lo + (Fn.Hi - Fn.Lo) * U));
    }
  }
  V.resize(N);
  return V;
}

template <typename F>
void checkFunction(MathAccuracy &Test, const MathFunction &Fn,
                   const std::string &S) {
  const size_t N = 8192;
  std::vector<F> X = mathInputs<F>(Fn, N, 1), Y = mathInputs<F>(Fn, N, 2);
  std::string Source = sizeof(F) == 8
                           ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                           : "";
  std::string Call = std::string(Fn.Name) + (Fn.Arity == 1 ? "(x)" : "(x, y)");
  // Every width: the vector forms take their own paths (SLEEF's vector
  // functions, padded or split per level: lib/kernel/sleef.cl).
  const unsigned Widths[] = {1, 2, 3, 4, 8, 16};
  for (unsigned W : Widths) {
    std::string V = vecType(S, W);
    Source += loadStoreMacros(W) + "kernel void k" + std::to_string(W) +
              "(global const " + S + " *X, global const " + S + " *Y, global " +
              S + " *O) {\n  size_t i = get_global_id(0);\n  " + V +
              " x = LD(i, X), y = LD(i, Y);\n  ST(" + Call + ", i, O);\n}\n";
  }
  // A bound of 0 ulp means correctly rounded: within half an ulp of the
  // exact value.
  double Limit = sizeof(F) == 4 ? Fn.FloatUlps : Fn.DoubleUlps;
  if (Limit == 0)
    Limit = 0.5;
  double Worst = 0;
  std::vector<Ld> Want(N);
  for (size_t I = 0; I < N; ++I)
    Want[I] = Fn.Ref(Ld(X[I]), Ld(Y[I]));
  // Width 0: scalars one work-item per group, where nothing is vectorized.
  const unsigned Runs[] = {1, 0, 2, 3, 4, 8, 16};
  for (unsigned Run : Runs) {
    unsigned W = std::max(Run, 1u);
    std::string Where =
        vecType(S, W) + (Run == 0 ? " in groups of one work-item" : "");
    SCOPED_TRACE(std::string(Fn.Name) + " on " + Where);
    std::vector<F> O(N);
    std::string Name = "k" + std::to_string(W);
    if (!Test.runKernel(Source, Name.c_str(), N / W, {in(X), in(Y), out(O)},
                        "", Run == 0 ? 1 : 0))
      return;
    unsigned Failures = 0;
    for (size_t I = 0; I < N / W * W; ++I) {
      double E = ulpError<F>(O[I], Want[I]);
      Worst = std::max(Worst, E);
      if (E > Limit && Failures++ < 5)
        ADD_FAILURE() << Fn.Name << "(" << std::hexfloat << X[I]
                      << (Fn.Arity == 2 ? ", " : "")
                      << (Fn.Arity == 2 ? std::to_string(Y[I]) : "") << ") on "
                      << Where << ": got " << O[I] << ", want "
                      << double(Want[I]) << std::defaultfloat << " (" << E
                      << " ulp, bound " << Limit << ")";
    }
  }
  printf("[ ULP ] %-10s %-6s worst %.3f (bound %g)\n", Fn.Name, S.c_str(),
         Worst < 1e29 ? Worst : INFINITY, Limit);
}

TEST_P(MathAccuracy, Float) {
  for (const MathFunction &Fn : Functions)
    checkFunction<float>(*this, Fn, "float");
}

TEST_P(MathAccuracy, Double) {
  if (!deviceHasDouble())
    GTEST_SKIP() << "no double support";
  for (const MathFunction &Fn : Functions)
    checkFunction<double>(*this, Fn, "double");
}

// sincos: both results, through a pointer, within sin's and cos's bounds.
template <typename F>
void checkSincos(MathAccuracy &Test, const std::string &S) {
  MathFunction Range = {"sincos", 1, 4, 4, -100, 100, nullptr};
  const size_t N = 4096;
  std::vector<F> X = mathInputs<F>(Range, N, 3);
  std::string Source =
      sizeof(F) == 8 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "";
  const unsigned Widths[] = {1, 3, 4, 16};
  for (unsigned W : Widths) {
    std::string V = vecType(S, W);
    Source += loadStoreMacros(W) + "kernel void k" + std::to_string(W) +
              "(global const " + S + " *X, global " + S + " *Sin, global " + S +
              " *Cos) {\n  size_t i = get_global_id(0);\n  " + V +
              " c, s = sincos(LD(i, X), &c);\n  ST(s, i, Sin);\n"
              "  ST(c, i, Cos);\n}\n";
  }
  for (unsigned W : Widths) {
    SCOPED_TRACE("sincos on " + vecType(S, W));
    std::vector<F> Sin(N), Cos(N);
    std::string Name = "k" + std::to_string(W);
    if (!Test.runKernel(Source, Name.c_str(), N / W,
                        {in(X), out(Sin), out(Cos)}))
      return;
    unsigned Failures = 0;
    for (size_t I = 0; I < N / W * W; ++I) {
      double ES = ulpError<F>(Sin[I], ::sinl(Ld(X[I])));
      double EC = ulpError<F>(Cos[I], ::cosl(Ld(X[I])));
      if ((ES > 4 || EC > 4) && Failures++ < 5)
        ADD_FAILURE() << "sincos(" << std::hexfloat << X[I] << ") on "
                      << vecType(S, W) << ": sin " << Sin[I] << ", cos "
                      << Cos[I] << std::defaultfloat << " (" << ES << ", " << EC
                      << " ulp)";
    }
  }
}

TEST_P(MathAccuracy, Sincos) {
  checkSincos<float>(*this, "float");
  if (deviceHasDouble())
    checkSincos<double>(*this, "double");
}

// The math build options (OpenCL 3.0, 5.8.6.4).

/// X * Y on every element under Options.
template <typename F>
std::vector<F> multiply(MathAccuracy &Test, std::vector<F> X, std::vector<F> Y,
                        const std::string &Options) {
  std::string T = sizeof(F) == 8 ? "double" : "float";
  std::string Source =
      std::string(sizeof(F) == 8
                      ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                      : "") +
      "kernel void mul(global const " + T + " *X, global const " + T +
      " *Y, global " + T +
      " *O) {\n  size_t i = get_global_id(0);\n"
      "  O[i] = X[i] * Y[i];\n}\n";
  std::vector<F> O(X.size());
  Test.runKernel(Source, "mul", X.size(), {in(X), in(Y), out(O)}, Options);
  return O;
}

template <typename F> void checkDenormsAreZero(MathAccuracy &Test) {
  using L = std::numeric_limits<F>;
  F Tiny = L::denorm_min() * 4; // a denormal input
  std::vector<F> X = {L::min(), Tiny, F(1), -L::min()};
  std::vector<F> Y = {F(0.5), F(1), Tiny, F(0.25)};
  // Flushed: denormal results (FTZ) and inputs (DAZ) become zeros of the
  // right sign.
  std::vector<F> Flushed = multiply(Test, X, Y, "-cl-denorms-are-zero");
  ASSERT_EQ(Flushed.size(), 4u);
  for (size_t I = 0; I < 4; ++I) {
    EXPECT_EQ(Flushed[I], F(0)) << "element " << I;
    EXPECT_EQ(std::signbit(Flushed[I]), I == 3) << "element " << I;
  }
  // Kept without the option, on the same worker threads afterwards: the
  // flushing mode does not leak out of the kernel that asked for it.
  std::vector<F> Kept = multiply(Test, X, Y, "");
  ASSERT_EQ(Kept.size(), 4u);
  EXPECT_EQ(Kept[0], L::min() / 2);
  EXPECT_EQ(Kept[1], Tiny);
  EXPECT_EQ(Kept[2], Tiny);
  EXPECT_EQ(Kept[3], -L::min() / 4);
}

TEST_P(MathAccuracy, DenormsAreZeroFlushes) {
  // The device keeps denormals by default, as it claims.
  EXPECT_TRUE(
      deviceInfo<cl_device_fp_config>(Device, CL_DEVICE_SINGLE_FP_CONFIG) &
      CL_FP_DENORM);
  checkDenormsAreZero<float>(*this);
  if (deviceHasDouble())
    checkDenormsAreZero<double>(*this);
}

/// A function under -cl-fast-relaxed-math: the bound is the relaxed table's
/// for float (OpenCL 3.0 C, 7.4: "relaxed math"), the full one for double,
/// checked on finite arguments and results only (finite math is implied).
struct RelaxedFunction {
  const char *Name;
  unsigned Arity;
  double Lo, Hi;
  std::function<Ld(Ld, Ld)> Ref;
  /// Whether Got is within bound for X (float, relaxed) given Want.
  std::function<bool(Ld X, Ld Got, Ld Want, double Ulps)> FloatOk;
  double DoubleUlps;
};

template <typename F>
void checkRelaxed(MathAccuracy &Test, const RelaxedFunction &Fn,
                  const std::string &S) {
  const size_t N = 4096;
  Random R(7);
  std::vector<F> X(N), Y(N);
  for (size_t I = 0; I < N; ++I) {
    X[I] = F(Fn.Lo + (Fn.Hi - Fn.Lo) * (double(R.next() >> 11) / 0x1p53));
    Y[I] = F(Fn.Lo + (Fn.Hi - Fn.Lo) * (double(R.next() >> 11) / 0x1p53));
  }
  std::string Source =
      sizeof(F) == 8 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "";
  Source += "#ifndef __FAST_RELAXED_MATH__\n#error no relaxed math\n#endif\n";
  std::string Call = std::string(Fn.Name) + (Fn.Arity == 1 ? "(x)" : "(x, y)");
  const unsigned Widths[] = {1, 4, 16};
  for (unsigned W : Widths) {
    std::string V = vecType(S, W);
    Source += loadStoreMacros(W) + "kernel void k" + std::to_string(W) +
              "(global const " + S + " *X, global const " + S + " *Y, global " +
              S + " *O) {\n  size_t i = get_global_id(0);\n  " + V +
              " x = LD(i, X), y = LD(i, Y);\n  ST(" + Call + ", i, O);\n}\n";
  }
  double Worst = 0;
  for (unsigned W : Widths) {
    SCOPED_TRACE(std::string(Fn.Name) + " on " + vecType(S, W));
    std::vector<F> O(N);
    std::string Name = "k" + std::to_string(W);
    if (!Test.runKernel(Source, Name.c_str(), N / W, {in(X), in(Y), out(O)},
                        "-cl-fast-relaxed-math"))
      return;
    unsigned Failures = 0;
    for (size_t I = 0; I < N; ++I) {
      Ld Want = Fn.Ref(Ld(X[I]), Ld(Y[I]));
      if (!std::isfinite(Want) ||
          ::fabsl(Want) > Ld(std::numeric_limits<F>::max()))
        continue;
      double E = ulpError<F>(O[I], Want);
      Worst = std::max(Worst, E);
      bool Ok = sizeof(F) == 4 ? Fn.FloatOk(Ld(X[I]), Ld(O[I]), Want, E)
                               : E <= Fn.DoubleUlps;
      if (!Ok && Failures++ < 5)
        ADD_FAILURE() << Fn.Name << "(" << std::hexfloat << X[I] << ", " << Y[I]
                      << ") on " << vecType(S, W) << ": got " << O[I]
                      << ", want " << double(Want) << std::defaultfloat << " ("
                      << E << " ulp)";
    }
  }
  printf("[ ULP ] relaxed %-6s %-6s worst %.3f\n", Fn.Name, S.c_str(), Worst);
}

/// Within Ulps ulp.
auto ulpBound(double Ulps) {
  return [Ulps](Ld, Ld, Ld, double E) { return E <= Ulps; };
}
/// sin, cos: absolute error at most 2^-11 on [-pi, pi], unbounded beyond.
bool sinCosOk(Ld X, Ld Got, Ld Want, double) {
  return ::fabsl(X) > M_PIl || ::fabsl(Got - Want) <= 0x1p-11L;
}

const RelaxedFunction RelaxedFunctions[] = {
    {"sin", 1, -M_PI, M_PI, U1(::sinl), sinCosOk, 4},
    {"cos", 1, -M_PI, M_PI, U1(::cosl), sinCosOk, 4},
    {"sin", 1, -1e4, 1e4, U1(::sinl), sinCosOk, 4},
    {"tan", 1, -100, 100, U1(::tanl), ulpBound(8192), 5},
    {"asin", 1, -1, 1, U1(::asinl), ulpBound(4096), 4},
    {"acos", 1, -1, 1, U1(::acosl), ulpBound(4096), 4},
    {"atan", 1, -100, 100, U1(::atanl), ulpBound(4096), 5},
    {"atan2", 2, -10, 10, U2(::atan2l), ulpBound(6), 6},
    // exp: 3 + floor(|2x|) ulp.
    {"exp", 1, -80, 80, U1(::expl),
     [](Ld X, Ld, Ld, double E) { return E <= 3 + ::floorl(::fabsl(2 * X)); },
     3},
    // log: absolute 2^-21 on [0.5, 2], 3 ulp elsewhere.
    {"log", 1, 0.25, 4, U1(::logl),
     [](Ld X, Ld Got, Ld Want, double E) {
       return X >= 0.5L && X <= 2 ? ::fabsl(Got - Want) <= 0x1p-21L : E <= 3;
     },
     3},
    {"pow", 2, 0.5, 10, U2(::powl), ulpBound(8192), 16},
    // Not in the relaxed table: the full bound.
    {"hypot", 2, -1e4, 1e4, U2(::hypotl), ulpBound(4), 4},
    // Derived from acos, asin, atan and atan2 in the relaxed table; double
    // keeps the full bounds (no relaxed table for double).
    {"acospi", 1, -1, 1, [](Ld X, Ld) { return ::acosl(X) / M_PIl; },
     ulpBound(8192), 5},
    {"asinpi", 1, -1, 1, [](Ld X, Ld) { return ::asinl(X) / M_PIl; },
     ulpBound(8192), 5},
    {"atanpi", 1, -100, 100, [](Ld X, Ld) { return ::atanl(X) / M_PIl; },
     ulpBound(8192), 5},
    {"atan2pi", 2, -10, 10, [](Ld X, Ld Y) { return ::atan2l(X, Y) / M_PIl; },
     ulpBound(8192), 6},
};

TEST_P(MathAccuracy, FastRelaxedMathBounds) {
  for (const RelaxedFunction &Fn : RelaxedFunctions) {
    checkRelaxed<float>(*this, Fn, "float");
    if (deviceHasDouble())
      checkRelaxed<double>(*this, Fn, "double");
  }
}

WEFT_INSTANTIATE_DEVICE_TEST(MathAccuracy);

} // namespace
