; Calls get SLEEF variants for the vectorizer: u10 by default, u35 for sin
; (and its relaxed peers) where the function allows approximate math
; functions (-cl-fast-relaxed-math); exp has no relaxed form and stays u10.
; A direct u10 call, as lib/kernel/sleef.cl's vector builtins make, moves
; to u35 in such a function only.
; RUN: weft-opt -passes=weft-vector-math-variants -S %s | FileCheck %s

; CHECK-LABEL: define float @strict(
; CHECK: call float @llvm.sin.f32(float %x) #[[STRICTSIN:[0-9]+]]
; CHECK: call <16 x float> @Sleef_sinf16_u10avx512f(
define float @strict(float %x, <16 x float> %v) {
  %s = call float @llvm.sin.f32(float %x)
  %w = call <16 x float> @Sleef_sinf16_u10avx512f(<16 x float> %v)
  ret float %s
}

; CHECK-LABEL: define float @relaxed(
; CHECK: call float @llvm.sin.f32(float %x) #[[RELAXEDSIN:[0-9]+]]
; CHECK: call float @llvm.exp.f32(float %x) #[[RELAXEDEXP:[0-9]+]]
; CHECK: call <16 x float> @Sleef_sinf16_u35avx512f(
; CHECK: call <8 x double> @Sleef_atan2d8_u35avx512f(
; CHECK: call <16 x float> @Sleef_expf16_u10avx512f(
define float @relaxed(float %x, <16 x float> %v, <8 x double> %d) #0 {
  %s = call float @llvm.sin.f32(float %x)
  %e = call float @llvm.exp.f32(float %x)
  %w = call <16 x float> @Sleef_sinf16_u10avx512f(<16 x float> %v)
  %a = call <8 x double> @Sleef_atan2d8_u10avx512f(<8 x double> %d, <8 x double> %d)
  %f = call <16 x float> @Sleef_expf16_u10avx512f(<16 x float> %v)
  %r = fadd float %s, %e
  ret float %r
}

declare float @llvm.sin.f32(float)
declare float @llvm.exp.f32(float)
declare <16 x float> @Sleef_sinf16_u10avx512f(<16 x float>)
declare <16 x float> @Sleef_expf16_u10avx512f(<16 x float>)
declare <8 x double> @Sleef_atan2d8_u10avx512f(<8 x double>, <8 x double>)

attributes #0 = { "approx-func-fp-math"="true" }

; CHECK-DAG: attributes #[[STRICTSIN]] = { "vector-function-abi-variant"="_ZGV_LLVM_N16v_llvm.sin.f32(Sleef_sinf16_u10avx512f)" }
; CHECK-DAG: attributes #[[RELAXEDSIN]] = { "vector-function-abi-variant"="_ZGV_LLVM_N16v_llvm.sin.f32(Sleef_sinf16_u35avx512f)" }
; CHECK-DAG: attributes #[[RELAXEDEXP]] = { "vector-function-abi-variant"="_ZGV_LLVM_N16v_llvm.exp.f32(Sleef_expf16_u10avx512f)" }
