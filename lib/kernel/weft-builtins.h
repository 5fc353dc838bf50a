//===- weft-builtins.h - Shared macros of the builtin library -------------===//
//
// The builtin sources are compiled with the full opencl-c.h declarations
// (-cl-no-stdinc -Xclang -finclude-default-header: without the driver's
// -fdeclare-opencl-builtins), so every
// definition here is checked against the prototype the kernels call: a typo
// in a type list becomes a compile error instead of a missing symbol.
//
// The type-list macros call M(Type, ScalarType, Width) for each width the
// OpenCL C specification defines (1, 2, 3, 4, 8, 16).
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_BUILTINS_H
#define WEFT_BUILTINS_H

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define WEFT_OVL __attribute__((overloadable))

#define WEFT_WIDTHS(M, S)                                                      \
  M(S, S, 1) M(S##2, S, 2) M(S##3, S, 3) M(S##4, S, 4) M(S##8, S, 8)          \
      M(S##16, S, 16)

#define WEFT_FLOAT_TYPES(M) WEFT_WIDTHS(M, float) WEFT_WIDTHS(M, double)
#define WEFT_SINGLE_TYPES(M) WEFT_WIDTHS(M, float)
#define WEFT_INTEGER_TYPES(M)                                                  \
  WEFT_WIDTHS(M, char)                                                         \
  WEFT_WIDTHS(M, uchar) WEFT_WIDTHS(M, short) WEFT_WIDTHS(M, ushort)           \
      WEFT_WIDTHS(M, int) WEFT_WIDTHS(M, uint) WEFT_WIDTHS(M, long)            \
          WEFT_WIDTHS(M, ulong)

// Only the vector forms have an overload taking a scalar second operand.
#define WEFT_IF_VECTOR_1(...)
#define WEFT_IF_VECTOR_2(...) __VA_ARGS__
#define WEFT_IF_VECTOR_3(...) __VA_ARGS__
#define WEFT_IF_VECTOR_4(...) __VA_ARGS__
#define WEFT_IF_VECTOR_8(...) __VA_ARGS__
#define WEFT_IF_VECTOR_16(...) __VA_ARGS__
#define WEFT_IF_VECTOR(N, ...) WEFT_IF_VECTOR_##N(__VA_ARGS__)
#define WEFT_IF_SCALAR_1(...) __VA_ARGS__
#define WEFT_IF_SCALAR_2(...)
#define WEFT_IF_SCALAR_3(...)
#define WEFT_IF_SCALAR_4(...)
#define WEFT_IF_SCALAR_8(...)
#define WEFT_IF_SCALAR_16(...)
#define WEFT_IF_SCALAR(N, ...) WEFT_IF_SCALAR_##N(__VA_ARGS__)

// WEFT_SUFFIX(int, 4) is int4, WEFT_SUFFIX(int, 1) is int.
#define WEFT_SUFFIX_1(T) T
#define WEFT_SUFFIX_2(T) T##2
#define WEFT_SUFFIX_3(T) T##3
#define WEFT_SUFFIX_4(T) T##4
#define WEFT_SUFFIX_8(T) T##8
#define WEFT_SUFFIX_16(T) T##16
#define WEFT_SUFFIX(T, N) WEFT_SUFFIX_##N(T)

#endif // WEFT_BUILTINS_H
