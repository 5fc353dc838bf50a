; A work-item loop whose body interleaves more independent chains than the
; vector registers hold (here eight chains of one value each against
; weft-opt's default of 8 registers: more than three quarters of them) is
; laid out group after group, at most half the registers' worth of chains
; each (four), each group in its original order; the loop's interleave
; count is pinned to 1. The chains touch context slots the alias analysis
; proves apart.
; A body whose chains may alias in memory (two unrelated pointers) and a
; body with few chains stay as they are.
; RUN: weft-opt -passes=weft-group-workitem-chains -S %s | FileCheck %s

; CHECK-LABEL: define void @eight_chains(
; CHECK: %l0 = load float
; CHECK-NEXT: %l1 = load float
; CHECK-NEXT: %l2 = load float
; CHECK-NEXT: %l3 = load float
; CHECK-NEXT: %m0 = fmul float %l0, %l0
; CHECK-NEXT: %m1 = fmul float %l1, %l1
; CHECK-NEXT: %m2 = fmul float %l2, %l2
; CHECK-NEXT: %m3 = fmul float %l3, %l3
; CHECK-NEXT: store float %m0
; CHECK-NEXT: store float %m1
; CHECK-NEXT: store float %m2
; CHECK-NEXT: store float %m3
; CHECK-NEXT: %l4 = load float
; CHECK-NEXT: %l5 = load float
; CHECK-NEXT: %l6 = load float
; CHECK-NEXT: %l7 = load float
; CHECK-NEXT: %m4 = fmul float %l4, %l4
; CHECK: store float %m7
; CHECK-NEXT: br i1 %done, label %exit, label %x.loop, !llvm.loop [[GROUPED:![0-9]+]]
; CHECK-LABEL: define void @may_alias(
; CHECK: %l6 = load float
; CHECK-NEXT: %l7 = load float
; CHECK-NEXT: %m0 = fmul float %l0, %l0
; CHECK-NEXT: %m1 = fmul float %l1, %l1
; CHECK: br i1 %done, label %exit, label %x.loop, !llvm.loop [[UNTOUCHED:![0-9]+]]
; CHECK-LABEL: define void @two_chains(
; CHECK: %l0 = load float
; CHECK-NEXT: %l1 = load float
; CHECK-NEXT: %m0 = fmul float %l0, %l0
; CHECK: br i1 %done, label %exit, label %x.loop, !llvm.loop [[FEW:![0-9]+]]
; CHECK: [[GROUPED]] = distinct !{[[GROUPED]], [[PAR:![0-9]+]], [[IC:![0-9]+]]}
; CHECK: [[IC]] = !{!"llvm.loop.interleave.count", i32 1}
; CHECK: [[UNTOUCHED]] = distinct !{[[UNTOUCHED]], [[PAR2:![0-9]+]]}
; CHECK: [[FEW]] = distinct !{[[FEW]], [[PAR3:![0-9]+]]}

define void @eight_chains(ptr noalias %ctx) {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %a0 = getelementptr inbounds float, ptr %ctx, i64 %x
  %a1 = getelementptr inbounds float, ptr %a0, i64 64
  %a2 = getelementptr inbounds float, ptr %a0, i64 128
  %a3 = getelementptr inbounds float, ptr %a0, i64 192
  %a4 = getelementptr inbounds float, ptr %a0, i64 256
  %a5 = getelementptr inbounds float, ptr %a0, i64 320
  %a6 = getelementptr inbounds float, ptr %a0, i64 384
  %a7 = getelementptr inbounds float, ptr %a0, i64 448
  %l0 = load float, ptr %a0, align 4, !llvm.access.group !1
  %l1 = load float, ptr %a1, align 4, !llvm.access.group !1
  %l2 = load float, ptr %a2, align 4, !llvm.access.group !1
  %l3 = load float, ptr %a3, align 4, !llvm.access.group !1
  %l4 = load float, ptr %a4, align 4, !llvm.access.group !1
  %l5 = load float, ptr %a5, align 4, !llvm.access.group !1
  %l6 = load float, ptr %a6, align 4, !llvm.access.group !1
  %l7 = load float, ptr %a7, align 4, !llvm.access.group !1
  %m0 = fmul float %l0, %l0
  %m1 = fmul float %l1, %l1
  %m2 = fmul float %l2, %l2
  %m3 = fmul float %l3, %l3
  %m4 = fmul float %l4, %l4
  %m5 = fmul float %l5, %l5
  %m6 = fmul float %l6, %l6
  %m7 = fmul float %l7, %l7
  store float %m0, ptr %a0, align 4, !llvm.access.group !1
  store float %m1, ptr %a1, align 4, !llvm.access.group !1
  store float %m2, ptr %a2, align 4, !llvm.access.group !1
  store float %m3, ptr %a3, align 4, !llvm.access.group !1
  store float %m4, ptr %a4, align 4, !llvm.access.group !1
  store float %m5, ptr %a5, align 4, !llvm.access.group !1
  store float %m6, ptr %a6, align 4, !llvm.access.group !1
  store float %m7, ptr %a7, align 4, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !0

exit:
  ret void
}

; %q may point anywhere in %p: chain 0's store may feed chain 4's load.
define void @may_alias(ptr %p, ptr %q) {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %a0 = getelementptr inbounds float, ptr %p, i64 %x
  %a1 = getelementptr inbounds float, ptr %a0, i64 64
  %a2 = getelementptr inbounds float, ptr %a0, i64 128
  %a3 = getelementptr inbounds float, ptr %a0, i64 192
  %a4 = getelementptr inbounds float, ptr %q, i64 %x
  %a5 = getelementptr inbounds float, ptr %a4, i64 64
  %a6 = getelementptr inbounds float, ptr %a4, i64 128
  %a7 = getelementptr inbounds float, ptr %a4, i64 192
  %l0 = load float, ptr %a0, align 4, !llvm.access.group !3
  %l1 = load float, ptr %a1, align 4, !llvm.access.group !3
  %l2 = load float, ptr %a2, align 4, !llvm.access.group !3
  %l3 = load float, ptr %a3, align 4, !llvm.access.group !3
  %l4 = load float, ptr %a4, align 4, !llvm.access.group !3
  %l5 = load float, ptr %a5, align 4, !llvm.access.group !3
  %l6 = load float, ptr %a6, align 4, !llvm.access.group !3
  %l7 = load float, ptr %a7, align 4, !llvm.access.group !3
  %m0 = fmul float %l0, %l0
  %m1 = fmul float %l1, %l1
  %m2 = fmul float %l2, %l2
  %m3 = fmul float %l3, %l3
  %m4 = fmul float %l4, %l4
  %m5 = fmul float %l5, %l5
  %m6 = fmul float %l6, %l6
  %m7 = fmul float %l7, %l7
  store float %m0, ptr %a0, align 4, !llvm.access.group !3
  store float %m1, ptr %a1, align 4, !llvm.access.group !3
  store float %m2, ptr %a2, align 4, !llvm.access.group !3
  store float %m3, ptr %a3, align 4, !llvm.access.group !3
  store float %m4, ptr %a4, align 4, !llvm.access.group !3
  store float %m5, ptr %a5, align 4, !llvm.access.group !3
  store float %m6, ptr %a6, align 4, !llvm.access.group !3
  store float %m7, ptr %a7, align 4, !llvm.access.group !3
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !2

exit:
  ret void
}

; Two chains fit the registers together.
define void @two_chains(ptr noalias %ctx) {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %a0 = getelementptr inbounds float, ptr %ctx, i64 %x
  %a1 = getelementptr inbounds float, ptr %a0, i64 64
  %l0 = load float, ptr %a0, align 4, !llvm.access.group !5
  %l1 = load float, ptr %a1, align 4, !llvm.access.group !5
  %m0 = fmul float %l0, %l0
  %m1 = fmul float %l1, %l1
  store float %m0, ptr %a0, align 4, !llvm.access.group !5
  store float %m1, ptr %a1, align 4, !llvm.access.group !5
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !4

exit:
  ret void
}

!0 = distinct !{!0, !10}
!1 = distinct !{}
!10 = !{!"llvm.loop.parallel_accesses", !1}
!2 = distinct !{!2, !12}
!3 = distinct !{}
!12 = !{!"llvm.loop.parallel_accesses", !3}
!4 = distinct !{!4, !14}
!5 = distinct !{}
!14 = !{!"llvm.loop.parallel_accesses", !5}
