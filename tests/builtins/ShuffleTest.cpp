//===- ShuffleTest.cpp - shuffle and shuffle2 on every type and width -----===//
//
// For each element type, one kernel applies shuffle and shuffle2 with every
// input width m and result width n (2, 4, 8, 16) to random data and random
// masks. The mask elements are random over their whole width, so almost
// all have garbage above the log2(m) (log2(2m)) bits the specification
// says count. The host reference picks the components itself; results are
// compared bit for bit.
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

#include <cstring>

using namespace weft_test;

namespace {

class Shuffle : public BuiltinTest {
public:
  using BuiltinTest::runKernel;
};

const unsigned Widths[] = {2, 4, 8, 16};
// Per work-item: x and y (16 components each), a 16-component mask, and
// for every (m, n) the n components of shuffle then n of shuffle2.
constexpr unsigned InPerItem = 32, MaskPerItem = 16;
constexpr unsigned OutPerItem = 4 * (2 + 4 + 8 + 16) * 2;
constexpr size_t Items = 64;

/// Element type Type (Size bytes) with mask type Mask; Float types get no
/// NaN data, so that no copy can be suspected of quieting one.
void checkShuffles(Shuffle &Test, const std::string &Type,
                   const std::string &Mask, unsigned Size, bool Float) {
  SCOPED_TRACE(Type);
  Random R(Size * 131 + Type.size() + (Float ? 7 : 0) + (Type[0] == 'u'));
  std::vector<uint8_t> In(Items * InPerItem * Size);
  std::vector<uint8_t> Masks(Items * MaskPerItem * Size);
  std::vector<uint8_t> Out(Items * OutPerItem * Size, 0xcd);
  for (uint8_t &B : In)
    B = uint8_t(R.next());
  for (uint8_t &B : Masks)
    B = uint8_t(R.next());
  if (Float) // clear the exponent's top bit: finite values
    for (size_t I = 0; I < In.size(); I += Size)
      In[I + Size - 1] &= 0xbf;

  std::string Source =
      Size == 8 && Float ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                         : "";
  Source += "kernel void k(global const " + Type + " *A, global const " +
            Mask + " *M, global " + Type + " *O) {\n"
            "  size_t i = get_global_id(0);\n"
            "  global const " + Type + " *a = A + " +
            std::to_string(InPerItem) + " * i;\n"
            "  global const " + Mask + " *m = M + " +
            std::to_string(MaskPerItem) + " * i;\n"
            "  global " + Type + " *o = O + " + std::to_string(OutPerItem) +
            " * i;\n";
  unsigned Offset = 0;
  for (unsigned Mw : Widths)
    for (unsigned Nw : Widths) {
      std::string M = std::to_string(Mw), N = std::to_string(Nw);
      std::string X = "vload" + M + "(0, a)", Y = "vload" + M + "(0, a + 16)";
      std::string K = "vload" + N + "(0, m)";
      Source += "  vstore" + N + "(shuffle(" + X + ", " + K + "), 0, o + " +
                std::to_string(Offset) + ");\n";
      Source += "  vstore" + N + "(shuffle2(" + X + ", " + Y + ", " + K +
                "), 0, o + " + std::to_string(Offset + Nw) + ");\n";
      Offset += 2 * Nw;
    }
  Source += "}\n";
  ASSERT_EQ(Offset, OutPerItem);
  ASSERT_TRUE(Test.runKernel(Source, "k", Items,
                             {in(In), in(Masks), out(Out)}));

  for (size_t I = 0; I < Items; ++I) {
    const uint8_t *A = &In[I * InPerItem * Size];
    const uint8_t *Mk = &Masks[I * MaskPerItem * Size];
    const uint8_t *O = &Out[I * OutPerItem * Size];
    for (unsigned Mw : Widths)
      for (unsigned Nw : Widths) {
        for (unsigned K = 0; K < Nw; ++K) {
          uint64_t Sel = 0;
          std::memcpy(&Sel, Mk + K * Size, Size); // little-endian, unsigned
          const uint8_t *One = A + (Sel % Mw) * Size;
          unsigned J = unsigned(Sel % (2 * Mw));
          const uint8_t *Two = J < Mw ? A + J * Size : A + (16 + J - Mw) * Size;
          ASSERT_EQ(std::memcmp(O + K * Size, One, Size), 0)
              << "shuffle " << Type << Mw << " -> " << Nw << ", item " << I
              << " component " << K << ", mask " << Sel;
          ASSERT_EQ(std::memcmp(O + (Nw + K) * Size, Two, Size), 0)
              << "shuffle2 " << Type << Mw << " -> " << Nw << ", item " << I
              << " component " << K << ", mask " << Sel;
        }
        O += 2 * Nw * Size;
      }
  }
}

TEST_P(Shuffle, Char) { checkShuffles(*this, "char", "uchar", 1, false); }
TEST_P(Shuffle, UChar) { checkShuffles(*this, "uchar", "uchar", 1, false); }
TEST_P(Shuffle, Short) { checkShuffles(*this, "short", "ushort", 2, false); }
TEST_P(Shuffle, UShort) { checkShuffles(*this, "ushort", "ushort", 2, false); }
TEST_P(Shuffle, Int) { checkShuffles(*this, "int", "uint", 4, false); }
TEST_P(Shuffle, UInt) { checkShuffles(*this, "uint", "uint", 4, false); }
TEST_P(Shuffle, Long) { checkShuffles(*this, "long", "ulong", 8, false); }
TEST_P(Shuffle, ULong) { checkShuffles(*this, "ulong", "ulong", 8, false); }
TEST_P(Shuffle, Float) { checkShuffles(*this, "float", "uint", 4, true); }
TEST_P(Shuffle, Double) {
  if (!deviceHasDouble())
    GTEST_SKIP() << "no double";
  checkShuffles(*this, "double", "ulong", 8, true);
}

WEFT_INSTANTIATE_DEVICE_TEST(Shuffle);

} // namespace
