//===- shuffle.cl - shuffle and shuffle2 of the non-half types ------------===//
//
// shuffle(x, mask) picks component mask[i] of x; shuffle2(x, y, mask) picks
// it from the concatenation x, y. The mask is the unsigned integer vector
// whose elements have the size of x's; only its low log2(m) bits (log2(2m)
// for shuffle2) count, m being the width of x, so masks with garbage in the
// high bits are valid (OpenCL C 1.2 section 6.12.12). The half overloads
// are in half.cl.
//
// The mask is a run-time value, so these are per-component loops; with a
// constant mask, LLVM folds the inlined loop into a shufflevector.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

// T: element type, U: the mask's element type, M: width of x, N: width of
// the result and of the mask.
#define DEF_SHUFFLE(T, U, M, N)                                                \
  T##N WEFT_OVL shuffle(T##M X, U##N Mask) {                                   \
    T##N R;                                                                    \
    for (int K = 0; K < N; ++K)                                                \
      R[K] = X[Mask[K] & (M - 1)];                                             \
    return R;                                                                  \
  }                                                                            \
  T##N WEFT_OVL shuffle2(T##M X, T##M Y, U##N Mask) {                          \
    T##N R;                                                                    \
    for (int K = 0; K < N; ++K) {                                              \
      /* Bit log2(m) of the mask chooses the operand. */                       \
      U J = Mask[K];                                                           \
      R[K] = (J & M) ? Y[J & (M - 1)] : X[J & (M - 1)];                        \
    }                                                                          \
    return R;                                                                  \
  }
#define DEF_SHUFFLE_OUT(T, U, M)                                               \
  DEF_SHUFFLE(T, U, M, 2)                                                      \
  DEF_SHUFFLE(T, U, M, 4) DEF_SHUFFLE(T, U, M, 8) DEF_SHUFFLE(T, U, M, 16)
#define DEF_SHUFFLES(T, U)                                                     \
  DEF_SHUFFLE_OUT(T, U, 2)                                                     \
  DEF_SHUFFLE_OUT(T, U, 4) DEF_SHUFFLE_OUT(T, U, 8) DEF_SHUFFLE_OUT(T, U, 16)

DEF_SHUFFLES(char, uchar)
DEF_SHUFFLES(uchar, uchar)
DEF_SHUFFLES(short, ushort)
DEF_SHUFFLES(ushort, ushort)
DEF_SHUFFLES(int, uint)
DEF_SHUFFLES(uint, uint)
DEF_SHUFFLES(float, uint)
DEF_SHUFFLES(long, ulong)
DEF_SHUFFLES(ulong, ulong)
DEF_SHUFFLES(double, ulong)
