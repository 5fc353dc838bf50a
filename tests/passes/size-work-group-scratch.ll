; The collectives' __local scratch (lib/kernel/work-group-scratch.ll) is
; resized to one 8-byte slot per work-item of the compiled local size plus
; a result slot, keeping its place in module order and its uses (weft-opt's
; default local size is 1,1,1: two slots).
; RUN: weft-opt -passes=weft-size-work-group-scratch -weft-local-size=8,4,2 -S %s | FileCheck %s
; RUN: weft-opt -passes=weft-size-work-group-scratch -S %s | FileCheck %s --check-prefix=ONE
; Above 128 work-items a group has several sub-groups, each with a result
; slot of its own after the work-items' (lib/kernel/subgroups.cl): 200 + 1 + 2.
; RUN: weft-opt -passes=weft-size-work-group-scratch -weft-local-size=20,10,1 -S %s | FileCheck %s --check-prefix=SEVERAL

; CHECK:      @tile = internal addrspace(3) global [16 x float] undef
; CHECK-NEXT: @__weft_work_group_scratch.slots = internal addrspace(3) global [65 x i64] undef, align 8
; CHECK-NEXT: @after = internal addrspace(3) global i32 undef
; ONE:        @__weft_work_group_scratch.slots = internal addrspace(3) global [2 x i64] undef, align 8
; SEVERAL:    @__weft_work_group_scratch.slots = internal addrspace(3) global [203 x i64] undef, align 8
@tile = internal addrspace(3) global [16 x float] undef, align 4
@__weft_work_group_scratch.slots = internal addrspace(3) global [4097 x i64] undef, align 8
@after = internal addrspace(3) global i32 undef, align 4

; CHECK-LABEL: define i64 @reads_slot(
; CHECK: getelementptr i64, ptr addrspace(3) @__weft_work_group_scratch.slots, i64 %i
; CHECK: load i64, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @__weft_work_group_scratch.slots, i64 8)
define i64 @reads_slot(i64 %i) {
  %p = getelementptr i64, ptr addrspace(3) @__weft_work_group_scratch.slots, i64 %i
  %a = load i64, ptr addrspace(3) %p, align 8
  %b = load i64, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @__weft_work_group_scratch.slots, i64 8), align 8
  %s = add i64 %a, %b
  ret i64 %s
}
