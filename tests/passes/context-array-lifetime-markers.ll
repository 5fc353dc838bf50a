; Two private arrays live across a barrier, each with lifetime markers, the
; first marker at the top of a block that uses both. The first array's
; context slot is addressed from an anchor at that block's top, which was
; the marker itself: erasing the markers array by array left the anchor
; dangling, and the second array's address was inserted before a freed
; instruction (weft-opt crashed; found by weft-fuzz-load-binary on a
; mutated local_variables binary). The markers now go after all arrays are
; placed; both arrays live in the arena and no marker of theirs is left.
; RUN: weft-opt -passes=weft-normalize-barriers,weft-parallel-regions -weft-local-size=4,1,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @k.workgroup(
; CHECK-NOT: call void @llvm.lifetime
; CHECK: %a.ctx{{.*}} = getelementptr inbounds i8, ptr %arena
; CHECK: %b.ctx{{.*}} = getelementptr inbounds i8, ptr %arena
; CHECK-NOT: call void @llvm.lifetime
; CHECK: %a.ctx{{.*}} = getelementptr inbounds i8, ptr %arena
; CHECK: %b.ctx{{.*}} = getelementptr inbounds i8, ptr %arena
; CHECK-NOT: call void @llvm.lifetime
; CHECK: attributes #{{[0-9]+}} = { {{.*}}"weft-private-arena-size"=

declare void @_Z7barrierj(i32)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)

define internal void @k.workitem(ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  %a = alloca [4 x i32], align 4
  %b = alloca [4 x i32], align 4
  %v = trunc i64 %x to i32
  br label %fill
fill:
  call void @llvm.lifetime.start.p0(i64 16, ptr %a)
  call void @llvm.lifetime.start.p0(i64 16, ptr %b)
  %ai = getelementptr [4 x i32], ptr %a, i64 0, i64 %x
  store volatile i32 %v, ptr %ai
  %bi = getelementptr [4 x i32], ptr %b, i64 0, i64 %x
  store volatile i32 %v, ptr %bi
  call void @_Z7barrierj(i32 1)
  br label %use
use:
  call void @llvm.lifetime.end.p0(i64 16, ptr %a)
  %aj = getelementptr [4 x i32], ptr %a, i64 0, i64 %y
  %la = load volatile i32, ptr %aj
  %bj = getelementptr [4 x i32], ptr %b, i64 0, i64 %y
  %lb = load volatile i32, ptr %bj
  call void @llvm.lifetime.end.p0(i64 16, ptr %b)
  %s = add i32 %la, %lb
  %o = getelementptr i32, ptr addrspace(1) %out, i64 %x
  store i32 %s, ptr addrspace(1) %o
  ret void
}
