//===- dot.cl - cl_khr_integer_dot_product --------------------------------===//
//
// dot and dot_acc_sat of four 8-bit components (char4/uchar4 in any
// signedness mix), and the packed forms, whose uint operands hold the four
// components with component 0 in the low byte (as_uchar4/as_char4 on a
// little-endian host). The products are computed in 32 bits: four of them
// never overflow (4 * 255 * 255 < 2^31), so only the accumulation
// saturates, with add_sat.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#define DEF_DOT(R, A, B)                                                       \
  R WEFT_OVL dot(A##4 X, B##4 Y) {                                             \
    R##4 P = convert_##R##4(X) * convert_##R##4(Y);                            \
    return P.x + P.y + P.z + P.w;                                              \
  }                                                                            \
  R WEFT_OVL dot_acc_sat(A##4 X, B##4 Y, R Acc) {                              \
    return add_sat(dot(X, Y), Acc);                                            \
  }

DEF_DOT(uint, uchar, uchar)
DEF_DOT(int, char, char)
DEF_DOT(int, uchar, char)
DEF_DOT(int, char, uchar)

#define DEF_PACKED(Suffix, R, A, B)                                            \
  R WEFT_OVL dot_4x8packed_##Suffix(uint X, uint Y) {                          \
    return dot(as_##A##4(X), as_##B##4(Y));                                    \
  }                                                                            \
  R WEFT_OVL dot_acc_sat_4x8packed_##Suffix(uint X, uint Y, R Acc) {           \
    return dot_acc_sat(as_##A##4(X), as_##B##4(Y), Acc);                       \
  }

DEF_PACKED(uu_uint, uint, uchar, uchar)
DEF_PACKED(ss_int, int, char, char)
DEF_PACKED(us_int, int, uchar, char)
DEF_PACKED(su_int, int, char, uchar)
