//===- subgroups.cl - Sub-group functions (OpenCL C 3.0, cl_khr_subgroups) ===//
//
// Every work-group is one sub-group. The specification lets the device
// choose how work-items form sub-groups and says nothing about their
// count beyond get_num_sub_groups(); with one per work-group,
// sub-group-uniform control flow is work-group-uniform, so each sub-group
// function may be the work-group function of the same name: its barriers
// are legal wherever the program may call it, and no sub-group can wait
// for another (there is no other). The work-item loops and the fiber
// fallback then need nothing new.
//
//   get_sub_group_size           the group's real linear size (a smaller
//                                last group has a smaller sub-group)
//   get_max_sub_group_size       the enqueued local size's product
//   get_num_sub_groups, get_enqueued_num_sub_groups     1
//   get_sub_group_id             0
//   get_sub_group_local_id       get_local_linear_id()
//   sub_group_barrier            barrier
//   sub_group_all/any/broadcast/reduce/scan     work_group_* (collectives.cl)
//
// sub_group_broadcast takes a sub-group local id, which is the local
// linear id here; work_group_broadcast's one-index form compares its
// index with each work-item's local linear id (collectives.cl), whatever
// the number of dimensions, so it serves 2D and 3D groups too.
//
//===----------------------------------------------------------------------===//
#include "weft-builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#ifndef __opencl_c_subgroups
#error "compile with the __opencl_c_subgroups feature"
#endif

uint WEFT_OVL get_sub_group_size(void) {
  return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

uint WEFT_OVL get_max_sub_group_size(void) {
  return (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                get_enqueued_local_size(2));
}

uint WEFT_OVL get_num_sub_groups(void) { return 1; }

uint WEFT_OVL get_enqueued_num_sub_groups(void) { return 1; }

uint WEFT_OVL get_sub_group_id(void) { return 0; }

uint WEFT_OVL get_sub_group_local_id(void) {
  return (uint)get_local_linear_id();
}

void WEFT_OVL sub_group_barrier(cl_mem_fence_flags Flags) { barrier(Flags); }

void WEFT_OVL sub_group_barrier(cl_mem_fence_flags Flags, memory_scope Scope) {
  barrier(Flags);
}

int WEFT_OVL sub_group_all(int Predicate) { return work_group_all(Predicate); }

int WEFT_OVL sub_group_any(int Predicate) { return work_group_any(Predicate); }

#define DEF_SUB_GROUP(T)                                                       \
  T WEFT_OVL sub_group_broadcast(T X, uint SubGroupLocalId) {                  \
    return work_group_broadcast(X, (size_t)SubGroupLocalId);                   \
  }                                                                            \
  T WEFT_OVL sub_group_reduce_add(T X) { return work_group_reduce_add(X); }    \
  T WEFT_OVL sub_group_reduce_min(T X) { return work_group_reduce_min(X); }    \
  T WEFT_OVL sub_group_reduce_max(T X) { return work_group_reduce_max(X); }    \
  T WEFT_OVL sub_group_scan_exclusive_add(T X) {                               \
    return work_group_scan_exclusive_add(X);                                   \
  }                                                                            \
  T WEFT_OVL sub_group_scan_exclusive_min(T X) {                               \
    return work_group_scan_exclusive_min(X);                                   \
  }                                                                            \
  T WEFT_OVL sub_group_scan_exclusive_max(T X) {                               \
    return work_group_scan_exclusive_max(X);                                   \
  }                                                                            \
  T WEFT_OVL sub_group_scan_inclusive_add(T X) {                               \
    return work_group_scan_inclusive_add(X);                                   \
  }                                                                            \
  T WEFT_OVL sub_group_scan_inclusive_min(T X) {                               \
    return work_group_scan_inclusive_min(X);                                   \
  }                                                                            \
  T WEFT_OVL sub_group_scan_inclusive_max(T X) {                               \
    return work_group_scan_inclusive_max(X);                                   \
  }

DEF_SUB_GROUP(int)
DEF_SUB_GROUP(uint)
DEF_SUB_GROUP(long)
DEF_SUB_GROUP(ulong)
DEF_SUB_GROUP(float)
DEF_SUB_GROUP(double)
DEF_SUB_GROUP(half)
