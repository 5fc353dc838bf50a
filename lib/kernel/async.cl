//===- async.cl - Async copies and prefetch (OpenCL C 1.2 6.12.10) --------===//
//
// async_work_group_copy is called by every work-item of the group with the
// same arguments, and the copy only has to be complete, for all of them,
// when wait_group_events returns. So each work-item copies a share of the
// elements, those congruent to its local linear id modulo the group's
// size (consecutive work-items touch consecutive elements, which the
// work-item loop can vectorize), and wait_group_events is a work-group
// barrier with both fences: after it every work-item sees every element.
// The share is done when the call returns, so the returned event is the
// one passed in and there is nothing else to wait for.
//
// prefetch is a hint; the hardware prefetchers of a CPU do better with the
// streaming accesses that follow than explicit prefetches would.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

/// This work-item's first element and the distance to its next one.
static size_t weft_async_first(void) {
  return (get_local_id(2) * get_local_size(1) + get_local_id(1)) *
             get_local_size(0) +
         get_local_id(0);
}
static size_t weft_async_step(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#define DEF_ASYNC(T, S, N)                                                     \
  event_t WEFT_OVL async_work_group_copy(__local T *Dst, const __global T *Src, \
                                         size_t Num, event_t E) {              \
    const size_t Step = weft_async_step();                                     \
    for (size_t I = weft_async_first(); I < Num; I += Step)                    \
      Dst[I] = Src[I];                                                         \
    return E;                                                                  \
  }                                                                            \
  event_t WEFT_OVL async_work_group_copy(__global T *Dst, const __local T *Src, \
                                         size_t Num, event_t E) {              \
    const size_t Step = weft_async_step();                                     \
    for (size_t I = weft_async_first(); I < Num; I += Step)                    \
      Dst[I] = Src[I];                                                         \
    return E;                                                                  \
  }                                                                            \
  event_t WEFT_OVL async_work_group_strided_copy(                              \
      __local T *Dst, const __global T *Src, size_t Num, size_t Stride,        \
      event_t E) {                                                             \
    const size_t Step = weft_async_step();                                     \
    for (size_t I = weft_async_first(); I < Num; I += Step)                    \
      Dst[I] = Src[I * Stride];                                                \
    return E;                                                                  \
  }                                                                            \
  event_t WEFT_OVL async_work_group_strided_copy(                              \
      __global T *Dst, const __local T *Src, size_t Num, size_t Stride,        \
      event_t E) {                                                             \
    const size_t Step = weft_async_step();                                     \
    for (size_t I = weft_async_first(); I < Num; I += Step)                    \
      Dst[I * Stride] = Src[I];                                                \
    return E;                                                                  \
  }                                                                            \
  void WEFT_OVL prefetch(const __global T *P, size_t Num) {}

WEFT_INTEGER_TYPES(DEF_ASYNC)
WEFT_FLOAT_TYPES(DEF_ASYNC)

// Work-items of a group take their shares of a copy in any order; the
// barrier makes every share visible to all of them.
void WEFT_OVL wait_group_events(int Num, event_t *Events) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
// Clang's builtin declarations give OpenCL C 1.2 kernels a wait_group_events
// taking a generic pointer, which 1.2 source cannot spell: the same body
// under that mangled name, with the parameter in the generic address space
// (4 under the fake address-space map) so that the kernels' calls match the
// definition's type and FlattenKernels can inline the barrier.
typedef __attribute__((address_space(4))) event_t weft_generic_event_t;
void weft_wait_group_events_generic(int Num, weft_generic_event_t *Events)
    __asm__("_Z17wait_group_eventsiPU9CLgeneric9ocl_event");
void weft_wait_group_events_generic(int Num, weft_generic_event_t *Events) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
