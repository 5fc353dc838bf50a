//===- subgroups.cl - Sub-group functions (OpenCL C 3.0, cl_khr_subgroups) ===//
//
// A work-group's sub-groups are consecutive runs of S work-items of the
// local linear id, S = weft::SubGroupSize (weft/launcher.h, 128), the last
// run possibly shorter. The compiler answers two questions per work-group
// function (ResolveSubGroups.cpp, once the kernel is flattened and its
// local size known):
//
//   __weft_sub_group_max()       S
//   __weft_several_sub_groups()  whether the compiled local size's product
//                                is above S
//
// and folds away the branch each function below takes on the second, so a
// work-group function carries one of two implementations:
//
//  - One sub-group (the group has at most S work-items): each sub-group
//    function is the work-group function of the same name, exactly the
//    code that runs when no sub-group function is called: control flow
//    uniform in the sub-group is uniform in the work-group, so the
//    barriers inside are legal wherever the program may call it, and
//    both work-group methods take them like any other.
//
//  - Several sub-groups: the specification promises uniform control flow
//    only within a sub-group, so a sub-group function may sit under a
//    condition that differs between sub-groups, where a work-group barrier
//    would be wrong. Its barrier is __weft_sub_group_barrier(), which the
//    region method declines (RegionMethodLimits.cpp) and the fallback
//    method makes a switch among the fibers of the caller's sub-group
//    only (FiberRuntime.cpp). The collectives are the work-group ones'
//    steps (collectives.cl) on that barrier: each work-item writes its
//    slot of the work-group scratch, the sub-group's first work-item
//    combines its sub-group's slots into the sub-group's result slot,
//    everyone reads it. The result slots follow the work-items' slots
//    (1 + N + sub-group id, N the group's real size), so a sub-group
//    collective never touches what a work-group collective or another
//    sub-group still has to read; SizeWorkGroupScratch makes room for them.
//
// The types cl_khr_subgroup_extended_types adds (char, uchar, short,
// ushort) have no work-group functions: on one sub-group they run the same
// steps, on the work-group barrier and the work-group result slot 0. So do
// the shuffles and clustered reductions (cl_khr_subgroup_shuffle,
// _shuffle_relative, _clustered_reduce), whose steps are at the end.
//
// sub_group_broadcast takes a sub-group local id; on one sub-group that is
// the local linear id, which work_group_broadcast's one-index form
// compares with each work-item's own (collectives.cl), whatever the number
// of dimensions.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#ifndef __opencl_c_subgroups
#error "compile with the __opencl_c_subgroups feature"
#endif

// Resolved or lowered by the compiler (see above); never defined.
uint __weft_sub_group_max(void);
int __weft_several_sub_groups(void);
void __weft_sub_group_barrier(void);

__local ulong *__weft_work_group_scratch(void);

static uint weft_sg_linear_id(void) {
  return (uint)((get_local_id(2) * get_local_size(1) + get_local_id(1)) *
                    get_local_size(0) +
                get_local_id(0));
}

