//===- integer.cl - Integer builtins (OpenCL C 1.2 section 6.12.3) --------===//
//
// Every function exists for char, uchar, short, ushort, int, uint, long and
// ulong, scalar and vectors of 2, 3, 4, 8 and 16.
//
// Vectors are computed as vectors wherever OpenCL C's operators or clang's
// elementwise builtins express the function (LLVM matches the rotate
// pattern to fshl and the saturating builtins are [su]add.sat); the bit
// counts go component by component through clang's type-generic builtins.
// (LLVM intrinsics cannot be declared here under asm labels: vectors wider
// than the target's registers would be passed in memory by the C ABI.)
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

// FOR_WIDTHS(M, ...) calls M(Suffix, ...) for scalars (empty suffix) and
// every vector width.
#define FOR_WIDTHS(M, ...)                                                     \
  M(, __VA_ARGS__)                                                             \
  M(2, __VA_ARGS__)                                                            \
  M(3, __VA_ARGS__)                                                            \
  M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)
#define FOR_VECTOR_WIDTHS(M, ...)                                              \
  M(2, __VA_ARGS__)                                                            \
  M(3, __VA_ARGS__)                                                            \
  M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)

// Bit counts of scalars through clang's type-generic builtins (which do
// not promote), vectors component by component: the SLP vectorizer turns
// the unrolled loop into one vector ctpop/ctlz where the target has it.
#define DEF_SCALAR_BITS(T, U, B)                                               \
  T WEFT_OVL popcount(T X) { return (T)__builtin_popcountg((U)X); }            \
  T WEFT_OVL clz(T X) { return (T)__builtin_clzg((U)X, B); }                   \
  T WEFT_OVL ctz(T X) { return (T)__builtin_ctzg((U)X, B); }
#define DEF_VECTOR_BITS(W, T)                                                  \
  T##W WEFT_OVL popcount(T##W X) {                                             \
    T##W R;                                                                    \
    for (int I = 0; I < W; ++I)                                                \
      R[I] = popcount(X[I]);                                                   \
    return R;                                                                  \
  }                                                                            \
  T##W WEFT_OVL clz(T##W X) {                                                  \
    T##W R;                                                                    \
    for (int I = 0; I < W; ++I)                                                \
      R[I] = clz(X[I]);                                                        \
    return R;                                                                  \
  }                                                                            \
  T##W WEFT_OVL ctz(T##W X) {                                                  \
    T##W R;                                                                    \
    for (int I = 0; I < W; ++I)                                                \
      R[I] = ctz(X[I]);                                                        \
    return R;                                                                  \
  }

// add_sat and sub_sat: clang 19's elementwise builtins promote scalar chars
// and shorts to int (saturating at the wrong width), so those two compute
// in int and clamp; wider scalars and all vectors use the builtin, which
// is LLVM's [su]add.sat / [su]sub.sat.
#define DEF_SCALAR_SAT_NARROW(T)                                               \
  T WEFT_OVL add_sat(T X, T Y) {                                               \
    return (T)__builtin_elementwise_min(                                       \
        __builtin_elementwise_max((int)X + (int)Y, (int)T##_MIN_),             \
        (int)T##_MAX_);                                                        \
  }                                                                            \
  T WEFT_OVL sub_sat(T X, T Y) {                                               \
    return (T)__builtin_elementwise_min(                                       \
        __builtin_elementwise_max((int)X - (int)Y, (int)T##_MIN_),             \
        (int)T##_MAX_);                                                        \
  }
#define DEF_SAT(W, T)                                                          \
  T##W WEFT_OVL add_sat(T##W X, T##W Y) {                                      \
    return __builtin_elementwise_add_sat(X, Y);                                \
  }                                                                            \
  T##W WEFT_OVL sub_sat(T##W X, T##W Y) {                                      \
    return __builtin_elementwise_sub_sat(X, Y);                                \
  }

// Functions of the bit pattern or of plain arithmetic, for T in {S, U}.
#define DEF_BITS(W, T, U, B)                                                   \
  /* The shift counts are reduced modulo B first: a scalar char is        */  \
  /* promoted to int, whose shifts would reduce modulo 32 instead.        */  \
  T##W WEFT_OVL rotate(T##W V, T##W I) {                                       \
    U##W X = as_##U##W(V), N = as_##U##W(I) & (U)(B - 1);                      \
    return as_##T##W((U##W)((X << N) | (X >> (((U)B - N) & (U)(B - 1)))));     \
  }                                                                            \
  /* (X + Y) >> 1 and (X + Y + 1) >> 1 without the overflowing sum; the     */ \
  /* arithmetic shift of the signed types floors like the wide sum would.   */ \
  T##W WEFT_OVL hadd(T##W X, T##W Y) {                                         \
    return (X >> 1) + (Y >> 1) + (X & Y & (T)1);                               \
  }                                                                            \
  T##W WEFT_OVL rhadd(T##W X, T##W Y) {                                        \
    return (X >> 1) + (Y >> 1) + ((X | Y) & (T)1);                             \
  }                                                                            \
  /* The difference of max and min is below 2^B: the unsigned wrap of the  */ \
  /* subtraction is exact.                                                  */ \
  U##W WEFT_OVL abs_diff(T##W X, T##W Y) {                                     \
    return as_##U##W((T##W)__builtin_elementwise_max(X, Y)) -                  \
           as_##U##W((T##W)__builtin_elementwise_min(X, Y));                   \
  }                                                                            \
  T##W WEFT_OVL mad_hi(T##W A, T##W B2, T##W C) { return mul_hi(A, B2) + C; }

