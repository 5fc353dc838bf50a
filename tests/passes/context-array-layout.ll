; A value live across a barrier gets a context array in the private arena,
; laid out slot[value][work-item]: the address is the arena plus the
; value's offset plus the work-item's linear id times the value's size, so
; consecutive x ids touch consecutive elements. A region copies the slot into
; the value's alloca at the top of the x loop and back at the x latch, so a
; work-item never reloads a slot it stored in the same pass (what LLVM's
; interleaving would reorder under llvm.loop.parallel_accesses); the region
; loops are annotated parallel. A value used only before the barrier stays
; out of the arena; the arena's size (4 bytes for 8x2x1 work-items, rounded
; to 64) is recorded for the driver.
; RUN: weft-opt -passes=weft-normalize-barriers,weft-parallel-regions -weft-local-size=8,2,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @k.workgroup(
; CHECK: fixed.r0.x.loop:
; CHECK: %arena{{.*}} = load ptr, ptr %{{.*}}, align 8, !invariant.load
; CHECK: [[ZY:%.*]] = add nuw nsw i64 %{{.*}}, %fixed.r0.lid.y
; CHECK: [[ROW:%.*]] = mul nuw nsw i64 [[ZY]], 8
; CHECK: %wi.linear{{.*}} = add nuw nsw i64 [[ROW]], %fixed.r0.lid.x
; CHECK: [[SCALED:%.*]] = mul nuw nsw i64 %wi.linear{{.*}}, 4
; CHECK: [[OFF:%.*]] = add nuw nsw i64 [[SCALED]], 0
; CHECK: [[IN:%.*]] = getelementptr inbounds i8, ptr %arena{{.*}}, i64 [[OFF]]
; CHECK: load i32, ptr [[IN]], align 4, !llvm.access.group ![[GROUPS:[0-9]+]], !weft.context.slot
; CHECK: fixed.r0.x.latch:
; CHECK: [[OUT:%.*]] = getelementptr inbounds i8, ptr %arena{{.*}}, i64 %{{.*}}
; CHECK: store i32 %{{.*}}, ptr [[OUT]], align 4, !llvm.access.group ![[GROUPS]], !weft.context.slot
; CHECK: br i1 %{{.*}}, label %fixed.r0.x.loop, label %fixed.r0.y.latch, !llvm.loop
; CHECK-NOT: dead.reg2mem.ctx
; CHECK: attributes #{{[0-9]+}} = { {{.*}}"weft-private-arena-size"="64"

declare void @_Z7barrierj(i32)

define internal void @k.workitem(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  %a = getelementptr i32, ptr addrspace(1) %in, i64 %x
  %live = load i32, ptr addrspace(1) %a
  %dead = add i32 %live, 1
  br label %next
next:
  store i32 %dead, ptr addrspace(1) %a
  call void @_Z7barrierj(i32 1)
  %o = getelementptr i32, ptr addrspace(1) %out, i64 %x
  store i32 %live, ptr addrspace(1) %o
  ret void
}
