; A private array indexed by short constant-trip loops is unrolled away and
; split into registers before the work-group passes; a volatile private
; scalar nobody else can reach becomes plain. Loops that hold a barrier or
; have too many trips keep their array in memory, and a volatile scalar
; whose address escapes stays volatile.
; RUN: weft-opt -passes=weft-promote-private-arrays -S %s | FileCheck %s

; CHECK-LABEL: define internal void @tiles.workitem(
; CHECK-NOT: alloca
; CHECK-NOT: volatile
; CHECK-NOT: phi
; CHECK: fadd float
; CHECK: ret void
define internal void @tiles.workitem(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="tiles" {
entry:
  %acc = alloca [4 x float], align 4
  %tid = alloca i32, align 4
  %x32 = trunc i64 %x to i32
  store volatile i32 %x32, ptr %tid, align 4
  br label %init
init:
  %i = phi i64 [ 0, %entry ], [ %i.next, %init ]
  %pi = getelementptr [4 x float], ptr %acc, i64 0, i64 %i
  store float 0.0, ptr %pi, align 4
  %i.next = add i64 %i, 1
  %i.more = icmp ult i64 %i.next, 4
  br i1 %i.more, label %init, label %sum
sum:
  %j = phi i64 [ 0, %init ], [ %j.next, %sum ]
  %t = load volatile i32, ptr %tid, align 4
  %t64 = zext i32 %t to i64
  %off = add i64 %t64, %j
  %pin = getelementptr float, ptr addrspace(1) %in, i64 %off
  %v = load float, ptr addrspace(1) %pin, align 4
  %pj = getelementptr [4 x float], ptr %acc, i64 0, i64 %j
  %old = load float, ptr %pj, align 4
  %new = fadd float %old, %v
  store float %new, ptr %pj, align 4
  %j.next = add i64 %j, 1
  %j.more = icmp ult i64 %j.next, 4
  br i1 %j.more, label %sum, label %done
done:
  %p0 = getelementptr [4 x float], ptr %acc, i64 0, i64 0
  %a0 = load float, ptr %p0, align 4
  %p3 = getelementptr [4 x float], ptr %acc, i64 0, i64 3
  %a3 = load float, ptr %p3, align 4
  %r = fadd float %a0, %a3
  %po = getelementptr float, ptr addrspace(1) %out, i64 %x
  store float %r, ptr addrspace(1) %po, align 4
  ret void
}

; CHECK-LABEL: define internal void @long_loop.workitem(
; CHECK: alloca [64 x float]
; CHECK: br i1 %more, label %loop, label %done
define internal void @long_loop.workitem(ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="long_loop" {
entry:
  %buf = alloca [64 x float], align 4
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr [64 x float], ptr %buf, i64 0, i64 %i
  %f = uitofp i64 %i to float
  store float %f, ptr %p, align 4
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, 64
  br i1 %more, label %loop, label %done
done:
  %px = getelementptr [64 x float], ptr %buf, i64 0, i64 %x
  %v = load float, ptr %px, align 4
  %po = getelementptr float, ptr addrspace(1) %out, i64 %x
  store float %v, ptr addrspace(1) %po, align 4
  ret void
}

; CHECK-LABEL: define internal void @barrier_loop.workitem(
; CHECK: alloca [2 x float]
; CHECK: call void @__weft_barrier()
; CHECK: br i1 %more, label %loop, label %done
define internal void @barrier_loop.workitem(ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="barrier_loop" {
entry:
  %buf = alloca [2 x float], align 4
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr [2 x float], ptr %buf, i64 0, i64 %i
  store float 1.0, ptr %p, align 4
  call void @__weft_barrier()
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, 2
  br i1 %more, label %loop, label %done
done:
  %px = getelementptr [2 x float], ptr %buf, i64 0, i64 %x
  %v = load float, ptr %px, align 4
  %po = getelementptr float, ptr addrspace(1) %out, i64 %x
  store float %v, ptr addrspace(1) %po, align 4
  ret void
}

; CHECK-LABEL: define internal void @escapes.workitem(
; CHECK: store volatile i32
; CHECK: load volatile i32
define internal void @escapes.workitem(ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="escapes" {
entry:
  %v = alloca i32, align 4
  store volatile i32 1, ptr %v, align 4
  call void @observe(ptr %v)
  %l = load volatile i32, ptr %v, align 4
  %po = getelementptr i32, ptr addrspace(1) %out, i64 %x
  store i32 %l, ptr addrspace(1) %po, align 4
  ret void
}

declare void @__weft_barrier() convergent
declare void @observe(ptr)
