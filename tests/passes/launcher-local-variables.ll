; An automatic __local variable (an addrspace(3) global from clang) becomes
; an alloca of the launcher's frame: one copy per work-group call, so that
; groups running on different threads do not share it.
; RUN: weft-opt -passes=weft-launcher -S %s | FileCheck %s

@k.tile = internal addrspace(3) global [16 x float] undef, align 4

; CHECK-NOT: @k.tile = internal
; CHECK-LABEL: define void @__weft_launch_k(
; CHECK: %weft.local.k.tile = alloca [16 x float], align 64
; CHECK: [[TILE:%.*]] = addrspacecast ptr %weft.local.k.tile to ptr addrspace(3)
; CHECK: getelementptr inbounds i8, ptr addrspace(3) [[TILE]], i64 12

define internal void @k.workgroup(ptr addrspace(1) %out, ptr %ctx) "weft-workgroup-of"="k" {
  %slot = getelementptr [16 x float], ptr addrspace(3) @k.tile, i64 0, i64 3
  store float 2.0, ptr addrspace(3) %slot
  %v = load float, ptr addrspace(3) %slot
  store float %v, ptr addrspace(1) %out
  ret void
}
