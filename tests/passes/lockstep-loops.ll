; A kernel loop whose trips depend on the work-item splits the x work-item
; loop around it: the part before for every work-item (keeping the loop's
; initial state per work-item), a lockstep loop that runs one trip of each
; active work-item per pass of a parallel x loop until none is active
; (an OR of the active flags), and the part after (the loop's results
; loaded back, id-only values recomputed). Loops with a uniform trip count,
; atomics, or a private alloca inside, and x extents below 4, stay.
; RUN: weft-opt -passes=weft-lockstep-loops -weft-local-size=16,1,1 -S %s | FileCheck %s
; RUN: weft-opt -passes=weft-lockstep-loops -weft-local-size=2,1,1 -S %s | FileCheck %s --check-prefix=NARROW

; NARROW-NOT: {{lockstep\.|\.lockstep}}

; CHECK-LABEL: define internal void @bits.workgroup(
; CHECK-DAG:   %active.lockstep = alloca [16 x i8]
; CHECK-DAG:   %k.lockstep = alloca [16 x i32]
; CHECK-DAG:   %w.lockstep = alloca [16 x i32]
; CHECK-DAG:   %k.next.lcssa.lockstep = alloca [16 x i32]
; CHECK:     x.loop:
; CHECK:       store i32 0, ptr {{%.*}}, align 4, !llvm.access.group [[G:![0-9]+]]
; CHECK:       store i32 %v, ptr {{%.*}}, align 4, !llvm.access.group [[G]]
; CHECK:       store i8 1, ptr {{%.*}}, align 1, !llvm.access.group [[G]]
; CHECK-NEXT:  br label %lockstep.first.latch
; CHECK:     loop:
; CHECK-NOT:   phi
; CHECK:       %w.next = lshr i32 %w2, 1
; CHECK:       br i1 %done, label %lockstep.leave, label %lockstep.continue
; CHECK:     x.latch:
; CHECK:       %s = trunc i64 %scale6 to i32
; CHECK:       %x.next = add nuw nsw i64 %lockstep.last.id, 1
; CHECK:       br i1 %more, label %lockstep.last, label %exit, !llvm.loop [[LAST:![0-9]+]]
; CHECK:     lockstep.first.latch:
; CHECK:       br i1 {{%.*}}, label %x.loop, label %lockstep.trip, !llvm.loop [[FIRST:![0-9]+]]
; CHECK:     lockstep.step:
; CHECK-NEXT:  %lockstep.id = phi i64 [ 0, %lockstep.trip ], [ %lockstep.next, %lockstep.step.latch ]
; CHECK-NEXT:  %lockstep.any = phi i1 [ false, %lockstep.trip ], [ %lockstep.any.next, %lockstep.step.latch ]
; CHECK:       %active = load i8, ptr {{%.*}}, align 1, !llvm.access.group [[G]]
; CHECK:       %k1 = load i32
; CHECK:       %w2 = load i32
; CHECK:       br i1 %{{.*}}, label %lockstep.active, label %lockstep.step.latch
; CHECK:     lockstep.active:
; CHECK-NEXT:  br label %loop
; CHECK:     lockstep.step.latch:
; CHECK-NEXT:  %still = phi i1 [ false, %lockstep.step ], [ true, %lockstep.continue ], [ false, %lockstep.leave ]
; CHECK-NEXT:  %k.next3 = phi i32 [ %k1, %lockstep.step ], [ %k.next, %lockstep.continue ], [ %k1, %lockstep.leave ]
; CHECK-NEXT:  %w.next4 = phi i32 [ %w2, %lockstep.step ], [ %w.next, %lockstep.continue ], [ %w2, %lockstep.leave ]
; CHECK:       store i32 %k.next3
; CHECK:       store i32 %w.next4
; CHECK:       %lockstep.any.next = or i1 %lockstep.any, %still
; CHECK:       br i1 {{%.*}}, label %lockstep.step, label %lockstep.again, !llvm.loop [[STEP:![0-9]+]]
; CHECK:     lockstep.again:
; CHECK-NEXT:  br i1 %lockstep.any.next, label %lockstep.trip, label %lockstep.last.preheader
; CHECK:     lockstep.last:
; CHECK-NEXT:  %lockstep.last.id = phi i64 [ 0, %lockstep.last.preheader ], [ %x.next, %x.latch ]
; CHECK:       %k.next.lcssa5 = load i32
; CHECK-NEXT:  %scale6 = mul i64 %lockstep.last.id, 3
; CHECK-NEXT:  br label %x.latch
; CHECK:     lockstep.leave:
; CHECK-NEXT:  getelementptr inbounds [16 x i32], ptr %k.next.lcssa.lockstep, i64 0, i64 %lockstep.id
; CHECK-NEXT:  store i32 %k.next,

; CHECK-LABEL: define internal void @counted.workgroup(
; CHECK-NOT: {{lockstep\.|\.lockstep}}
; CHECK-LABEL: define internal void @atomic.workgroup(
; CHECK-NOT: {{lockstep\.|\.lockstep}}
; CHECK-LABEL: define internal void @private.workgroup(
; CHECK-NOT: {{lockstep\.|\.lockstep}}
; CHECK-LABEL: attributes

; CHECK-DAG: [[FIRST]] = distinct !{[[FIRST]], [[PAR:![0-9]+]]}
; CHECK-DAG: [[STEP]] = distinct !{[[STEP]], [[PAR]]}
; CHECK-DAG: [[LAST]] = distinct !{[[LAST]], [[PAR]]}
; CHECK-DAG: [[PAR]] = !{!"llvm.loop.parallel_accesses", [[G]]}

; Bits of in[x] counted by shifting: the trips vary with the data.
define internal void @bits.workgroup(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr %ctx) "weft-workgroup-of"="bits" {
entry:
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %a = getelementptr i32, ptr addrspace(1) %in, i64 %x
  %v = load i32, ptr addrspace(1) %a, align 4, !llvm.access.group !0
  %scale = mul i64 %x, 3
  br label %loop
loop:
  %k = phi i32 [ 0, %x.loop ], [ %k.next, %loop ]
  %w = phi i32 [ %v, %x.loop ], [ %w.next, %loop ]
  %w.next = lshr i32 %w, 1
  %k.next = add i32 %k, 1
  %done = icmp eq i32 %w.next, 0
  br i1 %done, label %x.latch, label %loop
x.latch:
  %s = trunc i64 %scale to i32
  %r = add i32 %k.next, %s
  %o = getelementptr i32, ptr addrspace(1) %out, i64 %x
  store i32 %r, ptr addrspace(1) %o, align 4, !llvm.access.group !0
  %x.next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %x.next, 16
  br i1 %more, label %x.loop, label %exit, !llvm.loop !1
exit:
  ret void
}

; The same trips in every work-item: left to the other passes.
define internal void @counted.workgroup(ptr addrspace(1) %out, i32 %n, ptr %ctx) "weft-workgroup-of"="counted" {
entry:
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  br label %loop
loop:
  %k = phi i32 [ 0, %x.loop ], [ %k.next, %loop ]
  %k.next = add i32 %k, 1
  %done = icmp eq i32 %k.next, %n
  br i1 %done, label %x.latch, label %loop
x.latch:
  %o = getelementptr i32, ptr addrspace(1) %out, i64 %x
  store i32 %k.next, ptr addrspace(1) %o, align 4, !llvm.access.group !2
  %x.next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %x.next, 16
  br i1 %more, label %x.loop, label %exit, !llvm.loop !3
exit:
  ret void
}

; An atomic in the loop body would keep the lockstep loop scalar.
define internal void @atomic.workgroup(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr %ctx) "weft-workgroup-of"="atomic" {
entry:
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %a = getelementptr i32, ptr addrspace(1) %in, i64 %x
  %v = load i32, ptr addrspace(1) %a, align 4, !llvm.access.group !4
  br label %loop
loop:
  %w = phi i32 [ %v, %x.loop ], [ %w.next, %loop ]
  %w.next = lshr i32 %w, 1
  %old = atomicrmw add ptr addrspace(1) %out, i32 1 seq_cst, align 4, !llvm.access.group !4
  %done = icmp eq i32 %w.next, 0
  br i1 %done, label %x.latch, label %loop
x.latch:
  %x.next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %x.next, 16
  br i1 %more, label %x.loop, label %exit, !llvm.loop !5
exit:
  ret void
}

; A private alloca inside the loop serves the work-items in turn.
define internal void @private.workgroup(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr %ctx) "weft-workgroup-of"="private" {
entry:
  %tmp = alloca i32, align 4
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %a = getelementptr i32, ptr addrspace(1) %in, i64 %x
  %v = load i32, ptr addrspace(1) %a, align 4, !llvm.access.group !6
  br label %loop
loop:
  %w = phi i32 [ %v, %x.loop ], [ %w.next, %loop ]
  store i32 %w, ptr %tmp, align 4
  %t = load i32, ptr %tmp, align 4
  %w.next = lshr i32 %t, 1
  %done = icmp eq i32 %w.next, 0
  br i1 %done, label %x.latch, label %loop
x.latch:
  %o = getelementptr i32, ptr addrspace(1) %out, i64 %x
  store i32 %t, ptr addrspace(1) %o, align 4, !llvm.access.group !6
  %x.next = add nuw nsw i64 %x, 1
  %more = icmp ult i64 %x.next, 16
  br i1 %more, label %x.loop, label %exit, !llvm.loop !7
exit:
  ret void
}

!0 = distinct !{}
!1 = distinct !{!1, !8}
!2 = distinct !{}
!3 = distinct !{!3, !9}
!4 = distinct !{}
!5 = distinct !{!5, !10}
!6 = distinct !{}
!7 = distinct !{!7, !11}
!8 = !{!"llvm.loop.parallel_accesses", !0}
!9 = !{!"llvm.loop.parallel_accesses", !2}
!10 = !{!"llvm.loop.parallel_accesses", !4}
!11 = !{!"llvm.loop.parallel_accesses", !6}
