//===- atomics.cl - Atomic functions (OpenCL C 1.2 6.12.11, 3.0 6.15.12) --===//
//
// Compiled as OpenCL C 3.0 (the C11-style atomics exist only there) with
// the features Weft's CPU devices claim: orders relaxed to seq_cst, scopes
// up to all devices, 64-bit atomics; no generic address space, so every
// function exists for __global and __local objects.
//
// All of them are clang's __atomic / __c11_atomic builtins, i.e. real LLVM
// atomic instructions: work-groups run on different threads. Scopes need
// no code on a CPU whose memory is coherent: every scope is served by the
// same instructions. The 1.2 functions (atomic_*, atom_*) are sequentially
// consistent, which costs nothing extra on x86 (lock-prefixed RMWs) and
// keeps programs that pair them with mem_fence correct.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define SEQ __ATOMIC_SEQ_CST

//===----------------------------------------------------------------------===//
// OpenCL C 1.2: atomic_* (32-bit) and atom_* (32 and 64-bit)
//===----------------------------------------------------------------------===//

#define DEF_LEGACY(PREFIX, AS, T)                                              \
  T WEFT_OVL PREFIX##add(volatile AS T *P, T V) {                              \
    return __atomic_fetch_add(P, V, SEQ);                                      \
  }                                                                            \
  T WEFT_OVL PREFIX##sub(volatile AS T *P, T V) {                              \
    return __atomic_fetch_sub(P, V, SEQ);                                      \
  }                                                                            \
  T WEFT_OVL PREFIX##xchg(volatile AS T *P, T V) {                             \
    return __atomic_exchange_n(P, V, SEQ);                                     \
  }                                                                            \
  T WEFT_OVL PREFIX##inc(volatile AS T *P) {                                   \
    return __atomic_fetch_add(P, (T)1, SEQ);                                   \
  }                                                                            \
  T WEFT_OVL PREFIX##dec(volatile AS T *P) {                                   \
    return __atomic_fetch_sub(P, (T)1, SEQ);                                   \
  }                                                                            \
  T WEFT_OVL PREFIX##cmpxchg(volatile AS T *P, T Cmp, T V) {                   \
    __atomic_compare_exchange_n(P, &Cmp, V, false, SEQ, SEQ);                  \
    return Cmp;                                                                \
  }                                                                            \
  T WEFT_OVL PREFIX##min(volatile AS T *P, T V) {                              \
    return __atomic_fetch_min(P, V, SEQ);                                      \
  }                                                                            \
  T WEFT_OVL PREFIX##max(volatile AS T *P, T V) {                              \
    return __atomic_fetch_max(P, V, SEQ);                                      \
  }                                                                            \
  T WEFT_OVL PREFIX##and(volatile AS T *P, T V) {                              \
    return __atomic_fetch_and(P, V, SEQ);                                      \
  }                                                                            \
  T WEFT_OVL PREFIX##or(volatile AS T *P, T V) {                               \
    return __atomic_fetch_or(P, V, SEQ);                                       \
  }                                                                            \
  T WEFT_OVL PREFIX##xor(volatile AS T *P, T V) {                              \
    return __atomic_fetch_xor(P, V, SEQ);                                      \
  }
#define DEF_LEGACY_AS(AS)                                                      \
  DEF_LEGACY(atomic_, AS, int)                                                 \
  DEF_LEGACY(atomic_, AS, uint)                                                \
  DEF_LEGACY(atom_, AS, int)                                                   \
  DEF_LEGACY(atom_, AS, uint)                                                  \
  DEF_LEGACY(atom_, AS, long)                                                  \
  DEF_LEGACY(atom_, AS, ulong)                                                 \
  float WEFT_OVL atomic_xchg(volatile AS float *P, float V) {                  \
    return as_float(__atomic_exchange_n((volatile AS uint *)P, as_uint(V),     \
                                        SEQ));                                 \
  }
DEF_LEGACY_AS(__global)
DEF_LEGACY_AS(__local)

//===----------------------------------------------------------------------===//
// OpenCL C 3.0: the C11-style atomics
//===----------------------------------------------------------------------===//

