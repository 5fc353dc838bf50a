; A __local variable aligned beyond the 128 bytes drivers promise for
; WorkGroupContext::LocalVariables (launcher.h): the launcher rounds the
; block's address up itself and asks for the slack in its size.
; RUN: weft-opt -passes=weft-launcher -S %s | FileCheck %s

@k.small = internal addrspace(3) global i32 undef, align 4
@k.page = internal addrspace(3) global [16 x i32] undef, align 4096

; CHECK-LABEL: define void @__weft_launch_k(
; CHECK-SAME: #[[ATTRS:[0-9]+]]
; CHECK: [[BLOCK:%.*]] = load ptr, ptr {{%.*}}, align 8, {{.*}}!dereferenceable [[SIZE:![0-9]+]], !align
; CHECK: [[UP:%.*]] = getelementptr inbounds i8, ptr [[BLOCK]], i64 4095
; CHECK: [[ALIGNED:%.*]] = call ptr @llvm.ptrmask.p0.i64(ptr [[UP]], i64 -4096)
; small at 0, page at 4096: 4096 + 64 bytes, plus 4096 - 128 of slack.
; CHECK: getelementptr inbounds i8, ptr [[ALIGNED]], i64 4096
; CHECK: attributes #[[ATTRS]] = {{.*}}"weft-local-variables-size"="8128"
; CHECK: [[SIZE]] = !{i64 8128}

define internal void @k.workgroup(ptr addrspace(1) %out, ptr %ctx) "weft-workgroup-of"="k" {
  store i32 1, ptr addrspace(3) @k.small, align 4
  store i32 2, ptr addrspace(3) @k.page, align 4096
  %v = load i32, ptr addrspace(3) @k.small, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}
