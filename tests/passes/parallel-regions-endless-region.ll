; A region that reaches neither a barrier nor the return (its work-items
; loop forever after the barrier) has no region to go on to: the state
; machine ends it with unreachable. The pass used to read the first of its
; (no) successors and crashed (found by weft-fuzz-build-source).
; RUN: weft-opt -passes=weft-normalize-barriers,weft-parallel-regions -weft-local-size=4,1,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @k.workgroup(
; CHECK: unreachable

declare void @_Z7barrierj(i32)

define internal void @k.workitem(ptr addrspace(3) %s, ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  %slot = getelementptr float, ptr addrspace(3) %s, i64 %x
  %v = load float, ptr addrspace(1) %out
  store float %v, ptr addrspace(3) %slot
  call void @_Z7barrierj(i32 1)
  br label %loop
loop:
  %acc = phi float [ %v, %entry ], [ %acc.next, %loop ]
  %other = load float, ptr addrspace(3) %s
  %acc.next = fadd float %acc, %other
  %o = getelementptr float, ptr addrspace(1) %out, i64 %x
  store float %acc.next, ptr addrspace(1) %o
  br label %loop
}
