; The generic address space's queries become range checks on the worker's
; memory as the WorkGroupContext describes it: __local memory (fields 11
; and 12), the thread's stack (13, 14) and the private arena (8, 15).
; RUN: weft-opt -passes=weft-resolve-workitem-functions -S %s | FileCheck %s

declare ptr addrspace(3) @__to_local(ptr addrspace(4))
declare ptr @__to_private(ptr addrspace(4))
declare ptr addrspace(1) @__to_global(ptr addrspace(4))
declare i32 @_Z9get_fencePU9CLgenericv(ptr addrspace(4))

; CHECK-LABEL: define internal void @k.workitem(
; CHECK:      [[A:%.*]] = ptrtoint ptr addrspace(4) %p to i64
; CHECK:      getelementptr inbounds %weft.WorkGroupContext, ptr %ctx, i32 0, i32 11
; CHECK:      getelementptr inbounds %weft.WorkGroupContext, ptr %ctx, i32 0, i32 12
; CHECK:      [[LOCAL:%.*]] = icmp ult i64
; CHECK:      getelementptr inbounds %weft.WorkGroupContext, ptr %ctx, i32 0, i32 13
; CHECK:      getelementptr inbounds %weft.WorkGroupContext, ptr %ctx, i32 0, i32 14
; CHECK:      getelementptr inbounds %weft.WorkGroupContext, ptr %ctx, i32 0, i32 8
; CHECK:      getelementptr inbounds %weft.WorkGroupContext, ptr %ctx, i32 0, i32 15
; CHECK:      [[PRIV:%.*]] = or i1
; CHECK:      [[CAST:%.*]] = addrspacecast ptr addrspace(4) %p to ptr addrspace(3)
; CHECK:      select i1 [[LOCAL]], ptr addrspace(3) [[CAST]], ptr addrspace(3) null
; CHECK:      addrspacecast ptr addrspace(4) %p to ptr
; CHECK:      select i1 {{%.*}}, ptr {{%.*}}, ptr null
; CHECK:      [[NEITHER:%.*]] = xor i1 {{%.*}}, true
; CHECK:      select i1 [[NEITHER]], ptr addrspace(1) {{%.*}}, ptr addrspace(1) null
; CHECK:      [[F:%.*]] = select i1 {{%.*}}, i32 2, i32 1
; CHECK:      select i1 {{%.*}}, i32 0, i32 [[F]]
; CHECK-NOT:  call {{.*}}@__to_
; CHECK-NOT:  call {{.*}}get_fence
define spir_kernel void @k(ptr addrspace(4) %p, ptr addrspace(1) %out) {
  %l = call ptr addrspace(3) @__to_local(ptr addrspace(4) %p)
  %pr = call ptr @__to_private(ptr addrspace(4) %p)
  %g = call ptr addrspace(1) @__to_global(ptr addrspace(4) %p)
  %f = call i32 @_Z9get_fencePU9CLgenericv(ptr addrspace(4) %p)
  %li = ptrtoint ptr addrspace(3) %l to i64
  %pi = ptrtoint ptr %pr to i64
  %gi = ptrtoint ptr addrspace(1) %g to i64
  %s1 = add i64 %li, %pi
  %s2 = add i64 %s1, %gi
  %fi = zext i32 %f to i64
  %s = add i64 %s2, %fi
  store i64 %s, ptr addrspace(1) %out
  ret void
}
