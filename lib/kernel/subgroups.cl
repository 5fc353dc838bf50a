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
// Name is also cl_khr_subgroup_ballot's non-uniform broadcast, below.
#define DEF_SG_VECTOR_BROADCAST(Name, T, N)                                    \
  T##N WEFT_OVL Name(T##N X, uint SubGroupLocalId) {                           \
    T##N R;                                                                    \
    const T *In = (const T *)&X;                                               \
    T *Out = (T *)&R;                                                          \
    for (uint I = 0; I < N; ++I)                                               \
      Out[I] = Name(In[I], SubGroupLocalId);                                   \
    return R;                                                                  \
  }
#define DEF_SG_VECTOR_BROADCASTS_OF(Name, T)                                   \
  DEF_SG_VECTOR_BROADCAST(Name, T, 2)                                          \
  DEF_SG_VECTOR_BROADCAST(Name, T, 3)                                          \
  DEF_SG_VECTOR_BROADCAST(Name, T, 4)                                          \
  DEF_SG_VECTOR_BROADCAST(Name, T, 8)                                          \
  DEF_SG_VECTOR_BROADCAST(Name, T, 16)
#define DEF_SG_VECTOR_BROADCASTS(T)                                            \
  DEF_SG_VECTOR_BROADCASTS_OF(sub_group_broadcast, T)

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

// cl_khr_subgroup_rotate: a shuffle by a delta that wraps at the maximum
// sub-group size (in a shorter sub-group a source past its end is
// undefined: the caller's own value, as in the shuffles) or within clusters
// of ClusterSize consecutive local ids.
#define DEF_SG_ROTATES(T)                                                      \
  T WEFT_OVL sub_group_rotate(T X, int Delta) {                                \
    const uint N = get_max_sub_group_size();                                   \
    const uint D = (uint)(Delta % (int)N + (int)N);                            \
    return weft_sg_exchange_##T(X, (get_sub_group_local_id() + D) % N);        \
  }                                                                            \
  T WEFT_OVL sub_group_clustered_rotate(T X, int Delta, uint ClusterSize) {    \
    const uint C = max(ClusterSize, 1u), Lid = get_sub_group_local_id();       \
    const uint From = Lid / C * C;                                             \
    const uint D = (uint)(Delta % (int)C + (int)C);                            \
    return weft_sg_exchange_##T(X, From + (Lid - From + D) % C);               \
  }

DEF_SG_ROTATES(char)
DEF_SG_ROTATES(uchar)
DEF_SG_ROTATES(short)
DEF_SG_ROTATES(ushort)
DEF_SG_ROTATES(int)
DEF_SG_ROTATES(uint)
DEF_SG_ROTATES(long)
DEF_SG_ROTATES(ulong)
DEF_SG_ROTATES(float)
DEF_SG_ROTATES(double)
DEF_SG_ROTATES(half)

// The non-uniform sub-group functions (cl_khr_subgroup_non_uniform_vote,
// _ballot, _non_uniform_arithmetic) act on the work-items of the sub-group
// that call them together: the active ones, which under a condition that
// differs within the sub-group are fewer than its size. Each asks
// __weft_sub_group_uniform_here() first, which ResolveNonUniformSubGroups
// answers per call once the kernel is one work-item function:
//
//  - 1 where every work-item of the group runs the call (a block that is
//    not divergent): the whole sub-group is active, and the values travel
//    through the work-group scratch between two sub-group barriers, as in
//    the shuffles;
//  - 0 elsewhere: __weft_sub_group_converge() hands the value to the
//    fallback method's scheduler, which resumes the work-items of a
//    sub-group waiting at the same call together once none of that
//    sub-group can run on, with the set's mask and values
//    (FiberRuntime.cpp).
//
// The steps below fold the active values in ascending local id order.

int __weft_sub_group_uniform_here(void);
void __weft_sub_group_converge(ulong Value);
uint __weft_sub_group_converged_mask(uint Word);
ulong __weft_sub_group_converged_value(uint SubGroupLocalId);

static void weft_nu_enter(int Uniform, ulong X) {
  if (Uniform) {
    __weft_work_group_scratch()[1 + weft_sg_linear_id()] = X;
    weft_sg_sync();
  } else {
    __weft_sub_group_converge(X);
  }
}

