//===- collectives.cl - Work-group collective functions (OpenCL C 3.0) ----===//
//
// work_group_all/any/broadcast/reduce_*/scan_* as barrier-delimited steps,
// so that once FlattenKernels has inlined them they are ordinary parallel
// regions of the kernel (or fiber switches under the fallback method):
//
//   write    every work-item stores its value in its slot      (all)
//   barrier
//   combine  work-item 0 folds the slots in one pass, O(n)      (one)
//   barrier
//   read     every work-item loads its result                  (all)
//
// The slots are __weft_work_group_scratch() (work-group-scratch.ll: an
// address-space-3 array the launcher lays out like any automatic __local
// variable; SizeWorkGroupScratch gives it one slot per work-item of the
// compiled local size, plus one). Slot 0 holds a group-wide result, slot
// 1 + L work-item L's value (L its local linear id, from the group's real
// size, so a smaller last group uses fewer slots); every slot is 8 bytes
// whatever the type. With that layout a collective needs no barrier before
// its write step: in the region where one collective's read step meets the
// next one's write step, each work-item reads slot 0 or its own slot and
// writes only its own slot, after reading it, so nobody overwrites a value
// another work-item has still to read, whatever the two types. Only the
// combining step touches other work-items' slots, and it sits between the
// two barriers. Broadcast has no write step: its source stores straight
// into slot 0, after a barrier of its own (slot 0 may hold the previous
// collective's result, still to be read).
//
// Reductions fold in four interleaved chains, so a floating-point sum is
// not in slot order (the specification allows any order); min and max are
// exact. Scans fold in slot order. The scan identities are the
// specification's: 0 for add, the type's largest value (+INFINITY for
// floating point) for min, its smallest (-INFINITY) for max.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#ifndef __opencl_c_work_group_collective_functions
#error "compile with -D__opencl_c_work_group_collective_functions=1"
#endif

__local ulong *__weft_work_group_scratch(void);

static size_t weft_wg_linear_id(void) {
  return (get_local_id(2) * get_local_size(1) + get_local_id(1)) *
             get_local_size(0) +
         get_local_id(0);
}

static size_t weft_wg_size(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

/// Slot I of scratch S, as a T.
#define WEFT_SLOT(T, S, I) (*(__local T *)((S) + (I)))

#define WEFT_ADD(A, B) ((A) + (B))
#define WEFT_IMIN(A, B) ((A) < (B) ? (A) : (B))
#define WEFT_IMAX(A, B) ((A) > (B) ? (A) : (B))

#define DEF_REDUCE(T, Name, Op)                                                \
  T WEFT_OVL work_group_reduce_##Name(T X) {                                   \
    __local ulong *S = __weft_work_group_scratch();                            \
    const size_t L = weft_wg_linear_id();                                      \
    WEFT_SLOT(T, S, 1 + L) = X;                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    if (L == 0) {                                                              \
      const size_t N = weft_wg_size();                                         \
      T Acc = WEFT_SLOT(T, S, 1);                                              \
      size_t I = 1;                                                            \
      if (N >= 8) {                                                            \
        /* Four chains: the latency of one add is the throughput of four. */  \
        T A1 = WEFT_SLOT(T, S, 2), A2 = WEFT_SLOT(T, S, 3),                    \
          A3 = WEFT_SLOT(T, S, 4);                                             \
        for (I = 4; I + 4 <= N; I += 4) {                                      \
          Acc = Op(Acc, WEFT_SLOT(T, S, 1 + I));                               \
          A1 = Op(A1, WEFT_SLOT(T, S, 2 + I));                                 \
          A2 = Op(A2, WEFT_SLOT(T, S, 3 + I));                                 \
          A3 = Op(A3, WEFT_SLOT(T, S, 4 + I));                                 \
        }                                                                      \
        Acc = Op(Op(Acc, A1), Op(A2, A3));                                     \
      }                                                                        \
      for (; I < N; ++I)                                                       \
        Acc = Op(Acc, WEFT_SLOT(T, S, 1 + I));                                 \
      WEFT_SLOT(T, S, 0) = Acc;                                                \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return WEFT_SLOT(T, S, 0);                                                 \
  }

#define DEF_SCANS(T, Name, Op, Identity)                                       \
  T WEFT_OVL work_group_scan_exclusive_##Name(T X) {                           \
    __local ulong *S = __weft_work_group_scratch();                            \
    const size_t L = weft_wg_linear_id();                                      \
    WEFT_SLOT(T, S, 1 + L) = X;                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    if (L == 0) {                                                              \
      const size_t N = weft_wg_size();                                         \
      T Acc = Identity;                                                        \
      for (size_t I = 0; I < N; ++I) {                                         \
        T V = WEFT_SLOT(T, S, 1 + I);                                          \
        WEFT_SLOT(T, S, 1 + I) = Acc;                                          \
        Acc = Op(Acc, V);                                                      \
      }                                                                        \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return WEFT_SLOT(T, S, 1 + L);                                             \
  }                                                                            \
  T WEFT_OVL work_group_scan_inclusive_##Name(T X) {                           \
    __local ulong *S = __weft_work_group_scratch();                            \
    const size_t L = weft_wg_linear_id();                                      \
    WEFT_SLOT(T, S, 1 + L) = X;                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    if (L == 0) {                                                              \
      const size_t N = weft_wg_size();                                         \
      T Acc = WEFT_SLOT(T, S, 1);                                              \
      for (size_t I = 1; I < N; ++I) {                                         \
        Acc = Op(Acc, WEFT_SLOT(T, S, 1 + I));                                 \
        WEFT_SLOT(T, S, 1 + I) = Acc;                                          \
      }                                                                        \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return WEFT_SLOT(T, S, 1 + L);                                             \
  }

/// The source's linear id is computed as each work-item computes its own.
#define DEF_BROADCAST(T)                                                       \
  static T weft_broadcast_##T(T X, size_t Source) {                            \
    __local ulong *S = __weft_work_group_scratch();                            \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    if (weft_wg_linear_id() == Source)                                         \
      WEFT_SLOT(T, S, 0) = X;                                                  \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return WEFT_SLOT(T, S, 0);                                                 \
  }                                                                            \
  T WEFT_OVL work_group_broadcast(T X, size_t Id) {                            \
    return weft_broadcast_##T(X, Id);                                          \
  }                                                                            \
  T WEFT_OVL work_group_broadcast(T X, size_t IdX, size_t IdY) {               \
    return weft_broadcast_##T(X, IdY * get_local_size(0) + IdX);               \
  }                                                                            \
  T WEFT_OVL work_group_broadcast(T X, size_t IdX, size_t IdY, size_t IdZ) {   \
    return weft_broadcast_##T(                                                 \
        X, (IdZ * get_local_size(1) + IdY) * get_local_size(0) + IdX);         \
  }

