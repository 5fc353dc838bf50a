//===- generic.cl - Builtins taking generic pointers (OpenCL C 3.0) -------===//
//
// With __opencl_c_generic_address_space, opencl-c.h declares every builtin
// that takes a pointer with a __generic one instead of the __global,
// __local and __private ones: the math functions with a pointer result,
// vloadn/vstoren, vload_half/vstore_half and their forms, and the C11-style
// atomics (besides their __global and __local forms, which 3.0 always
// declares). Kernels built with the feature, and SPIR-V modules, call
// these. Compiled as OpenCL C 3.0 with the feature and with
// __opencl_c_named_address_space_builtins defined too, so that the named
// overloads the other files define are declared here and can be called.
//
// A generic pointer is a plain address on the CPU: every address space is
// the same memory, and the cast to __generic and back compiles to nothing.
// So the loads, stores and atomic instructions go through it directly. The
// math and half conversions are the private overloads (libm.cl, half.cl,
// vload.cl) on a private copy, moved through the pointer afterwards;
// inlined, the copy disappears.
//
// get_fence, to_global, to_local and to_private are the compiler's.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define WEFT_HALF_TYPES(M) WEFT_WIDTHS(M, half)

//===----------------------------------------------------------------------===//
// Math functions with a pointer result
//===----------------------------------------------------------------------===//

// T NAME(T x, __generic P *out): O is private, so NAME(X, &O) is the
// __private overload, not this one.
#define DEF_PTR1(NAME, T, P)                                                   \
  T WEFT_OVL NAME(T X, __generic P *Out) {                                     \
    P O;                                                                       \
    T R = NAME(X, &O);                                                         \
    *Out = O;                                                                  \
    return R;                                                                  \
  }
#define DEF_PTR2(NAME, T, P)                                                   \
  T WEFT_OVL NAME(T X, T Y, __generic P *Out) {                                \
    P O;                                                                       \
    T R = NAME(X, Y, &O);                                                      \
    *Out = O;                                                                  \
    return R;                                                                  \
  }
#define DEF_MATH_POINTER(T, S, N)                                              \
  DEF_PTR1(fract, T, T)                                                        \
  DEF_PTR1(modf, T, T)                                                         \
  DEF_PTR1(sincos, T, T)                                                       \
  DEF_PTR1(frexp, T, WEFT_SUFFIX(int, N))                                      \
  DEF_PTR1(lgamma_r, T, WEFT_SUFFIX(int, N))                                   \
  DEF_PTR2(remquo, T, WEFT_SUFFIX(int, N))
WEFT_FLOAT_TYPES(DEF_MATH_POINTER)
WEFT_HALF_TYPES(DEF_MATH_POINTER)

//===----------------------------------------------------------------------===//
// vloadn, vstoren
//===----------------------------------------------------------------------===//

// As in vload.cl: one vector access aligned only to the element, and the
// 3-element forms by component (they touch exactly three elements).
#define DEF_VLOAD_VSTORE_N(T, N)                                               \
  typedef T##N __attribute__((aligned(sizeof(T)))) weft_generic_##T##N;       \
  T##N WEFT_OVL vload##N(size_t Offset, const __generic T *P) {                \
    return *(const __generic weft_generic_##T##N *)(P + Offset * N);           \
  }                                                                            \
  void WEFT_OVL vstore##N(T##N Data, size_t Offset, __generic T *P) {          \
    *(__generic weft_generic_##T##N *)(P + Offset * N) = Data;                 \
  }
#define DEF_VLOAD_VSTORE(T)                                                    \
  DEF_VLOAD_VSTORE_N(T, 2)                                                     \
  DEF_VLOAD_VSTORE_N(T, 4)                                                     \
  DEF_VLOAD_VSTORE_N(T, 8)                                                     \
  DEF_VLOAD_VSTORE_N(T, 16)                                                    \
  T##3 WEFT_OVL vload3(size_t Offset, const __generic T *P) {                  \
    P += Offset * 3;                                                           \
    return (T##3)(P[0], P[1], P[2]);                                           \
  }                                                                            \
  void WEFT_OVL vstore3(T##3 Data, size_t Offset, __generic T *P) {            \
    P += Offset * 3;                                                           \
    P[0] = Data.x;                                                             \
    P[1] = Data.y;                                                             \
    P[2] = Data.z;                                                             \
  }
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
DEF_VLOAD_VSTORE(half)

