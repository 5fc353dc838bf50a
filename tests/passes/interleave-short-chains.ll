; A body of 16 to 31 operations is left to loop-vectorize's own
; interleaving, unless it is a chain that barely touches memory (at most one
; access per 4 operations, clpeak's float and double kernels): that one is
; interleaved too. A tiled product's k loop, 16 multiply-adds on 32 loads,
; is not.
; RUN: weft-opt -passes=weft-interleave-workitem-loops -S %s | FileCheck %s

; CHECK-LABEL: define void @short_chain(
; CHECK: br i1 %done, label %exit, label %x.loop, !llvm.loop [[CHAIN:![0-9]+]]
; CHECK-LABEL: define void @loads_per_step(
; CHECK: br i1 %done, label %exit, label %x.loop, !llvm.loop [[LOADS:![0-9]+]]
; CHECK-DAG: [[CHAIN]] = distinct !{[[CHAIN]], [[PAR:![0-9]+]], [[IC:![0-9]+]]}
; CHECK-DAG: [[IC]] = !{!"llvm.loop.interleave.count", i32 4}
; CHECK-DAG: [[LOADS]] = distinct !{[[LOADS]], [[PAR]]}

declare float @llvm.fmuladd.f32(float, float, float)

define void @short_chain(ptr %p, ptr %q) {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %addr = getelementptr inbounds float, ptr %p, i64 %x
  %c0 = load float, ptr %addr, align 4, !llvm.access.group !1
  %m1 = call float @llvm.fmuladd.f32(float %c0, float %c0, float %c0)
  %m2 = call float @llvm.fmuladd.f32(float %m1, float %m1, float %m1)
  %m3 = call float @llvm.fmuladd.f32(float %m2, float %m2, float %m2)
  %m4 = call float @llvm.fmuladd.f32(float %m3, float %m3, float %m3)
  %m5 = call float @llvm.fmuladd.f32(float %m4, float %m4, float %m4)
  %m6 = call float @llvm.fmuladd.f32(float %m5, float %m5, float %m5)
  %m7 = call float @llvm.fmuladd.f32(float %m6, float %m6, float %m6)
  %m8 = call float @llvm.fmuladd.f32(float %m7, float %m7, float %m7)
  %m9 = call float @llvm.fmuladd.f32(float %m8, float %m8, float %m8)
  %m10 = call float @llvm.fmuladd.f32(float %m9, float %m9, float %m9)
  %m11 = call float @llvm.fmuladd.f32(float %m10, float %m10, float %m10)
  %m12 = call float @llvm.fmuladd.f32(float %m11, float %m11, float %m11)
  %m13 = call float @llvm.fmuladd.f32(float %m12, float %m12, float %m12)
  %m14 = call float @llvm.fmuladd.f32(float %m13, float %m13, float %m13)
  %m15 = call float @llvm.fmuladd.f32(float %m14, float %m14, float %m14)
  %m16 = call float @llvm.fmuladd.f32(float %m15, float %m15, float %m15)
  store float %m16, ptr %addr, align 4, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 256
  br i1 %done, label %exit, label %x.loop, !llvm.loop !10

exit:
  ret void
}

define void @loads_per_step(ptr %p, ptr %q) {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %addr = getelementptr inbounds float, ptr %p, i64 %x
  %c0 = load float, ptr %addr, align 4, !llvm.access.group !1
  %qa1 = getelementptr inbounds float, ptr %q, i64 1
  %qv1 = load float, ptr %qa1, align 4, !llvm.access.group !1
  %qb1 = getelementptr inbounds float, ptr %q, i64 33
  %qw1 = load float, ptr %qb1, align 4, !llvm.access.group !1
  %m1 = call float @llvm.fmuladd.f32(float %qv1, float %qw1, float %c0)
  %qa2 = getelementptr inbounds float, ptr %q, i64 2
  %qv2 = load float, ptr %qa2, align 4, !llvm.access.group !1
  %qb2 = getelementptr inbounds float, ptr %q, i64 34
  %qw2 = load float, ptr %qb2, align 4, !llvm.access.group !1
  %m2 = call float @llvm.fmuladd.f32(float %qv2, float %qw2, float %m1)
  %qa3 = getelementptr inbounds float, ptr %q, i64 3
  %qv3 = load float, ptr %qa3, align 4, !llvm.access.group !1
  %qb3 = getelementptr inbounds float, ptr %q, i64 35
  %qw3 = load float, ptr %qb3, align 4, !llvm.access.group !1
  %m3 = call float @llvm.fmuladd.f32(float %qv3, float %qw3, float %m2)
  %qa4 = getelementptr inbounds float, ptr %q, i64 4
  %qv4 = load float, ptr %qa4, align 4, !llvm.access.group !1
  %qb4 = getelementptr inbounds float, ptr %q, i64 36
  %qw4 = load float, ptr %qb4, align 4, !llvm.access.group !1
  %m4 = call float @llvm.fmuladd.f32(float %qv4, float %qw4, float %m3)
  %qa5 = getelementptr inbounds float, ptr %q, i64 5
  %qv5 = load float, ptr %qa5, align 4, !llvm.access.group !1
  %qb5 = getelementptr inbounds float, ptr %q, i64 37
  %qw5 = load float, ptr %qb5, align 4, !llvm.access.group !1
  %m5 = call float @llvm.fmuladd.f32(float %qv5, float %qw5, float %m4)
  %qa6 = getelementptr inbounds float, ptr %q, i64 6
  %qv6 = load float, ptr %qa6, align 4, !llvm.access.group !1
  %qb6 = getelementptr inbounds float, ptr %q, i64 38
  %qw6 = load float, ptr %qb6, align 4, !llvm.access.group !1
  %m6 = call float @llvm.fmuladd.f32(float %qv6, float %qw6, float %m5)
  %qa7 = getelementptr inbounds float, ptr %q, i64 7
  %qv7 = load float, ptr %qa7, align 4, !llvm.access.group !1
  %qb7 = getelementptr inbounds float, ptr %q, i64 39
  %qw7 = load float, ptr %qb7, align 4, !llvm.access.group !1
  %m7 = call float @llvm.fmuladd.f32(float %qv7, float %qw7, float %m6)
  %qa8 = getelementptr inbounds float, ptr %q, i64 8
  %qv8 = load float, ptr %qa8, align 4, !llvm.access.group !1
  %qb8 = getelementptr inbounds float, ptr %q, i64 40
  %qw8 = load float, ptr %qb8, align 4, !llvm.access.group !1
  %m8 = call float @llvm.fmuladd.f32(float %qv8, float %qw8, float %m7)
  %qa9 = getelementptr inbounds float, ptr %q, i64 9
  %qv9 = load float, ptr %qa9, align 4, !llvm.access.group !1
  %qb9 = getelementptr inbounds float, ptr %q, i64 41
  %qw9 = load float, ptr %qb9, align 4, !llvm.access.group !1
  %m9 = call float @llvm.fmuladd.f32(float %qv9, float %qw9, float %m8)
  %qa10 = getelementptr inbounds float, ptr %q, i64 10
  %qv10 = load float, ptr %qa10, align 4, !llvm.access.group !1
  %qb10 = getelementptr inbounds float, ptr %q, i64 42
  %qw10 = load float, ptr %qb10, align 4, !llvm.access.group !1
  %m10 = call float @llvm.fmuladd.f32(float %qv10, float %qw10, float %m9)
  %qa11 = getelementptr inbounds float, ptr %q, i64 11
  %qv11 = load float, ptr %qa11, align 4, !llvm.access.group !1
  %qb11 = getelementptr inbounds float, ptr %q, i64 43
  %qw11 = load float, ptr %qb11, align 4, !llvm.access.group !1
  %m11 = call float @llvm.fmuladd.f32(float %qv11, float %qw11, float %m10)
  %qa12 = getelementptr inbounds float, ptr %q, i64 12
  %qv12 = load float, ptr %qa12, align 4, !llvm.access.group !1
  %qb12 = getelementptr inbounds float, ptr %q, i64 44
  %qw12 = load float, ptr %qb12, align 4, !llvm.access.group !1
  %m12 = call float @llvm.fmuladd.f32(float %qv12, float %qw12, float %m11)
  %qa13 = getelementptr inbounds float, ptr %q, i64 13
  %qv13 = load float, ptr %qa13, align 4, !llvm.access.group !1
  %qb13 = getelementptr inbounds float, ptr %q, i64 45
  %qw13 = load float, ptr %qb13, align 4, !llvm.access.group !1
  %m13 = call float @llvm.fmuladd.f32(float %qv13, float %qw13, float %m12)
  %qa14 = getelementptr inbounds float, ptr %q, i64 14
  %qv14 = load float, ptr %qa14, align 4, !llvm.access.group !1
  %qb14 = getelementptr inbounds float, ptr %q, i64 46
  %qw14 = load float, ptr %qb14, align 4, !llvm.access.group !1
  %m14 = call float @llvm.fmuladd.f32(float %qv14, float %qw14, float %m13)
  %qa15 = getelementptr inbounds float, ptr %q, i64 15
  %qv15 = load float, ptr %qa15, align 4, !llvm.access.group !1
  %qb15 = getelementptr inbounds float, ptr %q, i64 47
  %qw15 = load float, ptr %qb15, align 4, !llvm.access.group !1
  %m15 = call float @llvm.fmuladd.f32(float %qv15, float %qw15, float %m14)
  %qa16 = getelementptr inbounds float, ptr %q, i64 16
  %qv16 = load float, ptr %qa16, align 4, !llvm.access.group !1
  %qb16 = getelementptr inbounds float, ptr %q, i64 48
  %qw16 = load float, ptr %qb16, align 4, !llvm.access.group !1
  %m16 = call float @llvm.fmuladd.f32(float %qv16, float %qw16, float %m15)
  store float %m16, ptr %addr, align 4, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 256
  br i1 %done, label %exit, label %x.loop, !llvm.loop !20

exit:
  ret void
}

!1 = distinct !{}
!2 = !{!"llvm.loop.parallel_accesses", !1}
!10 = distinct !{!10, !2}
!20 = distinct !{!20, !2}
