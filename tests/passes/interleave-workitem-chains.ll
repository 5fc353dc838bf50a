; A work-item loop whose body is one chain of dependent floating-point
; operations gets llvm.loop.interleave.count, so the vectorizer keeps several
; vector iterations (several chains) in flight; one with eight independent
; chains is left to loop-vectorize's own choice.
; RUN: weft-opt -passes=weft-interleave-workitem-loops -S %s | FileCheck %s

; CHECK-LABEL: define void @one_chain(
; CHECK: br i1 %done, label %exit, label %x.loop, !llvm.loop [[CHAIN:![0-9]+]]
; CHECK-LABEL: define void @eight_chains(
; CHECK: br i1 %done, label %exit, label %x.loop, !llvm.loop [[WIDE:![0-9]+]]
; CHECK: [[CHAIN]] = distinct !{[[CHAIN]], [[PAR:![0-9]+]], [[IC:![0-9]+]]}
; CHECK: [[IC]] = !{!"llvm.loop.interleave.count", i32 4}
; CHECK: [[WIDE]] = distinct !{[[WIDE]], [[PAR]]}
define void @one_chain(ptr %p) {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %addr = getelementptr inbounds float, ptr %p, i64 %x
  %x0 = load float, ptr %addr, align 4, !llvm.access.group !1
  %c0 = fmul float %x0, %x0
  %c1 = fmul float %c0, %c0
  %c2 = fmul float %c1, %c1
  %c3 = fmul float %c2, %c2
  %c4 = fmul float %c3, %c3
  %c5 = fmul float %c4, %c4
  %c6 = fmul float %c5, %c5
  %c7 = fmul float %c6, %c6
  %c8 = fmul float %c7, %c7
  %c9 = fmul float %c8, %c8
  %c10 = fmul float %c9, %c9
  %c11 = fmul float %c10, %c10
  %c12 = fmul float %c11, %c11
  %c13 = fmul float %c12, %c12
  %c14 = fmul float %c13, %c13
  %c15 = fmul float %c14, %c14
  %c16 = fmul float %c15, %c15
  %c17 = fmul float %c16, %c16
  %c18 = fmul float %c17, %c17
  %c19 = fmul float %c18, %c18
  %c20 = fmul float %c19, %c19
  %c21 = fmul float %c20, %c20
  %c22 = fmul float %c21, %c21
  %c23 = fmul float %c22, %c22
  %c24 = fmul float %c23, %c23
  %c25 = fmul float %c24, %c24
  %c26 = fmul float %c25, %c25
  %c27 = fmul float %c26, %c26
  %c28 = fmul float %c27, %c27
  %c29 = fmul float %c28, %c28
  %c30 = fmul float %c29, %c29
  %c31 = fmul float %c30, %c30
  %c32 = fmul float %c31, %c31
  %c33 = fmul float %c32, %c32
  %c34 = fmul float %c33, %c33
  %c35 = fmul float %c34, %c34
  %c36 = fmul float %c35, %c35
  %c37 = fmul float %c36, %c36
  %c38 = fmul float %c37, %c37
  %c39 = fmul float %c38, %c38
  store float %c39, ptr %addr, align 4, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !2

exit:
  ret void
}

define void @eight_chains(ptr %p, ptr %q) {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %addr = getelementptr inbounds float, ptr %p, i64 %x
  %x0 = load float, ptr %addr, align 4, !llvm.access.group !1
  %d0_0 = fadd float %x0, 1.0
  %d0_1 = fadd float %d0_0, 1.0
  %d0_2 = fadd float %d0_1, 1.0
  %d0_3 = fadd float %d0_2, 1.0
  %d0_4 = fadd float %d0_3, 1.0
  %d1_0 = fadd float %x0, 2.0
  %d1_1 = fadd float %d1_0, 2.0
  %d1_2 = fadd float %d1_1, 2.0
  %d1_3 = fadd float %d1_2, 2.0
  %d1_4 = fadd float %d1_3, 2.0
  %d2_0 = fadd float %x0, 3.0
  %d2_1 = fadd float %d2_0, 3.0
  %d2_2 = fadd float %d2_1, 3.0
  %d2_3 = fadd float %d2_2, 3.0
  %d2_4 = fadd float %d2_3, 3.0
  %d3_0 = fadd float %x0, 4.0
  %d3_1 = fadd float %d3_0, 4.0
  %d3_2 = fadd float %d3_1, 4.0
  %d3_3 = fadd float %d3_2, 4.0
  %d3_4 = fadd float %d3_3, 4.0
  %d4_0 = fadd float %x0, 5.0
  %d4_1 = fadd float %d4_0, 5.0
  %d4_2 = fadd float %d4_1, 5.0
  %d4_3 = fadd float %d4_2, 5.0
  %d4_4 = fadd float %d4_3, 5.0
  %d5_0 = fadd float %x0, 6.0
  %d5_1 = fadd float %d5_0, 6.0
  %d5_2 = fadd float %d5_1, 6.0
  %d5_3 = fadd float %d5_2, 6.0
  %d5_4 = fadd float %d5_3, 6.0
  %d6_0 = fadd float %x0, 7.0
  %d6_1 = fadd float %d6_0, 7.0
  %d6_2 = fadd float %d6_1, 7.0
  %d6_3 = fadd float %d6_2, 7.0
  %d6_4 = fadd float %d6_3, 7.0
  %d7_0 = fadd float %x0, 8.0
  %d7_1 = fadd float %d7_0, 8.0
  %d7_2 = fadd float %d7_1, 8.0
  %d7_3 = fadd float %d7_2, 8.0
  %d7_4 = fadd float %d7_3, 8.0
  %o0 = getelementptr inbounds float, ptr %q, i64 0
  store float %d0_4, ptr %o0, align 4, !llvm.access.group !1
  %o1 = getelementptr inbounds float, ptr %q, i64 1
  store float %d1_4, ptr %o1, align 4, !llvm.access.group !1
  %o2 = getelementptr inbounds float, ptr %q, i64 2
  store float %d2_4, ptr %o2, align 4, !llvm.access.group !1
  %o3 = getelementptr inbounds float, ptr %q, i64 3
  store float %d3_4, ptr %o3, align 4, !llvm.access.group !1
  %o4 = getelementptr inbounds float, ptr %q, i64 4
  store float %d4_4, ptr %o4, align 4, !llvm.access.group !1
  %o5 = getelementptr inbounds float, ptr %q, i64 5
  store float %d5_4, ptr %o5, align 4, !llvm.access.group !1
  %o6 = getelementptr inbounds float, ptr %q, i64 6
  store float %d6_4, ptr %o6, align 4, !llvm.access.group !1
  %o7 = getelementptr inbounds float, ptr %q, i64 7
  store float %d7_4, ptr %o7, align 4, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !4

exit:
  ret void
}

!1 = distinct !{}
!2 = distinct !{!2, !3}
!3 = !{!"llvm.loop.parallel_accesses", !1}
!4 = distinct !{!4, !3}
