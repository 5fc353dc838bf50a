; int index arithmetic on the local ids, extended to 64 bits at the
; access, is computed in 64 bits instead: the trunc of the id (or of a
; size_t expression of it, x * 2) extended again is the id expression
; itself, and nsw operations extend operand by operand. Operations that
; may wrap (no nsw) keep their extension, as do 64-bit id expressions that
; may reach 2^31 (x * 2^30 with 8 work-items).
; RUN: weft-opt -passes=weft-distribute-id-extensions -weft-local-size=8,1,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @row.workitem(
; CHECK: %[[BASE:.*]] = sext i32 %rowbase to i64
; CHECK-NEXT: %s.wide = add nsw i64 %[[BASE]], %x
; CHECK-NEXT: %[[OFF:.*]] = sext i32 %off to i64
; CHECK-NEXT: %i.wide = add nsw i64 %s.wide, %[[OFF]]
; CHECK-NEXT: %p = getelementptr double, ptr addrspace(1) %a, i64 %i.wide
; CHECK: %li.wide = mul nsw i64 %x2, 17
; CHECK-NEXT: %q = getelementptr double, ptr addrspace(3) %l, i64 %li.wide
define internal void @row.workitem(ptr addrspace(1) %a, ptr addrspace(3) %l, i32 %r, i32 %ld, i32 %off, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="row" {
entry:
  %x32 = trunc i64 %x to i32
  %rowbase = mul nsw i32 %r, %ld
  %s = add nsw i32 %rowbase, %x32
  %i = add nsw i32 %s, %off
  %i64 = sext i32 %i to i64
  %p = getelementptr double, ptr addrspace(1) %a, i64 %i64
  %v = load double, ptr addrspace(1) %p
  %x2 = mul i64 %x, 2
  %x2.32 = trunc i64 %x2 to i32
  %li = mul nsw i32 %x2.32, 17
  %li64 = sext i32 %li to i64
  %q = getelementptr double, ptr addrspace(3) %l, i64 %li64
  store double %v, ptr addrspace(3) %q
  ret void
}

; CHECK-LABEL: define internal void @kept.workitem(
; CHECK: %i64 = sext i32 %i to i64
; CHECK: %big64 = sext i32 %big32 to i64
define internal void @kept.workitem(ptr addrspace(1) %a, i32 %off, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="kept" {
entry:
  %x32 = trunc i64 %x to i32
  %i = add i32 %x32, %off
  %i64 = sext i32 %i to i64
  %p = getelementptr i32, ptr addrspace(1) %a, i64 %i64
  store i32 0, ptr addrspace(1) %p
  %big = shl i64 %x, 30
  %big32 = trunc i64 %big to i32
  %big64 = sext i32 %big32 to i64
  %q = getelementptr i32, ptr addrspace(1) %a, i64 %big64
  store i32 1, ptr addrspace(1) %q
  ret void
}
