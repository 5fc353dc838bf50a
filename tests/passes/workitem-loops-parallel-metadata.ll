; The work-item loops have constant trip counts for the specialized local
; size, x innermost, and every global access of the body is in the loops'
; access groups listed by llvm.loop.parallel_accesses.
; RUN: weft-opt -passes=weft-workitem-loops -weft-local-size=8,2,1 -S %s | FileCheck %s

; CHECK-LABEL: define internal void @k.workgroup(ptr addrspace(1) %p, ptr noalias nocapture readonly %ctx)
; CHECK: fixed.z.loop:
; CHECK: fixed.y.loop:
; CHECK: fixed.x.loop:
; CHECK: store float 1.000000e+00, ptr addrspace(1) {{%.*}}, align 4, !llvm.access.group [[GROUPS:![0-9]+]]
; CHECK: [[NEXTX:%.*]] = add nuw nsw i64 %fixed.lid.x, 1
; CHECK: icmp ult i64 [[NEXTX]], 8
; CHECK: br i1 {{%.*}}, label %fixed.x.loop, label %fixed.y.latch, !llvm.loop [[LOOPX:![0-9]+]]
; CHECK: icmp ult i64 {{%.*}}, 2
; CHECK: remainder.x.loop:
; CHECK-NOT: @k.workitem
; CHECK: ret void
; CHECK: attributes #{{[0-9]+}} = { nounwind "weft-workgroup-of"="k" }
; CHECK: [[GROUPS]] = !{[[GX:![0-9]+]], [[GY:![0-9]+]], [[GZ:![0-9]+]]}
; CHECK: [[LOOPX]] = distinct !{[[LOOPX]], [[PX:![0-9]+]]}
; CHECK: [[PX]] = !{!"llvm.loop.parallel_accesses", [[GX]]}

define internal void @k.workitem(ptr addrspace(1) %p, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
  %row = mul i64 %y, 8
  %i = add i64 %row, %x
  %a = getelementptr float, ptr addrspace(1) %p, i64 %i
  store float 1.0, ptr addrspace(1) %a
  ret void
}
