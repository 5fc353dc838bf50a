; The automatic __local variables of a kernel (addrspace(3) globals from
; clang) live in the worker's local memory, WorkGroupContext::LocalVariables
; (field 10), never in the launcher's frame: laid out in module order, each
; at a multiple of its alignment, the block's size recorded on the launcher.
; The block reaches the inlined work-group function as a noalias parameter,
; so the variables' accesses carry alias scopes that keep them apart from
; the kernel's buffers.
; RUN: weft-opt -passes=weft-launcher -S %s | FileCheck %s

@k.flags = internal addrspace(3) global [3 x i8] undef, align 1
@k.wide = internal addrspace(3) global [2 x <16 x double>] undef, align 128
@k.pair = internal addrspace(3) global { i32, double } undef, align 8

; CHECK-NOT: @k.flags = internal
; CHECK-NOT: @k.wide = internal
; CHECK-NOT: @k.pair = internal
; CHECK-LABEL: define void @__weft_launch_k(
; CHECK-SAME: #[[ATTRS:[0-9]+]]
; CHECK-NOT: alloca
; CHECK: [[FIELD:%.*]] = getelementptr inbounds %weft.WorkGroupContext, ptr %ctx, i32 0, i32 10
; CHECK: [[BLOCK:%.*]] = load ptr, ptr [[FIELD]], align 8, !invariant.load !{{[0-9]+}}, !nonnull !{{[0-9]+}}, !dereferenceable [[SIZE:![0-9]+]], !align [[A128:![0-9]+]]
; CHECK-NOT: alloca
; flags at 0, wide at 128 (its alignment), pair at 128 + 256 = 384.
; CHECK: [[FLAGS:%.*]] = addrspacecast ptr [[BLOCK]] to ptr addrspace(3)
; CHECK: [[WIDE:%.*]] = getelementptr inbounds i8, ptr [[BLOCK]], i64 128
; CHECK: [[WIDE3:%.*]] = addrspacecast ptr [[WIDE]] to ptr addrspace(3)
; CHECK: [[PAIR:%.*]] = getelementptr inbounds i8, ptr [[BLOCK]], i64 384
; CHECK: [[PAIR3:%.*]] = addrspacecast ptr [[PAIR]] to ptr addrspace(3)
; CHECK: store i8 1, ptr addrspace(3) [[FLAGS]], align 1, !alias.scope [[SCOPE:![0-9]+]]
; CHECK: store <16 x double> zeroinitializer, ptr addrspace(3) [[WIDE3]], align 128, !alias.scope [[SCOPE]]
; CHECK: getelementptr inbounds { i32, double }, ptr addrspace(3) [[PAIR3]], i32 0, i32 1
; CHECK: store float {{.*}}, ptr addrspace(1) {{.*}}, !noalias [[SCOPE]]
; CHECK: attributes #[[ATTRS]] = {{.*}}"weft-local-variables-size"="400"
; CHECK-DAG: [[SIZE]] = !{i64 400}
; CHECK-DAG: [[A128]] = !{i64 128}

define internal void @k.workgroup(ptr addrspace(1) %out, ptr %ctx) "weft-workgroup-of"="k" {
  store i8 1, ptr addrspace(3) @k.flags, align 1
  store <16 x double> zeroinitializer, ptr addrspace(3) @k.wide, align 128
  %d = getelementptr inbounds { i32, double }, ptr addrspace(3) @k.pair, i32 0, i32 1
  store double 2.0, ptr addrspace(3) %d, align 8
  %v = load double, ptr addrspace(3) %d, align 8
  %f = fptrunc double %v to float
  store float %f, ptr addrspace(1) %out, align 4
  ret void
}
