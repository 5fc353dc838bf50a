; What InstCombine made of vector code before the split would keep the
; split loop from the vectorizer ("instruction return type cannot be
; vectorized"); the pass undoes it. any() of a compare (sleef.cl's cosh
; repair), a bitcast of the <4 x i1> to i4 tested against 0, becomes an or
; of the four lanes. A float2 builtin's `.lo` of its padded float4 SLEEF
; call, stored as a double, would come back as a <2 x float> store of the
; split halves: a second round splits it into two float stores.
; RUN: weft-opt -weft-target-cpu=znver4 -passes=weft-scalarize-workitem-loops -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @any4(
; CHECK-NOT: <4 x i1>
; CHECK: %large.i0 = fcmp ogt float %v.i0, 8.800000e+01
; CHECK: %large.i3 = fcmp ogt float %v.i3, 8.800000e+01
; CHECK: [[OR1:%.*]] = or i1 %large.i0, %large.i1
; CHECK: [[OR2:%.*]] = or i1 [[OR1]], %large.i2
; CHECK: %any = or i1 [[OR2]], %large.i3
; CHECK: br i1 %any, label %repair, label %x.latch
; CHECK-NOT: <4 x
; CHECK: ret void
define void @any4(ptr %p) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %addr = getelementptr inbounds <4 x float>, ptr %p, i64 %x
  %v = load <4 x float>, ptr %addr, align 16, !llvm.access.group !1
  %e = call <4 x float> @Sleef_coshf4_u35avx2128(<4 x float> %v)
  %large = fcmp ogt <4 x float> %v, <float 8.800000e+01, float 8.800000e+01, float 8.800000e+01, float 8.800000e+01>
  %mask = bitcast <4 x i1> %large to i4
  %any = icmp ne i4 %mask, 0
  br i1 %any, label %repair, label %x.latch

repair:
  %h = call <4 x float> @Sleef_expf4_u10avx2128(<4 x float> %v)
  %f = select <4 x i1> %large, <4 x float> %h, <4 x float> %e
  br label %x.latch

x.latch:
  %r = phi <4 x float> [ %e, %x.loop ], [ %f, %repair ]
  store <4 x float> %r, ptr %addr, align 16, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !0

exit:
  ret void
}

; CHECK-LABEL: define void @lo2(
; CHECK: [[H0:%.*]] = call float @Sleef_hypotf_u35(float %v.i0, float %v.i0)
; CHECK: [[H1:%.*]] = call float @Sleef_hypotf_u35(float %v.i1, float %v.i1)
; CHECK-NOT: @Sleef_hypotf_u35
; CHECK: store float [[H0]], ptr %addr
; CHECK: store float [[H1]], ptr
; CHECK-NOT: <2 x
; CHECK: ret void
define void @lo2(ptr %p) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %addr = getelementptr inbounds <2 x float>, ptr %p, i64 %x
  %v = load <2 x float>, ptr %addr, align 8, !llvm.access.group !3
  %w = shufflevector <2 x float> %v, <2 x float> poison, <4 x i32> <i32 0, i32 1, i32 0, i32 1>
  %e = call <4 x float> @Sleef_hypotf4_u35avx2128(<4 x float> %w, <4 x float> %w)
  %b = bitcast <4 x float> %e to <2 x double>
  %d = extractelement <2 x double> %b, i64 0
  store double %d, ptr %addr, align 8, !llvm.access.group !3
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !2

exit:
  ret void
}

declare <4 x float> @Sleef_coshf4_u35avx2128(<4 x float>)
declare <4 x float> @Sleef_expf4_u10avx2128(<4 x float>)
declare <4 x float> @Sleef_hypotf4_u35avx2128(<4 x float>, <4 x float>)

attributes #0 = { "prefer-vector-width"="512" }

!0 = distinct !{!0, !10}
!1 = distinct !{}
!10 = !{!"llvm.loop.parallel_accesses", !1}
!2 = distinct !{!2, !12}
!3 = distinct !{}
!12 = !{!"llvm.loop.parallel_accesses", !3}