// Every function in its three spellings: implicit seq_cst and device scope,
// an explicit order, an explicit order and scope (ignored, see above).
#define DEF_C11_LOAD_STORE(AS, A, T)                                           \
  void WEFT_OVL atomic_init(volatile AS A *P, T V) { __c11_atomic_init(P, V); } \
  void WEFT_OVL atomic_store(volatile AS A *P, T V) {                          \
    __c11_atomic_store(P, V, SEQ);                                             \
  }                                                                            \
  void WEFT_OVL atomic_store_explicit(volatile AS A *P, T V, memory_order O) { \
    __c11_atomic_store(P, V, O);                                               \
  }                                                                            \
  void WEFT_OVL atomic_store_explicit(volatile AS A *P, T V, memory_order O,   \
                                      memory_scope S) {                        \
    __c11_atomic_store(P, V, O);                                               \
  }                                                                            \
  T WEFT_OVL atomic_load(volatile AS A *P) { return __c11_atomic_load(P, SEQ); } \
  T WEFT_OVL atomic_load_explicit(volatile AS A *P, memory_order O) {          \
    return __c11_atomic_load(P, O);                                            \
  }                                                                            \
  T WEFT_OVL atomic_load_explicit(volatile AS A *P, memory_order O,            \
                                  memory_scope S) {                            \
    return __c11_atomic_load(P, O);                                            \
  }                                                                            \
  T WEFT_OVL atomic_exchange(volatile AS A *P, T V) {                          \
    return __c11_atomic_exchange(P, V, SEQ);                                   \
  }                                                                            \
  T WEFT_OVL atomic_exchange_explicit(volatile AS A *P, T V, memory_order O) { \
    return __c11_atomic_exchange(P, V, O);                                     \
  }                                                                            \
  T WEFT_OVL atomic_exchange_explicit(volatile AS A *P, T V, memory_order O,   \
                                      memory_scope S) {                        \
    return __c11_atomic_exchange(P, V, O);                                     \
  }                                                                            \
  DEF_C11_CMPXCHG(AS, A, T, __global)                                          \
  DEF_C11_CMPXCHG(AS, A, T, __local)                                           \
  DEF_C11_CMPXCHG(AS, A, T, __private)

// compare_exchange: the expected value may live in any address space; the
// builtin wants it private, so it is copied in and the observed value out.
#define DEF_C11_CMPXCHG_KIND(AS, A, T, EAS, KIND, WEAK)                        \
  bool WEFT_OVL atomic_compare_exchange_##KIND(volatile AS A *P, EAS T *E,     \
                                               T D) {                          \
    T X = *E;                                                                  \
    bool R = __c11_atomic_compare_exchange_##KIND(P, &X, D, SEQ, SEQ);         \
    *E = X;                                                                    \
    return R;                                                                  \
  }                                                                            \
  bool WEFT_OVL atomic_compare_exchange_##KIND##_explicit(                     \
      volatile AS A *P, EAS T *E, T D, memory_order OS, memory_order OF) {     \
    T X = *E;                                                                  \
    bool R = __c11_atomic_compare_exchange_##KIND(P, &X, D, OS, OF);           \
    *E = X;                                                                    \
    return R;                                                                  \
  }                                                                            \
  bool WEFT_OVL atomic_compare_exchange_##KIND##_explicit(                     \
      volatile AS A *P, EAS T *E, T D, memory_order OS, memory_order OF,       \
      memory_scope S) {                                                        \
    T X = *E;                                                                  \
    bool R = __c11_atomic_compare_exchange_##KIND(P, &X, D, OS, OF);           \
    *E = X;                                                                    \
    return R;                                                                  \
  }
#define DEF_C11_CMPXCHG(AS, A, T, EAS)                                         \
  DEF_C11_CMPXCHG_KIND(AS, A, T, EAS, strong, 0)                               \
  DEF_C11_CMPXCHG_KIND(AS, A, T, EAS, weak, 1)

// fetch_<op> of atomic type A with an operand of type V (the same integer
// type, or its signed/unsigned partner for the intptr/uintptr forms).
#define DEF_C11_FETCH_OP(AS, A, T, V, OP)                                      \
  T WEFT_OVL atomic_fetch_##OP(volatile AS A *P, V X) {                        \
    return __c11_atomic_fetch_##OP(P, (T)X, SEQ);                              \
  }                                                                            \
  T WEFT_OVL atomic_fetch_##OP##_explicit(volatile AS A *P, V X,               \
                                          memory_order O) {                    \
    return __c11_atomic_fetch_##OP(P, (T)X, O);                                \
  }                                                                            \
  T WEFT_OVL atomic_fetch_##OP##_explicit(volatile AS A *P, V X,               \
                                          memory_order O, memory_scope S) {    \
    return __c11_atomic_fetch_##OP(P, (T)X, O);                                \
  }
