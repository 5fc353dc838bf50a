; Dimension indices past 2 give the specification's defaults: 0 for ids,
; 1 for sizes. get_local_id(1) is the lid.y parameter.
; RUN: weft-opt -passes=weft-resolve-workitem-functions -S %s | FileCheck %s

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z14get_local_sizej(i32)
declare i64 @_Z13get_global_idj(i32)

; CHECK-LABEL: define internal void @k.workitem(
; CHECK: store i64 0, ptr addrspace(1) %p
; CHECK: store i64 1, ptr addrspace(1) %q
; CHECK: store i64 %lid.y, ptr addrspace(1) %r
define spir_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(1) %r) {
  %id = call i64 @_Z13get_global_idj(i32 3)
  store i64 %id, ptr addrspace(1) %p
  %size = call i64 @_Z14get_local_sizej(i32 7)
  store i64 %size, ptr addrspace(1) %q
  %ly = call i64 @_Z12get_local_idj(i32 1)
  store i64 %ly, ptr addrspace(1) %r
  ret void
}