static uint weft_sg_group_size(void) {
  return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

static uint weft_sg_enqueued_group_size(void) {
  return (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                get_enqueued_local_size(2));
}

/// The local linear id of the caller's sub-group's first work-item.
static uint weft_sg_first(void) {
  const uint S = __weft_sub_group_max();
  return weft_sg_linear_id() / S * S;
}

static uint weft_sg_size(void) {
  return min(__weft_sub_group_max(), weft_sg_group_size() - weft_sg_first());
}

/// The scratch slot of the caller's sub-group's result: on one sub-group the
/// work-group collectives' result slot, 0.
static uint weft_sg_result_slot(void) {
  if (!__weft_several_sub_groups())
    return 0;
  return 1 + weft_sg_group_size() + weft_sg_linear_id() / __weft_sub_group_max();
}

/// A barrier of the caller's sub-group: the work-group's on one sub-group.
static void weft_sg_sync(void) {
  if (__weft_several_sub_groups())
    __weft_sub_group_barrier();
  else
    barrier(CLK_LOCAL_MEM_FENCE);
}

uint WEFT_OVL get_sub_group_size(void) {
  if (__weft_several_sub_groups())
    return weft_sg_size();
  return weft_sg_group_size();
}

uint WEFT_OVL get_max_sub_group_size(void) {
  if (__weft_several_sub_groups())
    return min(__weft_sub_group_max(), weft_sg_enqueued_group_size());
  return weft_sg_enqueued_group_size();
}

uint WEFT_OVL get_num_sub_groups(void) {
  if (__weft_several_sub_groups()) {
    const uint S = __weft_sub_group_max();
    return (weft_sg_group_size() + S - 1) / S;
  }
  return 1;
}

uint WEFT_OVL get_enqueued_num_sub_groups(void) {
  if (__weft_several_sub_groups()) {
    const uint S = __weft_sub_group_max();
    return (weft_sg_enqueued_group_size() + S - 1) / S;
  }
  return 1;
}

uint WEFT_OVL get_sub_group_id(void) {
  if (__weft_several_sub_groups())
    return weft_sg_linear_id() / __weft_sub_group_max();
  return 0;
}

uint WEFT_OVL get_sub_group_local_id(void) {
  if (__weft_several_sub_groups())
    return weft_sg_linear_id() % __weft_sub_group_max();
  return (uint)get_local_linear_id();
}

void WEFT_OVL sub_group_barrier(cl_mem_fence_flags Flags) {
  if (__weft_several_sub_groups())
    __weft_sub_group_barrier();
  else
    barrier(Flags);
}

void WEFT_OVL sub_group_barrier(cl_mem_fence_flags Flags, memory_scope Scope) {
  if (__weft_several_sub_groups())
    __weft_sub_group_barrier();
  else
    barrier(Flags);
}

/// Slot I of scratch S, as a T.
#define WEFT_SLOT(T, S, I) (*(__local T *)((S) + (I)))

#define WEFT_ADD(A, B) ((A) + (B))
#define WEFT_IMIN(A, B) ((A) < (B) ? (A) : (B))
#define WEFT_IMAX(A, B) ((A) > (B) ? (A) : (B))

// The several-sub-groups forms. Speed matters less here than in
// collectives.cl: every sub-group barrier is a fiber switch per work-item.

#define DEF_SG_REDUCE(T, Name, Op)                                             \
  static T weft_sg_reduce_##Name##_##T(T X) {                                  \
    __local ulong *S = __weft_work_group_scratch();                            \
    const uint L = weft_sg_linear_id(), First = weft_sg_first();               \
    const uint R = weft_sg_result_slot();                                      \
    WEFT_SLOT(T, S, 1 + L) = X;                                                \
    weft_sg_sync();                                                            \
    if (L == First) {                                                          \
      const uint End = First + weft_sg_size();                                 \
      T Acc = WEFT_SLOT(T, S, 1 + First);                                      \
      for (uint I = First + 1; I < End; ++I)                                   \
        Acc = Op(Acc, WEFT_SLOT(T, S, 1 + I));                                 \
      WEFT_SLOT(T, S, R) = Acc;                                                \
    }                                                                          \
    weft_sg_sync();                                                            \
    return WEFT_SLOT(T, S, R);                                                 \
  }

#define DEF_SG_SCANS(T, Name, Op, Identity)                                    \
  static T weft_sg_scan_##Name##_##T(T X, bool Inclusive) {                    \
    __local ulong *S = __weft_work_group_scratch();                            \
    const uint L = weft_sg_linear_id(), First = weft_sg_first();               \
    WEFT_SLOT(T, S, 1 + L) = X;                                                \
    weft_sg_sync();                                                            \
    if (L == First) {                                                          \
      const uint End = First + weft_sg_size();                                 \
      T Acc = Identity;                                                        \
      for (uint I = First; I < End; ++I) {                                     \
        T V = WEFT_SLOT(T, S, 1 + I);                                          \
        T Next = Op(Acc, V);                                                   \
        WEFT_SLOT(T, S, 1 + I) = Inclusive ? Next : Acc;                       \
        Acc = Next;                                                            \
      }                                                                        \
    }                                                                          \
    weft_sg_sync();                                                            \
    return WEFT_SLOT(T, S, 1 + L);                                             \
  }

