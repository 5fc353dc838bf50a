//===- RelationalTest.cpp - relational builtins and their conventions -----===//
//
// The predicates return 1 for true on scalars and -1 (all bits set) on
// vectors, in int for float and in long for double vectors. Checked on
// every width against the host's IEEE comparisons over pairs of special
// values (zeros, denormals, limits, infinities, NaN); then select,
// bitselect, any and all.
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace weft_test;

namespace {

class RelationalBuiltins : public BuiltinTest {
public:
  using BuiltinTest::runKernel;
};

const char *const Predicates[] = {
    "isequal(a, b)",     "isnotequal(a, b)",  "isgreater(a, b)",
    "isgreaterequal(a, b)", "isless(a, b)",   "islessequal(a, b)",
    "islessgreater(a, b)", "isfinite(a)",     "isinf(a)",
    "isnan(a)",          "isnormal(a)",       "isordered(a, b)",
    "isunordered(a, b)", "signbit(a)"};
constexpr unsigned NumPredicates = 14;

template <typename F> bool hostPredicate(unsigned P, F A, F B) {
  switch (P) {
  case 0: return A == B;
  case 1: return A != B;
  case 2: return A > B;
  case 3: return A >= B;
  case 4: return A < B;
  case 5: return A <= B;
  case 6: return A < B || A > B;
  case 7: return std::isfinite(A);
  case 8: return std::isinf(A);
  case 9: return std::isnan(A);
  case 10: return std::isnormal(A);
  case 11: return !std::isnan(A) && !std::isnan(B);
  case 12: return std::isnan(A) || std::isnan(B);
  case 13: return std::signbit(A);
  }
  return false;
}

template <typename F>
void checkPredicates(RelationalBuiltins &Test, const std::string &S) {
  using L = std::numeric_limits<F>;
  const F Specials[] = {F(0), -F(0), F(1), F(-1), L::min(), -L::min(),
                        L::denorm_min(), -L::denorm_min(), L::max(),
                        -L::max(), L::infinity(), -L::infinity(),
                        L::quiet_NaN(), -L::quiet_NaN(), F(0.5), F(-3.25)};
  const size_t K = sizeof(Specials) / sizeof(F);
  const size_t N = 48 * 16; // all pairs of 16 specials is 256; three rounds
  std::vector<F> A(N), B(N);
  for (size_t I = 0; I < N; ++I) {
    A[I] = Specials[I % K];
    B[I] = Specials[(I / K + I / (K * K)) % K];
  }
  const std::string IntS = sizeof(F) == 8 ? "long" : "int";
  std::string Source = sizeof(F) == 8
                           ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                           : "";
  const unsigned Widths[] = {1, 2, 3, 4, 8, 16};
  for (unsigned W : Widths) {
    Source += loadStoreMacros(W);
    std::string V = vecType(S, W);
    // Vector results of double predicates are long: narrowed to int
    // (-1 stays -1) for the common output array.
    std::string Narrow = W == 1 ? "" : "convert_" + vecType("int", W);
    Source += "kernel void k" + std::to_string(W) + "(global const " + S +
              " *A, global const " + S +
              " *B, global int *O) {\n"
              "  size_t i = get_global_id(0), n = get_global_size(0);\n  " +
              V + " a = LD(i, A), b = LD(i, B);\n";
    for (unsigned P = 0; P < NumPredicates; ++P)
      Source += "  ST(" + Narrow + "(" + Predicates[P] + "), i + " +
                std::to_string(P) + " * n, O);\n";
    Source += "}\n";
  }
  for (unsigned W : Widths) {
    SCOPED_TRACE(vecType(S, W));
    std::vector<cl_int> O(NumPredicates * N, 7);
    std::string Name = "k" + std::to_string(W);
    if (!Test.runKernel(Source, Name.c_str(), N / W, {in(A), in(B), out(O)}))
      return;
    int True = W == 1 ? 1 : -1;
    unsigned Failures = 0;
    for (unsigned P = 0; P < NumPredicates && Failures < 10; ++P)
      for (size_t I = 0; I < N && Failures < 10; ++I) {
        int Want = hostPredicate(P, A[I], B[I]) ? True : 0;
        if (O[P * N + I] != Want) {
          ++Failures;
          ADD_FAILURE() << Predicates[P] << " with a=" << A[I]
                        << " b=" << B[I] << " on " << vecType(S, W)
                        << ": got " << O[P * N + I] << ", want " << Want;
        }
      }
  }
}

TEST_P(RelationalBuiltins, FloatPredicates) {
  checkPredicates<float>(*this, "float");
}

TEST_P(RelationalBuiltins, DoublePredicates) {
  if (!deviceHasDouble())
    GTEST_SKIP() << "no double support";
  checkPredicates<double>(*this, "double");
}

TEST_P(RelationalBuiltins, SelectBitselectAnyAll) {
  const size_t N = 256;
  Random R(7);
  std::vector<cl_int> A(N), B(N), C(N);
  for (size_t I = 0; I < N; ++I) {
    A[I] = cl_int(R.next());
    B[I] = cl_int(R.next());
    // Sign bits and zero/non-zero both vary; select of vectors must look at
    // the sign bit only, of scalars at non-zero.
    uint64_t X = R.next();
    C[I] = X % 4 == 0 ? 0 : X % 4 == 1 ? 1 : X % 4 == 2 ? -1 : cl_int(X >> 3);
  }
  std::vector<cl_int> O(4 * N);
  std::vector<cl_float> FO(N);
  std::vector<cl_int> AnyAll(2 * (N / 4) + 2 * N);
  const char *Source = R"(
kernel void k(global const int *A, global const int *B, global const int *C,
              global int *O, global float *FO, global int *AnyAll) {
  size_t i = get_global_id(0), n = get_global_size(0);
  O[i] = select(A[i], B[i], C[i]);
  O[i + n] = bitselect(A[i], B[i], C[i]);
  FO[i] = select(as_float(A[i]), as_float(B[i]), (uint)C[i]);
  if (i % 4 == 0) {
    int4 a = vload4(i / 4, A), b = vload4(i / 4, B), c = vload4(i / 4, C);
    vstore4(select(a, b, c), i / 4, O + 2 * n);
    vstore4(as_int4(select(as_float4(a), as_float4(b), as_uint4(c))), i / 4,
            O + 3 * n);
    AnyAll[i / 4] = any(c);
    AnyAll[n / 4 + i / 4] = all(c);
  }
  AnyAll[n / 2 + i] = any(C[i]);
  AnyAll[n / 2 + n + i] = all((char16)(char)C[i]);
}
)";
  ASSERT_TRUE(runKernel(Source, "k", N,
                        {in(A), in(B), in(C), out(O), out(FO), out(AnyAll)}));
  for (size_t I = 0; I < N; ++I) {
    uint32_t a = A[I], b = B[I], c = C[I];
    ASSERT_EQ(O[I], cl_int(c ? b : a)) << "scalar select, c=" << C[I];
    ASSERT_EQ(O[N + I], cl_int((a & ~c) | (b & c))) << "bitselect";
    uint32_t FBits;
    std::memcpy(&FBits, &FO[I], 4);
    ASSERT_EQ(FBits, c ? b : a) << "scalar float select";
    ASSERT_EQ(O[2 * N + I], cl_int(cl_int(c) < 0 ? b : a))
        << "vector select, c=" << C[I];
    ASSERT_EQ(O[3 * N + I], cl_int(cl_int(c) < 0 ? b : a))
        << "float vector select";
    ASSERT_EQ(AnyAll[N / 2 + I], C[I] < 0 ? 1 : 0) << "scalar any";
    ASSERT_EQ(AnyAll[N / 2 + N + I], cl_char(C[I]) < 0 ? 1 : 0) << "all";
  }
  for (size_t G = 0; G < N / 4; ++G) {
    bool Any = false, All = true;
    for (int J = 0; J < 4; ++J) {
      Any |= C[4 * G + J] < 0;
      All &= C[4 * G + J] < 0;
    }
    ASSERT_EQ(AnyAll[G], Any ? 1 : 0) << "any of int4 " << G;
    ASSERT_EQ(AnyAll[N / 4 + G], All ? 1 : 0) << "all of int4 " << G;
  }
}

WEFT_INSTANTIATE_DEVICE_TEST(RelationalBuiltins);

} // namespace
