; In a kernel with barriers, a uniform branch whose arms store (CLBlast's
; `if (ld % 2 == 0) vector copy else scalar copy` to local memory) gets
; implicit barriers at the top of both arms and of the join: each arm then
; has a work-item loop of its own instead of being if-converted into masked
; stores. A branch of a ternary between two loads (no store) and a
; branch on a varying condition are left alone.
; RUN: weft-opt -passes=weft-horizontal-loops -weft-local-size=8,1,1 -S %s | FileCheck %s
; RUN: weft-opt -passes=weft-horizontal-loops -weft-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=COUNT

; CHECK-LABEL: define internal void @copy.workitem(
; CHECK: vector:
; CHECK-NEXT: call void @__weft_barrier()
; CHECK: scalar:
; CHECK-NEXT: call void @__weft_barrier()
; CHECK: copied:
; CHECK-NEXT: call void @__weft_barrier()
; CHECK-NEXT: call void @_Z7barrierj(i32 1)
; CHECK: pick0:
; CHECK-NOT: __weft_barrier
; CHECK: edge:
; CHECK-NOT: __weft_barrier
; CHECK: ret void
; COUNT-COUNT-3: call void @__weft_barrier()
; COUNT-NOT: call void @__weft_barrier()

define internal void @copy.workitem(ptr addrspace(1) %a, ptr addrspace(3) %l, i32 %ld, i32 %t, i32 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="copy" {
entry:
  %rem = srem i32 %ld, 2
  %even = icmp eq i32 %rem, 0
  br i1 %even, label %vector, label %scalar
vector:
  %pv = getelementptr <2 x float>, ptr addrspace(1) %a, i64 %x
  %v = load <2 x float>, ptr addrspace(1) %pv
  %lv = getelementptr <2 x float>, ptr addrspace(3) %l, i64 %x
  store <2 x float> %v, ptr addrspace(3) %lv
  br label %copied
scalar:
  %ps = getelementptr float, ptr addrspace(1) %a, i64 %x
  %s = load float, ptr addrspace(1) %ps
  %ls = getelementptr float, ptr addrspace(3) %l, i64 %x
  store float %s, ptr addrspace(3) %ls
  br label %copied
copied:
  call void @_Z7barrierj(i32 1)
  %tr = icmp ne i32 %t, 0
  br i1 %tr, label %pick0, label %pick1
pick0:
  %q0 = getelementptr float, ptr addrspace(3) %l, i64 %x
  %v0 = load float, ptr addrspace(3) %q0
  br label %picked
pick1:
  %v1 = load float, ptr addrspace(3) %l
  br label %picked
picked:
  %v01 = phi float [ %v0, %pick0 ], [ %v1, %pick1 ]
  %x32 = trunc i64 %x to i32
  %in = icmp slt i32 %x32, %n
  br i1 %in, label %edge, label %done
edge:
  %o = getelementptr float, ptr addrspace(1) %a, i64 %x
  store float %v01, ptr addrspace(1) %o
  br label %done
done:
  ret void
}

declare void @_Z7barrierj(i32)