//===----------------------------------------------------------------------===//
// vload_half, vloada_half, vstore_half, vstorea_half
//===----------------------------------------------------------------------===//

// The N halves at P + Offset * STEP are copied as bits to a private array
// and converted there by the private overload at offset 0 (which touches
// exactly N halves, also for the aligned 3-element forms whose STEP is 4).
// SUFFIX is the width in the name: empty for the scalar forms.
#define DEF_VLOAD_HALF_N(NAME, SUFFIX, N, STEP)                                \
  float##SUFFIX WEFT_OVL NAME##SUFFIX(size_t Offset, const __generic half *P) { \
    const __generic ushort *Q = (const __generic ushort *)P + Offset * STEP;   \
    ushort Bits[N];                                                            \
    for (int I = 0; I < N; ++I)                                                \
      Bits[I] = Q[I];                                                          \
    return NAME##SUFFIX(0, (const __private half *)Bits);                      \
  }
#define DEF_VSTORE_HALF_N(S, NAME, SUFFIX, N, STEP, MODE)                      \
  void WEFT_OVL NAME##SUFFIX##MODE(S##SUFFIX Data, size_t Offset,              \
                                   __generic half *P) {                        \
    ushort Bits[N];                                                            \
    NAME##SUFFIX##MODE(Data, 0, (__private half *)Bits);                       \
    __generic ushort *Q = (__generic ushort *)P + Offset * STEP;               \
    for (int I = 0; I < N; ++I)                                                \
      Q[I] = Bits[I];                                                          \
  }
// M(NAME, SUFFIX, N, STEP, ...) for each width of vload_half (STEP N) and
// vloada_half (STEP 4 for 3 elements).
#define FOR_HALF_WIDTHS(M, ...)                                                \
  M(vload_half, , 1, 1, __VA_ARGS__)                                           \
  M(vload_half, 2, 2, 2, __VA_ARGS__)                                          \
  M(vload_half, 3, 3, 3, __VA_ARGS__)                                          \
  M(vload_half, 4, 4, 4, __VA_ARGS__)                                          \
  M(vload_half, 8, 8, 8, __VA_ARGS__)                                          \
  M(vload_half, 16, 16, 16, __VA_ARGS__)                                       \
  M(vloada_half, , 1, 1, __VA_ARGS__)                                          \
  M(vloada_half, 2, 2, 2, __VA_ARGS__)                                         \
  M(vloada_half, 3, 3, 4, __VA_ARGS__)                                         \
  M(vloada_half, 4, 4, 4, __VA_ARGS__)                                         \
  M(vloada_half, 8, 8, 8, __VA_ARGS__)                                         \
  M(vloada_half, 16, 16, 16, __VA_ARGS__)
#define DEF_VLOAD_HALF(NAME, SUFFIX, N, STEP, _)                               \
  DEF_VLOAD_HALF_N(NAME, SUFFIX, N, STEP)