/// Word W of the active set's mask, bit I standing for sub-group local id
/// 32 * W + I.
static uint weft_nu_mask(int Uniform, uint W) {
  if (!Uniform)
    return __weft_sub_group_converged_mask(W);
  const uint N = get_sub_group_size(), Low = 32 * W;
  if (N <= Low)
    return 0;
  return N - Low >= 32 ? ~0u : (1u << (N - Low)) - 1;
}

static uint4 weft_nu_mask4(int Uniform) {
  return (uint4)(weft_nu_mask(Uniform, 0), weft_nu_mask(Uniform, 1),
                 weft_nu_mask(Uniform, 2), weft_nu_mask(Uniform, 3));
}

/// The value the active work-item of sub-group local id I entered.
static ulong weft_nu_value(int Uniform, uint I) {
  if (Uniform)
    return __weft_work_group_scratch()[1 + weft_sg_first() + I];
  return __weft_sub_group_converged_value(I);
}

/// The sub-group barrier that keeps the slots until all have read them;
/// the fallback's values stay until every work-item of the set has moved
/// on.
static void weft_nu_leave(int Uniform) {
  if (Uniform)
    weft_sg_sync();
}

static int weft_nu_bit(uint4 M, uint I) {
  return I < 128 && ((M[I / 32] >> (I % 32)) & 1);
}

static uint weft_nu_lowest(uint4 M) {
  for (uint W = 0; W < 4; ++W)
    if (M[W])
      return 32 * W + ctz(M[W]);
  return 0;
}

#define DEF_NU_BITS(T)                                                         \
  static ulong weft_nu_pack_##T(T X) {                                         \
    ulong B = 0;                                                               \
    *(__private T *)&B = X;                                                    \
    return B;                                                                  \
  }                                                                            \
  static T weft_nu_unpack_##T(ulong B) { return *(__private T *)&B; }

DEF_NU_BITS(char)
DEF_NU_BITS(uchar)
DEF_NU_BITS(short)
DEF_NU_BITS(ushort)
DEF_NU_BITS(int)
DEF_NU_BITS(uint)
DEF_NU_BITS(long)
DEF_NU_BITS(ulong)
DEF_NU_BITS(float)
DEF_NU_BITS(double)
DEF_NU_BITS(half)

// cl_khr_subgroup_non_uniform_arithmetic. Where the whole sub-group is
// active, add, min and max are the sub-group functions of the same name
// (on one sub-group the work-group ones, vectorized); the other operations
// run the same steps as those on several sub-groups (own slot, barrier,
// the sub-group's first work-item folds, barrier), instantiated below.
// The logical operations fold truth values: each input becomes 0 or 1.
#define WEFT_NU_PUBLIC(T, Name, X, Kind) sub_group_##Kind##_##Name(X)
#define WEFT_NU_STEPS_reduce(T, Name, X) weft_sg_reduce_##Name##_##T(X)
#define WEFT_NU_STEPS_scan_inclusive(T, Name, X)                               \
  weft_sg_scan_##Name##_##T(X, true)
#define WEFT_NU_STEPS_scan_exclusive(T, Name, X)                               \
  weft_sg_scan_##Name##_##T(X, false)
#define WEFT_NU_STEPS(T, Name, X, Kind) WEFT_NU_STEPS_##Kind(T, Name, X)

