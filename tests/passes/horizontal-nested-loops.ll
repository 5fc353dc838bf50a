; Nested uniform loops both get implicit barriers, so the work-item loop
; ends up innermost, around the inner loop's body only; the inner loop's
; exit block (the outer latch) gets one too. An early exit on a uniform
; condition (a kernel argument) keeps a loop horizontal, its extra exit
; block included.
; RUN: weft-opt -passes=weft-horizontal-loops -weft-local-size=8,2,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @nested.workitem(
; CHECK: outer:
; CHECK-NEXT: %i = phi
; CHECK-NEXT: %acc = phi
; CHECK-NEXT: call void @__weft_barrier()
; CHECK: inner:
; CHECK-NEXT: %j = phi
; CHECK-NEXT: %acc.in = phi
; CHECK-NEXT: call void @__weft_barrier()
; CHECK: outer.latch:
; CHECK-NEXT: call void @__weft_barrier()
; CHECK: done:
; CHECK-NEXT: call void @__weft_barrier()

; CHECK-LABEL: define internal void @early_exit.workitem(
; CHECK: loop:
; CHECK-NEXT: %i = phi
; CHECK-NEXT: %acc = phi
; CHECK-NEXT: call void @__weft_barrier()
; CHECK: early:
; CHECK-NEXT: call void @__weft_barrier()
; CHECK: done:
; CHECK-NEXT: call void @__weft_barrier()

define internal void @nested.workitem(ptr addrspace(1) %out, i64 %n, i64 %m, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="nested" {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi i64 [ 0, %entry ], [ %acc.in.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %acc.in = phi i64 [ %acc, %outer ], [ %acc.in.next, %inner ]
  %t = mul i64 %j, %x
  %acc.in.next = add i64 %acc.in, %t
  %j.next = add i64 %j, 1
  %in.more = icmp ult i64 %j.next, %m
  br i1 %in.more, label %inner, label %outer.latch
outer.latch:
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %outer, label %done
done:
  %o = getelementptr i64, ptr addrspace(1) %out, i64 %x
  store i64 %acc.in.next, ptr addrspace(1) %o
  ret void
}

define internal void @early_exit.workitem(ptr addrspace(1) %out, i64 %n, i64 %stop, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="early_exit" {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %latch ]
  %t = mul i64 %i, %x
  %acc.next = add i64 %acc, %t
  %quit = icmp eq i64 %i, %stop
  br i1 %quit, label %early, label %latch
latch:
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
early:
  %o.early = getelementptr i64, ptr addrspace(1) %out, i64 %x
  store i64 -1, ptr addrspace(1) %o.early
  br label %done
done:
  %o = getelementptr i64, ptr addrspace(1) %out, i64 %y
  store i64 %acc.next, ptr addrspace(1) %o
  ret void
}