FOR_HALF_WIDTHS(DEF_VLOAD_HALF, )
// vload_half -> vstore_half, vloada_half -> vstorea_half.
#define STORE_NAME_vload_half vstore_half
#define STORE_NAME_vloada_half vstorea_half
#define DEF_VSTORE_HALF_MODES(NAME, SUFFIX, N, STEP, S)                        \
  DEF_VSTORE_HALF_EXPAND(S, STORE_NAME_##NAME, SUFFIX, N, STEP)
#define DEF_VSTORE_HALF_EXPAND(S, NAME, SUFFIX, N, STEP)                       \
  DEF_VSTORE_HALF_N(S, NAME, SUFFIX, N, STEP, )                                \
  DEF_VSTORE_HALF_N(S, NAME, SUFFIX, N, STEP, _rte)                            \
  DEF_VSTORE_HALF_N(S, NAME, SUFFIX, N, STEP, _rtz)                            \
  DEF_VSTORE_HALF_N(S, NAME, SUFFIX, N, STEP, _rtp)                            \
  DEF_VSTORE_HALF_N(S, NAME, SUFFIX, N, STEP, _rtn)
FOR_HALF_WIDTHS(DEF_VSTORE_HALF_MODES, float)
FOR_HALF_WIDTHS(DEF_VSTORE_HALF_MODES, double)

//===----------------------------------------------------------------------===//
// The C11-style atomics
//===----------------------------------------------------------------------===//

// As atomics.cl does for __global and __local: clang's __c11_atomic
// builtins, real atomic instructions on the address; every scope is served
// by the same instructions, so the scope argument is ignored.
#define SEQ __ATOMIC_SEQ_CST

#define DEF_C11_CMPXCHG(A, T, KIND)                                            \
  bool WEFT_OVL atomic_compare_exchange_##KIND(volatile __generic A *P,        \
                                               __generic T *E, T D) {          \
    T X = *E;                                                                  \
    bool R = __c11_atomic_compare_exchange_##KIND(P, &X, D, SEQ, SEQ);         \
    *E = X;                                                                    \
    return R;                                                                  \
  }                                                                            \
  bool WEFT_OVL atomic_compare_exchange_##KIND##_explicit(                     \
      volatile __generic A *P, __generic T *E, T D, memory_order OS,           \
      memory_order OF) {                                                       \
    T X = *E;                                                                  \
    bool R = __c11_atomic_compare_exchange_##KIND(P, &X, D, OS, OF);           \
    *E = X;                                                                    \
    return R;                                                                  \
  }                                                                            \
  bool WEFT_OVL atomic_compare_exchange_##KIND##_explicit(                     \
      volatile __generic A *P, __generic T *E, T D, memory_order OS,           \
      memory_order OF, memory_scope S) {                                       \
    T X = *E;                                                                  \
    bool R = __c11_atomic_compare_exchange_##KIND(P, &X, D, OS, OF);           \
    *E = X;                                                                    \
    return R;                                                                  \
  }
#define DEF_C11_LOAD_STORE(A, T)                                               \
  void WEFT_OVL atomic_init(volatile __generic A *P, T V) {                    \
    __c11_atomic_init(P, V);                                                   \
  }                                                                            \
  void WEFT_OVL atomic_store(volatile __generic A *P, T V) {                   \
    __c11_atomic_store(P, V, SEQ);                                             \
  }                                                                            \
  void WEFT_OVL atomic_store_explicit(volatile __generic A *P, T V,            \
                                      memory_order O) {                        \
    __c11_atomic_store(P, V, O);                                               \
  }                                                                            \
  void WEFT_OVL atomic_store_explicit(volatile __generic A *P, T V,            \
                                      memory_order O, memory_scope S) {        \
    __c11_atomic_store(P, V, O);                                               \
  }                                                                            \
  T WEFT_OVL atomic_load(volatile __generic A *P) {                            \
    return __c11_atomic_load(P, SEQ);                                          \
  }                                                                            \
  T WEFT_OVL atomic_load_explicit(volatile __generic A *P, memory_order O) {   \
    return __c11_atomic_load(P, O);                                            \
  }                                                                            \
  T WEFT_OVL atomic_load_explicit(volatile __generic A *P, memory_order O,     \
                                  memory_scope S) {                            \
    return __c11_atomic_load(P, O);                                            \
  }                                                                            \
  T WEFT_OVL atomic_exchange(volatile __generic A *P, T V) {                   \
    return __c11_atomic_exchange(P, V, SEQ);                                   \
  }                                                                            \
  T WEFT_OVL atomic_exchange_explicit(volatile __generic A *P, T V,            \
                                      memory_order O) {                        \
    return __c11_atomic_exchange(P, V, O);                                     \
  }                                                                            \
  T WEFT_OVL atomic_exchange_explicit(volatile __generic A *P, T V,            \
                                      memory_order O, memory_scope S) {        \
    return __c11_atomic_exchange(P, V, O);                                     \
  }                                                                            \
  DEF_C11_CMPXCHG(A, T, strong)                                                \
  DEF_C11_CMPXCHG(A, T, weak)

