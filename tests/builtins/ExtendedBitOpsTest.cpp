//===- ExtendedBitOpsTest.cpp - cl_khr_extended_bit_ops against the host --===//
//
// bitfield_insert, bitfield_extract_signed, bitfield_extract_unsigned and
// bit_reverse for every integer type at every width, each work-item with
// its own offset and count (0 to all the bits, the field always inside the
// component: larger fields are undefined behaviour). The host reference
// moves one bit at a time.
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

#include <type_traits>

using namespace weft_test;

namespace {

class ExtendedBitOps : public BuiltinTest {
public:
  using BuiltinTest::runKernel;
};

template <typename T> const char *clTypeName();
template <> const char *clTypeName<cl_char>() { return "char"; }
template <> const char *clTypeName<cl_uchar>() { return "uchar"; }
template <> const char *clTypeName<cl_short>() { return "short"; }
template <> const char *clTypeName<cl_ushort>() { return "ushort"; }
template <> const char *clTypeName<cl_int>() { return "int"; }
template <> const char *clTypeName<cl_uint>() { return "uint"; }
template <> const char *clTypeName<cl_long>() { return "long"; }
template <> const char *clTypeName<cl_ulong>() { return "ulong"; }

uint64_t bit(uint64_t X, unsigned B) { return (X >> B) & 1; }

/// The four functions on the low Bits bits of Base and Insert.
struct BitReference {
  uint64_t Insert = 0, Signed = 0, Unsigned = 0, Reverse = 0;
};

BitReference reference(uint64_t Base, uint64_t Insert, unsigned Offset,
                       unsigned Count, unsigned Bits) {
  BitReference R;
  for (unsigned B = 0; B < Bits; ++B) {
    bool InField = B >= Offset && B < Offset + Count;
    R.Insert |= (InField ? bit(Insert, B - Offset) : bit(Base, B)) << B;
    R.Reverse |= bit(Base, Bits - 1 - B) << B;
  }
  for (unsigned J = 0; J < Count; ++J)
    R.Unsigned |= bit(Base, Offset + J) << J;
  R.Signed = R.Unsigned;
  if (Count && bit(R.Unsigned, Count - 1))
    for (unsigned B = Count; B < Bits; ++B)
      R.Signed |= uint64_t(1) << B;
  return R;
}

template <typename T> void checkType(ExtendedBitOps &Test) {
  using S = std::make_signed_t<T>;
  using U = std::make_unsigned_t<T>;
  const unsigned Bits = 8 * sizeof(T);
  const std::string Name = clTypeName<T>(), SName = clTypeName<S>(),
                    UName = clTypeName<U>();
  const unsigned Widths[] = {1, 2, 3, 4, 8, 16};
  const size_t N = 48 * 16; // divisible by every width, 3 included
  std::string Source = "#ifndef cl_khr_extended_bit_ops\n"
                       "#error cl_khr_extended_bit_ops is not defined\n"
                       "#endif\n";
  for (unsigned W : Widths) {
    std::string V = vecType(Name, W);
    Source += loadStoreMacros(W);
    Source += "kernel void k" + std::to_string(W) + "(global const " + Name +
              " *A, global const " + Name +
              " *B, global const uint *Off, global const uint *Cnt, global " +
              Name + " *Ins, global " + SName + " *Sx, global " + UName +
              " *Ux, global " + Name + " *Rev) {\n"
              "  size_t i = get_global_id(0);\n  " +
              V + " a = LD(i, A), b = LD(i, B);\n"
              "  uint o = Off[i], c = Cnt[i];\n"
              "  ST(bitfield_insert(a, b, o, c), i, Ins);\n"
              "  ST(bitfield_extract_signed(a, o, c), i, Sx);\n"
              "  ST(bitfield_extract_unsigned(a, o, c), i, Ux);\n"
              "  ST(bit_reverse(a), i, Rev);\n}\n";
  }
  Random R(Bits);
  std::vector<T> A(N), B(N);
  for (size_t I = 0; I < N; ++I) {
    A[I] = T(R.next());
    B[I] = T(R.next() >> 3);
  }
  for (unsigned W : Widths) {
    SCOPED_TRACE(vecType(Name, W));
    const size_t Items = N / W;
    std::vector<cl_uint> Off(Items), Cnt(Items);
    for (size_t I = 0; I < Items; ++I) {
      // Every count from 0 to Bits, then random fields.
      Cnt[I] = I <= Bits ? cl_uint(I) : cl_uint(R.next() % (Bits + 1));
      Off[I] = cl_uint(R.next() % (Bits - Cnt[I] + 1));
    }
    std::vector<T> Ins(N), Rev(N);
    std::vector<S> Sx(N);
    std::vector<U> Ux(N);
    std::string Kernel = "k" + std::to_string(W);
    if (!Test.runKernel(Source, Kernel.c_str(), Items,
                        {in(A), in(B), in(Off), in(Cnt), out(Ins), out(Sx),
                         out(Ux), out(Rev)}))
      return;
    const uint64_t Mask = Bits == 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1;
    unsigned Failures = 0;
    for (size_t I = 0; I < N && Failures < 10; ++I) {
      unsigned O = Off[I / W], C = Cnt[I / W];
      BitReference Want = reference(uint64_t(U(A[I])), uint64_t(U(B[I])), O,
                                    C, Bits);
      uint64_t Got[4] = {uint64_t(U(Ins[I])), uint64_t(U(Sx[I])),
                         uint64_t(U(Ux[I])), uint64_t(U(Rev[I]))};
      uint64_t Wanted[4] = {Want.Insert & Mask, Want.Signed & Mask,
                            Want.Unsigned & Mask, Want.Reverse & Mask};
      const char *Functions[4] = {"bitfield_insert", "bitfield_extract_signed",
                                  "bitfield_extract_unsigned", "bit_reverse"};
      for (unsigned F = 0; F < 4; ++F)
        if (Got[F] != Wanted[F]) {
          ++Failures;
          ADD_FAILURE() << Functions[F] << " on " << vecType(Name, W)
                        << ", base 0x" << std::hex << uint64_t(U(A[I]))
                        << ", insert 0x" << uint64_t(U(B[I])) << std::dec
                        << ", offset " << O << ", count " << C << ": got 0x"
                        << std::hex << Got[F] << ", want 0x" << Wanted[F];
        }
    }
  }
}

TEST_P(ExtendedBitOps, AllTypesAndWidths) {
  std::set<std::string> Extensions =
      splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS));
  ASSERT_TRUE(Extensions.count("cl_khr_extended_bit_ops"))
      << "the device does not claim cl_khr_extended_bit_ops";
  checkType<cl_char>(*this);
  checkType<cl_uchar>(*this);
  checkType<cl_short>(*this);
  checkType<cl_ushort>(*this);
  checkType<cl_int>(*this);
  checkType<cl_uint>(*this);
  checkType<cl_long>(*this);
  checkType<cl_ulong>(*this);
}

WEFT_INSTANTIATE_DEVICE_TEST(ExtendedBitOps);

} // namespace
