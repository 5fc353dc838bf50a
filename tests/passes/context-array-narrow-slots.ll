; A context array's slots are as wide as its value: the slots of a half
; value are 2 bytes apart and those of a char 1 byte, consecutive across
; work-items, so the vectorizer loads and stores them whole (padded to 4
; bytes, they were strided: deinterleaving loads and lane-by-lane stores).
; The arena holds the 8x2x1 work-items' chars (16 bytes), then, a cache
; line of stagger on and 64-byte aligned, their halves (32 bytes at 128):
; 192 bytes in all.
; RUN: weft-opt -passes=weft-normalize-barriers,weft-parallel-regions -weft-local-size=8,2,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @k.workgroup(
; CHECK: fixed.r0.x.loop:
; CHECK: %wi.linear = add nuw nsw i64 %{{.*}}, %fixed.r0.lid.x
; CHECK: [[C:%.*]] = mul nuw nsw i64 %wi.linear, 1
; CHECK: add nuw nsw i64 [[C]], 0
; CHECK: load i8, ptr %{{.*}}, align 1, !llvm.access.group
; CHECK: [[H:%.*]] = mul nuw nsw i64 %wi.linear, 2
; CHECK: add nuw nsw i64 [[H]], 128
; CHECK: load half, ptr %{{.*}}, align 2, !llvm.access.group
; CHECK: attributes #{{[0-9]+}} = { {{.*}}"weft-private-arena-size"="192"

declare void @_Z7barrierj(i32)

define internal void @k.workitem(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  %a = getelementptr half, ptr addrspace(1) %in, i64 %x
  %h = load half, ptr addrspace(1) %a
  %c = fptoui half %h to i8
  call void @_Z7barrierj(i32 1)
  %o = getelementptr half, ptr addrspace(1) %out, i64 %x
  store half %h, ptr addrspace(1) %o
  %p = getelementptr i8, ptr addrspace(1) %out, i64 %y
  store i8 %c, ptr addrspace(1) %p
  ret void
}
