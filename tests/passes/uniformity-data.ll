; Uniformity through data: the local ids are varying, kernel arguments and
; loads from the work-group context uniform, and so is arithmetic on them;
; a load from global memory is varying even at a uniform address (another
; work-item may have stored there), and so is a call that touches memory.
; RUN: weft-opt -passes='function(print<weft-uniformity>)' -o /dev/null %s | FileCheck %s

; CHECK-LABEL: uniformity of k.workitem:
; CHECK-DAG: uniform: ptr addrspace(1) %p
; CHECK-DAG: uniform: i32 %n
; CHECK-DAG: uniform: ptr %ctx
; CHECK-DAG: varying: i64 %x
; CHECK-DAG: varying: i64 %y
; CHECK-DAG: varying: i64 %z
; CHECK-DAG: uniform: i64 %group
; CHECK-DAG: uniform: i64 %base
; CHECK-DAG: varying: i64 %gid
; CHECK-DAG: varying: ptr addrspace(1) %at
; CHECK-DAG: varying: i32 %v
; CHECK-DAG: varying: i32 %first
; CHECK-DAG: uniform: i32 %twice
; CHECK-DAG: uniform: i32 %abs
; CHECK-DAG: varying: i32 %opaque
; CHECK-DAG: uniform: i32 %inv
; CHECK-NOT: uniformity of other

declare i32 @llvm.abs.i32(i32, i1)
declare i32 @opaque(i32)

define internal void @k.workitem(ptr addrspace(1) %p, i32 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  %gp = getelementptr i8, ptr %ctx, i64 16
  %group = load i64, ptr %gp
  %base = mul i64 %group, 64
  %gid = add i64 %base, %x
  %at = getelementptr i32, ptr addrspace(1) %p, i64 %gid
  %v = load i32, ptr addrspace(1) %at
  %first = load i32, ptr addrspace(1) %p
  %twice = mul i32 %n, 2
  %abs = call i32 @llvm.abs.i32(i32 %twice, i1 false)
  %opaque = call i32 @opaque(i32 %twice)
  %inv = load i32, ptr addrspace(1) %p, !invariant.load !0
  %sum = add i32 %v, %first
  store i32 %sum, ptr addrspace(1) %at
  ret void
}

; Not a work-item function: nothing printed.
define void @other(i32 %a) {
  ret void
}

!0 = !{}
