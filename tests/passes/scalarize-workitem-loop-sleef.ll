; A vector math builtin on float4 calls SLEEF's 4-lane function once per
; work-item (lib/kernel/sleef.cl): a quarter of a 512-bit register. In an
; innermost work-item loop the call is split into one call per lane of
; SLEEF's scalar function of the same accuracy, declared without memory
; effects and carrying the vector variants of every register width, so the
; vectorizer calls the 16-lane function across work-items; the rest of the
; loop is split as usual. A float16 call already fills the registers and
; keeps the loop's vectors; so does a float8 call, whose eight-lane
; deinterleaving would cost more than the call saves.
; RUN: weft-opt -weft-target-cpu=znver4 -passes=weft-scalarize-workitem-loops -S %s | FileCheck %s
; Without the target's 64-byte registers a float4 call is as wide as they are.
; RUN: weft-opt -passes=weft-scalarize-workitem-loops -S %s | FileCheck %s --check-prefix=NARROW

target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @exp4(
; CHECK-NOT: @Sleef_expf4_u10avx2128(
; CHECK: call float @Sleef_expf_u10(float %{{.*}}) #[[VARIANTS:[0-9]+]]
; CHECK: call float @Sleef_expf_u10(float %{{.*}}) #[[VARIANTS]]
; CHECK: call float @Sleef_expf_u10(float %{{.*}}) #[[VARIANTS]]
; CHECK: call float @Sleef_expf_u10(float %{{.*}}) #[[VARIANTS]]
; CHECK-NOT: @Sleef_expf4_u10avx2128(
; CHECK: ret void
; CHECK-LABEL: define void @atan2_4(
; CHECK-COUNT-4: call float @Sleef_atan2f_u35(float %{{.*}}, float %{{.*}}) #[[VARIANTS2:[0-9]+]]
; CHECK-LABEL: define void @exp16(
; CHECK: call <16 x float> @Sleef_expf16_u10avx512f(<16 x float>
; CHECK-LABEL: define void @exp8(
; CHECK: call <8 x float> @Sleef_expf8_u10avx2(<8 x float>
; CHECK: declare float @Sleef_expf_u10(float) #[[PURE:[0-9]+]]
; CHECK: attributes #[[PURE]] = { nounwind willreturn memory(none) }
; CHECK: attributes #[[VARIANTS]] = { "vector-function-abi-variant"="_ZGV_LLVM_N16v_Sleef_expf_u10(Sleef_expf16_u10avx512f),_ZGV_LLVM_N8v_Sleef_expf_u10(Sleef_expf8_u10avx2),_ZGV_LLVM_N4v_Sleef_expf_u10(Sleef_expf4_u10avx2128)" }
; CHECK: attributes #[[VARIANTS2]] = { "vector-function-abi-variant"="_ZGV_LLVM_N16vv_Sleef_atan2f_u35(Sleef_atan2f16_u35avx512f),

; NARROW-LABEL: define void @exp4(
; NARROW: call <4 x float> @Sleef_expf4_u10avx2128(

define void @exp4(ptr %p) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %addr = getelementptr inbounds <4 x float>, ptr %p, i64 %x
  %v = load <4 x float>, ptr %addr, align 16, !llvm.access.group !1
  %e = call <4 x float> @Sleef_expf4_u10avx2128(<4 x float> %v)
  store <4 x float> %e, ptr %addr, align 16, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !0

exit:
  ret void
}

define void @atan2_4(ptr %p) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %addr = getelementptr inbounds <4 x float>, ptr %p, i64 %x
  %v = load <4 x float>, ptr %addr, align 16, !llvm.access.group !3
  %e = call <4 x float> @Sleef_atan2f4_u35avx2128(<4 x float> %v, <4 x float> %v)
  store <4 x float> %e, ptr %addr, align 16, !llvm.access.group !3
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !2

exit:
  ret void
}

define void @exp16(ptr %p) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %addr = getelementptr inbounds <16 x float>, ptr %p, i64 %x
  %v = load <16 x float>, ptr %addr, align 64, !llvm.access.group !5
  %e = call <16 x float> @Sleef_expf16_u10avx512f(<16 x float> %v)
  store <16 x float> %e, ptr %addr, align 64, !llvm.access.group !5
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !4

exit:
  ret void
}

define void @exp8(ptr %p) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %addr = getelementptr inbounds <8 x float>, ptr %p, i64 %x
  %v = load <8 x float>, ptr %addr, align 32, !llvm.access.group !7
  %e = call <8 x float> @Sleef_expf8_u10avx2(<8 x float> %v)
  store <8 x float> %e, ptr %addr, align 32, !llvm.access.group !7
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !6

exit:
  ret void
}

declare <4 x float> @Sleef_expf4_u10avx2128(<4 x float>)
declare <8 x float> @Sleef_expf8_u10avx2(<8 x float>)
declare <4 x float> @Sleef_atan2f4_u35avx2128(<4 x float>, <4 x float>)
declare <16 x float> @Sleef_expf16_u10avx512f(<16 x float>)

attributes #0 = { "prefer-vector-width"="512" }

!0 = distinct !{!0, !10}
!1 = distinct !{}
!10 = !{!"llvm.loop.parallel_accesses", !1}
!2 = distinct !{!2, !12}
!3 = distinct !{}
!12 = !{!"llvm.loop.parallel_accesses", !3}
!4 = distinct !{!4, !14}
!5 = distinct !{}
!14 = !{!"llvm.loop.parallel_accesses", !5}
!6 = distinct !{!6, !16}
!7 = distinct !{}
!16 = !{!"llvm.loop.parallel_accesses", !7}
