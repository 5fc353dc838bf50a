; The innermost work-item loop (x, parallel and holding no other parallel
; loop) is asked to unroll by WEFT_ACCELSIM_UNROLL (8 by default), its
; earlier unroll request dropped; the y loop around it is kept rolled
; (unroll.disable). Each access of a parallel group gets !weft.workitem.access
; {group, position among the group's accesses}; the access outside any
; group gets none.
; RUN: weft-opt -passes=weft-unroll-workitem-loops -S %s | FileCheck %s
; RUN: env WEFT_ACCELSIM_UNROLL=1 weft-opt -passes=weft-unroll-workitem-loops -S %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define void @k(
; CHECK: load float, ptr addrspace(1) %px, align 4, !llvm.access.group [[X:![0-9]+]], !weft.workitem.access [[T0:![0-9]+]]
; CHECK: store float %v, ptr addrspace(1) %qx, align 4, !llvm.access.group [[X]], !weft.workitem.access [[T1:![0-9]+]]
; CHECK: br i1 %xdone, label %ylatch, label %xloop, !llvm.loop [[XL:![0-9]+]]
; CHECK: store float %v, ptr addrspace(1) %q, align 4{{$}}
; CHECK: br i1 %ydone, label %exit, label %yloop, !llvm.loop [[YL:![0-9]+]]
; CHECK-DAG: [[T0]] = !{[[X]], i32 0}
; CHECK-DAG: [[T1]] = !{[[X]], i32 1}
; CHECK-DAG: [[XL]] = distinct !{[[XL]], [[XP:![0-9]+]], [[U:![0-9]+]]}
; CHECK-DAG: [[U]] = !{!"llvm.loop.unroll.count", i32 8}
; CHECK-DAG: [[YL]] = distinct !{[[YL]], [[YP:![0-9]+]], [[D:![0-9]+]]}
; CHECK-DAG: [[D]] = !{!"llvm.loop.unroll.disable"}

; OFF: br i1 %xdone, label %ylatch, label %xloop, !llvm.loop [[XL:![0-9]+]]
; OFF: [[XL]] = distinct !{[[XL]], {{![0-9]+}}, [[D:![0-9]+]]}
; OFF: [[D]] = !{!"llvm.loop.unroll.disable"}
; OFF-NOT: llvm.loop.unroll.count

define void @k(ptr addrspace(1) %p, ptr addrspace(1) %q) {
entry:
  br label %yloop
yloop:
  %y = phi i64 [ 0, %entry ], [ %ynext, %ylatch ]
  br label %xloop
xloop:
  %x = phi i64 [ 0, %yloop ], [ %xnext, %xloop ]
  %px = getelementptr float, ptr addrspace(1) %p, i64 %x
  %v = load float, ptr addrspace(1) %px, align 4, !llvm.access.group !1
  %qx = getelementptr float, ptr addrspace(1) %q, i64 %x
  store float %v, ptr addrspace(1) %qx, align 4, !llvm.access.group !1
  %xnext = add i64 %x, 1
  %xdone = icmp eq i64 %xnext, 64
  br i1 %xdone, label %ylatch, label %xloop, !llvm.loop !2
ylatch:
  store float %v, ptr addrspace(1) %q, align 4
  %ynext = add i64 %y, 1
  %ydone = icmp eq i64 %ynext, 8
  br i1 %ydone, label %exit, label %yloop, !llvm.loop !5
exit:
  ret void
}

!1 = distinct !{}
!2 = distinct !{!2, !3, !4}
!3 = !{!"llvm.loop.parallel_accesses", !1}
!4 = !{!"llvm.loop.unroll.disable"}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.parallel_accesses", !1}