#define DEF_NU_OP(T, Name, Op, Identity, Prep, Whole)                          \
  T WEFT_OVL sub_group_non_uniform_reduce_##Name(T X) {                        \
    if (__weft_sub_group_uniform_here())                                       \
      return Whole(T, Name, Prep(X), reduce);                                  \
    weft_nu_enter(0, weft_nu_pack_##T(Prep(X)));                               \
    const uint4 M = weft_nu_mask4(0);                                          \
    T Acc = Identity;                                                          \
    for (uint I = 0; I < 128; ++I)                                             \
      if (weft_nu_bit(M, I))                                                   \
        Acc = (T)Op(Acc, weft_nu_unpack_##T(weft_nu_value(0, I)));             \
    return Acc;                                                                \
  }                                                                            \
  static T weft_nu_scan_##Name##_##T(T X, bool Inclusive) {                    \
    weft_nu_enter(0, weft_nu_pack_##T(Prep(X)));                               \
    const uint4 M = weft_nu_mask4(0);                                          \
    const uint Me = get_sub_group_local_id();                                  \
    T Acc = Identity;                                                          \
    for (uint I = 0; I < Me + (Inclusive ? 1 : 0); ++I)                        \
      if (weft_nu_bit(M, I))                                                   \
        Acc = (T)Op(Acc, weft_nu_unpack_##T(weft_nu_value(0, I)));             \
    return Acc;                                                                \
  }                                                                            \
  T WEFT_OVL sub_group_non_uniform_scan_inclusive_##Name(T X) {                \
    if (__weft_sub_group_uniform_here())                                       \
      return Whole(T, Name, Prep(X), scan_inclusive);                          \
    return weft_nu_scan_##Name##_##T(X, true);                                 \
  }                                                                            \
  T WEFT_OVL sub_group_non_uniform_scan_exclusive_##Name(T X) {                \
    if (__weft_sub_group_uniform_here())                                       \
      return Whole(T, Name, Prep(X), scan_exclusive);                          \
    return weft_nu_scan_##Name##_##T(X, false);                                \
  }

/// The steps of an operation that has no sub-group function.
#define DEF_NU_STEPS(T, Name, Op, Identity)                                    \
  DEF_SG_REDUCE(T, Name, Op)                                                   \
  DEF_SG_SCANS(T, Name, Op, Identity)

#define DEF_NU_ARITH(T, MinOp, MaxOp, Largest, Smallest)                       \
  DEF_NU_STEPS(T, mul, WEFT_MUL, (T)1)                                         \
  DEF_NU_OP(T, add, WEFT_ADD, (T)0, WEFT_SAME, WEFT_NU_PUBLIC)                 \
  DEF_NU_OP(T, mul, WEFT_MUL, (T)1, WEFT_SAME, WEFT_NU_STEPS)                  \
  DEF_NU_OP(T, min, MinOp, Largest, WEFT_SAME, WEFT_NU_PUBLIC)                 \
  DEF_NU_OP(T, max, MaxOp, Smallest, WEFT_SAME, WEFT_NU_PUBLIC)

#define DEF_NU_BITWISE(T, Name, Op, Identity)                                  \
  DEF_NU_STEPS(T, Name, Op, Identity)                                          \
  DEF_NU_OP(T, Name, Op, Identity, WEFT_SAME, WEFT_NU_STEPS)

#define DEF_NU_INT(T, Largest, Smallest)                                       \
  DEF_NU_ARITH(T, WEFT_IMIN, WEFT_IMAX, Largest, Smallest)                     \
  DEF_NU_BITWISE(T, and, WEFT_AND, (T) ~(T)0)                                  \
  DEF_NU_BITWISE(T, or, WEFT_OR, (T)0)                                         \
  DEF_NU_BITWISE(T, xor, WEFT_XOR, (T)0)

DEF_NU_INT(char, CHAR_MAX, CHAR_MIN)
DEF_NU_INT(uchar, UCHAR_MAX, (uchar)0)
DEF_NU_INT(short, SHRT_MAX, SHRT_MIN)
DEF_NU_INT(ushort, USHRT_MAX, (ushort)0)
DEF_NU_INT(int, INT_MAX, INT_MIN)
DEF_NU_INT(uint, UINT_MAX, 0u)
DEF_NU_INT(long, LONG_MAX, LONG_MIN)
DEF_NU_INT(ulong, ULONG_MAX, 0ul)
DEF_NU_ARITH(float, fmin, fmax, INFINITY, -INFINITY)
DEF_NU_ARITH(double, fmin, fmax, (double)INFINITY, -(double)INFINITY)
DEF_NU_ARITH(half, fmin, fmax, (half)INFINITY, -(half)INFINITY)

#define DEF_NU_LOGICAL(Name, Op, Identity)                                     \
  DEF_NU_STEPS(int, Name, Op, Identity)                                        \
  DEF_NU_OP(int, Name, Op, Identity, WEFT_TRUTH, WEFT_NU_STEPS)

