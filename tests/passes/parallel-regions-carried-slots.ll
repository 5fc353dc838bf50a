; A value carried around a loop with barriers shares its PHI's context
; array when nothing reads the old value after the new one exists: the
; next value is stored to the PHI's slot where it is computed, and neither
; its own slot nor the copy at the latch (one per work-item and trip)
; remains. @k carries acc: one float slot of 4 work-items (64 bytes with
; the arena's alignment) where there were two. @k2 reads the old acc after
; the new one (prev = acc * next), so its PHI's value keeps a slot of its
; own beside the carried one.
; RUN: weft-opt -passes=weft-normalize-barriers,weft-parallel-regions -weft-local-size=4,1,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @k.workgroup(
; CHECK-NOT: acc.next.reg2mem
; CHECK-LABEL: define internal void @k2.workgroup(
; CHECK-DAG: %acc.reg2mem{{[0-9]*}}.ctx{{[0-9]*}} = getelementptr
; CHECK-DAG: %acc.reg2mem.ctx{{[0-9]*}} = getelementptr
; CHECK-DAG: attributes #{{[0-9]+}} = { {{.*}}"weft-private-arena-size"="64" "weft-workgroup-of"="k" }
; CHECK-DAG: attributes #{{[0-9]+}} = { {{.*}}"weft-private-arena-size"="192" "weft-workgroup-of"="k2" }

declare void @_Z7barrierj(i32)

define internal void @k.workitem(ptr addrspace(3) %s, ptr addrspace(1) %out, i32 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %slot = getelementptr float, ptr addrspace(3) %s, i64 %x
  store float %acc, ptr addrspace(3) %slot
  call void @_Z7barrierj(i32 1)
  %other = load float, ptr addrspace(3) %s
  %acc.next = fadd float %acc, %other
  call void @_Z7barrierj(i32 1)
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %o = getelementptr float, ptr addrspace(1) %out, i64 %x
  store float %acc.next, ptr addrspace(1) %o
  ret void
}

define internal void @k2.workitem(ptr addrspace(3) %s, ptr addrspace(1) %out, i32 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k2" {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %prev = phi float [ 0.0, %entry ], [ %prev.next, %loop ]
  %slot = getelementptr float, ptr addrspace(3) %s, i64 %x
  store float %acc, ptr addrspace(3) %slot
  call void @_Z7barrierj(i32 1)
  %other = load float, ptr addrspace(3) %s
  %acc.next = fadd float %acc, %other
  call void @_Z7barrierj(i32 1)
  %prev.next = fmul float %acc, %acc.next
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %o = getelementptr float, ptr addrspace(1) %out, i64 %x
  %r = fadd float %acc.next, %prev.next
  store float %r, ptr addrspace(1) %o
  ret void
}