#define DEF_SG_BROADCAST(T)                                                    \
  static T weft_sg_broadcast_##T(T X, uint SubGroupLocalId) {                  \
    __local ulong *S = __weft_work_group_scratch();                            \
    const uint R = weft_sg_result_slot();                                      \
    /* R may still hold the previous collective's result, to be read. */      \
    weft_sg_sync();                                                            \
    if (weft_sg_linear_id() - weft_sg_first() == SubGroupLocalId)              \
      WEFT_SLOT(T, S, R) = X;                                                  \
    weft_sg_sync();                                                            \
    return WEFT_SLOT(T, S, R);                                                 \
  }

#define DEF_SG_STEPS(T, MinOp, MaxOp, Largest, Smallest)                       \
  DEF_SG_BROADCAST(T)                                                          \
  DEF_SG_REDUCE(T, add, WEFT_ADD)                                              \
  DEF_SG_REDUCE(T, min, MinOp)                                                 \
  DEF_SG_REDUCE(T, max, MaxOp)                                                 \
  DEF_SG_SCANS(T, add, WEFT_ADD, (T)0)                                         \
  DEF_SG_SCANS(T, min, MinOp, Largest)                                         \
  DEF_SG_SCANS(T, max, MaxOp, Smallest)

/// The sub-group functions of T: Fast(form) on one sub-group, the steps
/// above on several.
#define DEF_SG_FUNCTIONS(T, Fast)                                              \
  T WEFT_OVL sub_group_broadcast(T X, uint SubGroupLocalId) {                  \
    if (__weft_several_sub_groups())                                           \
      return weft_sg_broadcast_##T(X, SubGroupLocalId);                        \
    return Fast(broadcast, weft_sg_broadcast_##T(X, SubGroupLocalId), X,       \
                (size_t)SubGroupLocalId);                                      \
  }                                                                            \
  DEF_SG_FUNCTION(T, Fast, reduce_add, weft_sg_reduce_add_##T(X))              \
  DEF_SG_FUNCTION(T, Fast, reduce_min, weft_sg_reduce_min_##T(X))              \
  DEF_SG_FUNCTION(T, Fast, reduce_max, weft_sg_reduce_max_##T(X))              \
  DEF_SG_FUNCTION(T, Fast, scan_exclusive_add, weft_sg_scan_add_##T(X, false)) \
  DEF_SG_FUNCTION(T, Fast, scan_exclusive_min, weft_sg_scan_min_##T(X, false)) \
  DEF_SG_FUNCTION(T, Fast, scan_exclusive_max, weft_sg_scan_max_##T(X, false)) \
  DEF_SG_FUNCTION(T, Fast, scan_inclusive_add, weft_sg_scan_add_##T(X, true))  \
  DEF_SG_FUNCTION(T, Fast, scan_inclusive_min, weft_sg_scan_min_##T(X, true))  \
  DEF_SG_FUNCTION(T, Fast, scan_inclusive_max, weft_sg_scan_max_##T(X, true))

#define DEF_SG_FUNCTION(T, Fast, Name, Steps)                                  \
  T WEFT_OVL sub_group_##Name(T X) {                                           \
    if (__weft_several_sub_groups())                                           \
      return Steps;                                                            \
    return Fast(Name, Steps, X);                                               \
  }

/// One sub-group: the work-group function of the same name (the types of
/// collectives.cl), or the steps themselves (the types cl_khr_subgroup_
/// extended_types adds, which have no work-group function), whose barriers
/// are then the work-group's.
#define WEFT_WORK_GROUP(Name, Steps, ...) work_group_##Name(__VA_ARGS__)
#define WEFT_STEPS(Name, Steps, ...) Steps

// The identities and operators of collectives.cl.
DEF_SG_STEPS(int, WEFT_IMIN, WEFT_IMAX, INT_MAX, INT_MIN)
DEF_SG_STEPS(uint, WEFT_IMIN, WEFT_IMAX, UINT_MAX, 0u)
DEF_SG_STEPS(long, WEFT_IMIN, WEFT_IMAX, LONG_MAX, LONG_MIN)
DEF_SG_STEPS(ulong, WEFT_IMIN, WEFT_IMAX, ULONG_MAX, 0ul)
DEF_SG_STEPS(float, fmin, fmax, INFINITY, -INFINITY)
DEF_SG_STEPS(double, fmin, fmax, (double)INFINITY, -(double)INFINITY)
DEF_SG_STEPS(half, fmin, fmax, (half)INFINITY, -(half)INFINITY)
DEF_SG_STEPS(char, WEFT_IMIN, WEFT_IMAX, CHAR_MAX, CHAR_MIN)
DEF_SG_STEPS(uchar, WEFT_IMIN, WEFT_IMAX, UCHAR_MAX, (uchar)0)
DEF_SG_STEPS(short, WEFT_IMIN, WEFT_IMAX, SHRT_MAX, SHRT_MIN)
DEF_SG_STEPS(ushort, WEFT_IMIN, WEFT_IMAX, USHRT_MAX, (ushort)0)

DEF_SG_FUNCTIONS(int, WEFT_WORK_GROUP)
DEF_SG_FUNCTIONS(uint, WEFT_WORK_GROUP)
DEF_SG_FUNCTIONS(long, WEFT_WORK_GROUP)
DEF_SG_FUNCTIONS(ulong, WEFT_WORK_GROUP)
DEF_SG_FUNCTIONS(float, WEFT_WORK_GROUP)
DEF_SG_FUNCTIONS(double, WEFT_WORK_GROUP)
DEF_SG_FUNCTIONS(half, WEFT_WORK_GROUP)
// cl_khr_subgroup_extended_types.
DEF_SG_FUNCTIONS(char, WEFT_STEPS)
DEF_SG_FUNCTIONS(uchar, WEFT_STEPS)
DEF_SG_FUNCTIONS(short, WEFT_STEPS)
DEF_SG_FUNCTIONS(ushort, WEFT_STEPS)

// cl_khr_subgroup_extended_types' vector broadcasts, component by
// component through the scalar one (vec3 is stored as four).
#define DEF_SG_VECTOR_BROADCAST(T, N)                                          \
  T##N WEFT_OVL sub_group_broadcast(T##N X, uint SubGroupLocalId) {            \
    T##N R;                                                                    \
    const T *In = (const T *)&X;                                               \
    T *Out = (T *)&R;                                                          \
    for (uint I = 0; I < N; ++I)                                               \
      Out[I] = sub_group_broadcast(In[I], SubGroupLocalId);                    \
    return R;                                                                  \
  }
#define DEF_SG_VECTOR_BROADCASTS(T)                                            \
  DEF_SG_VECTOR_BROADCAST(T, 2)                                                \
  DEF_SG_VECTOR_BROADCAST(T, 3)                                                \
  DEF_SG_VECTOR_BROADCAST(T, 4)                                                \
  DEF_SG_VECTOR_BROADCAST(T, 8)                                                \
  DEF_SG_VECTOR_BROADCAST(T, 16)

DEF_SG_VECTOR_BROADCASTS(char)
DEF_SG_VECTOR_BROADCASTS(uchar)
DEF_SG_VECTOR_BROADCASTS(short)
DEF_SG_VECTOR_BROADCASTS(ushort)
DEF_SG_VECTOR_BROADCASTS(int)
DEF_SG_VECTOR_BROADCASTS(uint)
DEF_SG_VECTOR_BROADCASTS(long)
DEF_SG_VECTOR_BROADCASTS(ulong)
DEF_SG_VECTOR_BROADCASTS(float)
DEF_SG_VECTOR_BROADCASTS(double)
DEF_SG_VECTOR_BROADCASTS(half)

#define DEF_SG_PREDICATE(Name, Op, Identity)                                   \
  static int weft_sg_##Name(int Predicate) {                                   \
    __local ulong *S = __weft_work_group_scratch();                            \
    const uint L = weft_sg_linear_id(), First = weft_sg_first();               \
    const uint R = weft_sg_result_slot();                                      \
    WEFT_SLOT(int, S, 1 + L) = Predicate != 0;                                 \
    weft_sg_sync();                                                            \
    if (L == First) {                                                          \
      const uint End = First + weft_sg_size();                                 \
      int Acc = Identity;                                                      \
      for (uint I = First; I < End; ++I)                                       \
        Acc Op WEFT_SLOT(int, S, 1 + I);                                       \
      WEFT_SLOT(int, S, R) = Acc;                                              \
    }                                                                          \
    weft_sg_sync();                                                            \
    return WEFT_SLOT(int, S, R);                                               \
  }                                                                            \
  int WEFT_OVL sub_group_##Name(int Predicate) {                               \
    if (__weft_several_sub_groups())                                           \
      return weft_sg_##Name(Predicate);                                        \
    return work_group_##Name(Predicate);                                       \
  }

DEF_SG_PREDICATE(all, &=, 1)
DEF_SG_PREDICATE(any, |=, 0)

// cl_khr_subgroup_shuffle and cl_khr_subgroup_shuffle_relative: each
// work-item reads the value another work-item of its sub-group wrote to
// its slot. The second barrier keeps a slot until everyone has read it
// (the next collective writes its own slot straight away). On one
// sub-group the barriers are the work-group's, as in the collectives.

// An index outside the sub-group is undefined by the extensions: the
// caller's own value then.
#define DEF_SG_SHUFFLES(T)                                                     \
  static T weft_sg_exchange_##T(T X, uint From) {                              \
    __local ulong *S = __weft_work_group_scratch();                            \
    const uint L = weft_sg_linear_id();                                        \
    const uint First = L - get_sub_group_local_id();                           \
    WEFT_SLOT(T, S, 1 + L) = X;                                                \
    weft_sg_sync();                                                            \
    T R = From < get_sub_group_size() ? WEFT_SLOT(T, S, 1 + First + From)      \
                                      : X;                                     \
    weft_sg_sync();                                                            \
    return R;                                                                  \
  }                                                                            \
  T WEFT_OVL sub_group_shuffle(T X, uint Index) {                              \
    return weft_sg_exchange_##T(X, Index);                                     \
  }                                                                            \
  T WEFT_OVL sub_group_shuffle_xor(T X, uint Mask) {                           \
    return weft_sg_exchange_##T(X, get_sub_group_local_id() ^ Mask);           \
  }                                                                            \
  T WEFT_OVL sub_group_shuffle_up(T X, uint Delta) {                           \
    /* Below 0 the difference wraps above any sub-group size. */              \
    return weft_sg_exchange_##T(X, get_sub_group_local_id() - Delta);         \
  }                                                                            \
  T WEFT_OVL sub_group_shuffle_down(T X, uint Delta) {                         \
    return weft_sg_exchange_##T(X, get_sub_group_local_id() + Delta);         \
  }

DEF_SG_SHUFFLES(char)
DEF_SG_SHUFFLES(uchar)
DEF_SG_SHUFFLES(short)
DEF_SG_SHUFFLES(ushort)
DEF_SG_SHUFFLES(int)
DEF_SG_SHUFFLES(uint)
DEF_SG_SHUFFLES(long)
DEF_SG_SHUFFLES(ulong)
DEF_SG_SHUFFLES(float)
DEF_SG_SHUFFLES(double)
DEF_SG_SHUFFLES(half)

// cl_khr_subgroup_clustered_reduce: clusters of ClusterSize consecutive
// sub-group local ids (a power of two, at most the maximum sub-group size:
// a larger one is the sub-group). Each work-item folds its own cluster's
// slots, in order, between the two barriers.

#define WEFT_MUL(A, B) ((A) * (B))
#define WEFT_AND(A, B) ((A) & (B))
#define WEFT_OR(A, B) ((A) | (B))
#define WEFT_XOR(A, B) ((A) ^ (B))
#define WEFT_LAND(A, B) ((A) && (B))
#define WEFT_LOR(A, B) ((A) || (B))
#define WEFT_LXOR(A, B) (!(A) != !(B))

#define DEF_SG_CLUSTERED_INIT(T, Name, Op, Init)                               \
  T WEFT_OVL sub_group_clustered_reduce_##Name(T X, uint ClusterSize) {        \
    __local ulong *S = __weft_work_group_scratch();                            \
    const uint L = weft_sg_linear_id(), Lid = get_sub_group_local_id();        \
    const uint First = L - Lid;                                                \
    /* 0 is no power of two; taken as 1 rather than divided by. */            \
    const uint C = max(ClusterSize, 1u);                                       \
    WEFT_SLOT(T, S, 1 + L) = X;                                                \
    weft_sg_sync();                                                            \
    const uint From = Lid / C * C;                                             \
    const uint End = min(From + C, get_sub_group_size());                      \
    T Acc = (T)Init(WEFT_SLOT(T, S, 1 + First + From));                        \
    for (uint I = From + 1; I < End; ++I)                                      \
      Acc = (T)Op(Acc, WEFT_SLOT(T, S, 1 + First + I));                        \
    weft_sg_sync();                                                            \
    return Acc;                                                                \
  }

#define WEFT_SAME(X) (X)
/// A logical reduction is 0 or 1, even over one work-item.
#define WEFT_TRUTH(X) ((X) != 0)
#define DEF_SG_CLUSTERED(T, Name, Op)                                          \
  DEF_SG_CLUSTERED_INIT(T, Name, Op, WEFT_SAME)

#define DEF_SG_CLUSTERED_ARITH(T, MinOp, MaxOp)                                \
  DEF_SG_CLUSTERED(T, add, WEFT_ADD)                                           \
  DEF_SG_CLUSTERED(T, mul, WEFT_MUL)                                           \
  DEF_SG_CLUSTERED(T, min, MinOp)                                              \
  DEF_SG_CLUSTERED(T, max, MaxOp)

#define DEF_SG_CLUSTERED_BITS(T)                                               \
  DEF_SG_CLUSTERED(T, and, WEFT_AND)                                           \
  DEF_SG_CLUSTERED(T, or, WEFT_OR)                                             \
  DEF_SG_CLUSTERED(T, xor, WEFT_XOR)

#define DEF_SG_CLUSTERED_INT(T)                                                \
  DEF_SG_CLUSTERED_ARITH(T, WEFT_IMIN, WEFT_IMAX)                              \
  DEF_SG_CLUSTERED_BITS(T)

DEF_SG_CLUSTERED_INT(char)
DEF_SG_CLUSTERED_INT(uchar)
DEF_SG_CLUSTERED_INT(short)
DEF_SG_CLUSTERED_INT(ushort)
DEF_SG_CLUSTERED_INT(int)
DEF_SG_CLUSTERED_INT(uint)
DEF_SG_CLUSTERED_INT(long)
DEF_SG_CLUSTERED_INT(ulong)
DEF_SG_CLUSTERED_ARITH(float, fmin, fmax)
DEF_SG_CLUSTERED_ARITH(double, fmin, fmax)
DEF_SG_CLUSTERED_ARITH(half, fmin, fmax)
DEF_SG_CLUSTERED_INIT(int, logical_and, WEFT_LAND, WEFT_TRUTH)
DEF_SG_CLUSTERED_INIT(int, logical_or, WEFT_LOR, WEFT_TRUTH)
DEF_SG_CLUSTERED_INIT(int, logical_xor, WEFT_LXOR, WEFT_TRUTH)