DEF_NU_LOGICAL(logical_and, WEFT_AND, 1)
DEF_NU_LOGICAL(logical_or, WEFT_OR, 0)
DEF_NU_LOGICAL(logical_xor, WEFT_XOR, 0)

// cl_khr_subgroup_non_uniform_vote.

int WEFT_OVL sub_group_elect(void) {
  if (__weft_sub_group_uniform_here())
    return get_sub_group_local_id() == 0;
  weft_nu_enter(0, 0);
  return get_sub_group_local_id() == weft_nu_lowest(weft_nu_mask4(0));
}

#define DEF_NU_VOTE(Name, Op, Identity)                                        \
  int WEFT_OVL sub_group_non_uniform_##Name(int Predicate) {                   \
    if (__weft_sub_group_uniform_here())                                       \
      return sub_group_##Name(Predicate);                                      \
    weft_nu_enter(0, Predicate != 0);                                          \
    const uint4 M = weft_nu_mask4(0);                                          \
    int Acc = Identity;                                                        \
    for (uint I = 0; I < 128; ++I)                                             \
      if (weft_nu_bit(M, I))                                                   \
        Acc Op(int) weft_nu_value(0, I);                                       \
    return Acc;                                                                \
  }

DEF_NU_VOTE(all, &=, 1)
DEF_NU_VOTE(any, |=, 0)

