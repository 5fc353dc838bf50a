//===- async.cl - Async copies and prefetch (OpenCL C 1.2 6.12.10) --------===//
//
// async_work_group_copy must leave the whole range copied, for every
// work-item of the group, when wait_group_events returns. Until the
// compiler supports barriers (which a copy split among the work-items
// would need before wait_group_events returns), every work-item copies the
// whole range itself: its own later reads then see the copy without any
// synchronization, and the other work-items write the same values. The
// copy is therefore complete when the call returns, wait_group_events has
// nothing left to wait for, and the returned event is the one passed in.
//
// prefetch is a hint; the hardware prefetchers of a CPU do better with the
// streaming accesses that follow than explicit prefetches would.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#define DEF_ASYNC(T, S, N)                                                     \
  event_t WEFT_OVL async_work_group_copy(__local T *Dst, const __global T *Src, \
                                         size_t Num, event_t E) {              \
    for (size_t I = 0; I < Num; ++I)                                           \
      Dst[I] = Src[I];                                                         \
    return E;                                                                  \
  }                                                                            \
  event_t WEFT_OVL async_work_group_copy(__global T *Dst, const __local T *Src, \
                                         size_t Num, event_t E) {              \
    for (size_t I = 0; I < Num; ++I)                                           \
      Dst[I] = Src[I];                                                         \
    return E;                                                                  \
  }                                                                            \
  event_t WEFT_OVL async_work_group_strided_copy(                              \
      __local T *Dst, const __global T *Src, size_t Num, size_t Stride,        \
      event_t E) {                                                             \
    for (size_t I = 0; I < Num; ++I)                                           \
      Dst[I] = Src[I * Stride];                                                \
    return E;                                                                  \
  }                                                                            \
  event_t WEFT_OVL async_work_group_strided_copy(                              \
      __global T *Dst, const __local T *Src, size_t Num, size_t Stride,        \
      event_t E) {                                                             \
    for (size_t I = 0; I < Num; ++I)                                           \
      Dst[I * Stride] = Src[I];                                                \
    return E;                                                                  \
  }                                                                            \
  void WEFT_OVL prefetch(const __global T *P, size_t Num) {}

WEFT_INTEGER_TYPES(DEF_ASYNC)
WEFT_FLOAT_TYPES(DEF_ASYNC)

void WEFT_OVL wait_group_events(int Num, event_t *Events) {}
// Clang's builtin declarations give OpenCL C 1.2 kernels a wait_group_events
// taking a generic pointer, which 1.2 source cannot spell: the same empty
// body under that mangled name.
void weft_wait_group_events_generic(int Num, event_t *Events) __asm__(
    "_Z17wait_group_eventsiPU9CLgeneric9ocl_event");
void weft_wait_group_events_generic(int Num, event_t *Events) {}
