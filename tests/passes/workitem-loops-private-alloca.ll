; A private array that survived as an alloca is shared by all work-items once
; inlined into the loops: its accesses must not claim to be parallel, while
; the global store next to them does.
; RUN: weft-opt -passes=weft-workitem-loops -weft-local-size=4,1,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @k.workgroup(
; CHECK: fixed.x.loop:
; CHECK: store i32 {{.*}}, ptr %{{[a-z0-9.]+}}, align 4{{$}}
; CHECK: load i32, ptr %{{[a-z0-9.]+}}, align 4{{$}}
; CHECK: store i32 {{.*}}, ptr addrspace(1) {{.*}}, !llvm.access.group

define internal void @k.workitem(ptr addrspace(1) %p, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
  %tmp = alloca [4 x i32], align 4
  %slot = getelementptr [4 x i32], ptr %tmp, i64 0, i64 %x
  %v = trunc i64 %x to i32
  store i32 %v, ptr %slot, align 4
  %back = load i32, ptr %slot, align 4
  %a = getelementptr i32, ptr addrspace(1) %p, i64 %x
  store i32 %back, ptr addrspace(1) %a, align 4
  ret void
}
