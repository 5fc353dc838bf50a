; float4 arithmetic in an innermost work-item loop (llvm.loop.parallel_accesses)
; is split into scalars, loads and stores included, so loop-vectorize can
; widen the loop across work-items; the access groups stay on the split
; memory operations. A kernel whose vector code sits in its own loop inside
; the work-item loop keeps its vectors: split there, it would lose its SIMD.
; So does a loop that only streams vectors through memory, float16 or
; float4 (clpeak's global-bandwidth kernels): split, its loads would become
; interleaved groups whose shuffles cost more than the loop computes.
; RUN: weft-opt -passes=weft-scalarize-workitem-loops -S %s | FileCheck %s
; With AVX-512's registers a float4 access is narrower than a register and
; still counts as streaming.
; RUN: weft-opt -weft-target-cpu=znver4 -passes=weft-scalarize-workitem-loops -S %s | FileCheck %s --check-prefix=ZEN4
; ZEN4-LABEL: define void @mad4(
; ZEN4-NOT: load <4 x float>
; ZEN4: call float @llvm.fmuladd.f32(
; ZEN4-LABEL: define void @stream4(
; ZEN4: load <4 x float>
; ZEN4: fadd <4 x float>
; ZEN4: store <4 x float>

; CHECK-LABEL: define void @mad4(
; CHECK-NOT: load <4 x float>
; CHECK: load float, ptr %{{.*}}, align 16, !llvm.access.group
; CHECK-NOT: @llvm.fmuladd.v4f32
; CHECK: call float @llvm.fmuladd.f32(
; CHECK-NOT: store <4 x float>
; CHECK: store float %{{.*}}, !llvm.access.group
; CHECK-NOT: <4 x float> @llvm.fmuladd
; CHECK: ret void
define void @mad4(ptr %p, float %a) {
entry:
  %va.i = insertelement <4 x float> poison, float %a, i64 0
  %va = shufflevector <4 x float> %va.i, <4 x float> poison, <4 x i32> zeroinitializer
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %addr = getelementptr inbounds <4 x float>, ptr %p, i64 %x
  %v = load <4 x float>, ptr %addr, align 16, !llvm.access.group !1
  %m1 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %v, <4 x float> %va, <4 x float> %va)
  %m2 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %m1, <4 x float> %v, <4 x float> %m1)
  %m3 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %m2, <4 x float> %m1, <4 x float> %m2)
  %m4 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %m3, <4 x float> %m2, <4 x float> %m3)
  %m5 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %m4, <4 x float> %m3, <4 x float> %m4)
  %m6 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %m5, <4 x float> %m4, <4 x float> %m5)
  %m7 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %m6, <4 x float> %m5, <4 x float> %m6)
  %m = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %m7, <4 x float> %m6, <4 x float> %m7)
  store <4 x float> %m, ptr %addr, align 16, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !2

exit:
  ret void
}

; CHECK-LABEL: define void @own_loop_inside(
; CHECK: inner:
; CHECK: call <4 x float> @llvm.fmuladd.v4f32(
define void @own_loop_inside(ptr %p) {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %addr = getelementptr inbounds <4 x float>, ptr %p, i64 %x
  %v0 = load <4 x float>, ptr %addr, align 16, !llvm.access.group !3
  br label %inner

inner:
  %i = phi i32 [ 0, %x.loop ], [ %i.next, %inner ]
  %v = phi <4 x float> [ %v0, %x.loop ], [ %m, %inner ]
  %m = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %v, <4 x float> %v, <4 x float> %v)
  %i.next = add nuw nsw i32 %i, 1
  %inner.done = icmp eq i32 %i.next, 128
  br i1 %inner.done, label %x.latch, label %inner

x.latch:
  store <4 x float> %m, ptr %addr, align 16, !llvm.access.group !3
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !4

exit:
  ret void
}

; CHECK-LABEL: define void @stream4(
; CHECK: load <4 x float>
; CHECK: fadd <4 x float>
; CHECK: store <4 x float>
; CHECK-LABEL: define void @stream16(
; CHECK: load <16 x float>
; CHECK: fadd <16 x float>
; CHECK: store <16 x float>
define void @stream4(ptr %p, ptr %q) {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %pa = getelementptr inbounds <4 x float>, ptr %p, i64 %x
  %qa = getelementptr inbounds <4 x float>, ptr %q, i64 %x
  %a = load <4 x float>, ptr %pa, align 16, !llvm.access.group !21
  %b = load <4 x float>, ptr %qa, align 16, !llvm.access.group !21
  %s = fadd <4 x float> %a, %b
  store <4 x float> %s, ptr %qa, align 16, !llvm.access.group !21
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !20

exit:
  ret void
}

define void @stream16(ptr %p, ptr %q) {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %a = getelementptr inbounds <16 x float>, ptr %p, i64 %x
  %b = getelementptr inbounds <16 x float>, ptr %q, i64 %x
  %va = load <16 x float>, ptr %a, align 64, !llvm.access.group !7
  %vb = load <16 x float>, ptr %b, align 64, !llvm.access.group !7
  %s = fadd <16 x float> %va, %vb
  store <16 x float> %s, ptr %a, align 64, !llvm.access.group !7
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !8

exit:
  ret void
}

declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>)

!1 = distinct !{}
!2 = distinct !{!2, !5}
!5 = !{!"llvm.loop.parallel_accesses", !1}
!3 = distinct !{}
!4 = distinct !{!4, !6}
!6 = !{!"llvm.loop.parallel_accesses", !3}
!7 = distinct !{}
!8 = distinct !{!8, !9}
!9 = !{!"llvm.loop.parallel_accesses", !7}
!20 = distinct !{!20, !22}
!21 = distinct !{}
!22 = !{!"llvm.loop.parallel_accesses", !21}
