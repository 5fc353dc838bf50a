; A loop every work-item runs the same trips of (its bound is a kernel
; argument) and that carries a per-work-item accumulator, like a naive
; matrix product's, gets implicit barriers at the top of its body and of its
; exit block, so ParallelRegions interchanges it with the work-item loop.
; The header only tests the uniform bound, so the barrier goes after the
; test: the body's work-item loop then runs no test (vectorized, a test in
; it keeps every old value live for a select); a header that does
; per-work-item work gets the barrier after its PHIs.
; RUN: weft-opt -passes=weft-horizontal-loops -weft-local-size=16,1,1 -S %s | FileCheck %s
; With a single work-item there is nothing to interchange with.
; RUN: weft-opt -passes=weft-horizontal-loops -weft-local-size=1,1,1 -S %s | FileCheck %s --check-prefix=ONE

; CHECK-LABEL: define internal void @k.workitem(
; CHECK: loop:
; CHECK-NEXT: %k = phi i32
; CHECK-NEXT: %sum = phi float
; CHECK-NEXT: %more = icmp ult i32 %k, %n
; CHECK: body:
; CHECK-NEXT: call void @__weft_barrier()
; CHECK-NEXT: %k64 = zext
; CHECK: done:
; CHECK-NEXT: call void @__weft_barrier()
; CHECK-NEXT: %o = getelementptr
; CHECK-LABEL: define internal void @busy_header.workitem(
; CHECK: loop:
; CHECK-NEXT: %k = phi i32
; CHECK-NEXT: %sum = phi float
; CHECK-NEXT: call void @__weft_barrier()
; CHECK-NEXT: %pa = getelementptr
; CHECK: body:
; CHECK-NOT: call void @__weft_barrier()
; CHECK: done:
; CHECK-NEXT: call void @__weft_barrier()

; ONE-NOT: call void @__weft_barrier()

define internal void @k.workitem(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, i32 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done
body:
  %k64 = zext i32 %k to i64
  %pa = getelementptr float, ptr addrspace(1) %a, i64 %k64
  %va = load float, ptr addrspace(1) %pa
  %n64 = zext i32 %n to i64
  %row = mul i64 %k64, %n64
  %idx = add i64 %row, %x
  %pb = getelementptr float, ptr addrspace(1) %b, i64 %idx
  %vb = load float, ptr addrspace(1) %pb
  %sum.next = call float @llvm.fmuladd.f32(float %va, float %vb, float %sum)
  %k.next = add i32 %k, 1
  br label %loop
done:
  %o = getelementptr float, ptr addrspace(1) %c, i64 %x
  store float %sum, ptr addrspace(1) %o
  ret void
}

; The header loads a[k] (per-work-item work in the header): the barrier
; stays after its PHIs.
define internal void @busy_header.workitem(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, i32 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="busy_header" {
entry:
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %body ]
  %sum = phi float [ 0.0, %entry ], [ %sum.next, %body ]
  %pa = getelementptr float, ptr addrspace(1) %a, i32 %k
  %va = load float, ptr addrspace(1) %pa
  %more = icmp ult i32 %k, %n
  br i1 %more, label %body, label %done
body:
  %k64 = zext i32 %k to i64
  %n64 = zext i32 %n to i64
  %row = mul i64 %k64, %n64
  %idx = add i64 %row, %x
  %pb = getelementptr float, ptr addrspace(1) %b, i64 %idx
  %vb = load float, ptr addrspace(1) %pb
  %sum.next = call float @llvm.fmuladd.f32(float %va, float %vb, float %sum)
  %k.next = add i32 %k, 1
  br label %loop
done:
  %o = getelementptr float, ptr addrspace(1) %c, i64 %x
  store float %sum, ptr addrspace(1) %o
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)
