//===- vload.cl - vload/vstore and the half forms (section 6.12.7) --------===//
//
// vloadn/vstoren access n elements at p + offset * n, aligned only to the
// element: the vector goes through a typedef of the element's alignment,
// one unaligned vector load or store in IR. The 3-element forms touch
// exactly three elements (a float3 object is four wide), so they go by
// component.
//
// The half forms work on the bit patterns, so that they exist without
// cl_khr_fp16 and never call the compiler runtime's half conversions:
// half -> float is exact (a shift and one multiply that rescales the
// exponent, denormals included); float/double -> half rounds in integer
// arithmetic in the mode the name asks for (round to nearest even when it
// names none).
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#define FOR_ADDRESS_SPACES_LOAD(M, ...)                                        \
  M(__global, __VA_ARGS__)                                                     \
  M(__local, __VA_ARGS__) M(__constant, __VA_ARGS__) M(__private, __VA_ARGS__)
#define FOR_ADDRESS_SPACES_STORE(M, ...)                                       \
  M(__global, __VA_ARGS__) M(__local, __VA_ARGS__) M(__private, __VA_ARGS__)

//===----------------------------------------------------------------------===//
// vloadn, vstoren
//===----------------------------------------------------------------------===//

#define DEF_UNALIGNED_TYPES(T)                                                 \
  typedef T##2 __attribute__((aligned(sizeof(T)))) T##2_u;                     \
  typedef T##4 __attribute__((aligned(sizeof(T)))) T##4_u;                     \
  typedef T##8 __attribute__((aligned(sizeof(T)))) T##8_u;                     \
  typedef T##16 __attribute__((aligned(sizeof(T)))) T##16_u;

#define DEF_VLOAD_N(AS, T, N)                                                  \
  T##N WEFT_OVL vload##N(size_t Offset, const AS T *P) {                       \
    return *(const AS T##N##_u *)(P + Offset * N);                             \
  }
#define DEF_VSTORE_N(AS, T, N)                                                 \
  void WEFT_OVL vstore##N(T##N Data, size_t Offset, AS T *P) {                 \
    *(AS T##N##_u *)(P + Offset * N) = Data;                                   \
  }
#define DEF_VLOAD(AS, T)                                                       \
  DEF_VLOAD_N(AS, T, 2)                                                        \
  DEF_VLOAD_N(AS, T, 4)                                                        \
  DEF_VLOAD_N(AS, T, 8)                                                        \
  DEF_VLOAD_N(AS, T, 16)                                                       \
  T##3 WEFT_OVL vload3(size_t Offset, const AS T *P) {                         \
    P += Offset * 3;                                                           \
    return (T##3)(P[0], P[1], P[2]);                                           \
  }
#define DEF_VSTORE(AS, T)                                                      \
  DEF_VSTORE_N(AS, T, 2)                                                       \
  DEF_VSTORE_N(AS, T, 4)                                                       \
  DEF_VSTORE_N(AS, T, 8)                                                       \
  DEF_VSTORE_N(AS, T, 16)                                                      \
  void WEFT_OVL vstore3(T##3 Data, size_t Offset, AS T *P) {                   \
    P += Offset * 3;                                                           \
    P[0] = Data.x;                                                             \
    P[1] = Data.y;                                                             \
    P[2] = Data.z;                                                             \
  }
#define DEF_VLOAD_VSTORE(T)                                                    \
  DEF_UNALIGNED_TYPES(T)                                                       \
  FOR_ADDRESS_SPACES_LOAD(DEF_VLOAD, T)                                        \
  FOR_ADDRESS_SPACES_STORE(DEF_VSTORE, T)
DEF_VLOAD_VSTORE(char)
DEF_VLOAD_VSTORE(uchar)
DEF_VLOAD_VSTORE(short)
DEF_VLOAD_VSTORE(ushort)
DEF_VLOAD_VSTORE(int)
DEF_VLOAD_VSTORE(uint)
DEF_VLOAD_VSTORE(long)
DEF_VLOAD_VSTORE(ulong)
DEF_VLOAD_VSTORE(float)
DEF_VLOAD_VSTORE(double)

//===----------------------------------------------------------------------===//
// half <-> float conversion of bit patterns
//===----------------------------------------------------------------------===//