#define DEF_COLLECTIVES(T, MinOp, MaxOp, Largest, Smallest)                    \
  DEF_BROADCAST(T)                                                             \
  DEF_REDUCE(T, add, WEFT_ADD)                                                 \
  DEF_REDUCE(T, min, MinOp)                                                    \
  DEF_REDUCE(T, max, MaxOp)                                                    \
  DEF_SCANS(T, add, WEFT_ADD, (T)0)                                            \
  DEF_SCANS(T, min, MinOp, Largest)                                            \
  DEF_SCANS(T, max, MaxOp, Smallest)

DEF_COLLECTIVES(int, WEFT_IMIN, WEFT_IMAX, INT_MAX, INT_MIN)
DEF_COLLECTIVES(uint, WEFT_IMIN, WEFT_IMAX, UINT_MAX, 0u)
DEF_COLLECTIVES(long, WEFT_IMIN, WEFT_IMAX, LONG_MAX, LONG_MIN)
DEF_COLLECTIVES(ulong, WEFT_IMIN, WEFT_IMAX, ULONG_MAX, 0ul)
DEF_COLLECTIVES(float, fmin, fmax, INFINITY, -INFINITY)
DEF_COLLECTIVES(double, fmin, fmax, (double)INFINITY, -(double)INFINITY)
DEF_COLLECTIVES(half, fmin, fmax, (half)INFINITY, -(half)INFINITY)

#define DEF_PREDICATE(Name, Op, Identity)                                      \
  int WEFT_OVL work_group_##Name(int Predicate) {                              \
    __local ulong *S = __weft_work_group_scratch();                            \
    const size_t L = weft_wg_linear_id();                                      \
    WEFT_SLOT(int, S, 1 + L) = Predicate != 0;                                 \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    if (L == 0) {                                                              \
      const size_t N = weft_wg_size();                                         \
      int Acc = Identity;                                                      \
      for (size_t I = 0; I < N; ++I)                                           \
        Acc Op WEFT_SLOT(int, S, 1 + I);                                       \
      WEFT_SLOT(int, S, 0) = Acc;                                              \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return WEFT_SLOT(int, S, 0);                                               \
  }

DEF_PREDICATE(all, &=, 1)
DEF_PREDICATE(any, |=, 0)
