; A kernel built with -cl-denorms-are-zero (denormal mode preserve-sign)
; runs with MXCSR's FTZ and DAZ bits (0x8040) set, restored after; a kernel
; without it leaves MXCSR alone.
; RUN: weft-opt -passes=weft-launcher -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @__weft_launch_ftz(
; CHECK: call void @llvm.x86.sse.stmxcsr(ptr [[SAVED:%.*]])
; CHECK: [[OLD:%.*]] = load i32, ptr [[SAVED]]
; CHECK: [[NEW:%.*]] = or i32 [[OLD]], 32832
; CHECK: store i32 [[NEW]], ptr [[FLUSH:%[^,]+]]
; CHECK: call void @llvm.x86.sse.ldmxcsr(ptr [[FLUSH]])
; CHECK: fmul float
; CHECK: call void @llvm.x86.sse.ldmxcsr(ptr [[SAVED]])
; CHECK-NEXT: ret void
define internal void @ftz.workgroup(ptr addrspace(1) %out, float %a, ptr %ctx) #0 {
  %m = fmul float %a, 0.5
  store float %m, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define void @__weft_launch_ieee(
; CHECK-NOT: mxcsr
; CHECK: ret void
define internal void @ieee.workgroup(ptr addrspace(1) %out, float %a, ptr %ctx) "weft-workgroup-of"="ieee" {
  %m = fmul float %a, 0.5
  store float %m, ptr addrspace(1) %out
  ret void
}

attributes #0 = { "weft-workgroup-of"="ftz" "denormal-fp-math"="preserve-sign,preserve-sign" }
