; A work-item function left with the non-uniform sub-group functions'
; exchange (ResolveNonUniformSubGroups answered "not the whole sub-group")
; runs as fibers on the converging scheduler: each exchange becomes
; __weft_fiber_converge with the context and a site id, the mask and value
; reads take the context, and the group is started converging (last
; argument 1). Sites are numbered so that a loop's calls come before the
; calls after the loop even though the header's first successor is the
; body, where a plain reverse post-order would number the exit first.
; RUN: weft-opt -passes=weft-normalize-barriers,weft-parallel-regions,weft-workgroup-fibers -weft-local-size=8,1,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @k.fiber(ptr %0, ptr %1, i64 %2, i64 %3, i64 %4)
; CHECK: call void @__weft_fiber_converge(ptr %1, i32 0, i64 10)
; CHECK: body{{.*}}:
; CHECK: call void @__weft_fiber_converge(ptr %1, i32 1, i64 11)
; CHECK: call i32 @__weft_fiber_converged_mask(ptr %1, i32 0)
; CHECK: call i64 @__weft_fiber_converged_value(ptr %1, i32 3)
; CHECK: call void @__weft_fiber_converge(ptr %1, i32 2, i64 12)
; CHECK-NOT: __weft_sub_group_converge
; CHECK-LABEL: define internal void @k.workgroup(
; CHECK: call void @__weft_run_work_group_fibers(ptr %ctx, ptr @k.fiber, ptr %frame, i64 32768, i64 1)

declare void @__weft_sub_group_converge(i64) convergent
declare i32 @__weft_sub_group_converged_mask(i32) convergent
declare i64 @__weft_sub_group_converged_value(i32) convergent

define internal void @k.workitem(ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  call void @__weft_sub_group_converge(i64 10)
  br label %header

header:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp ult i64 %i, %x
  br i1 %more, label %body, label %after

body:
  call void @__weft_sub_group_converge(i64 11)
  %m = call i32 @__weft_sub_group_converged_mask(i32 0)
  %v = call i64 @__weft_sub_group_converged_value(i32 3)
  %slot = getelementptr i64, ptr addrspace(1) %out, i64 %x
  store i64 %v, ptr addrspace(1) %slot
  %i.next = add i64 %i, 1
  br label %header

after:
  call void @__weft_sub_group_converge(i64 12)
  ret void
}
