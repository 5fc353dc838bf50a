//===- bitops.cl - cl_khr_extended_bit_ops --------------------------------===//
//
// bitfield_insert, bitfield_extract_signed, bitfield_extract_unsigned and
// bit_reverse for every integer type, scalar and vectors of 2, 3, 4, 8 and
// 16 (offset and count are one uint for all components).
//
// The bitfield is bits [Offset, Offset + Count) of each component. An
// extraction shifts the field to the top of the component and back down,
// arithmetically for the signed form; a count of 0 gives 0, as the
// extension says. An insertion masks: the mask is computed in ulong and
// narrowed, so a count of N bits needs no shift by N. Fields that do not
// fit the component (Offset + Count > N) are undefined behaviour by the
// extension; here they give whatever the masked shifts of OpenCL C give.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

// T: the argument type, S and U: its signed and unsigned twins, N: the
// bits of one component, Reverse: clang's bit reversal for U (the
// elementwise builtin promotes scalar chars and shorts to int, so scalars
// take __builtin_bitreverseN).
#define DEF_BITOPS(T, S, U, N, Reverse)                                        \
  T WEFT_OVL bitfield_insert(T Base, T Insert, uint Offset, uint Count) {      \
    U Mask = (U)(Count ? (~0ul >> (64 - Count)) << Offset : 0ul);              \
    U Field = (U)(as_##U(Insert) << Offset);                                   \
    return as_##T((U)((as_##U(Base) & (U)~Mask) | (Field & Mask)));            \
  }                                                                            \
  S WEFT_OVL bitfield_extract_signed(T Base, uint Offset, uint Count) {        \
    S Top = (S)(as_##S(Base) << (N - Offset - Count));                         \
    return Count ? (S)(Top >> (N - Count)) : (S)0;                             \
  }                                                                            \
  U WEFT_OVL bitfield_extract_unsigned(T Base, uint Offset, uint Count) {      \
    U Top = (U)(as_##U(Base) << (N - Offset - Count));                         \
    return Count ? (U)(Top >> (N - Count)) : (U)0;                             \
  }                                                                            \
  T WEFT_OVL bit_reverse(T Base) {                                             \
    return as_##T((U)Reverse(as_##U(Base)));                                   \
  }

#define DEF_BITOPS_VECTOR(S, U, N, W)                                          \
  DEF_BITOPS(S##W, S##W, U##W, N, __builtin_elementwise_bitreverse)            \
  DEF_BITOPS(U##W, S##W, U##W, N, __builtin_elementwise_bitreverse)
#define DEF_BITOPS_WIDTHS(S, U, N)                                             \
  DEF_BITOPS(S, S, U, N, __builtin_bitreverse##N)                              \
  DEF_BITOPS(U, S, U, N, __builtin_bitreverse##N)                              \
  DEF_BITOPS_VECTOR(S, U, N, 2)                                                \
  DEF_BITOPS_VECTOR(S, U, N, 3)                                                \
  DEF_BITOPS_VECTOR(S, U, N, 4)                                                \
  DEF_BITOPS_VECTOR(S, U, N, 8)                                                \
  DEF_BITOPS_VECTOR(S, U, N, 16)

DEF_BITOPS_WIDTHS(char, uchar, 8)
DEF_BITOPS_WIDTHS(short, ushort, 16)
DEF_BITOPS_WIDTHS(int, uint, 32)
DEF_BITOPS_WIDTHS(long, ulong, 64)
