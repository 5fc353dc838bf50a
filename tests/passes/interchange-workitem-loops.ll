; A work-item nest whose x loop would gather and whose y loop would not
; runs y innermost: the counters and the bounds trade places, the loop IDs
; stay, and the inner one is marked (no forced vectorization, interleave
; count 1). Left alone: x consecutive, a barrier or an atomic in the body,
; an access without the parallel annotation, a swap that would add more
; scatters than it removes gathers, and a y loop of fewer trips than x.
; RUN: weft-opt -passes=weft-interchange-workitem-loops -S %s | FileCheck %s

; CLBlast's XgemmDirectTN: A's tile row is 34 doubles apart across x (a
; gather per k step), B's pair of columns is consecutive across y, the
; results are stored in pairs consecutive across x (a scatter across y).
; CHECK-LABEL: define void @tn(
; CHECK: y.loop:
; CHECK-NEXT: %x.outer = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
; CHECK: x.loop:
; CHECK-NEXT: %y.inner = phi i64 [ 0, %y.loop ], [ %x.next, %x.latch ]
; CHECK-NEXT: %arow = mul nuw nsw i64 %x.outer, 34
; CHECK-NEXT: %bcol = mul nuw nsw i64 %y.inner, 2
; CHECK: %row = mul nuw nsw i64 %y.inner, 8
; CHECK-NEXT: %wi = add nuw nsw i64 %row, %x.outer
; CHECK: %x.next = add nuw nsw i64 %y.inner, 1
; CHECK-NEXT: %more.x = icmp ult i64 %x.next, 16
; CHECK-NEXT: br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop ![[INNER:[0-9]+]]
; CHECK: %y.next = add nuw nsw i64 %x.outer, 1
; CHECK-NEXT: %more.y = icmp ult i64 %y.next, 8
; CHECK-NEXT: br i1 %more.y, label %y.loop, label %exit, !llvm.loop ![[OUTER:[0-9]+]]

; CHECK-LABEL: define void @consecutive(
; CHECK: %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
; CHECK: %more.x = icmp ult i64 %x.next, 8
; CHECK-LABEL: define void @barrier(
; CHECK: %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
; CHECK: %more.x = icmp ult i64 %x.next, 8
; CHECK-LABEL: define void @atomic(
; CHECK: %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
; CHECK: %more.x = icmp ult i64 %x.next, 8
; CHECK-LABEL: define void @untagged(
; CHECK: %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
; CHECK: %more.x = icmp ult i64 %x.next, 8
; CHECK-LABEL: define void @adds_scatters(
; CHECK: %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
; CHECK: %more.x = icmp ult i64 %x.next, 8
; CHECK-LABEL: define void @short_y(
; CHECK: %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
; CHECK: %more.x = icmp ult i64 %x.next, 8
; The strided control case: swapped.
; CHECK-LABEL: define void @strided(
; CHECK: %y.inner = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]

; CHECK: ![[INNER]] = distinct !{![[INNER]], ![[PAR:[0-9]+]], ![[MARK:[0-9]+]], ![[IC:[0-9]+]]}
; CHECK: ![[PAR]] = !{!"llvm.loop.parallel_accesses", !0}
; CHECK: ![[MARK]] = !{!"weft.loop.interchanged", i32 1}
; CHECK: ![[IC]] = !{!"llvm.loop.interleave.count", i32 1}
; CHECK: ![[OUTER]] = distinct !{![[OUTER]], ![[PAR]]}

declare double @llvm.fmuladd.f64(double, double, double)
declare void @barrier_fn(i32)

define void @tn(ptr addrspace(3) %alm, ptr addrspace(3) %blm, ptr addrspace(1) %out) {
entry:
  br label %y.loop
y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.latch ]
  %arow = mul nuw nsw i64 %x, 34
  %bcol = mul nuw nsw i64 %y, 2
  br label %k.loop
k.loop:
  %k = phi i64 [ 0, %x.loop ], [ %k.next, %k.loop ]
  %acc0 = phi double [ 0.0, %x.loop ], [ %f0, %k.loop ]
  %acc1 = phi double [ 0.0, %x.loop ], [ %f1, %k.loop ]
  %ai = add nuw nsw i64 %arow, %k
  %pa = getelementptr inbounds double, ptr addrspace(3) %alm, i64 %ai
  %a = load double, ptr addrspace(3) %pa, !llvm.access.group !0
  %k17 = mul nuw nsw i64 %k, 17
  %bi0 = add nuw nsw i64 %k17, %bcol
  %pb0 = getelementptr inbounds double, ptr addrspace(3) %blm, i64 %bi0
  %b0 = load double, ptr addrspace(3) %pb0, !llvm.access.group !0
  %bi1 = add nuw nsw i64 %bi0, 1
  %pb1 = getelementptr inbounds double, ptr addrspace(3) %blm, i64 %bi1
  %b1 = load double, ptr addrspace(3) %pb1, !llvm.access.group !0
  %f0 = call double @llvm.fmuladd.f64(double %a, double %b0, double %acc0)
  %f1 = call double @llvm.fmuladd.f64(double %a, double %b1, double %acc1)
  %k.next = add nuw nsw i64 %k, 1
  %more.k = icmp ult i64 %k.next, 16
  br i1 %more.k, label %k.loop, label %x.latch
x.latch:
  %row = mul nuw nsw i64 %y, 8
  %wi = add nuw nsw i64 %row, %x
  %oi0 = mul nuw nsw i64 %wi, 2
  %po0 = getelementptr inbounds double, ptr addrspace(1) %out, i64 %oi0
  store double %f0, ptr addrspace(1) %po0, !llvm.access.group !0
  %oi1 = add nuw nsw i64 %oi0, 1
  %po1 = getelementptr inbounds double, ptr addrspace(1) %out, i64 %oi1
  store double %f1, ptr addrspace(1) %po1, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 8
  br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop !1
y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %more.y = icmp ult i64 %y.next, 16
  br i1 %more.y, label %y.loop, label %exit, !llvm.loop !3
exit:
  ret void
}

; Across x: a[8y + x] is consecutive, nothing to gain.
define void @consecutive(ptr addrspace(1) %a) {
entry:
  br label %y.loop
y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
  %row = mul nuw nsw i64 %y, 8
  %i = add nuw nsw i64 %row, %x
  %p = getelementptr inbounds double, ptr addrspace(1) %a, i64 %i
  %v = load double, ptr addrspace(1) %p, !llvm.access.group !0
  %w = fadd double %v, 1.0
  store double %w, ptr addrspace(1) %p, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 8
  br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop !4
y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %more.y = icmp ult i64 %y.next, 8
  br i1 %more.y, label %y.loop, label %exit, !llvm.loop !5
exit:
  ret void
}

; The strided body of @strided with a call that may synchronize.
define void @barrier(ptr addrspace(3) %l, ptr addrspace(1) %out) {
entry:
  br label %y.loop
y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
  %li = mul nuw nsw i64 %x, 34
  %pl = getelementptr inbounds double, ptr addrspace(3) %l, i64 %li
  %v = load double, ptr addrspace(3) %pl, !llvm.access.group !0
  call void @barrier_fn(i32 1)
  %po = getelementptr inbounds double, ptr addrspace(1) %out, i64 %y
  store double %v, ptr addrspace(1) %po, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 8
  br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop !6
y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %more.y = icmp ult i64 %y.next, 8
  br i1 %more.y, label %y.loop, label %exit, !llvm.loop !7
exit:
  ret void
}

; The same with a __local atomic.
define void @atomic(ptr addrspace(3) %l, ptr addrspace(1) %out) {
entry:
  br label %y.loop
y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
  %li = mul nuw nsw i64 %x, 34
  %pl = getelementptr inbounds double, ptr addrspace(3) %l, i64 %li
  %v = load double, ptr addrspace(3) %pl, !llvm.access.group !0
  %old = atomicrmw add ptr addrspace(3) %l, i32 1 seq_cst, !llvm.access.group !0
  %po = getelementptr inbounds double, ptr addrspace(1) %out, i64 %y
  store double %v, ptr addrspace(1) %po, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 8
  br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop !8
y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %more.y = icmp ult i64 %y.next, 8
  br i1 %more.y, label %y.loop, label %exit, !llvm.loop !9
exit:
  ret void
}

; A store the work-item loop builders did not vouch for.
define void @untagged(ptr addrspace(3) %l, ptr addrspace(1) %out) {
entry:
  br label %y.loop
y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
  %li = mul nuw nsw i64 %x, 34
  %pl = getelementptr inbounds double, ptr addrspace(3) %l, i64 %li
  %v = load double, ptr addrspace(3) %pl, !llvm.access.group !0
  %po = getelementptr inbounds double, ptr addrspace(1) %out, i64 %y
  store double %v, ptr addrspace(1) %po
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 8
  br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop !10
y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %more.y = icmp ult i64 %y.next, 8
  br i1 %more.y, label %y.loop, label %exit, !llvm.loop !11
exit:
  ret void
}

; One gather across x (l[34x]) against a scatter across y (out[16y + x]).
define void @adds_scatters(ptr addrspace(3) %l, ptr addrspace(1) %out) {
entry:
  br label %y.loop
y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
  %li = mul nuw nsw i64 %x, 34
  %pl = getelementptr inbounds double, ptr addrspace(3) %l, i64 %li
  %v = load double, ptr addrspace(3) %pl, !llvm.access.group !0
  %row = mul nuw nsw i64 %y, 16
  %oi = add nuw nsw i64 %row, %x
  %po = getelementptr inbounds double, ptr addrspace(1) %out, i64 %oi
  store double %v, ptr addrspace(1) %po, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 8
  br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop !12
y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %more.y = icmp ult i64 %y.next, 8
  br i1 %more.y, label %y.loop, label %exit, !llvm.loop !13
exit:
  ret void
}

; Strided across x, but y runs 2 trips where x runs 8.
define void @short_y(ptr addrspace(3) %l, ptr addrspace(1) %out) {
entry:
  br label %y.loop
y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
  %li = mul nuw nsw i64 %x, 34
  %pl = getelementptr inbounds double, ptr addrspace(3) %l, i64 %li
  %v = load double, ptr addrspace(3) %pl, !llvm.access.group !0
  %po = getelementptr inbounds double, ptr addrspace(1) %out, i64 %y
  store double %v, ptr addrspace(1) %po, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 8
  br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop !14
y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %more.y = icmp ult i64 %y.next, 2
  br i1 %more.y, label %y.loop, label %exit, !llvm.loop !15
exit:
  ret void
}

; The body the negative cases start from, swapped.
define void @strided(ptr addrspace(3) %l, ptr addrspace(1) %out) {
entry:
  br label %y.loop
y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
  %li = mul nuw nsw i64 %x, 34
  %pl = getelementptr inbounds double, ptr addrspace(3) %l, i64 %li
  %v = load double, ptr addrspace(3) %pl, !llvm.access.group !0
  %po = getelementptr inbounds double, ptr addrspace(1) %out, i64 %y
  store double %v, ptr addrspace(1) %po, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 8
  br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop !16
y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %more.y = icmp ult i64 %y.next, 8
  br i1 %more.y, label %y.loop, label %exit, !llvm.loop !17
exit:
  ret void
}

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
!3 = distinct !{!3, !2}
!4 = distinct !{!4, !2}
!5 = distinct !{!5, !2}
!6 = distinct !{!6, !2}
!7 = distinct !{!7, !2}
!8 = distinct !{!8, !2}
!9 = distinct !{!9, !2}
!10 = distinct !{!10, !2}
!11 = distinct !{!11, !2}
!12 = distinct !{!12, !2}
!13 = distinct !{!13, !2}
!14 = distinct !{!14, !2}
!15 = distinct !{!15, !2}
!16 = distinct !{!16, !2}
!17 = distinct !{!17, !2}
