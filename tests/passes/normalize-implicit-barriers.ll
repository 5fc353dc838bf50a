; Barrier-normal form: an implicit barrier after the entry block's allocas
; and one in the single exit block, every return redirected there, and each
; barrier (any OpenCL spelling) alone in its block as a call of the marker.
; RUN: weft-opt -passes=weft-normalize-barriers -S %s | FileCheck %s

; CHECK-LABEL: define internal void @k.workitem(
; CHECK: entry:
; CHECK-NEXT: br label %barrier.entry
; CHECK: barrier.entry:
; CHECK-NEXT: call void @__weft_barrier()
; CHECK-NEXT: br label
; CHECK: barrier:
; CHECK-NEXT: call void @__weft_barrier()
; CHECK-NEXT: br label
; CHECK-NOT: ret void
; CHECK: exit:
; CHECK-NEXT: call void @__weft_barrier()
; CHECK-NEXT: ret void
; CHECK-NOT: @_Z18work_group_barrierj(

declare void @_Z18work_group_barrierj(i32)

define internal void @k.workitem(ptr addrspace(1) %p, i32 %c, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  %a = getelementptr i32, ptr addrspace(1) %p, i64 %x
  store i32 1, ptr addrspace(1) %a
  call void @_Z18work_group_barrierj(i32 1)
  %t = icmp eq i32 %c, 0
  br i1 %t, label %early, label %late
early:
  ret void
late:
  store i32 2, ptr addrspace(1) %a
  ret void
}
