; Half arithmetic is float arithmetic between conversions. LLVM 19's X86
; cost model prices F16C conversions of more than 4 lanes as if each lane
; were converted alone, so a work-item loop of half mad chains vectorizes 4
; wide on AVX2 (prefix BEFORE) where the float loop takes 8. Before the
; vectorizer the scalar half <-> float conversions of innermost loops
; become calls with vector variants (prefix FORM; up to a register of
; floats, of halves where there are 32 vector registers as on AVX-512);
; the loop then vectorizes at the float width (prefix VEC), and afterwards
; every call is its conversion again (prefix LOWER). Outside loops,
; double -> half (no F16C instruction) and explicit vectors are left alone.
; RUN: weft-opt -weft-target-cpu=x86-64-v4 -passes=weft-form-half-conversion-calls -S %s | FileCheck %s --check-prefix=FORM
; RUN: weft-opt -weft-target-cpu=x86-64-v3 -passes=loop-vectorize -S %s | FileCheck %s --check-prefix=BEFORE
; RUN: weft-opt -weft-target-cpu=x86-64-v3 -passes='weft-form-half-conversion-calls,loop-vectorize' -S %s | FileCheck %s --check-prefix=VEC
; RUN: weft-opt -weft-target-cpu=x86-64-v3 -passes='weft-form-half-conversion-calls,loop-vectorize,weft-lower-half-conversion-calls' -S %s | FileCheck %s --check-prefix=LOWER

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; FORM-LABEL: define void @mad_chain(
; FORM: entry:
; FORM: %a.h = fptrunc float %a to half
; FORM: loop:
; FORM: %x.f = call float @__weft_half_to_float(half %x.h) #[[EXT:[0-9]+]]
; FORM: %y.f = call float @__weft_half_to_float(half %y.h) #[[EXT]]
; FORM: %m1.h = call half @__weft_float_to_half(float %m1) #[[TRUNC:[0-9]+]]
; FORM: %m1.f = call float @__weft_half_to_float(half %m1.h) #[[EXT]]
; FORM: %m2.h = call half @__weft_float_to_half(float %m2) #[[TRUNC]]
; FORM-NOT: fpext
; FORM-NOT: fptrunc
; FORM: exit:
; FORM-LABEL: define void @left_alone(
; FORM: fptrunc double %d to half
; FORM: fpext <4 x half> %v to <4 x float>
; FORM: declare float @__weft_half_to_float(half) #[[DECL:[0-9]+]]
; FORM: declare <16 x float> @__weft_half_to_float_v16(<16 x half>)
; FORM: declare <32 x half> @__weft_float_to_half_v32(<32 x float>)
; FORM-NOT: _v64
; FORM: attributes #[[DECL]] = { nounwind speculatable willreturn memory(none) }
; FORM: attributes #[[EXT]] = { "vector-function-abi-variant"="_ZGV_LLVM_N2v___weft_half_to_float(__weft_half_to_float_v2),_ZGV_LLVM_N4v___weft_half_to_float(__weft_half_to_float_v4),_ZGV_LLVM_N8v___weft_half_to_float(__weft_half_to_float_v8),_ZGV_LLVM_N16v___weft_half_to_float(__weft_half_to_float_v16),_ZGV_LLVM_N32v___weft_half_to_float(__weft_half_to_float_v32)" }
; FORM: attributes #[[TRUNC]] = { "vector-function-abi-variant"="_ZGV_LLVM_N2v___weft_float_to_half(__weft_float_to_half_v2),{{.*}}" }

; BEFORE-LABEL: define void @mad_chain(
; BEFORE: vector.body:
; BEFORE: fpext <4 x half>
; BEFORE: call <4 x float> @llvm.fmuladd.v4f32(

; VEC-LABEL: define void @mad_chain(
; VEC: vector.body:
; VEC: call <8 x float> @__weft_half_to_float_v8(<8 x half>
; VEC: call <8 x float> @llvm.fmuladd.v8f32(
; VEC: call <8 x half> @__weft_float_to_half_v8(<8 x float>

; LOWER-LABEL: define void @mad_chain(
; LOWER: vector.body:
; LOWER: %[[X:.*]] = fpext <8 x half> %{{.*}} to <8 x float>
; LOWER: %[[M1:.*]] = call <8 x float> @llvm.fmuladd.v8f32(
; LOWER: %[[R1:.*]] = fptrunc <8 x float> %[[M1]] to <8 x half>
; LOWER: fpext <8 x half> %[[R1]] to <8 x float>
; LOWER-NOT: call {{.*}}@__weft_
; LOWER-LABEL: define void @left_alone(

; A work-item loop of x = mad(y, x, y); y = mad(x, y, x) on halves, as
; half.cl's mad and O3 leave it.
define void @mad_chain(ptr noalias %xs, ptr noalias %ys, float %a) #0 {
entry:
  %a.h = fptrunc float %a to half
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %xp = getelementptr inbounds half, ptr %xs, i64 %i
  %yp = getelementptr inbounds half, ptr %ys, i64 %i
  %x.h = load half, ptr %xp, align 2, !llvm.access.group !0
  %y.h = load half, ptr %yp, align 2, !llvm.access.group !0
  %x.f = fpext half %x.h to float
  %y.f = fpext half %y.h to float
  %m1 = call float @llvm.fmuladd.f32(float %y.f, float %x.f, float %y.f)
  %m1.h = fptrunc float %m1 to half
  %m1.f = fpext half %m1.h to float
  %m2 = call float @llvm.fmuladd.f32(float %m1.f, float %y.f, float %m1.f)
  %m2.h = fptrunc float %m2 to half
  store half %m1.h, ptr %xp, align 2, !llvm.access.group !0
  store half %m2.h, ptr %yp, align 2, !llvm.access.group !0
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, 256
  br i1 %done, label %exit, label %loop, !llvm.loop !1

exit:
  store half %a.h, ptr %xs, align 2
  ret void
}

define void @left_alone(ptr noalias %hs, ptr noalias %vs, double %d) #0 {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %hp = getelementptr inbounds half, ptr %hs, i64 %i
  %d.h = fptrunc double %d to half
  store half %d.h, ptr %hp, align 2, !llvm.access.group !0
  %vp = getelementptr inbounds <4 x half>, ptr %vs, i64 %i
  %v = load <4 x half>, ptr %vp, align 8, !llvm.access.group !0
  %v.f = fpext <4 x half> %v to <4 x float>
  %v.2 = fadd <4 x float> %v.f, %v.f
  %v.h = fptrunc <4 x float> %v.2 to <4 x half>
  store <4 x half> %v.h, ptr %vp, align 8, !llvm.access.group !0
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, 256
  br i1 %done, label %exit, label %loop, !llvm.loop !3

exit:
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)

; As Weft retargets every function: the whole register (WorkGroupCompiler.cpp).
attributes #0 = { "prefer-vector-width"="512" }

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
!3 = distinct !{!3, !2}
