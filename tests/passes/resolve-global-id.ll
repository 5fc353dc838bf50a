; get_global_id(0) = GroupId[0] * EnqueuedLocalSize[0] + lid.x + GlobalOffset[0],
; read from the context with invariant loads, in a new K.workitem function.
; RUN: weft-opt -passes=weft-resolve-workitem-functions -S %s | FileCheck %s

declare i64 @_Z13get_global_idj(i32)

; CHECK-LABEL: define internal void @k.workitem(ptr addrspace(1) %p, ptr noalias nocapture readonly %ctx, i64 %lid.x, i64 %lid.y, i64 %lid.z)
; CHECK: [[GRP:%.*]] = load i64, ptr {{.*}}, !invariant.load
; CHECK: [[ENQ:%.*]] = load i64, ptr {{.*}}, !invariant.load
; CHECK: [[OFF:%.*]] = load i64, ptr {{.*}}, !invariant.load
; CHECK: [[MUL:%.*]] = mul i64 [[GRP]], [[ENQ]]
; CHECK: [[ADD:%.*]] = add i64 [[MUL]], %lid.x
; CHECK: [[GID:%.*]] = add i64 [[ADD]], [[OFF]]
; CHECK: getelementptr float, ptr addrspace(1) %p, i64 [[GID]]
; CHECK-NOT: call i64 @_Z13get_global_idj
; CHECK: attributes #{{[0-9]+}} = { "weft-workitem-of"="k" }
define spir_kernel void @k(ptr addrspace(1) %p) {
  %i = call i64 @_Z13get_global_idj(i32 0)
  %a = getelementptr float, ptr addrspace(1) %p, i64 %i
  store float 1.0, ptr addrspace(1) %a
  ret void
}
