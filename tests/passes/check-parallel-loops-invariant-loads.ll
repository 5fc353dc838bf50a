; A load of a loop-invariant address that O3 recreated without the access
; groups (VectorCombine scalarizes a uniform <4 x double> load whose lanes
; are only extracted: CLBlast's double Xgemm) gets the groups of the loop's
; other accesses back, so the loop keeps its parallel annotation. Not when
; a store of the loop lacks them too (LowerLocalAtomics's load/store pairs,
; which work-items of one bin depend on), nor for a load of private memory,
; nor for a load whose address moves with the work-item.
; RUN: weft-opt -passes=weft-check-parallel-loops -S %s | FileCheck %s

; CHECK-LABEL: define void @uniform_row(
; CHECK: %b0 = load double, ptr addrspace(3) %brow, align 32, !llvm.access.group [[G:![0-9]+]]
; CHECK: %b1 = load double, ptr addrspace(3) %brow1, align 8, !llvm.access.group [[G]]
; CHECK: br i1 %more, label %x.loop, label %done, !llvm.loop [[KEPT:![0-9]+]]

; CHECK-LABEL: define void @lowered_atomic(
; CHECK: %b0 = load double, ptr addrspace(3) %brow, align 32{{$}}
; CHECK: %old = load i32, ptr addrspace(3) %bin, align 4{{$}}

; CHECK-LABEL: define void @private_and_varying(
; CHECK: %p = load double, ptr %priv, align 8{{$}}
; CHECK: %v = load double, ptr addrspace(3) %pv, align 8{{$}}

; CHECK-DAG: [[KEPT]] = distinct !{[[KEPT]], [[PA:![0-9]+]]}
; CHECK-DAG: [[PA]] = !{!"llvm.loop.parallel_accesses", [[G]]}

declare double @llvm.fmuladd.f64(double, double, double)

define void @uniform_row(ptr addrspace(3) noalias %a, ptr addrspace(3) noalias %b, ptr noalias %slots, i64 %y) {
entry:
  %brow = getelementptr inbounds double, ptr addrspace(3) %b, i64 %y
  %brow1 = getelementptr inbounds i8, ptr addrspace(3) %brow, i64 8
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %pa = getelementptr inbounds double, ptr addrspace(3) %a, i64 %x
  %av = load double, ptr addrspace(3) %pa, align 8, !llvm.access.group !0
  %b0 = load double, ptr addrspace(3) %brow, align 32
  %b1 = load double, ptr addrspace(3) %brow1, align 8
  %ps0 = getelementptr inbounds double, ptr %slots, i64 %x
  %c0 = load double, ptr %ps0, align 8, !llvm.access.group !0
  %f0 = call double @llvm.fmuladd.f64(double %av, double %b0, double %c0)
  %f1 = call double @llvm.fmuladd.f64(double %av, double %b1, double %f0)
  store double %f1, ptr %ps0, align 8, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %x.next, 16
  br i1 %more, label %x.loop, label %done, !llvm.loop !1
done:
  ret void
}

define void @lowered_atomic(ptr addrspace(3) noalias %a, ptr addrspace(3) noalias %b, ptr addrspace(3) noalias %bin, ptr noalias %out, i64 %y) {
entry:
  %brow = getelementptr inbounds double, ptr addrspace(3) %b, i64 %y
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %pa = getelementptr inbounds double, ptr addrspace(3) %a, i64 %x
  %av = load double, ptr addrspace(3) %pa, align 8, !llvm.access.group !3
  %b0 = load double, ptr addrspace(3) %brow, align 32
  %s = fadd double %av, %b0
  %po = getelementptr inbounds double, ptr %out, i64 %x
  store double %s, ptr %po, align 8, !llvm.access.group !3
  %old = load i32, ptr addrspace(3) %bin, align 4
  %new = add i32 %old, 1
  store i32 %new, ptr addrspace(3) %bin, align 4
  %x.next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %x.next, 16
  br i1 %more, label %x.loop, label %done, !llvm.loop !4
done:
  ret void
}

define void @private_and_varying(ptr addrspace(3) noalias %a, ptr noalias %out) {
entry:
  %priv = alloca double, align 8
  store double 1.0, ptr %priv, align 8
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %p = load double, ptr %priv, align 8
  %pv = getelementptr inbounds double, ptr addrspace(3) %a, i64 %x
  %v = load double, ptr addrspace(3) %pv, align 8
  %s = fadd double %p, %v
  %po = getelementptr inbounds double, ptr %out, i64 %x
  store double %s, ptr %po, align 8, !llvm.access.group !6
  %x.next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %x.next, 16
  br i1 %more, label %x.loop, label %done, !llvm.loop !7
done:
  ret void
}

!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
!3 = distinct !{}
!4 = distinct !{!4, !5}
!5 = !{!"llvm.loop.parallel_accesses", !3}
!6 = distinct !{}
!7 = distinct !{!7, !8}
!8 = !{!"llvm.loop.parallel_accesses", !6}
