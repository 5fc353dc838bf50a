//===- MathSpecialsTest.cpp - exact math builtins on special operands -----===//
//
// Builtins whose results are exact and defined case by case rather than by
// an ulp bound: ilogb on zeros, denormals, powers of two, infinities and
// NaN (opencl-c-base.h's FP_ILOGB0 and FP_ILOGBNAN, whose values the
// kernel reports too), maxmag/minmag where the magnitudes are equal or
// an operand is NaN (then fmax/fmin decide: a NaN operand gives the other
// one), and ldexp, frexp, logb and nextafter, which the library computes
// from the bit patterns, against the host's (exact) functions: denormal
// operands and results, exponents past both ends of the range. Float and
// double, every width.
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>

using namespace weft_test;

namespace {

class MathSpecials : public BuiltinTest {
public:
  using BuiltinTest::runKernel;
};

const unsigned Widths[] = {1, 2, 3, 4, 8, 16};
constexpr size_t Count = 48 * 16; // a multiple of every width

std::string fp64Pragma(const std::string &S) {
  return S == "double" ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                       : "";
}

/// Bits of the float type F from an unsigned integer of its size.
template <typename F, typename U> F fromBits(U B) {
  F V;
  std::memcpy(&V, &B, sizeof(F));
  return V;
}

/// Operands that reach every case of the exponent functions: zeros,
/// infinities, NaN (and one with every payload bit), the extremes,
/// denormals with their leading one at every position, powers of two and
/// their neighbours over the whole exponent range, then random bit
/// patterns up to Count.
template <typename F, typename U> std::vector<F> exponentOperands() {
  using L = std::numeric_limits<F>;
  const int Mant = L::digits - 1;
  std::vector<F> X;
  X.push_back(F(0));
  X.push_back(-F(0));
  X.push_back(L::infinity());
  X.push_back(-L::infinity());
  X.push_back(L::quiet_NaN());
  X.push_back(-L::quiet_NaN());
  X.push_back(fromBits<F, U>(U(U(~U(0)) >> 1))); // NaN with every payload bit
  X.push_back(L::signaling_NaN());
  X.push_back(L::max());
  X.push_back(L::min());
  X.push_back(L::denorm_min());
  X.push_back(-L::denorm_min());
  // Denormals with their leading one at every position.
  for (int B = 0; B < Mant; ++B) {
    X.push_back(fromBits<F, U>(U(U(1) << B)));
    X.push_back(-fromBits<F, U>(U((U(1) << B) | 1)));
  }
  // Powers of two and their neighbours over the whole exponent range.
  const int Step = sizeof(F) == 8 ? 7 : 3; // all of them fit in Count
  for (int E = L::min_exponent - 1; E < L::max_exponent + Step; E += Step) {
    F P = std::ldexp(F(1), std::min(E, L::max_exponent - 1));
    X.push_back(P);
    X.push_back(-std::nextafter(P, F(0)));
  }
  Random R(sizeof(F));
  while (X.size() < Count)
    X.push_back(fromBits<F, U>(U(R.next())));
  X.resize(Count);
  return X;
}

template <typename F, typename U>
void checkIlogb(MathSpecials &Test, const std::string &S) {
  std::vector<F> X = exponentOperands<F, U>();
  std::vector<int> Expected(Count);
  for (size_t I = 0; I < Count; ++I) {
    F V = X[I];
    if (std::isnan(V))
      Expected[I] = INT_MAX; // FP_ILOGBNAN
    else if (V == 0)
      Expected[I] = INT_MIN; // FP_ILOGB0
    else if (std::isinf(V))
      Expected[I] = INT_MAX;
    else
      Expected[I] = std::ilogb(V); // glibc: exact for finite nonzero
  }

  std::string Source = fp64Pragma(S) +
                       "kernel void macros(global int *O) {\n"
                       "  O[0] = FP_ILOGB0;\n  O[1] = FP_ILOGBNAN;\n}\n";
  for (unsigned W : Widths) {
    Source += loadStoreMacros(W);
    Source += "kernel void k" + std::to_string(W) + "(global const " + S +
              " *X, global int *O) {\n  size_t i = get_global_id(0);\n"
              "  ST(ilogb(LD(i, X)), i, O);\n}\n";
  }
  std::vector<int> Macros(2);
  ASSERT_TRUE(Test.runKernel(Source, "macros", 1, {out(Macros)}));
  EXPECT_EQ(Macros[0], INT_MIN) << "FP_ILOGB0";
  EXPECT_EQ(Macros[1], INT_MAX) << "FP_ILOGBNAN";
  for (unsigned W : Widths) {
    std::vector<int> O(Count, 12345);
    std::string Name = "k" + std::to_string(W);
    ASSERT_TRUE(Test.runKernel(Source, Name.c_str(), Count / W,
                               {in(X), out(O)}));
    for (size_t I = 0; I < Count; ++I)
      ASSERT_EQ(O[I], Expected[I])
          << "ilogb(" << S << W << ") of " << X[I] << " (bits "
          << std::hex << fromBits<U, F>(X[I]) << std::dec << ")";
  }
}

TEST_P(MathSpecials, IlogbFloat) {
  checkIlogb<float, uint32_t>(*this, "float");
}
TEST_P(MathSpecials, IlogbDouble) {
  if (!deviceHasDouble())
    GTEST_SKIP() << "no double";
  checkIlogb<double, uint64_t>(*this, "double");
}

/// maxmag/minmag as the specification defines them.
template <typename F> F magRef(F X, F Y, bool Max) {
  F AX = std::fabs(X), AY = std::fabs(Y);
  if (AX > AY)
    return Max ? X : Y;
  if (AY > AX)
    return Max ? Y : X;
  return Max ? std::fmax(X, Y) : std::fmin(X, Y);
}

template <typename F> bool sameResult(F Got, F Want) {
  if (std::isnan(Want))
    return std::isnan(Got);
  // fmax/fmin of +0 and -0 may give either zero.
  if (Want == 0)
    return Got == 0;
  return Got == Want;
}

template <typename F>
void checkMagnitudes(MathSpecials &Test, const std::string &S) {
  using L = std::numeric_limits<F>;
  const F Specials[] = {F(0),          -F(0),         F(1),
                        F(-1),         F(2.5),        F(-2.5),
                        F(-3),         L::min(),      -L::min(),
                        L::denorm_min(), -L::denorm_min(), L::max(),
                        -L::max(),     L::infinity(), -L::infinity(),
                        L::quiet_NaN()};
  const size_t K = sizeof(Specials) / sizeof(F);
  std::vector<F> A(Count), B(Count);
  for (size_t I = 0; I < Count; ++I) { // every ordered pair, three times
    A[I] = Specials[I % K];
    B[I] = Specials[(I / K) % K];
  }
  std::string Source = fp64Pragma(S);
  for (unsigned W : Widths) {
    Source += loadStoreMacros(W);
    Source += "kernel void k" + std::to_string(W) + "(global const " + S +
              " *A, global const " + S + " *B, global " + S + " *Max, global " +
              S + " *Min) {\n  size_t i = get_global_id(0);\n"
              "  ST(maxmag(LD(i, A), LD(i, B)), i, Max);\n"
              "  ST(minmag(LD(i, A), LD(i, B)), i, Min);\n}\n";
  }
  for (unsigned W : Widths) {
    std::vector<F> Max(Count), Min(Count);
    std::string Name = "k" + std::to_string(W);
    ASSERT_TRUE(Test.runKernel(Source, Name.c_str(), Count / W,
                               {in(A), in(B), out(Max), out(Min)}));
    for (size_t I = 0; I < Count; ++I) {
      ASSERT_TRUE(sameResult(Max[I], magRef(A[I], B[I], true)))
          << "maxmag(" << A[I] << ", " << B[I] << ") of " << S << W
          << " gave " << Max[I];
      ASSERT_TRUE(sameResult(Min[I], magRef(A[I], B[I], false)))
          << "minmag(" << A[I] << ", " << B[I] << ") of " << S << W
          << " gave " << Min[I];
    }
  }
}

TEST_P(MathSpecials, MagnitudeFloat) { checkMagnitudes<float>(*this, "float"); }
TEST_P(MathSpecials, MagnitudeDouble) {
  if (!deviceHasDouble())
    GTEST_SKIP() << "no double";
  checkMagnitudes<double>(*this, "double");
}

/// Got is Want exactly (bit for bit; any NaN for a NaN).
template <typename F, typename U> bool sameBits(F Got, F Want) {
  if (std::isnan(Want))
    return std::isnan(Got);
  return fromBits<U, F>(Got) == fromBits<U, F>(Want);
}

template <typename F, typename U>
void checkExponentFunctions(MathSpecials &Test, const std::string &S) {
  using L = std::numeric_limits<F>;
  std::vector<F> X = exponentOperands<F, U>();
  // Exponents at both ends of every range the results cross, and random
  // ones over all of them.
  const int Edges[] = {INT_MIN, -5000, -2200, -2099, -1100, -1076, -1075,
                       -1074, -1023, -1022, -300, -150, -149, -127, -126,
                       -64, -1, 0, 1, 64, 127, 128, 300, 1023, 1024, 2046,
                       2100, 5000, INT_MAX};
  const F Targets[] = {F(0), -F(0), F(1), F(-1), L::infinity(),
                       -L::infinity(), L::quiet_NaN(), L::denorm_min(),
                       L::max()};
  std::vector<int> N(Count);
  std::vector<F> Y(Count);
  Random R(3 + sizeof(F));
  for (size_t I = 0; I < Count; ++I) {
    uint64_t V = R.next();
    N[I] = I % 3 ? Edges[V % (sizeof(Edges) / sizeof(int))]
                 : int(V % 4401) - 2200;
    // nextafter towards a special value or towards a neighbour of X[I].
    Y[I] = I % 2 ? Targets[(V >> 20) % (sizeof(Targets) / sizeof(F))]
                 : X[(I + 1) % Count];
  }
  std::string Source = fp64Pragma(S);
  for (unsigned W : Widths) {
    std::string IV = vecType("int", W);
    Source += loadStoreMacros(W);
    Source += "kernel void k" + std::to_string(W) + "(global const " + S +
              " *X, global const int *N, global const " + S + " *Y, global " +
              S + " *Ldexp, global " + S + " *Frexp, global int *E, global " +
              S + " *Logb, global " + S +
              " *Next) {\n  size_t i = get_global_id(0);\n  " + IV +
              " e;\n  ST(ldexp(LD(i, X), LD(i, N)), i, Ldexp);\n"
              "  ST(frexp(LD(i, X), &e), i, Frexp);\n  ST(e, i, E);\n"
              "  ST(logb(LD(i, X)), i, Logb);\n"
              "  ST(nextafter(LD(i, X), LD(i, Y)), i, Next);\n}\n";
  }
  for (unsigned W : Widths) {
    std::vector<F> Ldexp(Count), Frexp(Count), Logb(Count), Next(Count);
    std::vector<int> E(Count);
    std::string Name = "k" + std::to_string(W);
    ASSERT_TRUE(Test.runKernel(Source, Name.c_str(), Count / W,
                               {in(X), in(N), in(Y), out(Ldexp), out(Frexp),
                                out(E), out(Logb), out(Next)}));
    unsigned Failures = 0;
    auto Report = [&](const char *Fn, size_t I, F Got, F Want) {
      if (Failures++ < 8)
        ADD_FAILURE() << Fn << " of " << vecType(S, W) << " on "
                      << std::hexfloat << X[I] << std::defaultfloat
                      << " (n " << N[I] << ", y " << std::hexfloat << Y[I]
                      << "): got " << Got << ", want " << Want
                      << std::defaultfloat;
    };
    for (size_t I = 0; I < Count; ++I) {
      F Want = std::ldexp(X[I], N[I]);
      if (!sameBits<F, U>(Ldexp[I], Want))
        Report("ldexp", I, Ldexp[I], Want);
      int WantE = 0;
      Want = std::frexp(X[I], &WantE);
      if (std::isinf(X[I]) || std::isnan(X[I]))
        WantE = 0; // unspecified in C, 0 here as for zeros
      if (!sameBits<F, U>(Frexp[I], Want) || E[I] != WantE)
        Report("frexp", I, Frexp[I], Want);
      Want = std::logb(X[I]);
      if (!sameBits<F, U>(Logb[I], Want))
        Report("logb", I, Logb[I], Want);
      Want = std::nextafter(X[I], Y[I]);
      if (!sameBits<F, U>(Next[I], Want))
        Report("nextafter", I, Next[I], Want);
    }
  }
}

TEST_P(MathSpecials, ExponentFunctionsFloat) {
  checkExponentFunctions<float, uint32_t>(*this, "float");
}
TEST_P(MathSpecials, ExponentFunctionsDouble) {
  if (!deviceHasDouble())
    GTEST_SKIP() << "no double";
  checkExponentFunctions<double, uint64_t>(*this, "double");
}

WEFT_INSTANTIATE_DEVICE_TEST(MathSpecials);

} // namespace
