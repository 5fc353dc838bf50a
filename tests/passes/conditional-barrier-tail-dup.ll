; A barrier under a (uniform) condition: the join block after the if is
; reached from the entry barrier (condition false) and from the conditional
; barrier, so it is duplicated into both regions, and the entry region ends
; at either barrier: the group follows the barrier its work-items reached.
; RUN: weft-opt -passes=weft-normalize-barriers,weft-parallel-regions -weft-local-size=8,1,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @k.workgroup(
; CHECK: fixed.r0.to.then:
; CHECK: fixed.r0.to.exit:
; CHECK: join.fixed.r0:
; CHECK: fixed.r0.done:
; CHECK-NEXT: %reached = load i32, ptr %next.barrier
; CHECK-NEXT: switch i32 %reached
; CHECK: join.fixed.r1:
; CHECK: fixed.r1.done:
; CHECK-NEXT: br label %exit

declare void @_Z7barrierj(i32)

define internal void @k.workitem(ptr addrspace(3) %s, ptr addrspace(1) %out, i32 %c, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  %slot = getelementptr i32, ptr addrspace(3) %s, i64 %x
  store i32 1, ptr addrspace(3) %slot
  %t = icmp eq i32 %c, 0
  br i1 %t, label %then, label %join
then:
  call void @_Z7barrierj(i32 1)
  br label %join
join:
  %o = getelementptr i32, ptr addrspace(1) %out, i64 %x
  %v = load i32, ptr addrspace(3) %s
  store i32 %v, ptr addrspace(1) %o
  ret void
}
