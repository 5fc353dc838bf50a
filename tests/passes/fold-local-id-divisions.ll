; A linear local id tid = x + 8y divided by the local size in x (8) is
; split back into x and y; by 16, the x part stays out of the division.
; With a local size of 9 in x, x may reach 8 and carry into the quotient:
; by 8 the division stays on x alone (x % 8, y + x / 8, unsigned), by 16
; (no term divisible) it stays as it was, as do forms that could be
; negative or overflow their type.
; RUN: weft-opt -passes=weft-fold-local-id-divisions -weft-local-size=8,16,1 -S %s | FileCheck %s
; RUN: weft-opt -passes=weft-fold-local-id-divisions -weft-local-size=9,16,1 -S %s | FileCheck %s --check-prefix=WIDE
; RUN: weft-opt -passes=weft-fold-local-id-divisions -weft-local-size=16,8,1 -S %s | FileCheck %s --check-prefix=SPLIT

; CHECK-LABEL: define internal void @tile.workitem(
; CHECK-NOT: srem
; CHECK-NOT: sdiv
; CHECK: %rem8 = trunc i64 %x to i32
; CHECK: %div8 = trunc i64 %y to i32
; CHECK: %[[Y:.*]] = trunc i64 %y to i32
; CHECK: %[[Y8:.*]] = mul nuw nsw i32 %[[Y]], 8
; CHECK: %[[X:.*]] = trunc i64 %x to i32
; CHECK: %[[HI:.*]] = urem i32 %[[Y8]], 16
; CHECK: %rem16 = add nuw nsw i32 %[[X]], %[[HI]]
; CHECK: %div16 = udiv i32 %{{.*}}, 16
; CHECK: ret void
; WIDE-LABEL: define internal void @tile.workitem(
; WIDE: %[[WX:.*]] = trunc i64 %x to i32
; WIDE: %rem8 = urem i32 %[[WX]], 8
; WIDE: %[[WX2:.*]] = trunc i64 %x to i32
; WIDE: %[[WY:.*]] = trunc i64 %y to i32
; WIDE: %[[WQ:.*]] = udiv i32 %[[WX2]], 8
; WIDE: %div8 = add nuw nsw i32 %[[WY]], %[[WQ]]
; WIDE: %rem16 = srem i32 %tid, 16
; WIDE: %div16 = sdiv i32 %tid, 16
define internal void @tile.workitem(ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="tile" {
entry:
  %y8 = mul i64 8, %y
  %tid64 = add i64 %x, %y8
  %tid = trunc i64 %tid64 to i32
  %rem8 = srem i32 %tid, 8
  %div8 = sdiv i32 %tid, 8
  %rem16 = srem i32 %tid, 16
  %div16 = sdiv i32 %tid, 16
  %p0 = getelementptr i32, ptr addrspace(1) %out, i64 0
  store i32 %rem8, ptr addrspace(1) %p0, align 4
  %p1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %div8, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr i32, ptr addrspace(1) %out, i64 2
  store i32 %rem16, ptr addrspace(1) %p2, align 4
  %p3 = getelementptr i32, ptr addrspace(1) %out, i64 3
  store i32 %div16, ptr addrspace(1) %p3, align 4
  ret void
}

; A private variable in memory is promoted first; a shifted, sign-extended
; form with a constant folds too: (2 * (x + 8y) + 1) % 16 = 2x + 1.
; CHECK-LABEL: define internal void @shifted.workitem(
; CHECK-NOT: alloca
; CHECK-NOT: srem
; CHECK: %[[X2:.*]] = mul nuw nsw i64 %x, 2
; CHECK: %rem = add nuw nsw i64 %[[X2]], 1
define internal void @shifted.workitem(ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="shifted" {
entry:
  %slot = alloca i32, align 4
  %x32 = trunc i64 %x to i32
  %y32 = trunc i64 %y to i32
  %y8 = shl i32 %y32, 3
  %tid = add nsw i32 %x32, %y8
  store i32 %tid, ptr %slot, align 4
  %t = load i32, ptr %slot, align 4
  %t2 = shl nsw i32 %t, 1
  %t3 = or disjoint i32 %t2, 1
  %wide = sext i32 %t3 to i64
  %rem = srem i64 %wide, 16
  store i64 %rem, ptr addrspace(1) %out, align 8
  ret void
}

; Not folded: a subtraction (the form could be negative), a product of two
; ids, and an i8 id x + 16y whose values (up to 7 + 16 * 15 = 247) leave
; the signed range of the type: x = 1, y = 8 is -127 in i8, and -127 % 8
; is -7, not x.
; CHECK-LABEL: define internal void @kept.workitem(
; CHECK: %neg = srem i32 %less, 8
; CHECK: %prod = srem i32 %xy, 8
; CHECK: %narrow = srem i8 %t8, 8
define internal void @kept.workitem(ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="kept" {
entry:
  %y8 = mul i64 %y, 8
  %tid64 = add i64 %x, %y8
  %tid = trunc i64 %tid64 to i32
  %less = sub i32 %tid, 1
  %neg = srem i32 %less, 8
  %xy64 = mul i64 %x, %y
  %xy = trunc i64 %xy64 to i32
  %prod = srem i32 %xy, 8
  %y16 = mul i64 %y, 16
  %tid16 = add i64 %x, %y16
  %t8 = trunc i64 %tid16 to i8
  %narrow = srem i8 %t8, 8
  %p0 = getelementptr i32, ptr addrspace(1) %out, i64 0
  store i32 %neg, ptr addrspace(1) %p0, align 4
  %p1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %prod, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr i8, ptr addrspace(1) %out, i64 8
  store i8 %narrow, ptr addrspace(1) %p2, align 1
  ret void
}

; CLBlast's GlobalToLocalB with MDIMC = 16, NDIMB = 8: tid = x + 16y split
; by 8 while x runs to 15. tid % 8 is x % 8 and tid / 8 is 2y + x / 8:
; divisions of x alone, which the work-item loop's vectorizers follow where
; they could not follow x + 16y (a gather of double4 before).
; SPLIT-LABEL: define internal void @split.workitem(
; SPLIT-NOT: srem
; SPLIT-NOT: sdiv
; SPLIT: %[[SX:.*]] = trunc i64 %x to i32
; SPLIT: %lb0 = urem i32 %[[SX]], 8
; SPLIT: %[[SX2:.*]] = trunc i64 %x to i32
; SPLIT: %[[SY:.*]] = trunc i64 %y to i32
; SPLIT: %[[SY2:.*]] = mul nuw nsw i32 %[[SY]], 2
; SPLIT: %[[SQ:.*]] = udiv i32 %[[SX2]], 8
; SPLIT: %lb1 = add nuw nsw i32 %[[SY2]], %[[SQ]]
; With x below 8 it is x and 2y.
; CHECK-LABEL: define internal void @split.workitem(
; CHECK: %lb0 = trunc i64 %x to i32
; CHECK: %lb1 = mul nuw nsw i32 %{{.*}}, 2
; WIDE-LABEL: define internal void @split.workitem(
; WIDE: urem i32
; WIDE: %lb1 = add nuw nsw i32
define internal void @split.workitem(ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="split" {
entry:
  %x32 = trunc i64 %x to i32
  %y32 = trunc i64 %y to i32
  %y16 = mul nsw i32 %y32, 16
  %tid = add nsw i32 %x32, %y16
  %lb0 = srem i32 %tid, 8
  %lb1 = sdiv i32 %tid, 8
  store i32 %lb0, ptr addrspace(1) %out, align 4
  %p1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %lb1, ptr addrspace(1) %p1, align 4
  ret void
}
