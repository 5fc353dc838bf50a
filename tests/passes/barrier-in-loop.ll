; A barrier in a loop: the region after the barrier ends either at the same
; barrier (next iteration) or at the exit barrier, so each work-item records
; the barrier it reached and the group dispatches on it. The loop header is
; copied into both regions that reach it. The loop counter is uniform: it
; gets one scalar slot instead of a context array, read before a region's
; work-item loops, given to each work-item at the top of the x loop, and
; written back after the loops when the region redefines it.
; RUN: weft-opt -passes=weft-normalize-barriers,weft-parallel-regions -weft-local-size=4,1,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @k.workgroup(
; CHECK: %[[I:i.reg2mem[0-9]*.uniform]] = alloca i32
; CHECK: fixed.region0:
; CHECK-NEXT: %[[I0:.*]] = load i32, ptr %[[I]]
; CHECK: fixed.r0.x.loop:
; CHECK: store i32 %[[I0]], ptr
; CHECK: loop.fixed.r0:
; CHECK: br label %fixed.r0.x.latch
; CHECK: fixed.r0.done:
; CHECK-NEXT: %[[LAST:.*]] = load i32, ptr
; CHECK-NEXT: store i32 %[[LAST]], ptr %[[I]]
; CHECK-NEXT: br label %fixed.region1
; CHECK: fixed.r1.to.barrier:
; CHECK-NEXT: store i32 1, ptr %next.barrier
; CHECK: fixed.r1.to.exit:
; CHECK-NEXT: store i32 2, ptr %next.barrier
; CHECK: loop.fixed.r1:
; CHECK: fixed.r1.done:
; CHECK: store i32 %{{.*}}, ptr %[[I]]
; CHECK-NEXT: %reached = load i32, ptr %next.barrier
; CHECK-NEXT: switch i32 %reached, label %fixed.region1 [
; CHECK-NEXT: i32 2, label %exit

declare void @_Z7barrierj(i32)

define internal void @k.workitem(ptr addrspace(3) %s, ptr addrspace(1) %out, i32 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = phi i32 [ 0, %entry ], [ %v.next, %loop ]
  %slot = getelementptr i32, ptr addrspace(3) %s, i64 %x
  store i32 %v, ptr addrspace(3) %slot
  call void @_Z7barrierj(i32 1)
  %other = load i32, ptr addrspace(3) %s
  %v.next = add i32 %other, %i
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %o = getelementptr i32, ptr addrspace(1) %out, i64 %x
  store i32 %v.next, ptr addrspace(1) %o
  ret void
}
