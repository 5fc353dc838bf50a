; An innermost work-item loop of fewer than 16 constant trips that keeps
; llvm.loop.parallel_accesses is also asked to vectorize: LLVM's loop
; vectorizer would otherwise optimize such a loop for size and refuse the
; run-time no-wrap checks of its 32-bit indices. A loop of 16 trips, and a
; tiny loop that loses its annotation, are left to the cost model.
; RUN: weft-opt -passes=weft-check-parallel-loops -S %s | FileCheck %s

; CHECK-LABEL: define void @tiny(
; CHECK: br i1 %more, label %x.loop, label %done, !llvm.loop [[TINY:![0-9]+]]
; CHECK-LABEL: define void @sixteen(
; CHECK: br i1 %more, label %x.loop, label %done, !llvm.loop [[SIXTEEN:![0-9]+]]
; CHECK-LABEL: define void @tiny_reload(
; CHECK: br i1 %more, label %x.loop, label %done, !llvm.loop [[DROP:![0-9]+]]

; CHECK-DAG: [[TINY]] = distinct !{[[TINY]], [[PA1:![0-9]+]], [[ENABLE:![0-9]+]]}
; CHECK-DAG: [[PA1]] = !{!"llvm.loop.parallel_accesses", !{{[0-9]+}}}
; CHECK-DAG: [[ENABLE]] = !{!"llvm.loop.vectorize.enable", i32 1}
; CHECK-DAG: [[SIXTEEN]] = distinct !{[[SIXTEEN]], [[PA2:![0-9]+]]}
; CHECK-DAG: [[PA2]] = !{!"llvm.loop.parallel_accesses", !{{[0-9]+}}}
; CHECK-DAG: [[DROP]] = distinct !{[[DROP]]}

define void @tiny(ptr noalias %args, i32 %base) {
entry:
  %buf = load ptr, ptr %args, align 8
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %x32 = trunc i64 %x to i32
  %i32 = add nsw i32 %base, %x32
  %i = sext i32 %i32 to i64
  %p = getelementptr float, ptr %buf, i64 %i
  store float 1.0, ptr %p, align 4, !llvm.access.group !10
  %x.next = add i64 %x, 1
  %more = icmp ult i64 %x.next, 8
  br i1 %more, label %x.loop, label %done, !llvm.loop !11
done:
  ret void
}

define void @sixteen(ptr noalias %args, i32 %base) {
entry:
  %buf = load ptr, ptr %args, align 8
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %x32 = trunc i64 %x to i32
  %i32 = add nsw i32 %base, %x32
  %i = sext i32 %i32 to i64
  %p = getelementptr float, ptr %buf, i64 %i
  store float 1.0, ptr %p, align 4, !llvm.access.group !20
  %x.next = add i64 %x, 1
  %more = icmp ult i64 %x.next, 16
  br i1 %more, label %x.loop, label %done, !llvm.loop !21
done:
  ret void
}

define void @tiny_reload(ptr noalias %args, i64 %k) {
entry:
  %buf = load ptr, ptr %args, align 8
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %base = shl i64 %x, 2
  %s.i = getelementptr float, ptr %buf, i64 %base
  store float 1.0, ptr %s.i, align 4, !llvm.access.group !30
  %k.off = add i64 %base, %k
  %k.i = getelementptr float, ptr %buf, i64 %k.off
  %v = load float, ptr %k.i, align 4, !llvm.access.group !30
  %s1.off = add i64 %base, 1
  %s1.i = getelementptr float, ptr %buf, i64 %s1.off
  store float %v, ptr %s1.i, align 4, !llvm.access.group !30
  %x.next = add i64 %x, 1
  %more = icmp ult i64 %x.next, 8
  br i1 %more, label %x.loop, label %done, !llvm.loop !31
done:
  ret void
}

!10 = distinct !{}
!11 = distinct !{!11, !12}
!12 = !{!"llvm.loop.parallel_accesses", !10}
!20 = distinct !{}
!21 = distinct !{!21, !22}
!22 = !{!"llvm.loop.parallel_accesses", !20}
!30 = distinct !{}
!31 = distinct !{!31, !32}
!32 = !{!"llvm.loop.parallel_accesses", !30}
