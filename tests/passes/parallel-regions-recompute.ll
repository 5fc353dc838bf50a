; Cheap expressions of the local ids, the kernel's arguments and the
; work-group context (here get_global_id(0) = group id * local size + x)
; are recomputed in the region that uses them rather than carried across
; the barrier in a context array: the arena stays empty, and the address
; of the store after the barrier is computed from the x loop's own id, so
; the vectorizer sees it is consecutive. The value loaded before the
; barrier still needs its context array.
; RUN: weft-opt -passes=weft-normalize-barriers,weft-parallel-regions -weft-local-size=8,1,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @k.workgroup(
; CHECK: fixed.r1.x.loop:
; CHECK: next.after.fixed.r1:
; CHECK: %group.remat.fixed.r1 = load i64, ptr %{{.*}}, !invariant.load
; CHECK: %base.remat.fixed.r1 = mul i64 %group.remat.fixed.r1, 8
; CHECK: %gid.remat.fixed.r1 = add i64 %base.remat.fixed.r1, %fixed.r1.lid.x
; CHECK: %o.fixed.r1 = getelementptr i32, ptr addrspace(1) %out, i64 %gid.remat.fixed.r1
; CHECK: attributes #{{[0-9]+}} = { {{.*}}"weft-private-arena-size"="64"

declare void @_Z7barrierj(i32)

define internal void @k.workitem(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  %gp = getelementptr i8, ptr %ctx, i64 8
  %group = load i64, ptr %gp, !invariant.load !0
  %base = mul i64 %group, 8
  %gid = add i64 %base, %x
  %a = getelementptr i32, ptr addrspace(1) %in, i64 %gid
  %v = load i32, ptr addrspace(1) %a
  br label %next
next:
  call void @_Z7barrierj(i32 1)
  %o = getelementptr i32, ptr addrspace(1) %out, i64 %gid
  store i32 %v, ptr addrspace(1) %o
  ret void
}

!0 = !{}