#define DEF_NU_ALL_EQUAL(T)                                                    \
  int WEFT_OVL sub_group_non_uniform_all_equal(T X) {                          \
    const int U = __weft_sub_group_uniform_here();                             \
    weft_nu_enter(U, weft_nu_pack_##T(X));                                     \
    const uint4 M = weft_nu_mask4(U);                                          \
    const T First = weft_nu_unpack_##T(weft_nu_value(U, weft_nu_lowest(M)));   \
    int Equal = 1;                                                             \
    for (uint I = 0; I < 128; ++I)                                             \
      if (weft_nu_bit(M, I))                                                   \
        Equal &= weft_nu_unpack_##T(weft_nu_value(U, I)) == First;             \
    weft_nu_leave(U);                                                          \
    return Equal;                                                              \
  }

DEF_NU_ALL_EQUAL(char)
DEF_NU_ALL_EQUAL(uchar)
DEF_NU_ALL_EQUAL(short)
DEF_NU_ALL_EQUAL(ushort)
DEF_NU_ALL_EQUAL(int)
DEF_NU_ALL_EQUAL(uint)
DEF_NU_ALL_EQUAL(long)
DEF_NU_ALL_EQUAL(ulong)
DEF_NU_ALL_EQUAL(float)
DEF_NU_ALL_EQUAL(double)
DEF_NU_ALL_EQUAL(half)

// cl_khr_subgroup_ballot. A broadcast from a work-item that is not active,
// undefined by the extension, gives the caller's own value.

#define DEF_NU_BROADCAST(T)                                                    \
  T WEFT_OVL sub_group_non_uniform_broadcast(T X, uint Index) {                \
    if (__weft_sub_group_uniform_here())                                       \
      return sub_group_broadcast(X, Index);                                    \
    const int U = 0;                                                           \
    weft_nu_enter(U, weft_nu_pack_##T(X));                                     \
    const uint4 M = weft_nu_mask4(U);                                          \
    T R = weft_nu_bit(M, Index) ? weft_nu_unpack_##T(weft_nu_value(U, Index))  \
                                : X;                                           \
    weft_nu_leave(U);                                                          \
    return R;                                                                  \
  }                                                                            \
  T WEFT_OVL sub_group_broadcast_first(T X) {                                  \
    if (__weft_sub_group_uniform_here())                                       \
      return sub_group_broadcast(X, 0);                                        \
    const int U = 0;                                                           \
    weft_nu_enter(U, weft_nu_pack_##T(X));                                     \
    const uint4 M = weft_nu_mask4(U);                                          \
    T R = weft_nu_unpack_##T(weft_nu_value(U, weft_nu_lowest(M)));             \
    weft_nu_leave(U);                                                          \
    return R;                                                                  \
  }

#define DEF_NU_BROADCASTS(T)                                                   \
  DEF_NU_BROADCAST(T)                                                          \
  DEF_SG_VECTOR_BROADCASTS_OF(sub_group_non_uniform_broadcast, T)

DEF_NU_BROADCASTS(char)
DEF_NU_BROADCASTS(uchar)
DEF_NU_BROADCASTS(short)
DEF_NU_BROADCASTS(ushort)
DEF_NU_BROADCASTS(int)
DEF_NU_BROADCASTS(uint)
DEF_NU_BROADCASTS(long)
DEF_NU_BROADCASTS(ulong)
DEF_NU_BROADCASTS(float)
DEF_NU_BROADCASTS(double)
DEF_NU_BROADCASTS(half)

uint4 WEFT_OVL sub_group_ballot(int Predicate) {
  const int U = __weft_sub_group_uniform_here();
  weft_nu_enter(U, Predicate != 0);
  const uint4 M = weft_nu_mask4(U);
  uint4 R = (uint4)(0);
  for (uint I = 0; I < 128; ++I)
    if (weft_nu_bit(M, I) && weft_nu_value(U, I))
      R[I / 32] |= 1u << (I % 32);
  weft_nu_leave(U);
  return R;
}

// The rest read a ballot the caller holds: no exchange. Bits at or above
// the maximum sub-group size stand for no work-item and are not counted
// (the extension's "valid work-items"; a shorter last sub-group still
// counts up to the maximum, as SPIR-V's group size and the CTS do).

/// The bits of local ids below N.
static uint4 weft_nu_below(uint N) {
  uint4 R;
  for (uint W = 0; W < 4; ++W) {
    const uint Low = 32 * W;
    R[W] = N <= Low ? 0 : N - Low >= 32 ? ~0u : (1u << (N - Low)) - 1;
  }
  return R;
}

static uint weft_nu_count(uint4 V) {
  return popcount(V.x) + popcount(V.y) + popcount(V.z) + popcount(V.w);
}

int WEFT_OVL sub_group_inverse_ballot(uint4 Value) {
  return weft_nu_bit(Value, get_sub_group_local_id());
}

int WEFT_OVL sub_group_ballot_bit_extract(uint4 Value, uint Index) {
  return weft_nu_bit(Value, Index);
}

uint WEFT_OVL sub_group_ballot_bit_count(uint4 Value) {
  return weft_nu_count(Value & weft_nu_below(get_max_sub_group_size()));
}

uint WEFT_OVL sub_group_ballot_inclusive_scan(uint4 Value) {
  return weft_nu_count(Value & weft_nu_below(get_sub_group_local_id() + 1));
}

uint WEFT_OVL sub_group_ballot_exclusive_scan(uint4 Value) {
  return weft_nu_count(Value & weft_nu_below(get_sub_group_local_id()));
}

uint WEFT_OVL sub_group_ballot_find_lsb(uint4 Value) {
  return weft_nu_lowest(Value & weft_nu_below(get_max_sub_group_size()));
}

uint WEFT_OVL sub_group_ballot_find_msb(uint4 Value) {
  const uint4 V = Value & weft_nu_below(get_max_sub_group_size());
  for (int W = 3; W >= 0; --W)
    if (V[W])
      return 32 * W + 31 - clz(V[W]);
  return 0;
}

uint4 WEFT_OVL get_sub_group_eq_mask(void) {
  const uint I = get_sub_group_local_id();
  uint4 R = (uint4)(0);
  R[I / 32] = 1u << (I % 32);
  return R;
}

uint4 WEFT_OVL get_sub_group_ge_mask(void) {
  return weft_nu_below(get_max_sub_group_size()) &
         ~weft_nu_below(get_sub_group_local_id());
}

uint4 WEFT_OVL get_sub_group_gt_mask(void) {
  return weft_nu_below(get_max_sub_group_size()) &
         ~weft_nu_below(get_sub_group_local_id() + 1);
}

uint4 WEFT_OVL get_sub_group_le_mask(void) {
  return weft_nu_below(get_sub_group_local_id() + 1);
}

uint4 WEFT_OVL get_sub_group_lt_mask(void) {
  return weft_nu_below(get_sub_group_local_id());
}
