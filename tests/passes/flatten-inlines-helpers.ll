; Calls to defined functions, transitively, are inlined into the kernel even
; when clang marked them noinline (-cl-opt-disable); declarations stay calls.
; RUN: weft-opt -passes=weft-flatten-kernels -S %s | FileCheck %s

define internal i64 @inner(i32 %d) noinline optnone {
  %id = call i64 @_Z13get_global_idj(i32 %d)
  ret i64 %id
}

define internal i64 @outer() noinline {
  %v = call i64 @inner(i32 0)
  ret i64 %v
}

declare i64 @_Z13get_global_idj(i32)

; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NOT: call i64 @outer
; CHECK-NOT: call i64 @inner
; CHECK: call i64 @_Z13get_global_idj(i32 0)
; CHECK: ret void
define spir_kernel void @k(ptr addrspace(1) %p) {
  %i = call i64 @outer()
  %a = getelementptr float, ptr addrspace(1) %p, i64 %i
  store float 1.0, ptr addrspace(1) %a
  ret void
}
