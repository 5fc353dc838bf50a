; A __local variable aligned beyond the 128 bytes drivers promise for
; WorkGroupContext::LocalVariables (launcher.h): the block's address is
; rounded up (mask 4095) and the launcher asks for the slack in its size.
; RUN: weft-opt -passes=weft-launcher -S %s | FileCheck %s

@k.small = internal addrspace(3) global i32 undef, align 4
@k.page = internal addrspace(3) global [16 x i32] undef, align 4096

; CHECK-LABEL: define void @__weft_launch_k(
; CHECK-SAME: #[[ATTRS:[0-9]+]]
; small at 0, page at 4096: 4096 + 64 bytes, plus 4096 - 128 of slack.
; CHECK: call align 4096 dereferenceable(4) ptr @__weft_local_variable(ptr %ctx, i64 0, i64 4095)
; CHECK: call align 4096 dereferenceable(64) ptr @__weft_local_variable(ptr %ctx, i64 4096, i64 4095)
; CHECK-LABEL: define internal noalias nonnull ptr @__weft_local_variable(
; CHECK: [[UP:%.*]] = getelementptr inbounds i8, ptr {{%.*}}, i64 %2
; CHECK: [[NOT:%.*]] = xor i64 %2, -1
; CHECK: [[ALIGNED:%.*]] = call ptr @llvm.ptrmask.p0.i64(ptr [[UP]], i64 [[NOT]])
; CHECK: getelementptr inbounds i8, ptr [[ALIGNED]], i64 %1
; CHECK: attributes #[[ATTRS]] = {{.*}}"weft-local-variables-size"="8128"

define internal void @k.workgroup(ptr addrspace(1) %out, ptr %ctx) "weft-workgroup-of"="k" {
  store i32 1, ptr addrspace(3) @k.small, align 4
  store i32 2, ptr addrspace(3) @k.page, align 4096
  %v = load i32, ptr addrspace(3) @k.small, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}