// Exponent and mantissa of the half moved into a float's fields give the
// value times 2^-112 (a half denormal becomes a float denormal of the same
// mantissa); one multiply by 2^112 rescales it exactly. Infinity and NaN
// (exponent 31) get the float's all-ones exponent instead.
#define HALF_TO_FLOAT(T, UT, H)                                                \
  ({                                                                           \
    UT Bits = convert_##UT(H);                                                 \
    UT Mag = (Bits & 0x7fffu) << 13;                                           \
    T F = as_##T(Mag) * 0x1p112f;                                              \
    UT Special = (Bits & 0x7c00u) == 0x7c00u ? (UT)0xffffffffu : (UT)0u;       \
    UT R = (as_##UT(F) & ~Special) | ((Mag | 0x7f800000u) & Special);          \
    as_##T(R | ((Bits & 0x8000u) << 16));                                      \
  })
#define DEF_HALF_TO_FLOAT(W)                                                   \
  static inline float##W weft_half_to_float##W(ushort##W H) {                  \
    return HALF_TO_FLOAT(float##W, uint##W, H);                                \
  }
DEF_HALF_TO_FLOAT()
DEF_HALF_TO_FLOAT(2)
DEF_HALF_TO_FLOAT(3)
DEF_HALF_TO_FLOAT(4)
DEF_HALF_TO_FLOAT(8)
DEF_HALF_TO_FLOAT(16)

enum { WeftRTE, WeftRTZ, WeftRTP, WeftRTN };

// Rounds the float or double X (its bits B, unsigned type UB) to a half.
// MB mantissa bits, BIAS exponent bias of the source. The significand with
// its implicit bit is shifted right to the half's 11 bits (more for half
// denormals); the bits shifted out decide the increment by the mode. Adding
// the rounded significand to the exponent field lets a carry move into the
// exponent, up to infinity where rounding away from zero overflows.
#define DEF_TO_HALF(S, UB, MB, BIAS)                                           \
  static inline ushort weft_##S##_to_half(S X, int Mode) {                     \
    UB B = as_##UB(X);                                                         \
    ushort Sign = (ushort)(B >> (sizeof(S) * 8 - 16)) & 0x8000;                \
    UB A = B & (((UB)1 << (sizeof(S) * 8 - 1)) - 1);                           \
    UB Inf = (UB)((1 << (sizeof(S) * 8 - 1 - MB)) - 1) << MB;                  \
    if (A > Inf) /* NaN: quiet, keeping the top payload bits */                \
      return Sign | 0x7e00 | (ushort)((A >> (MB - 10)) & 0x3ff);               \
    int E = (int)(A >> MB) - BIAS;                                             \
    bool Up = Mode == WeftRTP ? !Sign : Mode == WeftRTN ? (bool)Sign : false;  \
    if (A == Inf || E >= 16) /* infinity, or beyond the largest half */        \
      return Sign | (A == Inf || Mode == WeftRTE || Up ? 0x7c00 : 0x7bff);     \
    UB M = A & (((UB)1 << MB) - 1);                                            \
    if (A >> MB)                                                               \
      M |= (UB)1 << MB;                                                        \
    else                                                                       \
      E = 1 - BIAS; /* a denormal source */                                    \
    int Shift = MB - 10 + (E < -14 ? -14 - E : 0);                             \
    UB Keep, Rest, Half;                                                       \
    if (Shift > MB + 1) {                                                      \
      Keep = 0;                                                                \
      Rest = M ? 1 : 0; /* only its being nonzero and below half matters */    \
      Half = 2;                                                                \
    } else {                                                                   \
      Keep = M >> Shift;                                                       \
      Rest = M & (((UB)1 << Shift) - 1);                                       \
      Half = (UB)1 << (Shift - 1);                                             \
    }                                                                          \
    bool Inc = Mode == WeftRTE ? Rest > Half || (Rest == Half && (Keep & 1))   \
               : Up            ? Rest != 0                                     \
                               : false;                                        \
    Keep += Inc;                                                               \
    UB Bits = E < -14 ? Keep : ((UB)(E + 14) << 10) + Keep;                    \
    return Sign | (ushort)Bits;                                                \
  }
DEF_TO_HALF(float, uint, 23, 127)
DEF_TO_HALF(double, ulong, 52, 1023)

//===----------------------------------------------------------------------===//
// vload_half, vstore_half and their n and aligned forms
//===----------------------------------------------------------------------===//

#define DEF_VLOAD_HALF_N(AS, N, STEP, NAME)                                    \
  float##N WEFT_OVL NAME##N(size_t Offset, const AS half *P) {                 \
    const AS ushort *Q = (const AS ushort *)P + Offset * STEP;                 \
    ushort##N H;                                                               \
    for (int I = 0; I < N; ++I)                                                \
      H[I] = Q[I];                                                             \
    return weft_half_to_float##N(H);                                           \
  }