// mul_hi and mad_sat of the 8, 16 and 32-bit types compute in the next
// wider type T2, where the product and the sum are exact.
#define DEF_NARROW(W, T, T2, B)                                             \
  T##W WEFT_OVL mul_hi(T##W X, T##W Y) {                                       \
    return convert_##T##W((convert_##T2##W(X) * convert_##T2##W(Y)) >> B);     \
  }                                                                            \
  T##W WEFT_OVL mad_sat(T##W A, T##W B2, T##W C) {                             \
    T2##W R = convert_##T2##W(A) * convert_##T2##W(B2) + convert_##T2##W(C);    \
    return convert_##T##W(__builtin_elementwise_min(                           \
        __builtin_elementwise_max(R, (T2##W)(T##_MIN_)), (T2##W)(T##_MAX_)));  \
  }

// The limits under the type's own name, for the token pasting above.
#define char_MIN_ CHAR_MIN
#define char_MAX_ CHAR_MAX
#define uchar_MIN_ 0
#define uchar_MAX_ UCHAR_MAX
#define short_MIN_ SHRT_MIN
#define short_MAX_ SHRT_MAX
#define ushort_MIN_ 0
#define ushort_MAX_ USHRT_MAX
#define int_MIN_ INT_MIN
#define int_MAX_ INT_MAX
#define uint_MIN_ 0
#define uint_MAX_ UINT_MAX

// 64-bit: the high half of the 128-bit product from 32-bit limbs, on whole
// vectors. The signed product's high half is the unsigned one minus the
// other operand wherever an operand is negative.
#define DEF_WIDE(W, _)                                                      \
  ulong##W WEFT_OVL mul_hi(ulong##W X, ulong##W Y) {                           \
    ulong##W XL = X & 0xffffffffUL, XH = X >> 32;                              \
    ulong##W YL = Y & 0xffffffffUL, YH = Y >> 32;                              \
    ulong##W LL = XL * YL, HL = XH * YL, LH = XL * YH, HH = XH * YH;           \
    ulong##W Mid = HL + (LL >> 32);                                            \
    ulong##W Mid2 = (Mid & 0xffffffffUL) + LH;                                 \
    return HH + (Mid >> 32) + (Mid2 >> 32);                                    \
  }                                                                            \
  long##W WEFT_OVL mul_hi(long##W X, long##W Y) {                              \
    ulong##W H = mul_hi(as_ulong##W(X), as_ulong##W(Y));                       \
    H -= X < 0 ? as_ulong##W(Y) : (ulong##W)0;                                 \
    H -= Y < 0 ? as_ulong##W(X) : (ulong##W)0;                                 \
    return as_long##W(H);                                                      \
  }                                                                            \
  ulong##W WEFT_OVL mad_sat(ulong##W A, ulong##W B, ulong##W C) {              \
    return mul_hi(A, B) != 0 ? (ulong##W)ULONG_MAX : add_sat(A * B, C);        \
  }                                                                            \
  /* The 128-bit sum (Hi, Lo) = A * B + C fits in 64 bits exactly when Hi  */  \
  /* is the sign extension of Lo.                                           */ \
  long##W WEFT_OVL mad_sat(long##W A, long##W B, long##W C) {                  \
    long##W Hi = mul_hi(A, B);                                                 \
    ulong##W Lo = as_ulong##W(A * B);                                          \
    ulong##W Sum = Lo + as_ulong##W(C);                                        \
    Hi += (C < 0 ? (long##W)-1 : (long##W)0) +                                 \
          (Sum < Lo ? (long##W)1 : (long##W)0);                                \
    long##W R = as_long##W(Sum);                                               \
    return Hi == (R >> 63) ? R : Hi < 0 ? (long##W)LONG_MIN : (long##W)LONG_MAX; \
  }

// upsample(Hi, Lo) = Hi << bits(Lo) | Lo, in the type twice as wide.
#define DEF_UPSAMPLE(W, T, UT, T2, B)                                       \
  T2##W WEFT_OVL upsample(T##W Hi, UT##W Lo) {                                 \
    return (convert_##T2##W(Hi) << B) | convert_##T2##W(Lo);                   \
  }

// mul24 and mad24 take operands that fit in 24 bits (the result is
// undefined otherwise), so the full 32-bit product is a valid answer.
#define DEF_24(W, T)                                                        \
  T##W WEFT_OVL mul24(T##W X, T##W Y) { return X * Y; }                        \
  T##W WEFT_OVL mad24(T##W X, T##W Y, T##W Z) { return X * Y + Z; }

#define DEF_TYPE_PAIR(S, U, B)                                                 \
  DEF_SCALAR_BITS(S, U, B)                                                     \
  DEF_SCALAR_BITS(U, U, B)                                                     \
  FOR_VECTOR_WIDTHS(DEF_VECTOR_BITS, S)                                        \
  FOR_VECTOR_WIDTHS(DEF_VECTOR_BITS, U)                                        \
  FOR_WIDTHS(DEF_BITS, S, U, B)                                                \
  FOR_WIDTHS(DEF_BITS, U, U, B)

// mul_hi first: mad_hi and mad_sat call it.
FOR_WIDTHS(DEF_NARROW, char, short, 8)
FOR_WIDTHS(DEF_NARROW, uchar, ushort, 8)
FOR_WIDTHS(DEF_NARROW, short, int, 16)
FOR_WIDTHS(DEF_NARROW, ushort, uint, 16)
FOR_WIDTHS(DEF_NARROW, int, long, 32)
FOR_WIDTHS(DEF_NARROW, uint, ulong, 32)

DEF_SCALAR_SAT_NARROW(char)
DEF_SCALAR_SAT_NARROW(uchar)
DEF_SCALAR_SAT_NARROW(short)
DEF_SCALAR_SAT_NARROW(ushort)
FOR_VECTOR_WIDTHS(DEF_SAT, char)
FOR_VECTOR_WIDTHS(DEF_SAT, uchar)
FOR_VECTOR_WIDTHS(DEF_SAT, short)
FOR_VECTOR_WIDTHS(DEF_SAT, ushort)
FOR_WIDTHS(DEF_SAT, int)
FOR_WIDTHS(DEF_SAT, uint)
FOR_WIDTHS(DEF_SAT, long)
FOR_WIDTHS(DEF_SAT, ulong)

DEF_TYPE_PAIR(char, uchar, 8)
DEF_TYPE_PAIR(short, ushort, 16)
DEF_TYPE_PAIR(int, uint, 32)
DEF_TYPE_PAIR(long, ulong, 64)
FOR_WIDTHS(DEF_WIDE, )

FOR_WIDTHS(DEF_UPSAMPLE, char, uchar, short, 8)
FOR_WIDTHS(DEF_UPSAMPLE, uchar, uchar, ushort, 8)
FOR_WIDTHS(DEF_UPSAMPLE, short, ushort, int, 16)
FOR_WIDTHS(DEF_UPSAMPLE, ushort, ushort, uint, 16)
FOR_WIDTHS(DEF_UPSAMPLE, int, uint, long, 32)
FOR_WIDTHS(DEF_UPSAMPLE, uint, uint, ulong, 32)

FOR_WIDTHS(DEF_24, int)
FOR_WIDTHS(DEF_24, uint)
