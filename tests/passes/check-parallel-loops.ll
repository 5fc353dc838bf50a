; Right before the loop vectorizer, an innermost work-item loop keeps
; llvm.loop.parallel_accesses unless a work-item may, in one iteration,
; store and then touch the same memory: two stores to one buffer at
; constant distances, or stores and loads through different kernel
; arguments (pointers loaded through different slots of the argument
; buffer, as the launcher reads them), keep it; a reload at a distance
; nobody knows drops it. A loop that is not innermost is left alone.
; RUN: weft-opt -passes=weft-check-parallel-loops -S %s | FileCheck %s

; CHECK-LABEL: define void @apart(
; CHECK: br i1 %more, label %x.loop, label %done, !llvm.loop [[KEEP1:![0-9]+]]
define void @apart(ptr noalias %args) {
entry:
  %buf = load ptr, ptr %args, align 8
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %base = shl i64 %x, 3
  %lo.i = getelementptr float, ptr %buf, i64 %base
  %hi.off = add i64 %base, 4
  %hi.i = getelementptr float, ptr %buf, i64 %hi.off
  %hi = load float, ptr %hi.i, align 4, !llvm.access.group !10
  %lo = load float, ptr %lo.i, align 4, !llvm.access.group !10
  %sum = fadd float %lo, %hi
  store float %sum, ptr %lo.i, align 4, !llvm.access.group !10
  %dbl = fmul float %hi, 2.0
  store float %dbl, ptr %hi.i, align 4, !llvm.access.group !10
  %next.off = add i64 %base, 5
  %next.i = getelementptr float, ptr %buf, i64 %next.off
  %next = load float, ptr %next.i, align 4, !llvm.access.group !10
  %six.off = add i64 %base, 6
  %six.i = getelementptr float, ptr %buf, i64 %six.off
  store float %next, ptr %six.i, align 4, !llvm.access.group !10
  %x.next = add i64 %x, 1
  %more = icmp ult i64 %x.next, 64
  br i1 %more, label %x.loop, label %done, !llvm.loop !11
done:
  ret void
}

; CHECK-LABEL: define void @two_arguments(
; CHECK: br i1 %more, label %x.loop, label %done, !llvm.loop [[KEEP2:![0-9]+]]
define void @two_arguments(ptr noalias %args) {
entry:
  %out.ptr = load ptr, ptr %args, align 8
  %out = load ptr, ptr %out.ptr, align 8
  %in.slot = getelementptr i8, ptr %args, i64 8
  %in.ptr = load ptr, ptr %in.slot, align 8
  %in = load ptr, ptr %in.ptr, align 8
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %o = getelementptr float, ptr %out, i64 %x
  store float 1.0, ptr %o, align 4, !llvm.access.group !20
  %i = getelementptr float, ptr %in, i64 %x
  %v = load float, ptr %i, align 4, !llvm.access.group !20
  %x.next = add i64 %x, 1
  %more = icmp ult i64 %x.next, 64
  br i1 %more, label %x.loop, label %done, !llvm.loop !21
done:
  ret void
}

; CHECK-LABEL: define void @reload_unknown(
; CHECK: br i1 %more, label %x.loop, label %done, !llvm.loop [[DROP:![0-9]+]]
define void @reload_unknown(ptr noalias %args, i64 %k) {
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
  %more = icmp ult i64 %x.next, 64
  br i1 %more, label %x.loop, label %done, !llvm.loop !31
done:
  ret void
}

; The outer loop is not innermost: the vectorizer leaves it alone.
; CHECK-LABEL: define void @not_innermost(
; CHECK: br i1 %more, label %x.loop, label %done, !llvm.loop [[KEEP3:![0-9]+]]
define void @not_innermost(ptr noalias %args, i64 %k) {
entry:
  %buf = load ptr, ptr %args, align 8
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %inner.done ]
  %base = shl i64 %x, 2
  br label %inner
inner:
  %i = phi i64 [ 0, %x.loop ], [ %i.next, %inner ]
  %s.off = add i64 %base, %i
  %s.i = getelementptr float, ptr %buf, i64 %s.off
  store float 1.0, ptr %s.i, align 4, !llvm.access.group !40
  %k.off = add i64 %base, %k
  %k.i = getelementptr float, ptr %buf, i64 %k.off
  %v = load float, ptr %k.i, align 4, !llvm.access.group !40
  %i.next = add i64 %i, 1
  %i.more = icmp ult i64 %i.next, 4
  br i1 %i.more, label %inner, label %inner.done
inner.done:
  %x.next = add i64 %x, 1
  %more = icmp ult i64 %x.next, 64
  br i1 %more, label %x.loop, label %done, !llvm.loop !41
done:
  ret void
}

; CHECK-DAG: [[KEEP1]] = distinct !{[[KEEP1]], [[PA1:![0-9]+]]}
; CHECK-DAG: [[PA1]] = !{!"llvm.loop.parallel_accesses", !{{[0-9]+}}}
; CHECK-DAG: [[KEEP2]] = distinct !{[[KEEP2]], [[PA2:![0-9]+]]}
; CHECK-DAG: [[PA2]] = !{!"llvm.loop.parallel_accesses", !{{[0-9]+}}}
; CHECK-DAG: [[KEEP3]] = distinct !{[[KEEP3]], [[PA3:![0-9]+]]}
; CHECK-DAG: [[PA3]] = !{!"llvm.loop.parallel_accesses", !{{[0-9]+}}}
; CHECK-DAG: [[DROP]] = distinct !{[[DROP]]}

!10 = distinct !{}
!11 = distinct !{!11, !12}
!12 = !{!"llvm.loop.parallel_accesses", !10}
!20 = distinct !{}
!21 = distinct !{!21, !22}
!22 = !{!"llvm.loop.parallel_accesses", !20}
!30 = distinct !{}
!31 = distinct !{!31, !32}
!32 = !{!"llvm.loop.parallel_accesses", !30}
!40 = distinct !{}
!41 = distinct !{!41, !42}
!42 = !{!"llvm.loop.parallel_accesses", !40}
