; A non-uniform sub-group function asks whether its whole sub-group calls
; it: yes where every work-item of the group runs the block (the entry, a
; branch on a kernel argument, after the join of a divergent branch); no
; under a branch on the local id or inside a loop whose trip count differs
; between work-items. The branch on the answer is folded away, so only the
; form taken is left; the exchange of the other form stays only where the
; answer is no.
; RUN: weft-opt -passes=weft-resolve-non-uniform-sub-groups -S %s | FileCheck %s

declare i32 @__weft_sub_group_uniform_here() convergent
declare void @__weft_sub_group_converge(i64) convergent
declare void @uniform_form(i32) convergent

; CHECK-LABEL: define internal void @k.workitem(
; CHECK-NOT: __weft_sub_group_uniform_here
; CHECK: entry:
; CHECK: call void @uniform_form(i32 0)
; CHECK: uniform:
; CHECK: call void @uniform_form(i32 1)
; CHECK: divergent:
; CHECK-NOT: uniform_form
; CHECK: call void @__weft_sub_group_converge(i64 0)
; CHECK: loop:
; CHECK-NOT: uniform_form
; CHECK: call void @__weft_sub_group_converge(i64 0)
; CHECK: exit:
; CHECK: call void @uniform_form(i32 4)
; CHECK-NOT: __weft_sub_group_converge
; CHECK: ret void
define internal void @k.workitem(ptr addrspace(1) %p, i32 %c, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  %u0 = call i32 @__weft_sub_group_uniform_here()
  %b0 = icmp ne i32 %u0, 0
  br i1 %b0, label %whole0, label %some0
whole0:
  call void @uniform_form(i32 0)
  br label %after0
some0:
  call void @__weft_sub_group_converge(i64 0)
  br label %after0
after0:
  %t = icmp eq i32 %c, 0
  br i1 %t, label %uniform, label %join

uniform:
  %u1 = call i32 @__weft_sub_group_uniform_here()
  %b1 = icmp ne i32 %u1, 0
  br i1 %b1, label %whole1, label %some1
whole1:
  call void @uniform_form(i32 1)
  br label %join
some1:
  call void @__weft_sub_group_converge(i64 0)
  br label %join

join:
  %first = icmp ult i64 %x, 7
  br i1 %first, label %divergent, label %loop.pre

divergent:
  %u2 = call i32 @__weft_sub_group_uniform_here()
  %b2 = icmp ne i32 %u2, 0
  br i1 %b2, label %whole2, label %some2
whole2:
  call void @uniform_form(i32 2)
  br label %loop.pre
some2:
  call void @__weft_sub_group_converge(i64 0)
  br label %loop.pre

loop.pre:
  br label %loop

loop:
  %i = phi i64 [ 0, %loop.pre ], [ %i.next, %latch ]
  %u3 = call i32 @__weft_sub_group_uniform_here()
  %b3 = icmp ne i32 %u3, 0
  br i1 %b3, label %whole3, label %some3
whole3:
  call void @uniform_form(i32 3)
  br label %latch
some3:
  call void @__weft_sub_group_converge(i64 0)
  br label %latch
latch:
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %x
  br i1 %more, label %loop, label %exit

exit:
  %u4 = call i32 @__weft_sub_group_uniform_here()
  %b4 = icmp ne i32 %u4, 0
  br i1 %b4, label %whole4, label %some4
whole4:
  call void @uniform_form(i32 4)
  br label %done
some4:
  call void @__weft_sub_group_converge(i64 0)
  br label %done
done:
  ret void
}
