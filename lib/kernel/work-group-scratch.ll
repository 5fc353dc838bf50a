; The work-group memory of the collective functions (collectives.cl).
;
; OpenCL C cannot declare a __local variable at program scope, so the
; library's one is written here, in IR, with an accessor collectives.cl
; calls. It is an automatic __local variable like a kernel's own (an
; internal address-space-3 global): linked into the kernels that use a
; collective, laid out by the launcher in the worker's local memory, never
; on a stack. Its size here, one 8-byte slot per work-item of the largest
; work-group a CPU device allows (CL_DEVICE_MAX_WORK_GROUP_SIZE, 4096), a
; result slot, and a result slot for each of its 4096 / 128 sub-groups
; (subgroups.cl), is what CL_KERNEL_LOCAL_MEM_SIZE counts at build time;
; SizeWorkGroupScratch (lib/llvmopencl) resizes it to the local size each
; work-group function is compiled for.
; The triple and data layout are those of the OpenCL sources (clang's for
; x86_64-pc-linux-gnu).

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__weft_work_group_scratch.slots = internal addrspace(3) global [4129 x i64] undef, align 8

define ptr addrspace(3) @__weft_work_group_scratch() #0 {
  ret ptr addrspace(3) @__weft_work_group_scratch.slots
}

attributes #0 = { alwaysinline mustprogress nofree norecurse nosync nounwind willreturn memory(none) }
