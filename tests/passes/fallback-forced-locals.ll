; Forced with -weft-wg-method=fallback (WEFT_WG_METHOD=fallback), even a
; kernel the region method takes runs as fibers. An automatic __local
; variable reaches the fiber through the frame, its address taken in
; K.workgroup, which the launcher inlines and points at the worker's local
; memory (WorkGroupContext::LocalVariables).
; RUN: weft-opt -passes=weft-workgroup -weft-wg-method=fallback -weft-local-size=4,1,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @k.fiber(
; CHECK: %k.tmp = load ptr addrspace(3), ptr
; CHECK-NOT: @k.tmp
; CHECK: getelementptr [4 x i32], ptr addrspace(3) %k.tmp
; CHECK: call void @__weft_fiber_barrier(
; CHECK-NOT: call void @__weft_fiber_barrier(
; CHECK: ret void
; CHECK-LABEL: define void @__weft_launch_k(
; CHECK-NOT: alloca [4 x i32]
; CHECK: [[ADDR:%.*]] = call align 128 dereferenceable(16) ptr @__weft_local_variable(ptr %ctx, i64 0, i64 0)
; CHECK: [[TMP:%.*]] = addrspacecast ptr [[ADDR]] to ptr addrspace(3)
; CHECK: store ptr addrspace(3) [[TMP]], ptr
; CHECK: call void @__weft_run_work_group_fibers(ptr {{.*}}%ctx, ptr @k.fiber, ptr %frame.i, i64 32768, i64 0)

@k.tmp = internal addrspace(3) global [4 x i32] undef, align 4

declare i64 @_Z12get_local_idj(i32)
declare void @_Z7barrierj(i32)

define spir_kernel void @k(ptr addrspace(1) %out) {
entry:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %slot = getelementptr [4 x i32], ptr addrspace(3) @k.tmp, i64 0, i64 %lid
  %v = trunc i64 %lid to i32
  store i32 %v, ptr addrspace(3) %slot
  call void @_Z7barrierj(i32 1)
  %rev = sub i64 3, %lid
  %from = getelementptr [4 x i32], ptr addrspace(3) @k.tmp, i64 0, i64 %rev
  %r = load i32, ptr addrspace(3) %from
  %o = getelementptr i32, ptr addrspace(1) %out, i64 %lid
  store i32 %r, ptr addrspace(1) %o
  ret void
}