#define DEF_C11_FETCH(AS, A, T, V)                                             \
  DEF_C11_FETCH_OP(AS, A, T, V, add)                                           \
  DEF_C11_FETCH_OP(AS, A, T, V, sub)                                           \
  DEF_C11_FETCH_OP(AS, A, T, V, or)                                            \
  DEF_C11_FETCH_OP(AS, A, T, V, xor)                                           \
  DEF_C11_FETCH_OP(AS, A, T, V, and)                                           \
  DEF_C11_FETCH_OP(AS, A, T, V, min)                                           \
  DEF_C11_FETCH_OP(AS, A, T, V, max)

#define DEF_C11_AS(AS)                                                         \
  DEF_C11_LOAD_STORE(AS, atomic_int, int)                                      \
  DEF_C11_LOAD_STORE(AS, atomic_uint, uint)                                    \
  DEF_C11_LOAD_STORE(AS, atomic_long, long)                                    \
  DEF_C11_LOAD_STORE(AS, atomic_ulong, ulong)                                  \
  DEF_C11_LOAD_STORE(AS, atomic_float, float)                                  \
  DEF_C11_LOAD_STORE(AS, atomic_double, double)                                \
  DEF_C11_FETCH(AS, atomic_int, int, int)                                      \
  DEF_C11_FETCH(AS, atomic_uint, uint, uint)                                   \
  DEF_C11_FETCH(AS, atomic_long, long, long)                                   \
  DEF_C11_FETCH(AS, atomic_ulong, ulong, ulong)                                \
  DEF_C11_FETCH_OP(AS, atomic_ulong, ulong, long, add)                         \
  DEF_C11_FETCH_OP(AS, atomic_ulong, ulong, long, sub)                         \
  DEF_C11_FETCH_OP(AS, atomic_ulong, ulong, long, or)                          \
  DEF_C11_FETCH_OP(AS, atomic_ulong, ulong, long, xor)                         \
  DEF_C11_FETCH_OP(AS, atomic_ulong, ulong, long, and)                         \
  DEF_C11_FETCH_OP(AS, atomic_ulong, ulong, long, min)                         \
  DEF_C11_FETCH_OP(AS, atomic_ulong, ulong, long, max)                         \
  DEF_C11_FETCH_OP(AS, atomic_long, long, ulong, or)                           \
  DEF_C11_FETCH_OP(AS, atomic_long, long, ulong, xor)                          \
  DEF_C11_FETCH_OP(AS, atomic_long, long, ulong, and)                          \
  DEF_C11_FETCH_OP(AS, atomic_long, long, ulong, min)                          \
  DEF_C11_FETCH_OP(AS, atomic_long, long, ulong, max)                          \
  bool WEFT_OVL atomic_flag_test_and_set(volatile AS atomic_flag *P) {         \
    return __c11_atomic_exchange((volatile AS atomic_int *)P, 1, SEQ);         \
  }                                                                            \
  bool WEFT_OVL atomic_flag_test_and_set_explicit(volatile AS atomic_flag *P,  \
                                                  memory_order O) {            \
    return __c11_atomic_exchange((volatile AS atomic_int *)P, 1, O);           \
  }                                                                            \
  bool WEFT_OVL atomic_flag_test_and_set_explicit(                             \
      volatile AS atomic_flag *P, memory_order O, memory_scope S) {            \
    return __c11_atomic_exchange((volatile AS atomic_int *)P, 1, O);           \
  }                                                                            \
  void WEFT_OVL atomic_flag_clear(volatile AS atomic_flag *P) {                \
    __c11_atomic_store((volatile AS atomic_int *)P, 0, SEQ);                   \
  }                                                                            \
  void WEFT_OVL atomic_flag_clear_explicit(volatile AS atomic_flag *P,         \
                                           memory_order O) {                   \
    __c11_atomic_store((volatile AS atomic_int *)P, 0, O);                     \
  }                                                                            \
  void WEFT_OVL atomic_flag_clear_explicit(volatile AS atomic_flag *P,         \
                                           memory_order O, memory_scope S) {   \
    __c11_atomic_store((volatile AS atomic_int *)P, 0, O);                     \
  }
DEF_C11_AS(__global)
DEF_C11_AS(__local)

// A fence orders this work-item's accesses for other threads; a relaxed
// one orders nothing.
void WEFT_OVL atomic_work_item_fence(cl_mem_fence_flags F, memory_order O,
                                     memory_scope S) {
  if (O != memory_order_relaxed)
    __c11_atomic_thread_fence(O);
}
