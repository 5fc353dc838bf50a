; Work-item loops (llvm.loop.parallel_accesses) of a few constant trips
; that are innermost once their small constant loops are unrolled get
; llvm.loop.unroll.disable, so that O3 vectorizes them instead of
; unrolling them and vectorizing the y loop around them with gathers.
; Loops with many trips, loops that are not work-item loops and work-item
; loops around a loop of unknown trips are left alone.
; RUN: weft-opt -passes=weft-roll-workitem-loops -S %s | FileCheck %s

; CHECK-LABEL: define void @copy(
; CHECK: br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop ![[XLOOP:[0-9]+]]
; CHECK: br i1 %more.y, label %y.loop, label %exit, !llvm.loop ![[YLOOP:[0-9]+]]
; CHECK-LABEL: define void @with_small_inner(
; CHECK: br i1 %more.x, label %x.loop, label %exit, !llvm.loop ![[XSMALL:[0-9]+]]
; CHECK-LABEL: define void @left_alone(
; CHECK: br i1 %more.x, label %x.loop, label %second, !llvm.loop ![[WIDE:[0-9]+]]
; CHECK: br i1 %more.p, label %plain, label %third, !llvm.loop ![[PLAIN:[0-9]+]]
; CHECK: br i1 %more.o, label %outer, label %exit, !llvm.loop ![[OUTER:[0-9]+]]
; CHECK: ![[XLOOP]] = distinct !{![[XLOOP]], ![[PAR:[0-9]+]], ![[ROLL:[0-9]+]]}
; CHECK: ![[ROLL]] = !{!"llvm.loop.unroll.disable", i32 1}
; CHECK: ![[YLOOP]] = distinct !{![[YLOOP]], ![[PAR]]}
; CHECK: ![[XSMALL]] = distinct !{![[XSMALL]], ![[PAR]], ![[ROLL]]}
; CHECK: ![[WIDE]] = distinct !{![[WIDE]], ![[PAR]]}
; CHECK: ![[PLAIN]] = distinct !{![[PLAIN]]}
; CHECK: ![[OUTER]] = distinct !{![[OUTER]], ![[PAR]]}

define void @copy(ptr addrspace(1) %a, ptr addrspace(3) %l) {
entry:
  br label %y.loop
y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
  %row = mul i64 %y, 64
  %i = add i64 %row, %x
  %p = getelementptr double, ptr addrspace(1) %a, i64 %i
  %v = load double, ptr addrspace(1) %p, !llvm.access.group !0
  %q = getelementptr double, ptr addrspace(3) %l, i64 %i
  store double %v, ptr addrspace(3) %q, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 8
  br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop !1
y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %more.y = icmp ult i64 %y.next, 8
  br i1 %more.y, label %y.loop, label %exit, !llvm.loop !3
exit:
  ret void
}

define void @with_small_inner(ptr addrspace(1) %a) {
entry:
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  br label %inner
inner:
  %v = phi i32 [ 0, %x.loop ], [ %v.next, %inner ]
  %p = getelementptr i32, ptr addrspace(1) %a, i64 %x
  store i32 %v, ptr addrspace(1) %p, !llvm.access.group !0
  %v.next = add nuw nsw i32 %v, 1
  %more.v = icmp ult i32 %v.next, 2
  br i1 %more.v, label %inner, label %x.latch
x.latch:
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 8
  br i1 %more.x, label %x.loop, label %exit, !llvm.loop !4
exit:
  ret void
}

define void @left_alone(ptr addrspace(1) %a, i32 %n) {
entry:
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %p = getelementptr i32, ptr addrspace(1) %a, i64 %x
  store i32 1, ptr addrspace(1) %p, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 64
  br i1 %more.x, label %x.loop, label %second, !llvm.loop !5
second:
  br label %plain
plain:
  %k = phi i64 [ 0, %second ], [ %k.next, %plain ]
  %pk = getelementptr i32, ptr addrspace(1) %a, i64 %k
  store i32 2, ptr addrspace(1) %pk
  %k.next = add nuw nsw i64 %k, 1
  %more.p = icmp ult i64 %k.next, 8
  br i1 %more.p, label %plain, label %third, !llvm.loop !6
third:
  br label %outer
outer:
  %o = phi i64 [ 0, %third ], [ %o.next, %outer.latch ]
  br label %unknown
unknown:
  %u = phi i32 [ 0, %outer ], [ %u.next, %unknown ]
  %po = getelementptr i32, ptr addrspace(1) %a, i64 %o
  store i32 %u, ptr addrspace(1) %po, !llvm.access.group !0
  %u.next = add i32 %u, 1
  %more.u = icmp ult i32 %u.next, %n
  br i1 %more.u, label %unknown, label %outer.latch
outer.latch:
  %o.next = add nuw nsw i64 %o, 1
  %more.o = icmp ult i64 %o.next, 8
  br i1 %more.o, label %outer, label %exit, !llvm.loop !7
exit:
  ret void
}

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
!3 = distinct !{!3, !2}
!4 = distinct !{!4, !2}
!5 = distinct !{!5, !2}
!6 = distinct !{!6}
!7 = distinct !{!7, !2}
