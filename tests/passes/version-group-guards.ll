; A guard on an affine function of the local ids (col = 2 * x + base, as
; in CLBlast's direct GEMM) around a loop gets a copy of the guarded code
; for groups where it holds in every work-item: the test of the whole group
; is uniform i128 arithmetic on the extreme corner (x = Lx - 1: 2 * 7 = 14)
; plus the signed-range checks of the trunc the compare reads.
; RUN: weft-opt -passes=weft-version-group-guards -weft-local-size=8,1,1 -S %s | FileCheck %s
; RUN: env WEFT_VERSION_GUARDS=0 weft-opt -passes=weft-version-group-guards -weft-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define internal void @columns.workitem(
; CHECK: entry:
; CHECK: add i128 %{{.*}}, 14
; CHECK: icmp sle i128 %{{.*}}, 2147483647
; CHECK: icmp slt i128 %{{.*}}, 0
; CHECK: br i1 %{{.*}}, label %loop.group, label %entry.partial
; CHECK: entry.partial:
; CHECK-NEXT: br i1 %in, label %loop, label %join
; CHECK: join:
; CHECK-NEXT: %r = phi i32 [ %k.next, %loop ], [ -1, %entry.partial ], [ %k.next.group, %loop.group ]
; CHECK: loop.group:
; CHECK: call void @_Z7barrierj(i32 1)
; OFF-NOT: .group

define internal void @columns.workitem(ptr addrspace(1) %a, i32 %base, i32 %n, i32 %m, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="columns" {
entry:
  %x2 = mul i64 %x, 2
  %b64 = sext i32 %base to i64
  %col64 = add i64 %x2, %b64
  %col = trunc i64 %col64 to i32
  %in = icmp slt i32 %col, %n
  br i1 %in, label %loop, label %join
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %p = getelementptr float, ptr addrspace(1) %a, i64 %col64
  store float 1.0, ptr addrspace(1) %p
  call void @_Z7barrierj(i32 1)
  %k.next = add i32 %k, 1
  %more = icmp slt i32 %k.next, %m
  br i1 %more, label %loop, label %join
join:
  %r = phi i32 [ %k.next, %loop ], [ -1, %entry ]
  %q = getelementptr i32, ptr addrspace(1) %a, i64 %x
  store i32 %r, ptr addrspace(1) %q
  ret void
}

; `if (x >= w || y >= h) return;` before a loop: the `||` chain becomes one
; guard, copied for groups where it is false in every work-item.
; CHECK-LABEL: define internal void @block.workitem(
; CHECK: %guards = select i1
; CHECK: br i1 %{{.*}}, label %loop.group, label %entry.partial
; CHECK: entry.partial:
; CHECK-NEXT: br i1 %guards, label %loop, label %exit

define internal void @block.workitem(ptr addrspace(1) %a, i32 %w, i32 %h, i32 %d, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="block" {
entry:
  %x32 = trunc i64 %x to i32
  %y32 = trunc i64 %y to i32
  %outx = icmp sge i32 %x32, %w
  br i1 %outx, label %exit, label %checky
checky:
  %outy = icmp sge i32 %y32, %h
  br i1 %outy, label %exit, label %loop
loop:
  %k = phi i32 [ 0, %checky ], [ %k.next, %loop ]
  %p = getelementptr i32, ptr addrspace(1) %a, i64 %x
  store i32 %k, ptr addrspace(1) %p
  %k.next = add i32 %k, 1
  %more = icmp slt i32 %k.next, %d
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; No copy: straight-line code under the guard (the vectorizer if-converts
; it), a guard that is not affine in the ids (x * x), and one that can
; never hold in a whole group (x == 3).
; CHECK-LABEL: define internal void @no_copy.workitem(
; CHECK-NOT: .group
; CHECK: ret void

define internal void @no_copy.workitem(ptr addrspace(1) %a, i32 %n, i32 %m, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="no_copy" {
entry:
  %x32 = trunc i64 %x to i32
  %in = icmp slt i32 %x32, %n
  br i1 %in, label %straight, label %second
straight:
  %p = getelementptr i32, ptr addrspace(1) %a, i64 %x
  store i32 1, ptr addrspace(1) %p
  br label %second
second:
  %sq = mul i32 %x32, %x32
  %in2 = icmp slt i32 %sq, %n
  br i1 %in2, label %loop, label %third
loop:
  %k = phi i32 [ 0, %second ], [ %k.next, %loop ]
  store i32 %k, ptr addrspace(1) %a
  %k.next = add i32 %k, 1
  %more = icmp slt i32 %k.next, %m
  br i1 %more, label %loop, label %third
third:
  %is3 = icmp eq i32 %x32, 3
  br i1 %is3, label %loop3, label %exit
loop3:
  %j = phi i32 [ 0, %third ], [ %j.next, %loop3 ]
  store i32 %j, ptr addrspace(1) %a
  %j.next = add i32 %j, 1
  %more3 = icmp slt i32 %j.next, %m
  br i1 %more3, label %loop3, label %exit
exit:
  ret void
}

declare void @_Z7barrierj(i32)
