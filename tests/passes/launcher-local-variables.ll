; The automatic __local variables of a kernel (addrspace(3) globals from
; clang) live in the worker's local memory, WorkGroupContext::LocalVariables,
; never in the launcher's frame: laid out in module order, each at a
; multiple of its alignment, the block's size recorded on the launcher.
; Each variable's address comes from a noalias call, so that alias
; analysis keeps the variables apart from each other and from the
; kernel's buffers, as it did when they were allocas.
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
; flags at 0, wide at 128 (its alignment), pair at 128 + 256 = 384; each
; as aligned as the 128-byte block and its offset make it.
; CHECK: [[FLAGS:%.*]] = call align 128 dereferenceable(3) ptr @__weft_local_variable(ptr %ctx, i64 0, i64 0)
; CHECK: [[FLAGS3:%.*]] = addrspacecast ptr [[FLAGS]] to ptr addrspace(3)
; CHECK: [[WIDE:%.*]] = call align 128 dereferenceable(256) ptr @__weft_local_variable(ptr %ctx, i64 128, i64 0)
; CHECK: [[WIDE3:%.*]] = addrspacecast ptr [[WIDE]] to ptr addrspace(3)
; CHECK: [[PAIR:%.*]] = call align 128 dereferenceable(16) ptr @__weft_local_variable(ptr %ctx, i64 384, i64 0)
; CHECK: [[PAIR3:%.*]] = addrspacecast ptr [[PAIR]] to ptr addrspace(3)
; CHECK-NOT: alloca
; CHECK: store i8 1, ptr addrspace(3) [[FLAGS3]], align 1
; CHECK: store <16 x double> zeroinitializer, ptr addrspace(3) [[WIDE3]], align 128
; CHECK: getelementptr inbounds i8, ptr addrspace(3) [[PAIR3]], i64 8
; CHECK: ret void

; The address: the block from the context (field 10) plus the offset.
; CHECK-LABEL: define internal noalias nonnull ptr @__weft_local_variable(ptr nocapture readonly dereferenceable(224) %0, i64 %1, i64 %2)
; CHECK-SAME: #[[FNATTRS:[0-9]+]]
; CHECK: [[FIELD:%.*]] = getelementptr inbounds %weft.WorkGroupContext, ptr %0, i32 0, i32 10
; CHECK: [[BLOCK:%.*]] = load ptr, ptr [[FIELD]], align 8
; CHECK: getelementptr inbounds i8, ptr {{%.*}}, i64 %1

; CHECK: attributes #[[ATTRS]] = {{.*}}"weft-local-variables-size"="400"
; CHECK: attributes #[[FNATTRS]] = { noinline nounwind willreturn memory(argmem: read) }

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
