//===- MathTest.cpp - accuracy of the math builtins in ulps ---------------===//
//
// Every function of the math table that has a bound in the OpenCL C 1.2
// ULP table (full profile, round to nearest), for float and double, scalar
// and float4/double4, on special values and a dense random sample (uniform
// over the function's interesting range plus random finite bit patterns).
// The reference is the host's long double libm (64-bit significand: 40
// bits beyond float, 11 beyond double, ample to measure errors of an ulp).
// Each function's worst error is printed ("[ ULP ] name type worst") and
// the test fails above the specification's bound; infinities, NaN and the
// sign of zero must match exactly.
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

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
  if (X < 0 || (X == 0 && Y == 0) || (std::isinf(X) && Y == 0) ||
      (X == 1 && std::isinf(Y)))
    return NAN;
  return ::powl(X, Y);
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

/// Error of Got against the exact Want in ulps of F; 1e30 for a wrong
/// special value.
template <typename F> double ulpError(F Got, Ld Want) {
  using L = std::numeric_limits<F>;
  if (std::isnan(Want))
    return std::isnan(Got) ? 0 : 1e30;
  if (std::isnan(Got))
    return 1e30;
  if (std::isinf(Want))
    return Got == F(Want) ? 0 : 1e30;
  if (Want == 0 && Got == 0)
    return std::signbit(Got) == std::signbit(Want) ? 0 : 1e30;
  // Beyond the largest finite value, the rounded result is infinity.
  if (::fabsl(Want) > Ld(L::max())) {
    if (std::isinf(Got) && std::signbit(Got) == std::signbit(Want))
      return 0;
  }
  if (std::isinf(Got))
    return 1e30;
  int E = std::ilogb(Want);
  E = std::max(E, L::min_exponent - 1);
  Ld Ulp = std::ldexp(Ld(1), E - (L::digits - 1));
  return double(::fabsl(Ld(Got) - Want) / Ulp);
}

template <typename F> std::vector<F> mathInputs(const MathFunction &Fn,
                                                size_t N, unsigned Seed) {
  using L = std::numeric_limits<F>;
  std::vector<F> V = {F(0), -F(0), F(1), F(-1), F(0.5), F(-0.5), F(2),
                      L::min(), L::denorm_min(), -L::denorm_min(), L::max(),
                      -L::max(), L::infinity(), -L::infinity(), L::quiet_NaN(),
                      F(Fn.Lo), F(Fn.Hi), F(1e-7), F(-1e-7), F(100.5)};
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
  for (unsigned W : {1u, 4u}) {
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
  for (unsigned W : {1u, 4u}) {
    SCOPED_TRACE(std::string(Fn.Name) + " on " + vecType(S, W));
    std::vector<F> O(N);
    std::string Name = "k" + std::to_string(W);
    if (!Test.runKernel(Source, Name.c_str(), N / W, {in(X), in(Y), out(O)}))
      return;
    unsigned Failures = 0;
    for (size_t I = 0; I < N; ++I) {
      Ld Want = Fn.Ref(Ld(X[I]), Ld(Y[I]));
      double E = ulpError<F>(O[I], Want);
      Worst = std::max(Worst, E);
      if (E > Limit && Failures++ < 5)
        ADD_FAILURE() << Fn.Name << "(" << std::hexfloat << X[I]
                      << (Fn.Arity == 2 ? ", " : "")
                      << (Fn.Arity == 2 ? std::to_string(Y[I]) : "")
                      << ") on " << vecType(S, W) << ": got " << O[I]
                      << ", want " << double(Want) << std::defaultfloat
                      << " (" << E << " ulp, bound " << Limit << ")";
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

WEFT_INSTANTIATE_DEVICE_TEST(MathAccuracy);

} // namespace