#define DEF_VLOAD_HALF(AS, _)                                                  \
  float WEFT_OVL vload_half(size_t Offset, const AS half *P) {                 \
    return weft_half_to_float(((const AS ushort *)P)[Offset]);                 \
  }                                                                            \
  DEF_VLOAD_HALF_N(AS, 2, 2, vload_half)                                       \
  DEF_VLOAD_HALF_N(AS, 3, 3, vload_half)                                       \
  DEF_VLOAD_HALF_N(AS, 4, 4, vload_half)                                       \
  DEF_VLOAD_HALF_N(AS, 8, 8, vload_half)                                       \
  DEF_VLOAD_HALF_N(AS, 16, 16, vload_half)                                     \
  float WEFT_OVL vloada_half(size_t Offset, const AS half *P) {                \
    return vload_half(Offset, P);                                              \
  }                                                                            \
  DEF_VLOAD_HALF_N(AS, 2, 2, vloada_half)                                      \
  DEF_VLOAD_HALF_N(AS, 3, 4, vloada_half)                                      \
  DEF_VLOAD_HALF_N(AS, 4, 4, vloada_half)                                      \
  DEF_VLOAD_HALF_N(AS, 8, 8, vloada_half)                                      \
  DEF_VLOAD_HALF_N(AS, 16, 16, vloada_half)
FOR_ADDRESS_SPACES_LOAD(DEF_VLOAD_HALF, )

#define DEF_VSTORE_HALF_N(AS, S, N, STEP, NAME, SUFFIX, MODE)                  \
  void WEFT_OVL NAME##N##SUFFIX(S##N Data, size_t Offset, AS half *P) {        \
    AS ushort *Q = (AS ushort *)P + Offset * STEP;                             \
    for (int I = 0; I < N; ++I)                                                \
      Q[I] = weft_##S##_to_half(Data[I], MODE);                                \
  }
#define DEF_VSTORE_HALF_MODE(AS, S, SUFFIX, MODE)                              \
  void WEFT_OVL vstore_half##SUFFIX(S Data, size_t Offset, AS half *P) {       \
    ((AS ushort *)P)[Offset] = weft_##S##_to_half(Data, MODE);                 \
  }                                                                            \
  void WEFT_OVL vstorea_half##SUFFIX(S Data, size_t Offset, AS half *P) {      \
    ((AS ushort *)P)[Offset] = weft_##S##_to_half(Data, MODE);                 \
  }                                                                            \
  DEF_VSTORE_HALF_N(AS, S, 2, 2, vstore_half, SUFFIX, MODE)                    \
  DEF_VSTORE_HALF_N(AS, S, 3, 3, vstore_half, SUFFIX, MODE)                    \
  DEF_VSTORE_HALF_N(AS, S, 4, 4, vstore_half, SUFFIX, MODE)                    \
  DEF_VSTORE_HALF_N(AS, S, 8, 8, vstore_half, SUFFIX, MODE)                    \
  DEF_VSTORE_HALF_N(AS, S, 16, 16, vstore_half, SUFFIX, MODE)                  \
  DEF_VSTORE_HALF_N(AS, S, 2, 2, vstorea_half, SUFFIX, MODE)                   \
  DEF_VSTORE_HALF_N(AS, S, 3, 4, vstorea_half, SUFFIX, MODE)                   \
  DEF_VSTORE_HALF_N(AS, S, 4, 4, vstorea_half, SUFFIX, MODE)                   \
  DEF_VSTORE_HALF_N(AS, S, 8, 8, vstorea_half, SUFFIX, MODE)                   \
  DEF_VSTORE_HALF_N(AS, S, 16, 16, vstorea_half, SUFFIX, MODE)
#define DEF_VSTORE_HALF(AS, S)                                                 \
  DEF_VSTORE_HALF_MODE(AS, S, , WeftRTE)                                       \
  DEF_VSTORE_HALF_MODE(AS, S, _rte, WeftRTE)                                   \
  DEF_VSTORE_HALF_MODE(AS, S, _rtz, WeftRTZ)                                   \
  DEF_VSTORE_HALF_MODE(AS, S, _rtp, WeftRTP)                                   \
  DEF_VSTORE_HALF_MODE(AS, S, _rtn, WeftRTN)
FOR_ADDRESS_SPACES_STORE(DEF_VSTORE_HALF, float)
FOR_ADDRESS_SPACES_STORE(DEF_VSTORE_HALF, double)
