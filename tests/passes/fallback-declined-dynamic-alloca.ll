; The region method declines a work-item function with a private allocation
; of run-time size (it would share it between the work-items), naming the
; reason; the fallback method then runs every work-item as a fiber, the
; barrier becoming a switch and the implicit entry and exit barriers gone.
; Under -weft-wg-method=regions (WEFT_WG_METHOD=regions) nothing takes the
; declined function: no work-group function, so the compile fails.
; RUN: weft-opt -passes=weft-normalize-barriers,weft-parallel-regions -weft-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=DECLINE
; RUN: weft-opt -passes=weft-workgroup -weft-wg-method=regions -weft-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=DECLINE
; RUN: weft-opt -passes=weft-normalize-barriers,weft-parallel-regions,weft-workgroup-fibers -weft-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=FIBERS

; DECLINE-NOT: define {{.*}}@k.workgroup(
; DECLINE: define internal void @k.workitem({{.*}} #[[ATTRS:[0-9]+]]
; DECLINE-NOT: define {{.*}}@k.workgroup(
; DECLINE: attributes #[[ATTRS]] = { {{.*}}"weft-fallback-reason"="a private allocation of run-time size or outside the entry block"

; FIBERS-LABEL: define internal void @k.fiber(ptr %0, ptr %1, i64 %2, i64 %3, i64 %4)
; FIBERS: alloca i32, i32 %n
; FIBERS: call void @__weft_fiber_barrier(ptr %1)
; FIBERS-NOT: __weft_fiber_barrier
; FIBERS-NOT: __weft_barrier
; FIBERS: ret void
; FIBERS-LABEL: define internal void @k.workgroup(ptr addrspace(3) %s, ptr addrspace(1) %out, i32 %n, ptr noalias nocapture readonly %ctx)
; FIBERS: %frame = alloca { ptr addrspace(3), ptr addrspace(1), i32 }
; FIBERS: call void @__weft_run_work_group_fibers(ptr %ctx, ptr @k.fiber, ptr %frame, i64 32768, i64 0)
; FIBERS-NOT: @k.workitem
; FIBERS-NOT: weft-fallback-reason
; FIBERS: "weft-private-arena-size"="{{[0-9]+}}"

declare void @_Z7barrierj(i32)

define internal void @k.workitem(ptr addrspace(3) %s, ptr addrspace(1) %out, i32 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  br label %body
body:
  %buf = alloca i32, i32 %n
  %slot = getelementptr i32, ptr addrspace(3) %s, i64 %x
  store i32 %n, ptr %buf
  store i32 1, ptr addrspace(3) %slot
  call void @_Z7barrierj(i32 1)
  %o = getelementptr i32, ptr addrspace(1) %out, i64 %x
  %v = load i32, ptr addrspace(3) %s
  %w = load i32, ptr %buf
  %sum = add i32 %v, %w
  store i32 %sum, ptr addrspace(1) %o
  ret void
}
