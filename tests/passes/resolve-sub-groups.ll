; The sub-group functions' two forms (lib/kernel/subgroups.cl) are chosen
; by the compiled local size: up to 128 work-items the group is one
; sub-group and only the work-group barrier is left; above, only the
; sub-group barrier (for the fallback method), and the sub-group size is
; the constant 128 in both.
; RUN: weft-opt -passes=weft-resolve-sub-groups -weft-local-size=64,2,1 -S %s | FileCheck %s --check-prefix=ONE
; RUN: weft-opt -passes=weft-resolve-sub-groups -weft-local-size=20,10,1 -S %s | FileCheck %s --check-prefix=SEVERAL

declare i32 @__weft_several_sub_groups()
declare i32 @__weft_sub_group_max()
declare void @__weft_sub_group_barrier() convergent
declare void @_Z7barrierj(i32) convergent

; ONE-LABEL: define i32 @k(
; ONE-NOT: __weft_several_sub_groups
; ONE-NOT: __weft_sub_group_barrier
; ONE: call void @_Z7barrierj(i32 1)
; ONE: ret i32 128
; SEVERAL-LABEL: define i32 @k(
; SEVERAL-NOT: __weft_several_sub_groups
; SEVERAL-NOT: _Z7barrierj
; SEVERAL: call void @__weft_sub_group_barrier()
; SEVERAL: ret i32 128
define i32 @k() {
entry:
  %several = call i32 @__weft_several_sub_groups()
  %split = icmp ne i32 %several, 0
  br i1 %split, label %sub, label %whole

sub:
  call void @__weft_sub_group_barrier()
  br label %done

whole:
  call void @_Z7barrierj(i32 1)
  br label %done

done:
  %max = call i32 @__weft_sub_group_max()
  ret i32 %max
}
