; Loops that some work-items run more trips of than others get no implicit
; barrier, which not every work-item would reach: a bound that depends on
; the local id, a uniform loop inside a branch on the local id, and the
; uniform loop around a varying one (the work-item loop could not be made
; innermost). A loop without per-work-item work, and one with a small
; constant trip count (left to full unrolling), get none either; nor does
; a row sum, which walks memory consecutively along its trips but with a
; stride across the work-items (it would gather after the interchange),
; nor a loop where a work-item reloads in a trip what it stored in it.
; RUN: weft-opt -passes=weft-horizontal-loops -weft-local-size=16,1,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @varying_bound.workitem(
; CHECK-NOT: __weft_barrier
; CHECK-LABEL: define internal void @under_varying_if.workitem(
; CHECK-NOT: __weft_barrier
; CHECK-LABEL: define internal void @around_varying.workitem(
; CHECK-NOT: __weft_barrier
; CHECK-LABEL: define internal void @uniform_work.workitem(
; CHECK-NOT: __weft_barrier
; CHECK-LABEL: define internal void @small_trip_count.workitem(
; CHECK-NOT: __weft_barrier
; CHECK-LABEL: define internal void @row_sum.workitem(
; CHECK-NOT: __weft_barrier
; CHECK-LABEL: define internal void @store_then_load.workitem(
; CHECK-NOT: __weft_barrier

define internal void @varying_bound.workitem(ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="varying_bound" {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %acc.next = add i64 %acc, %i
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %x
  br i1 %more, label %loop, label %done
done:
  %o = getelementptr i64, ptr addrspace(1) %out, i64 %x
  store i64 %acc.next, ptr addrspace(1) %o
  ret void
}

define internal void @under_varying_if.workitem(ptr addrspace(1) %out, i64 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="under_varying_if" {
entry:
  %odd = and i64 %x, 1
  %c = icmp eq i64 %odd, 0
  br i1 %c, label %loop, label %done
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %m = mul i64 %i, %x
  %acc.next = add i64 %acc, %m
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %r = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %o = getelementptr i64, ptr addrspace(1) %out, i64 %x
  store i64 %r, ptr addrspace(1) %o
  ret void
}

define internal void @around_varying.workitem(ptr addrspace(1) %out, i64 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="around_varying" {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi i64 [ 0, %entry ], [ %acc.in, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %acc.in = phi i64 [ %acc, %outer ], [ %acc.in.next, %inner ]
  %acc.in.next = add i64 %acc.in, %j
  %j.next = add i64 %j, 1
  %in.more = icmp ult i64 %j.next, %x
  br i1 %in.more, label %inner, label %outer.latch
outer.latch:
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %outer, label %done
done:
  %o = getelementptr i64, ptr addrspace(1) %out, i64 %x
  store i64 %acc.in, ptr addrspace(1) %o
  ret void
}

define internal void @uniform_work.workitem(ptr addrspace(1) %out, i64 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="uniform_work" {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %acc.next = add i64 %acc, %i
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %v = add i64 %acc.next, %x
  %o = getelementptr i64, ptr addrspace(1) %out, i64 %x
  store i64 %v, ptr addrspace(1) %o
  ret void
}

define internal void @small_trip_count.workitem(ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="small_trip_count" {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %m = mul i64 %i, %x
  %acc.next = add i64 %acc, %m
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, 8
  br i1 %more, label %loop, label %done
done:
  %o = getelementptr i64, ptr addrspace(1) %out, i64 %x
  store i64 %acc.next, ptr addrspace(1) %o
  ret void
}

define internal void @row_sum.workitem(ptr addrspace(1) %out, ptr addrspace(1) %in, i64 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="row_sum" {
entry:
  %row = mul i64 %x, %n
  br label %loop
loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %idx = add i64 %row, %j
  %p = getelementptr float, ptr addrspace(1) %in, i64 %idx
  %v = load float, ptr addrspace(1) %p
  %acc.next = fadd float %acc, %v
  %j.next = add i64 %j, 1
  %more = icmp ult i64 %j.next, %n
  br i1 %more, label %loop, label %done
done:
  %o = getelementptr float, ptr addrspace(1) %out, i64 %x
  store float %acc.next, ptr addrspace(1) %o
  ret void
}

define internal void @store_then_load.workitem(ptr addrspace(1) %out, i64 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="store_then_load" {
entry:
  %o = getelementptr i64, ptr addrspace(1) %out, i64 %x
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  store i64 %i, ptr addrspace(1) %o
  %back = load i64, ptr addrspace(1) %out
  %sum = add i64 %back, %x
  store i64 %sum, ptr addrspace(1) %o
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
