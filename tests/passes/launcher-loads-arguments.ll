; The launcher reads argument I through Args[I]: a buffer's pointer and a
; scalar are loaded by their IR type, a byval struct gets the pointer itself
; (which inlining turns into the copy byval promises the callee).
; RUN: weft-opt -passes=weft-launcher -S %s | FileCheck %s

%struct.S = type { i32, float }

; CHECK-LABEL: define void @__weft_launch_k(ptr noalias nocapture readonly %args, ptr noalias nocapture readonly dereferenceable(224) %ctx)
; CHECK: [[S0:%.*]] = getelementptr inbounds ptr, ptr %args, i64 0
; CHECK: [[P0:%.*]] = load ptr, ptr [[S0]], align 8, !invariant.load
; CHECK: [[BUF:%.*]] = load ptr addrspace(1), ptr [[P0]], align 1
; CHECK: [[S1:%.*]] = getelementptr inbounds ptr, ptr %args, i64 1
; CHECK: [[P1:%.*]] = load ptr, ptr [[S1]], align 8
; CHECK: [[A:%.*]] = load float, ptr [[P1]], align 1
; CHECK: [[S2:%.*]] = getelementptr inbounds ptr, ptr %args, i64 2
; CHECK: [[P2:%.*]] = load ptr, ptr [[S2]], align 8
; CHECK-NOT: load %struct.S
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 1 [[COPY:%.*]], ptr align 1 [[P2]], i64 8, i1 false)
; CHECK: getelementptr inbounds %struct.S, ptr [[COPY]], i32 0, i32 1
; CHECK: store float {{.*}}, ptr addrspace(1) [[BUF]]
; CHECK-NOT: call void @k.workgroup
; CHECK: ret void

define internal void @k.workgroup(ptr addrspace(1) %out, float %a, ptr byval(%struct.S) align 4 %s, ptr %ctx) "weft-workgroup-of"="k" {
  %f = getelementptr inbounds %struct.S, ptr %s, i32 0, i32 1
  %b = load float, ptr %f
  %sum = fadd float %a, %b
  store float %sum, ptr addrspace(1) %out
  ret void
}
