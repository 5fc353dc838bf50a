; Calls get SLEEF variants for the vectorizer, one per register width
; (AVX-512 down to 16 bytes), of the accuracy the OpenCL bound allows:
; u35 for sin (bound 4) and hypot (4), u10 for exp (3); glibc's double
; hypot likewise, its tan (tanpi's, whose reduction adds error of its own)
; u10. SLEEF's scalar functions, called by name, get the vector forms of
; their own accuracy: Sleef_acosf_u10 (acospi's) keeps u10. Where the
; function allows approximate math functions (-cl-fast-relaxed-math), the
; float u10 acos, direct or vector, moves to u35; double keeps u10 (there
; is no relaxed table for double), and so does exp, which has no u35 form.
; RUN: weft-opt -passes=weft-vector-math-variants -S %s | FileCheck %s

; CHECK-LABEL: define float @strict(
; CHECK: call float @llvm.sin.f32(float %x) #[[SIN:[0-9]+]]
; CHECK: call float @llvm.exp.f32(float %x) #[[EXP:[0-9]+]]
; CHECK: call float @Sleef_hypotf_u35(float %x, float %x) #[[HYPOTF:[0-9]+]]
; CHECK: call float @Sleef_acosf_u10(float %x) #[[ACOSF10:[0-9]+]]
; CHECK: call double @hypot(double %d, double %d) #[[HYPOT:[0-9]+]]
; CHECK: call double @tan(double %d) #[[TAN:[0-9]+]]
; CHECK: call <16 x float> @Sleef_acosf16_u10avx512f(
define float @strict(float %x, double %d, <16 x float> %v) {
  %s = call float @llvm.sin.f32(float %x)
  %e = call float @llvm.exp.f32(float %x)
  %h = call float @Sleef_hypotf_u35(float %x, float %x)
  %a = call float @Sleef_acosf_u10(float %x)
  %hd = call double @hypot(double %d, double %d)
  %t = call double @tan(double %d)
  %w = call <16 x float> @Sleef_acosf16_u10avx512f(<16 x float> %v)
  %r = fadd float %s, %e
  ret float %r
}

; CHECK-LABEL: define float @relaxed(
; CHECK: call float @Sleef_acosf_u35(float %x) #[[ACOSF35:[0-9]+]]
; CHECK: call double @Sleef_acos_u10(double %d) #[[ACOSD10:[0-9]+]]
; CHECK: call float @llvm.exp.f32(float %x) #[[EXP]]
; CHECK: call <16 x float> @Sleef_acosf16_u35avx512f(
; CHECK: call <8 x double> @Sleef_atan2d8_u10avx512f(
; CHECK: call <16 x float> @Sleef_expf16_u10avx512f(
define float @relaxed(float %x, double %d, <16 x float> %v, <8 x double> %w) #0 {
  %a = call float @Sleef_acosf_u10(float %x)
  %ad = call double @Sleef_acos_u10(double %d)
  %e = call float @llvm.exp.f32(float %x)
  %av = call <16 x float> @Sleef_acosf16_u10avx512f(<16 x float> %v)
  %t = call <8 x double> @Sleef_atan2d8_u10avx512f(<8 x double> %w, <8 x double> %w)
  %f = call <16 x float> @Sleef_expf16_u10avx512f(<16 x float> %v)
  %r = fadd float %a, %e
  ret float %r
}

declare float @llvm.sin.f32(float)
declare float @llvm.exp.f32(float)
declare float @Sleef_hypotf_u35(float, float)
declare float @Sleef_acosf_u10(float)
declare double @Sleef_acos_u10(double)
declare double @hypot(double, double)
declare double @tan(double)
declare <16 x float> @Sleef_acosf16_u10avx512f(<16 x float>)
declare <16 x float> @Sleef_expf16_u10avx512f(<16 x float>)
declare <8 x double> @Sleef_atan2d8_u10avx512f(<8 x double>, <8 x double>)

attributes #0 = { "approx-func-fp-math"="true" }

; CHECK-DAG: attributes #[[SIN]] = { "vector-function-abi-variant"="_ZGV_LLVM_N16v_llvm.sin.f32(Sleef_sinf16_u35avx512f),_ZGV_LLVM_N8v_llvm.sin.f32(Sleef_sinf8_u35avx2),_ZGV_LLVM_N4v_llvm.sin.f32(Sleef_sinf4_u35avx2128)" }
; CHECK-DAG: attributes #[[EXP]] = { "vector-function-abi-variant"="_ZGV_LLVM_N16v_llvm.exp.f32(Sleef_expf16_u10avx512f),_ZGV_LLVM_N8v_llvm.exp.f32(Sleef_expf8_u10avx2),_ZGV_LLVM_N4v_llvm.exp.f32(Sleef_expf4_u10avx2128)" }
; CHECK-DAG: attributes #[[HYPOTF]] = { "vector-function-abi-variant"="_ZGV_LLVM_N16vv_Sleef_hypotf_u35(Sleef_hypotf16_u35avx512f),_ZGV_LLVM_N8vv_Sleef_hypotf_u35(Sleef_hypotf8_u35avx2),_ZGV_LLVM_N4vv_Sleef_hypotf_u35(Sleef_hypotf4_u35avx2128)" }
; CHECK-DAG: attributes #[[ACOSF10]] = { "vector-function-abi-variant"="_ZGV_LLVM_N16v_Sleef_acosf_u10(Sleef_acosf16_u10avx512f),_ZGV_LLVM_N8v_Sleef_acosf_u10(Sleef_acosf8_u10avx2),_ZGV_LLVM_N4v_Sleef_acosf_u10(Sleef_acosf4_u10avx2128)" }
; CHECK-DAG: attributes #[[HYPOT]] = { "vector-function-abi-variant"="_ZGV_LLVM_N8vv_hypot(Sleef_hypotd8_u35avx512f),_ZGV_LLVM_N4vv_hypot(Sleef_hypotd4_u35avx2),_ZGV_LLVM_N2vv_hypot(Sleef_hypotd2_u35avx2128)" }
; CHECK-DAG: attributes #[[TAN]] = { "vector-function-abi-variant"="_ZGV_LLVM_N8v_tan(Sleef_tand8_u10avx512f),_ZGV_LLVM_N4v_tan(Sleef_tand4_u10avx2),_ZGV_LLVM_N2v_tan(Sleef_tand2_u10avx2128)" }
; CHECK-DAG: attributes #[[ACOSF35]] = { "vector-function-abi-variant"="_ZGV_LLVM_N16v_Sleef_acosf_u35(Sleef_acosf16_u35avx512f),_ZGV_LLVM_N8v_Sleef_acosf_u35(Sleef_acosf8_u35avx2),_ZGV_LLVM_N4v_Sleef_acosf_u35(Sleef_acosf4_u35avx2128)" }
; CHECK-DAG: attributes #[[ACOSD10]] = { "vector-function-abi-variant"="_ZGV_LLVM_N8v_Sleef_acos_u10(Sleef_acosd8_u10avx512f),_ZGV_LLVM_N4v_Sleef_acos_u10(Sleef_acosd4_u10avx2),_ZGV_LLVM_N2v_Sleef_acos_u10(Sleef_acosd2_u10avx2128)" }