// fetch_<op> of atomic type A with an operand of type V (the same integer
// type, or long for the uintptr_t forms of add and sub).
#define DEF_C11_FETCH_OP(A, T, V, OP)                                          \
  T WEFT_OVL atomic_fetch_##OP(volatile __generic A *P, V X) {                 \
    return __c11_atomic_fetch_##OP(P, (T)X, SEQ);                              \
  }                                                                            \
  T WEFT_OVL atomic_fetch_##OP##_explicit(volatile __generic A *P, V X,        \
                                          memory_order O) {                    \
    return __c11_atomic_fetch_##OP(P, (T)X, O);                                \
  }                                                                            \
  T WEFT_OVL atomic_fetch_##OP##_explicit(volatile __generic A *P, V X,        \
                                          memory_order O, memory_scope S) {    \
    return __c11_atomic_fetch_##OP(P, (T)X, O);                                \
  }
#define DEF_C11_FETCH(A, T)                                                    \
  DEF_C11_FETCH_OP(A, T, T, add)                                               \
  DEF_C11_FETCH_OP(A, T, T, sub)                                               \
  DEF_C11_FETCH_OP(A, T, T, or)                                                \
  DEF_C11_FETCH_OP(A, T, T, xor)                                               \
  DEF_C11_FETCH_OP(A, T, T, and)                                               \
  DEF_C11_FETCH_OP(A, T, T, min)                                               \
  DEF_C11_FETCH_OP(A, T, T, max)

DEF_C11_LOAD_STORE(atomic_int, int)
DEF_C11_LOAD_STORE(atomic_uint, uint)
DEF_C11_LOAD_STORE(atomic_long, long)
DEF_C11_LOAD_STORE(atomic_ulong, ulong)
DEF_C11_LOAD_STORE(atomic_float, float)
DEF_C11_LOAD_STORE(atomic_double, double)
DEF_C11_FETCH(atomic_int, int)
DEF_C11_FETCH(atomic_uint, uint)
DEF_C11_FETCH(atomic_long, long)
DEF_C11_FETCH(atomic_ulong, ulong)
DEF_C11_FETCH_OP(atomic_ulong, ulong, long, add)
DEF_C11_FETCH_OP(atomic_ulong, ulong, long, sub)

// atomic_flag is an atomic_int holding 0 or 1.
bool WEFT_OVL atomic_flag_test_and_set(volatile __generic atomic_flag *P) {
  return __c11_atomic_exchange((volatile __generic atomic_int *)P, 1, SEQ);
}
bool WEFT_OVL atomic_flag_test_and_set_explicit(
    volatile __generic atomic_flag *P, memory_order O) {
  return __c11_atomic_exchange((volatile __generic atomic_int *)P, 1, O);
}
bool WEFT_OVL atomic_flag_test_and_set_explicit(
    volatile __generic atomic_flag *P, memory_order O, memory_scope S) {
  return __c11_atomic_exchange((volatile __generic atomic_int *)P, 1, O);
}
void WEFT_OVL atomic_flag_clear(volatile __generic atomic_flag *P) {
  __c11_atomic_store((volatile __generic atomic_int *)P, 0, SEQ);
}
void WEFT_OVL atomic_flag_clear_explicit(volatile __generic atomic_flag *P,
                                         memory_order O) {
  __c11_atomic_store((volatile __generic atomic_int *)P, 0, O);
}
void WEFT_OVL atomic_flag_clear_explicit(volatile __generic atomic_flag *P,
                                         memory_order O, memory_scope S) {
  __c11_atomic_store((volatile __generic atomic_int *)P, 0, O);
}
