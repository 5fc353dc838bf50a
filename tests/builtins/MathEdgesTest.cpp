//===- MathEdgesTest.cpp - math builtins at the edges of their domains ----===//
//
// Cases the Khronos CTS found where MathAccuracy's sample did not look:
// remquo's quotient bits, the special-value tables of rootn and powr,
// pow, pown, cosh and sinh just below the overflow threshold, normalize of
// vectors whose components lie far apart. Float and double, every width.
// References: the specification's special-value rules, exact integer
// arithmetic (remquo's quotient), long double libm (ulp bounds of the
// OpenCL C ULP table).
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>

using namespace weft_test;

namespace {

class MathEdges : public BuiltinTest {
public:
  using BuiltinTest::runKernel;
};

using Ld = long double;

const unsigned Widths[] = {1, 2, 3, 4, 8, 16};

std::string fp64Pragma(const std::string &S) {
  return S == "double" ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                       : "";
}

template <typename F> std::string hex(F V) {
  std::ostringstream OS;
  OS << std::hexfloat << V;
  return OS.str();
}

/// One element's operands: x, y (floating point) and n (int).
template <typename F> struct Operands {
  F X, Y;
  int N;
};

/// Runs Expr (over x, y, n, and q, an int of the width whose final value
/// is stored too) for every width on Cases, padded by repetition to a
/// multiple of 48, and calls Check(case, result, q) on every element; it
/// returns an explanation of a wrong result, or "".
template <typename F>
void runEveryWidth(
    MathEdges &Test, const std::string &S, const std::string &Expr,
    const std::vector<Operands<F>> &Cases,
    const std::function<std::string(const Operands<F> &, F, int)> &Check) {
  size_t Count = (Cases.size() + 47) / 48 * 48;
  std::vector<F> X(Count), Y(Count);
  std::vector<int> N(Count);
  for (size_t I = 0; I < Count; ++I) {
    const Operands<F> &C = Cases[I % Cases.size()];
    X[I] = C.X;
    Y[I] = C.Y;
    N[I] = C.N;
  }
  std::string Source = fp64Pragma(S);
  for (unsigned W : Widths) {
    std::string V = vecType(S, W), IV = vecType("int", W);
    Source += loadStoreMacros(W) + "kernel void k" + std::to_string(W) +
              "(global const " + S + " *X, global const " + S +
              " *Y, global const int *N, global " + S +
              " *O, global int *Q) {\n  size_t i = get_global_id(0);\n  " + V +
              " x = LD(i, X), y = LD(i, Y);\n  " + IV + " n = LD(i, N), q = (" +
              IV + ")0;\n  " + V + " r = " + Expr +
              ";\n  ST(r, i, O);\n  ST(q, i, Q);\n}\n";
  }
  for (unsigned W : Widths) {
    std::vector<F> O(Count);
    std::vector<int> Q(Count);
    std::string Name = "k" + std::to_string(W);
    ASSERT_TRUE(Test.runKernel(Source, Name.c_str(), Count / W,
                               {in(X), in(Y), in(N), out(O), out(Q)}));
    unsigned Failures = 0;
    for (size_t I = 0; I < Count; ++I) {
      std::string Why = Check({X[I], Y[I], N[I]}, O[I], Q[I]);
      if (!Why.empty() && Failures++ < 8)
        ADD_FAILURE() << Expr << " on " << vecType(S, W) << " with x = "
                      << hex(X[I]) << ", y = " << hex(Y[I]) << ", n = " << N[I]
                      << ": " << Why;
    }
  }
}

/// A check of Got against the exact Want within Ulps.
template <typename F> std::string withinUlps(F Got, Ld Want, double Ulps) {
  double E = ulpError<F>(Got, Want);
  if (E <= Ulps)
    return "";
  std::ostringstream OS;
  OS << "got " << hex(Got) << ", want " << hex(double(Want)) << " (" << E
     << " ulp, bound " << Ulps << ")";
  return OS.str();
}

/// Got must be Want exactly, NaN any NaN, zeros with their sign.
template <typename F> std::string exactly(F Got, F Want) {
  if (std::isnan(Want) ? std::isnan(Got)
                       : Got == Want && std::signbit(Got) == std::signbit(Want))
    return "";
  return "got " + hex(Got) + ", want " + hex(Want);
}

//===----------------------------------------------------------------------===//
// remquo: the remainder exactly, and a quotient with the sign of x/y whose
// magnitude agrees with the integral quotient's in at least its low 7 bits.
//===----------------------------------------------------------------------===//

/// The low 7 bits of |x/y| rounded to the nearest integer (ties to even),
/// from the integer significands: x = Mx 2^Ex, y = My 2^Ey.
template <typename F> int quotientLow7(F X, F Y) {
  using L = std::numeric_limits<F>;
  if (std::isinf(Y) || X == 0)
    return 0;
  int Ex, Ey;
  F Fx = std::frexp(std::fabs(X), &Ex), Fy = std::frexp(std::fabs(Y), &Ey);
  using U = unsigned __int128;
  U Mx = U(std::ldexp(Fx, L::digits)), My = U(std::ldexp(Fy, L::digits));
  int D = Ex - Ey;
  U Floor, Rem; // of Mx 2^D / My, the floor reduced modulo 128
  if (D >= 0) {
    // Mx 2^D modulo 128 My, one doubling at a time.
    U Mod = 128 * My, A = Mx % Mod;
    for (int K = 0; K < D; ++K)
      A = (2 * A) % Mod;
    Floor = A / My;
    Rem = A % My;
    Rem *= 2; // compared with My below as 2 Rem against My
  } else if (D > -60) {
    U Den = My << -D;
    Floor = Mx / Den;
    Rem = 2 * (Mx % Den);
    My = Den;
  } else {
    return 0; // below 1/2
  }
  if (Rem > My || (Rem == My && (Floor & 1)))
    ++Floor;
  return int(Floor % 128);
}

template <typename F> void checkRemquo(MathEdges &Test, const std::string &S) {
  using L = std::numeric_limits<F>;
  using U = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
  std::vector<Operands<F>> Cases;
  auto add = [&](F X, F Y) { Cases.push_back({X, Y, 0}); };
  // Quotients near every small integer and a few large ones, both signs.
  for (int K = 0; K < 300; ++K) {
    F Y = F(0.75) + F(K) / 64;
    add(F(K) * Y, Y);
    add(-F(K) * Y + Y / 3, Y);
    add(F(K) * Y - Y / 2, -Y);
    add(F(K + 0.5) * Y, Y);
  }
  add(F(1), F(1));
  add(F(121), F(1));
  add(F(249), F(2));
  // Huge quotients: a large exponent difference, near both ends of the range.
  for (int K = 0; K < 40; ++K) {
    add(std::ldexp(F(1.3) + F(K) / 41, L::max_exponent - 1 - K),
        std::ldexp(F(1.7) - F(K) / 67, K - 3));
    add(-std::ldexp(F(1.1) + F(K) / 37, L::max_exponent - 2 - 2 * K),
        L::denorm_min() * F(K + 1));
    add(L::max(), L::min() * F(K + 1));
    add(L::min() * F(K + 3), L::denorm_min() * F(2 * K + 1));
  }
  // Random finite pairs.
  Random R(11);
  while (Cases.size() < 48 * 40) {
    U Bx = U(R.next()), By = U(R.next());
    F X, Y;
    std::memcpy(&X, &Bx, sizeof(F));
    std::memcpy(&Y, &By, sizeof(F));
    if (std::isfinite(X) && std::isfinite(Y) && Y != 0)
      add(X, Y);
  }
  // Where the quotient is unspecified: only the NaN result is checked.
  const F Specials[] = {F(0), -F(0), F(1), -L::max(), L::infinity(),
                        -L::infinity(), L::quiet_NaN()};
  for (F A : Specials)
    for (F B : Specials)
      add(A, B);

  runEveryWidth<F>(
      Test, S, "remquo(x, y, &q)", Cases,
      [](const Operands<F> &C, F Got, int Q) -> std::string {
        F Want = std::remainder(C.X, C.Y); // exact
        std::string Why = exactly(Got, Want);
        if (!Why.empty() || std::isnan(Want))
          return Why;
        int Low7 = quotientLow7(C.X, C.Y);
        bool Negative = std::signbit(C.X) != std::signbit(C.Y);
        unsigned Magnitude = Q < 0 ? 0u - unsigned(Q) : unsigned(Q);
        if (int(Magnitude % 128) != Low7 ||
            (Magnitude != 0 && (Q < 0) != Negative))
          return "quotient " + std::to_string(Q) + ", want " +
                 (Negative ? "-" : "+") + std::to_string(Low7) +
                 " modulo 128";
        return "";
      });
}

TEST_P(MathEdges, RemquoQuotientFloat) { checkRemquo<float>(*this, "float"); }
TEST_P(MathEdges, RemquoQuotientDouble) {
  if (!deviceHasDouble())
    GTEST_SKIP() << "no double";
  checkRemquo<double>(*this, "double");
}

//===----------------------------------------------------------------------===//
// rootn: the special values of the specification, and 4 ulp elsewhere.
//===----------------------------------------------------------------------===//

template <typename F> Ld rootnRef(F X, int N) {
  bool Odd = N % 2 != 0;
  if (N == 0 || std::isnan(X) || (X < 0 && !Odd))
    return NAN;
  if (X == 0) // +-inf for odd n < 0, +inf even; +-0 odd n > 0, +0 even
    return N < 0 ? (Odd ? std::copysign(Ld(INFINITY), Ld(X)) : Ld(INFINITY))
                 : (Odd ? Ld(X) : Ld(0));
  if (std::isinf(X))
    return N < 0 ? (Odd ? std::copysign(Ld(0), Ld(X)) : Ld(0)) : Ld(X);
  Ld R = ::powl(::fabsl(Ld(X)), 1 / Ld(N));
  return X < 0 ? -R : R;
}

template <typename F> void checkRootn(MathEdges &Test, const std::string &S) {
  using L = std::numeric_limits<F>;
  const F Xs[] = {F(0),           -F(0),           L::infinity(),
                  -L::infinity(), L::quiet_NaN(),  F(1),
                  F(-1),          F(27),           F(-27),
                  L::max(),       -L::max(),       L::min(),
                  -L::min(),      L::denorm_min(), -L::denorm_min(),
                  F(0.1),         F(-1e-5)};
  const int Ns[] = {0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 7, -8, 63, -64,
                    1000, -1001, INT_MAX, INT_MIN};
  std::vector<Operands<F>> Cases;
  for (F X : Xs)
    for (int N : Ns)
      Cases.push_back({X, F(0), N});
  runEveryWidth<F>(Test, S, "rootn(x, n)", Cases,
                   [](const Operands<F> &C, F Got, int) {
                     return withinUlps<F>(Got, rootnRef(C.X, C.N), 4);
                   });
}

TEST_P(MathEdges, RootnSpecialsFloat) { checkRootn<float>(*this, "float"); }
TEST_P(MathEdges, RootnSpecialsDouble) {
  if (!deviceHasDouble())
    GTEST_SKIP() << "no double";
  checkRootn<double>(*this, "double");
}

//===----------------------------------------------------------------------===//
// powr: the special values of the specification, and the bound elsewhere.
//===----------------------------------------------------------------------===//

Ld powrSpecRef(Ld X, Ld Y) {
  if (std::isnan(X) || std::isnan(Y) || X < 0)
    return NAN;
  if (X == 0) // either zero
    return Y == 0 ? NAN : Y < 0 ? INFINITY : 0;
  if (std::isinf(X))
    return Y == 0 ? NAN : Y < 0 ? 0 : INFINITY;
  if (X == 1)
    return std::isinf(Y) ? NAN : 1;
  if (Y == 0)
    return 1;
  return ::powl(X, Y);
}

template <typename F>
void checkPowr(MathEdges &Test, const std::string &S, const std::string &Fn,
               double Ulps) {
  using L = std::numeric_limits<F>;
  const F Vs[] = {F(0),           -F(0),          F(1),           F(-1),
                  F(0.5),         F(2),           F(-2),          F(3),
                  L::infinity(),  -L::infinity(), L::quiet_NaN(), L::max(),
                  -L::max(),      L::min(),       L::denorm_min(),
                  -L::denorm_min(), F(1e-3)};
  std::vector<Operands<F>> Cases;
  for (F X : Vs)
    for (F Y : Vs)
      Cases.push_back({X, Y, 0});
  runEveryWidth<F>(Test, S, Fn + "(x, y)", Cases,
                   [Ulps](const Operands<F> &C, F Got, int) {
                     return withinUlps<F>(Got, powrSpecRef(C.X, C.Y), Ulps);
                   });
}

TEST_P(MathEdges, PowrSpecialsFloat) {
  checkPowr<float>(*this, "float", "powr", 16);
  checkPowr<float>(*this, "float", "half_powr", 8192);
}
TEST_P(MathEdges, PowrSpecialsDouble) {
  if (!deviceHasDouble())
    GTEST_SKIP() << "no double";
  checkPowr<double>(*this, "double", "powr", 16);
}

//===----------------------------------------------------------------------===//
// pow, pown, powr whose results lie just below the overflow threshold.
//===----------------------------------------------------------------------===//

template <typename F>
void checkPowNearOverflow(MathEdges &Test, const std::string &S) {
  using L = std::numeric_limits<F>;
  std::vector<Operands<F>> Cases;
  auto add = [&](F X, int N) { Cases.push_back({X, F(N), N}); };
  add(L::max(), 1);
  add(-L::max(), 1);
  add(-L::max(), -1);
  add(std::nextafter(L::max(), F(0)), 1);
  add(-std::ldexp(F(1.5), L::max_exponent - 1), 1);
  add(std::sqrt(L::max()), 2);
  add(-std::sqrt(L::max()), 2);
  add(-std::cbrt(L::max()), 3);
  add(std::ldexp(F(1), L::max_exponent / 2), 2); // overflows
  add(-std::ldexp(F(1.9), (L::max_exponent - 1) / 3), 3);
  add(std::ldexp(F(1), L::min_exponent - 1), -1);
  add(L::denorm_min(), 1);
  add(-L::denorm_min(), 1);
  add(F(2), L::max_exponent - 1);
  add(F(-2), L::max_exponent - 2);
  add(F(2), L::max_exponent); // overflows
  for (int K = 1; K < 24; ++K) // x^n near max for several n
    add(-std::pow(L::max(), F(1) / F(2 * K + 1)) * F(0.9999), 2 * K + 1);
  for (const char *Expr : {"pow(x, y)", "pown(x, n)"})
    runEveryWidth<F>(Test, S, Expr, Cases,
                     [](const Operands<F> &C, F Got, int) {
                       return withinUlps<F>(Got, ::powl(C.X, C.N), 16);
                     });
  std::vector<Operands<F>> Positive;
  for (const Operands<F> &C : Cases)
    Positive.push_back({std::fabs(C.X), C.Y, C.N});
  runEveryWidth<F>(Test, S, "powr(x, y)", Positive,
                   [](const Operands<F> &C, F Got, int) {
                     return withinUlps<F>(Got, powrSpecRef(C.X, C.Y), 16);
                   });
}

TEST_P(MathEdges, PowNearOverflowFloat) {
  checkPowNearOverflow<float>(*this, "float");
}
TEST_P(MathEdges, PowNearOverflowDouble) {
  if (!deviceHasDouble())
    GTEST_SKIP() << "no double";
  checkPowNearOverflow<double>(*this, "double");
}

//===----------------------------------------------------------------------===//
// cosh, sinh from below to beyond their overflow threshold.
//===----------------------------------------------------------------------===//

template <typename F>
void checkCoshSinhNearOverflow(MathEdges &Test, const std::string &S) {
  using L = std::numeric_limits<F>;
  // cosh overflows at ln(2 max) = ln(max) + ln 2.
  const Ld Threshold = ::logl(Ld(L::max())) + ::logl(2);
  std::vector<Operands<F>> Cases;
  for (int K = -200; K <= 40; ++K) {
    F X = F(Threshold + Ld(K) / 64);
    Cases.push_back({X, F(0), 0});
    Cases.push_back({-X, F(0), 0});
  }
  Cases.push_back({F(-0x1.63p+9), F(0), 0});
  Cases.push_back({F(-0x1.62fp+6), F(0), 0});
  F Below = F(Threshold);
  for (int K = 0; K < 8; ++K) { // the last few representable arguments
    Below = std::nextafter(Below, F(0));
    Cases.push_back({Below, F(0), 0});
    Cases.push_back({-Below, F(0), 0});
  }
  runEveryWidth<F>(Test, S, "cosh(x)", Cases,
                   [](const Operands<F> &C, F Got, int) {
                     return withinUlps<F>(Got, ::coshl(C.X), 4);
                   });
  runEveryWidth<F>(Test, S, "sinh(x)", Cases,
                   [](const Operands<F> &C, F Got, int) {
                     return withinUlps<F>(Got, ::sinhl(C.X), 4);
                   });
}

TEST_P(MathEdges, CoshSinhNearOverflowFloat) {
  checkCoshSinhNearOverflow<float>(*this, "float");
}
TEST_P(MathEdges, CoshSinhNearOverflowDouble) {
  if (!deviceHasDouble())
    GTEST_SKIP() << "no double";
  checkCoshSinhNearOverflow<double>(*this, "double");
}

//===----------------------------------------------------------------------===//
// normalize of vectors with a huge component and a tiny one: the result
// within the specification's bound of the long double quotient x / |x|.
//===----------------------------------------------------------------------===//

template <typename F>
void checkNormalizeSpread(MathEdges &Test, const std::string &S) {
  using L = std::numeric_limits<F>;
  using U = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
  const unsigned Count = 48 * 64;
  Random R(5);
  auto mantissa = [&R]() { return F(1) + F(R.next() % 4096) / 4096; };
  std::vector<F> X(Count * 4);
  for (unsigned I = 0; I < Count; ++I) {
    F *V = &X[I * 4];
    // A huge leading component and small ones such that x / |x| lies near
    // the bottom of the normal range or among the denormals.
    int Big = L::max_exponent - 1 - int(R.next() % (L::max_exponent / 2));
    int Ratio = L::min_exponent - 16 + int(R.next() % 40);
    if (I % 4 == 3) // small vectors too
      Big = L::min_exponent + int(R.next() % 30);
    for (int K = 0; K < 4; ++K) {
      bool Lead = K == int(I % 4);
      F M = mantissa() * (R.next() % 2 ? F(-1) : F(1));
      V[K] = Lead ? std::ldexp(M, Big)
                  : std::ldexp(M, Big + Ratio + int(R.next() % 8));
    }
    if (I % 16 == 5) { // random finite patterns
      for (int K = 0; K < 4; ++K) {
        U B = U(R.next());
        std::memcpy(&V[K], &B, sizeof(F));
        if (!std::isfinite(V[K]))
          V[K] = F(1);
      }
    }
  }
  std::string Source = fp64Pragma(S);
  for (unsigned W : {1u, 2u, 3u, 4u}) {
    std::string V = vecType(S, W);
    Source += "kernel void k" + std::to_string(W) + "(global const " + S +
              " *X, global " + S + " *O) {\n  size_t i = get_global_id(0);\n  " +
              V + " v;\n  " + S + " *c = (" + S + " *)&v;\n" +
              "  for (int k = 0; k < " + std::to_string(W) +
              "; ++k)\n    c[k] = X[4 * i + k];\n  v = normalize(v);\n" +
              "  for (int k = 0; k < " + std::to_string(W) +
              "; ++k)\n    O[4 * i + k] = c[k];\n}\n";
  }
  for (unsigned W : {1u, 2u, 3u, 4u}) {
    std::vector<F> O(Count * 4);
    std::string Name = "k" + std::to_string(W);
    ASSERT_TRUE(Test.runKernel(Source, Name.c_str(), Count, {in(X), out(O)}));
    // OpenCL C 3.0, 7.4: normalize within 2 + n ulp (n the width).
    double Bound = 2 + W;
    unsigned Failures = 0;
    for (unsigned I = 0; I < Count; ++I) {
      Ld Sum = 0;
      for (unsigned K = 0; K < W; ++K)
        Sum += Ld(X[I * 4 + K]) * Ld(X[I * 4 + K]);
      Ld Length = ::sqrtl(Sum);
      for (unsigned K = 0; K < W; ++K) {
        // The zero vector stays itself.
        Ld Want = Length == 0 ? Ld(X[I * 4 + K]) : Ld(X[I * 4 + K]) / Length;
        double E = ulpError<F>(O[I * 4 + K], Want);
        if (E > Bound && Failures++ < 8) {
          std::string Vec;
          for (unsigned J = 0; J < W; ++J)
            Vec += (J ? ", " : "") + hex(X[I * 4 + J]);
          ADD_FAILURE() << "normalize(" << vecType(S, W) << ")(" << Vec
                        << ") component " << K << ": got "
                        << hex(O[I * 4 + K]) << ", want " << hex(double(Want))
                        << " (" << E << " ulp, bound " << Bound << ")";
        }
      }
    }
  }
}

TEST_P(MathEdges, NormalizeSpreadFloat) {
  checkNormalizeSpread<float>(*this, "float");
}
TEST_P(MathEdges, NormalizeSpreadDouble) {
  if (!deviceHasDouble())
    GTEST_SKIP() << "no double";
  checkNormalizeSpread<double>(*this, "double");
}

WEFT_INSTANTIATE_DEVICE_TEST(MathEdges);

} // namespace
