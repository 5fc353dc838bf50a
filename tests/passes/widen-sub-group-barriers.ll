; A sub-group barrier that every work-item of the group reaches equally
; often (here: outside any branch, and under a branch on a kernel
; argument) becomes a work-group barrier; one under a branch on the local
; id, which may differ between sub-groups, stays for the fallback method.
; RUN: weft-opt -passes=weft-widen-sub-group-barriers -S %s | FileCheck %s

declare void @__weft_sub_group_barrier() convergent

; CHECK-LABEL: define internal void @k.workitem(
; CHECK: entry:
; CHECK-NEXT: call void @__weft_barrier()
; CHECK: uniform:
; CHECK-NEXT: call void @__weft_barrier()
; CHECK: divergent:
; CHECK-NEXT: call void @__weft_sub_group_barrier()
define internal void @k.workitem(ptr addrspace(1) %p, i32 %c, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  call void @__weft_sub_group_barrier()
  %t = icmp eq i32 %c, 0
  br i1 %t, label %uniform, label %join

uniform:
  call void @__weft_sub_group_barrier()
  br label %join

join:
  %first = icmp ult i64 %x, 128
  br i1 %first, label %divergent, label %exit

divergent:
  call void @__weft_sub_group_barrier()
  br label %exit

exit:
  ret void
}
