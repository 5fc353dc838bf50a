//===- IntegerTest.cpp - integer builtins against host arithmetic ---------===//
//
// Every integer type at every width: popcount, clz, ctz, rotate, hadd,
// rhadd, add_sat, sub_sat, mul_hi, mad_hi, mad_sat, min, max, clamp, abs,
// abs_diff, plus upsample, mul24 and mad24. The inputs mix edge values (0,
// +-1, the type's limits) with random bit patterns; the reference computes
// in 128-bit host arithmetic.
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

#include <limits>
#include <type_traits>

using namespace weft_test;

namespace {

class IntegerBuiltins : public BuiltinTest {
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
#undef WEFT_NAME

using Wide = __int128;

const char *const FunctionNames[] = {
    "popcount", "clz",     "ctz",     "rotate", "hadd",   "rhadd",
    "add_sat",  "sub_sat", "mul_hi",  "mad_hi", "mad_sat", "min",
    "max",      "clamp",   "abs",     "abs_diff"};
constexpr unsigned NumFunctions = 16;

template <typename T> T saturate(Wide V) {
  Wide Lo = Wide(std::numeric_limits<T>::min());
  Wide Hi = Wide(std::numeric_limits<T>::max());
  return T(V < Lo ? Lo : V > Hi ? Hi : V);
}

/// The high half of the double-width product (unsigned 128-bit arithmetic
/// for ulong, whose product overflows a signed __int128).
template <typename T> T highHalf(T A, T B) {
  constexpr unsigned Bits = sizeof(T) * 8;
  if (std::is_unsigned_v<T>)
    return T(((unsigned __int128)A * B) >> Bits);
  return T((Wide(A) * Wide(B)) >> Bits);
}

/// The reference of function F on (A, B, C), as the bit pattern of the
/// result widened to 64 bits.
template <typename T> uint64_t reference(unsigned F, T A, T B, T C) {
  using U = std::make_unsigned_t<T>;
  constexpr unsigned Bits = sizeof(T) * 8;
  U UA = U(A), UB = U(B);
  auto Clz = [&](U X) {
    unsigned N = 0;
    for (int I = Bits - 1; I >= 0 && !((X >> I) & 1); --I)
      ++N;
    return N;
  };
  auto Ctz = [&](U X) {
    unsigned N = 0;
    while (N < Bits && !((X >> N) & 1))
      ++N;
    return N;
  };
  Wide WA = A, WB = B, WC = C;
  // Floor division of the sum: >> on a negative __int128 is arithmetic.
  switch (F) {
  case 0: {
    unsigned N = 0;
    for (unsigned I = 0; I < Bits; ++I)
      N += (UA >> I) & 1;
    return N;
  }
  case 1:
    return Clz(UA);
  case 2:
    return Ctz(UA);
  case 3: {
    unsigned R = unsigned(UB % Bits);
    return uint64_t(U(R ? U(UA << R) | U(UA >> (Bits - R)) : UA));
  }
  case 4:
    return uint64_t(U(T((WA + WB) >> 1)));
  case 5:
    return uint64_t(U(T((WA + WB + 1) >> 1)));
  case 6:
    return uint64_t(U(saturate<T>(WA + WB)));
  case 7:
    return uint64_t(U(saturate<T>(WA - WB)));
  case 8:
    return uint64_t(U(highHalf<T>(A, B)));
  case 9:
    return uint64_t(U(U(highHalf<T>(A, B)) + U(C)));
  case 10: {
    // The 128-bit product of two 64-bit values plus C can exceed __int128
    // only for ulong: (2^64-1)^2 + 2^64-1 < 2^128 fits unsigned __int128.
    if (std::is_same_v<T, cl_ulong>) {
      unsigned __int128 P = (unsigned __int128)UA * UB + U(C);
      return P > std::numeric_limits<cl_ulong>::max() ? ~0ull : uint64_t(P);
    }
    return uint64_t(U(saturate<T>(WA * WB + WC)));
  }
  case 11:
    return uint64_t(U(A < B ? A : B));
  case 12:
    return uint64_t(U(A > B ? A : B));
  case 13: {
    T Lo = B < C ? B : C, Hi = B < C ? C : B;
    return uint64_t(U(A < Lo ? Lo : A > Hi ? Hi : A));
  }
  case 14:
    return uint64_t(U(A < 0 ? U(0) - UA : UA));
  case 15:
    return uint64_t(U(A > B ? U(UA - UB) : U(UB - UA)));
  }
  return 0;
}

template <typename T> std::vector<T> integerInputs(size_t N, unsigned Seed) {
  using L = std::numeric_limits<T>;
  const T Edges[] = {T(0), T(1), T(-1), L::min(), L::max(), T(L::min() + 1),
                     T(L::max() - 1), T(2), T(L::max() / 2)};
  Random R(Seed);
  std::vector<T> V(N);
  for (size_t I = 0; I < N; ++I) {
    uint64_t X = R.next();
    // A third edge values, a third small numbers, a third any bits.
    if (X % 3 == 0)
      V[I] = Edges[(X >> 8) % (sizeof(Edges) / sizeof(T))];
    else if (X % 3 == 1)
      V[I] = T(int64_t(X >> 32) % 100);
    else
      V[I] = T(X >> 7);
  }
  return V;
}

template <typename T> void checkType(IntegerBuiltins &Test) {
  using U = std::make_unsigned_t<T>;
  const std::string S = TypeName<T>::Value;
  const std::string US = TypeName<U>::Value;
  const size_t N = 768; // divisible by every width, 3 included
  const unsigned Widths[] = {1, 2, 3, 4, 8, 16};
  std::string Source;
  for (unsigned W : Widths) {
    std::string V = vecType(S, W), UV = vecType(US, W);
    Source += loadStoreMacros(W);
    Source += "kernel void k" + std::to_string(W) + "(global const " + S +
              " *A, global const " + S + " *B, global const " + S +
              " *C, global " + S + " *O, global " + US + " *UO) {\n"
              "  size_t i = get_global_id(0), n = get_global_size(0);\n  " +
              V + " a = LD(i, A), b = LD(i, B), c = LD(i, C);\n";
    const char *Calls[] = {"popcount(a)",   "clz(a)",        "ctz(a)",
                           "rotate(a, b)",  "hadd(a, b)",    "rhadd(a, b)",
                           "add_sat(a, b)", "sub_sat(a, b)", "mul_hi(a, b)",
                           "mad_hi(a, b, c)", "mad_sat(a, b, c)",
                           "min(a, b)",     "max(a, b)",
                           "clamp(a, min(b, c), max(b, c))"};
    for (unsigned F = 0; F < 14; ++F)
      Source += "  ST(" + std::string(Calls[F]) + ", i + " +
                std::to_string(F) + " * n, O);\n";
    Source += "  ST(abs(a), i, UO);\n  ST(abs_diff(a, b), i + n, UO);\n}\n";
  }
  std::vector<T> A = integerInputs<T>(N, 1), B = integerInputs<T>(N, 2),
                 C = integerInputs<T>(N, 3);
  for (unsigned W : Widths) {
    SCOPED_TRACE(vecType(S, W));
    std::vector<T> O(14 * N);
    std::vector<U> UO(2 * N);
    std::string Name = "k" + std::to_string(W);
    if (!Test.runKernel(Source, Name.c_str(), N / W,
                        {in(A), in(B), in(C), out(O), out(UO)},
                        "-cl-std=CL3.0"))
      return;
    unsigned Failures = 0;
    for (unsigned F = 0; F < NumFunctions && Failures < 10; ++F)
      for (size_t I = 0; I < N && Failures < 10; ++I) {
        uint64_t Want = reference<T>(F, A[I], B[I], C[I]);
        uint64_t Got = F < 14 ? uint64_t(U(O[F * N + I]))
                              : uint64_t(UO[(F - 14) * N + I]);
        if (Got != Want) {
          ++Failures;
          ADD_FAILURE() << FunctionNames[F] << "(" << +A[I] << ", " << +B[I]
                        << ", " << +C[I] << ") on " << vecType(S, W)
                        << ": got " << Got << ", want " << Want;
        }
      }
  }
}

TEST_P(IntegerBuiltins, AllTypesAndWidths) {
  checkType<cl_char>(*this);
  checkType<cl_uchar>(*this);
  checkType<cl_short>(*this);
  checkType<cl_ushort>(*this);
  checkType<cl_int>(*this);
  checkType<cl_uint>(*this);
  checkType<cl_long>(*this);
  checkType<cl_ulong>(*this);
}

// upsample for every pair of widths, mul24/mad24 on 24-bit operands.
TEST_P(IntegerBuiltins, UpsampleMul24) {
  const size_t N = 256;
  std::vector<cl_uint> A = integerInputs<cl_uint>(N, 4),
                       B = integerInputs<cl_uint>(N, 5);
  std::vector<cl_ulong> O(6 * N);
  std::vector<cl_int> M(4 * N);
  const char *Source = R"(
kernel void k(global const uint *A, global const uint *B, global ulong *O,
              global int *M) {
  size_t i = get_global_id(0), n = get_global_size(0);
  uint a = A[i], b = B[i];
  O[i] = as_ushort(upsample((char)a, (uchar)b));
  O[i + n] = upsample((uchar)a, (uchar)b);
  O[i + 2 * n] = as_uint(upsample((short)a, (ushort)b));
  O[i + 3 * n] = upsample((ushort)a, (ushort)b);
  O[i + 4 * n] = as_ulong(upsample((int)a, b));
  ulong4 v = upsample((uint4)(a), (uint4)(b));
  O[i + 5 * n] = v.w;
  int x = ((int)(a << 8)) >> 8, y = ((int)(b << 8)) >> 8;
  M[i] = mul24(x, y);
  M[i + n] = mad24(x, y, (int)a);
  M[i + 2 * n] = (int)mul24(a & 0xffffffu, b & 0xffu);
  M[i + 3 * n] = (int)mad24(a & 0xffffu, b & 0xffffu, b);
}
)";
  ASSERT_TRUE(runKernel(Source, "k", N, {in(A), in(B), out(O), out(M)}));
  for (size_t I = 0; I < N; ++I) {
    uint32_t a = A[I], b = B[I];
    uint64_t Want[6] = {uint16_t((uint8_t(a) << 8) | uint8_t(b)),
                        uint16_t((uint8_t(a) << 8) | uint8_t(b)),
                        (uint32_t(uint16_t(a)) << 16) | uint16_t(b),
                        (uint32_t(uint16_t(a)) << 16) | uint16_t(b),
                        (uint64_t(a) << 32) | b,
                        (uint64_t(a) << 32) | b};
    for (int F = 0; F < 6; ++F)
      ASSERT_EQ(O[F * N + I], Want[F]) << "upsample case " << F << " of " << a
                                       << ", " << b;
    int32_t x = int32_t(a << 8) >> 8, y = int32_t(b << 8) >> 8;
    int32_t WantM[4] = {
        int32_t(int64_t(x) * y), int32_t(int64_t(x) * y + int32_t(a)),
        int32_t((a & 0xffffffu) * (b & 0xffu)),
        int32_t((a & 0xffffu) * (b & 0xffffu) + b)};
    for (int F = 0; F < 4; ++F)
      ASSERT_EQ(M[F * N + I], WantM[F]) << "mul24/mad24 case " << F;
  }
}

WEFT_INSTANTIATE_DEVICE_TEST(IntegerBuiltins);

} // namespace
