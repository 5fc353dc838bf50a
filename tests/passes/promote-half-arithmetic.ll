; Half arithmetic becomes the float arithmetic the back end would make of
; it on a target without half instructions: fpext of each operand, the
; float operation (flags kept), fptrunc of the result; scalars and
; vectors, the binary operators and fmuladd/fma. Everything else on halves
; (loads, compares, fneg) is left alone.
; RUN: weft-opt -passes=weft-promote-half-arithmetic -S %s | FileCheck %s

declare half @llvm.fmuladd.f16(half, half, half)
declare <8 x half> @llvm.fma.v8f16(<8 x half>, <8 x half>, <8 x half>)

; CHECK-LABEL: define half @scalar(
; CHECK: %[[A:.*]] = fpext half %a to float
; CHECK: %[[B:.*]] = fpext half %b to float
; CHECK: %[[S:.*]] = fadd fast float %[[A]], %[[B]]
; CHECK: %sum = fptrunc float %[[S]] to half
; CHECK: call float @llvm.fmuladd.f32(float
; CHECK: %mad = fptrunc float {{.*}} to half
; CHECK: fneg half %mad
; CHECK: fcmp olt half
; CHECK-NOT: fadd {{.*}}half
define half @scalar(half %a, half %b, half %c) {
  %sum = fadd fast half %a, %b
  %mad = call half @llvm.fmuladd.f16(half %sum, half %b, half %c)
  %neg = fneg half %mad
  %lt = fcmp olt half %neg, %a
  %r = select i1 %lt, half %neg, half %a
  ret half %r
}

; CHECK-LABEL: define <8 x half> @vector(
; CHECK: fpext <8 x half> %a to <8 x float>
; CHECK: fdiv <8 x float>
; CHECK: call <8 x float> @llvm.fma.v8f32(<8 x float>
; CHECK: fptrunc <8 x float> {{.*}} to <8 x half>
; CHECK-NOT: x half> @llvm.fma
define <8 x half> @vector(<8 x half> %a, <8 x half> %b) {
  %q = fdiv <8 x half> %a, %b
  %f = call <8 x half> @llvm.fma.v8f16(<8 x half> %q, <8 x half> %b, <8 x half> %a)
  ret <8 x half> %f
}

; CHECK-LABEL: define float @untouched(
; CHECK-NEXT: fadd float %x, %y
define float @untouched(float %x, float %y) {
  %s = fadd float %x, %y
  ret float %s
}
