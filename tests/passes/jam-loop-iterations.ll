; An innermost loop whose header is one long dependence chain, trips
; independent (hashcat's candidate loops), is unrolled twice and the second
; trip's header is computed early in the first's, the two interleaved. The
; early copies lose their poison flags (the second trip may not run); the
; early load reads through a select that keeps its address only on the
; pages the first trip's load reads, and the second header recomputes
; from its original code when it could not. Left alone: a short chain, a
; header load that a store of the loop may write, a work-item loop, and a
; retry loop, which leaves on the chain's result.
; RUN: weft-opt -passes=weft-jam-loop-iterations -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @chain(
; CHECK: body:
; CHECK: %i.next.early = add i32 %i, 1
; CHECK: %p.1.early = getelementptr i32, ptr addrspace(2) %words, i64 %idx.1.early
; CHECK: %w = load i32, ptr addrspace(2) %p, align 4
; CHECK: %jam.first.addr = ptrtoint ptr addrspace(2) %p to i64
; CHECK: %jam.first.last = add i64 %jam.first.addr, 3
; CHECK: %jam.own.addr = ptrtoint ptr addrspace(2) %p.1.early to i64
; CHECK: %[[LAST:[0-9]+]] = icmp eq i64 %jam.own.last.page, %jam.first.last.page
; CHECK: %[[FIRST:[0-9]+]] = icmp eq i64 %jam.own.page, %jam.first.page
; CHECK: %jam.same.pages = and i1 %[[FIRST]], %[[LAST]]
; CHECK-NEXT: %jam.addr = select i1 %jam.same.pages, ptr addrspace(2) %p.1.early, ptr addrspace(2) %p
; CHECK: %w.1.early = load i32, ptr addrspace(2) %jam.addr, align 4
; Interleaved: the second chain starts before the first ends.
; CHECK: %a0.1.early = add i32 %x0.1.early, 1518500249
; CHECK: %x10 = call i32 @llvm.fshl.i32(i32 %a9, i32 %a9, i32 7)
; CHECK: %x10.1.early = call i32
; CHECK: %x20 = call i32
; CHECK: %hit = icmp eq i32 %x20, 12345
; CHECK: %hit.1.early = icmp eq i32 %x20.1.early, 12345
; CHECK-NEXT: br i1 %hit, label %match, label %latch
; CHECK: latch:
; CHECK: br i1 %more, label %body.1, label %exit.loopexit
; CHECK: body.1:
; CHECK-NEXT: br i1 %jam.same.pages, label %body.1.jam.join, label %body.1.jam.recompute
; CHECK: body.1.jam.recompute:
; CHECK: %w.1 = load i32, ptr addrspace(2) %p.1, align 4
; CHECK: %hit.1 = icmp eq i32 %x20.1, 12345
; CHECK: body.1.jam.join:
; CHECK-NEXT: %hit.1.jam = phi i1 [ %hit.1.early, %body.1 ], [ %hit.1, %body.1.jam.recompute ]
; CHECK-NEXT: br i1 %hit.1.jam, label %match.1, label %latch.1
; CHECK: latch.1:
; CHECK: br i1 %more.1, label %body, label %exit.loopexit, !llvm.loop

; CHECK-LABEL: define void @short(
; CHECK-NOT: .early
; CHECK-LABEL: define void @clobbered(
; CHECK-NOT: .early
; CHECK-LABEL: define void @parallel(
; CHECK-NOT: .early
; CHECK-LABEL: define void @retry(
; CHECK-NOT: .early
; CHECK-LABEL: declare

; hashcat's shape: a word from constant memory, a chain, a rare match
define void @chain(ptr addrspace(2) %words, ptr addrspace(1) %param, ptr addrspace(1) %found, i32 %seed) {
entry:
  %n0 = load i32, ptr addrspace(1) %param, align 4
  %any = icmp ne i32 %n0, 0
  br i1 %any, label %body, label %exit

body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %idx = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(2) %words, i64 %idx
  %w = load i32, ptr addrspace(2) %p, align 4
  %x0 = xor i32 %w, %seed
  %a0 = add i32 %x0, 1518500249
  %x1 = call i32 @llvm.fshl.i32(i32 %a0, i32 %a0, i32 5)
  %a1 = add i32 %x1, 1518501226
  %x2 = call i32 @llvm.fshl.i32(i32 %a1, i32 %a1, i32 6)
  %a2 = add i32 %x2, 1518502203
  %x3 = call i32 @llvm.fshl.i32(i32 %a2, i32 %a2, i32 7)
  %a3 = add i32 %x3, 1518503180
  %x4 = call i32 @llvm.fshl.i32(i32 %a3, i32 %a3, i32 8)
  %a4 = add i32 %x4, 1518504157
  %x5 = call i32 @llvm.fshl.i32(i32 %a4, i32 %a4, i32 9)
  %a5 = add i32 %x5, 1518505134
  %x6 = call i32 @llvm.fshl.i32(i32 %a5, i32 %a5, i32 10)
  %a6 = add i32 %x6, 1518506111
  %x7 = call i32 @llvm.fshl.i32(i32 %a6, i32 %a6, i32 11)
  %a7 = add i32 %x7, 1518507088
  %x8 = call i32 @llvm.fshl.i32(i32 %a7, i32 %a7, i32 5)
  %a8 = add i32 %x8, 1518508065
  %x9 = call i32 @llvm.fshl.i32(i32 %a8, i32 %a8, i32 6)
  %a9 = add i32 %x9, 1518509042
  %x10 = call i32 @llvm.fshl.i32(i32 %a9, i32 %a9, i32 7)
  %a10 = add i32 %x10, 1518510019
  %x11 = call i32 @llvm.fshl.i32(i32 %a10, i32 %a10, i32 8)
  %a11 = add i32 %x11, 1518510996
  %x12 = call i32 @llvm.fshl.i32(i32 %a11, i32 %a11, i32 9)
  %a12 = add i32 %x12, 1518511973
  %x13 = call i32 @llvm.fshl.i32(i32 %a12, i32 %a12, i32 10)
  %a13 = add i32 %x13, 1518512950
  %x14 = call i32 @llvm.fshl.i32(i32 %a13, i32 %a13, i32 11)
  %a14 = add i32 %x14, 1518513927
  %x15 = call i32 @llvm.fshl.i32(i32 %a14, i32 %a14, i32 5)
  %a15 = add i32 %x15, 1518514904
  %x16 = call i32 @llvm.fshl.i32(i32 %a15, i32 %a15, i32 6)
  %a16 = add i32 %x16, 1518515881
  %x17 = call i32 @llvm.fshl.i32(i32 %a16, i32 %a16, i32 7)
  %a17 = add i32 %x17, 1518516858
  %x18 = call i32 @llvm.fshl.i32(i32 %a17, i32 %a17, i32 8)
  %a18 = add i32 %x18, 1518517835
  %x19 = call i32 @llvm.fshl.i32(i32 %a18, i32 %a18, i32 9)
  %a19 = add i32 %x19, 1518518812
  %x20 = call i32 @llvm.fshl.i32(i32 %a19, i32 %a19, i32 10)
  %hit = icmp eq i32 %x20, 12345
  br i1 %hit, label %match, label %latch

match:
  %old = atomicrmw add ptr addrspace(1) %found, i32 1 seq_cst, align 4
  br label %latch

latch:
  %i.next = add nuw i32 %i, 1
  %n = load i32, ptr addrspace(1) %param, align 4
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %body, label %exit

exit:
  ret void
}

; Eight links: the core's own look-ahead covers the next trip.
define void @short(ptr addrspace(2) %words, ptr addrspace(1) %param, ptr addrspace(1) %found, i32 %seed) {
entry:
  %n0 = load i32, ptr addrspace(1) %param, align 4
  %any = icmp ne i32 %n0, 0
  br i1 %any, label %body, label %exit

body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %idx = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(2) %words, i64 %idx
  %w = load i32, ptr addrspace(2) %p, align 4
  %x0 = xor i32 %w, %seed
  %a0 = add i32 %x0, 1518500249
  %x1 = call i32 @llvm.fshl.i32(i32 %a0, i32 %a0, i32 5)
  %a1 = add i32 %x1, 1518501226
  %x2 = call i32 @llvm.fshl.i32(i32 %a1, i32 %a1, i32 6)
  %a2 = add i32 %x2, 1518502203
  %x3 = call i32 @llvm.fshl.i32(i32 %a2, i32 %a2, i32 7)
  %a3 = add i32 %x3, 1518503180
  %x4 = call i32 @llvm.fshl.i32(i32 %a3, i32 %a3, i32 8)
  %a4 = add i32 %x4, 1518504157
  %x5 = call i32 @llvm.fshl.i32(i32 %a4, i32 %a4, i32 9)
  %a5 = add i32 %x5, 1518505134
  %x6 = call i32 @llvm.fshl.i32(i32 %a5, i32 %a5, i32 10)
  %a6 = add i32 %x6, 1518506111
  %x7 = call i32 @llvm.fshl.i32(i32 %a6, i32 %a6, i32 11)
  %a7 = add i32 %x7, 1518507088
  %x8 = call i32 @llvm.fshl.i32(i32 %a7, i32 %a7, i32 5)
  %hit = icmp eq i32 %x8, 12345
  br i1 %hit, label %match, label %latch

match:
  %old = atomicrmw add ptr addrspace(1) %found, i32 1 seq_cst, align 4
  br label %latch

latch:
  %i.next = add nuw i32 %i, 1
  %n = load i32, ptr addrspace(1) %param, align 4
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %body, label %exit

exit:
  ret void
}

; The word is global memory, which the match's store may write.
define void @clobbered(ptr addrspace(1) %words, ptr addrspace(1) %param, ptr addrspace(1) %found, i32 %seed) {
entry:
  %n0 = load i32, ptr addrspace(1) %param, align 4
  %any = icmp ne i32 %n0, 0
  br i1 %any, label %body, label %exit

body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %idx = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %words, i64 %idx
  %w = load i32, ptr addrspace(1) %p, align 4
  %x0 = xor i32 %w, %seed
  %a0 = add i32 %x0, 1518500249
  %x1 = call i32 @llvm.fshl.i32(i32 %a0, i32 %a0, i32 5)
  %a1 = add i32 %x1, 1518501226
  %x2 = call i32 @llvm.fshl.i32(i32 %a1, i32 %a1, i32 6)
  %a2 = add i32 %x2, 1518502203
  %x3 = call i32 @llvm.fshl.i32(i32 %a2, i32 %a2, i32 7)
  %a3 = add i32 %x3, 1518503180
  %x4 = call i32 @llvm.fshl.i32(i32 %a3, i32 %a3, i32 8)
  %a4 = add i32 %x4, 1518504157
  %x5 = call i32 @llvm.fshl.i32(i32 %a4, i32 %a4, i32 9)
  %a5 = add i32 %x5, 1518505134
  %x6 = call i32 @llvm.fshl.i32(i32 %a5, i32 %a5, i32 10)
  %a6 = add i32 %x6, 1518506111
  %x7 = call i32 @llvm.fshl.i32(i32 %a6, i32 %a6, i32 11)
  %a7 = add i32 %x7, 1518507088
  %x8 = call i32 @llvm.fshl.i32(i32 %a7, i32 %a7, i32 5)
  %a8 = add i32 %x8, 1518508065
  %x9 = call i32 @llvm.fshl.i32(i32 %a8, i32 %a8, i32 6)
  %a9 = add i32 %x9, 1518509042
  %x10 = call i32 @llvm.fshl.i32(i32 %a9, i32 %a9, i32 7)
  %a10 = add i32 %x10, 1518510019
  %x11 = call i32 @llvm.fshl.i32(i32 %a10, i32 %a10, i32 8)
  %a11 = add i32 %x11, 1518510996
  %x12 = call i32 @llvm.fshl.i32(i32 %a11, i32 %a11, i32 9)
  %a12 = add i32 %x12, 1518511973
  %x13 = call i32 @llvm.fshl.i32(i32 %a12, i32 %a12, i32 10)
  %a13 = add i32 %x13, 1518512950
  %x14 = call i32 @llvm.fshl.i32(i32 %a13, i32 %a13, i32 11)
  %a14 = add i32 %x14, 1518513927
  %x15 = call i32 @llvm.fshl.i32(i32 %a14, i32 %a14, i32 5)
  %a15 = add i32 %x15, 1518514904
  %x16 = call i32 @llvm.fshl.i32(i32 %a15, i32 %a15, i32 6)
  %a16 = add i32 %x16, 1518515881
  %x17 = call i32 @llvm.fshl.i32(i32 %a16, i32 %a16, i32 7)
  %a17 = add i32 %x17, 1518516858
  %x18 = call i32 @llvm.fshl.i32(i32 %a17, i32 %a17, i32 8)
  %a18 = add i32 %x18, 1518517835
  %x19 = call i32 @llvm.fshl.i32(i32 %a18, i32 %a18, i32 9)
  %a19 = add i32 %x19, 1518518812
  %x20 = call i32 @llvm.fshl.i32(i32 %a19, i32 %a19, i32 10)
  %hit = icmp eq i32 %x20, 12345
  br i1 %hit, label %match, label %latch

match:
  store i32 %i, ptr addrspace(1) %words, align 4
  %old = atomicrmw add ptr addrspace(1) %found, i32 1 seq_cst, align 4
  br label %latch

latch:
  %i.next = add nuw i32 %i, 1
  %n = load i32, ptr addrspace(1) %param, align 4
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %body, label %exit

exit:
  ret void
}

; A work-item loop: InterleaveWorkItemLoops' business.
define void @parallel(ptr addrspace(2) %words, ptr addrspace(1) %param, ptr addrspace(1) %found, i32 %seed) {
entry:
  %n0 = load i32, ptr addrspace(1) %param, align 4
  %any = icmp ne i32 %n0, 0
  br i1 %any, label %body, label %exit

body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %idx = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(2) %words, i64 %idx
  %w = load i32, ptr addrspace(2) %p, align 4
  %x0 = xor i32 %w, %seed
  %a0 = add i32 %x0, 1518500249
  %x1 = call i32 @llvm.fshl.i32(i32 %a0, i32 %a0, i32 5)
  %a1 = add i32 %x1, 1518501226
  %x2 = call i32 @llvm.fshl.i32(i32 %a1, i32 %a1, i32 6)
  %a2 = add i32 %x2, 1518502203
  %x3 = call i32 @llvm.fshl.i32(i32 %a2, i32 %a2, i32 7)
  %a3 = add i32 %x3, 1518503180
  %x4 = call i32 @llvm.fshl.i32(i32 %a3, i32 %a3, i32 8)
  %a4 = add i32 %x4, 1518504157
  %x5 = call i32 @llvm.fshl.i32(i32 %a4, i32 %a4, i32 9)
  %a5 = add i32 %x5, 1518505134
  %x6 = call i32 @llvm.fshl.i32(i32 %a5, i32 %a5, i32 10)
  %a6 = add i32 %x6, 1518506111
  %x7 = call i32 @llvm.fshl.i32(i32 %a6, i32 %a6, i32 11)
  %a7 = add i32 %x7, 1518507088
  %x8 = call i32 @llvm.fshl.i32(i32 %a7, i32 %a7, i32 5)
  %a8 = add i32 %x8, 1518508065
  %x9 = call i32 @llvm.fshl.i32(i32 %a8, i32 %a8, i32 6)
  %a9 = add i32 %x9, 1518509042
  %x10 = call i32 @llvm.fshl.i32(i32 %a9, i32 %a9, i32 7)
  %a10 = add i32 %x10, 1518510019
  %x11 = call i32 @llvm.fshl.i32(i32 %a10, i32 %a10, i32 8)
  %a11 = add i32 %x11, 1518510996
  %x12 = call i32 @llvm.fshl.i32(i32 %a11, i32 %a11, i32 9)
  %a12 = add i32 %x12, 1518511973
  %x13 = call i32 @llvm.fshl.i32(i32 %a12, i32 %a12, i32 10)
  %a13 = add i32 %x13, 1518512950
  %x14 = call i32 @llvm.fshl.i32(i32 %a13, i32 %a13, i32 11)
  %a14 = add i32 %x14, 1518513927
  %x15 = call i32 @llvm.fshl.i32(i32 %a14, i32 %a14, i32 5)
  %a15 = add i32 %x15, 1518514904
  %x16 = call i32 @llvm.fshl.i32(i32 %a15, i32 %a15, i32 6)
  %a16 = add i32 %x16, 1518515881
  %x17 = call i32 @llvm.fshl.i32(i32 %a16, i32 %a16, i32 7)
  %a17 = add i32 %x17, 1518516858
  %x18 = call i32 @llvm.fshl.i32(i32 %a17, i32 %a17, i32 8)
  %a18 = add i32 %x18, 1518517835
  %x19 = call i32 @llvm.fshl.i32(i32 %a18, i32 %a18, i32 9)
  %a19 = add i32 %x19, 1518518812
  %x20 = call i32 @llvm.fshl.i32(i32 %a19, i32 %a19, i32 10)
  %hit = icmp eq i32 %x20, 12345
  br i1 %hit, label %match, label %latch

match:
  %old = atomicrmw add ptr addrspace(1) %found, i32 1 seq_cst, align 4
  br label %latch

latch:
  %i.next = add nuw i32 %i, 1
  %n = load i32, ptr addrspace(1) %param, align 4
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %body, label %exit, !llvm.loop !0

exit:
  ret void
}

; Leaves on the chain's result: mostly one trip.
define void @retry(ptr addrspace(2) %words, ptr addrspace(1) %param, ptr addrspace(1) %found, i32 %seed) {
entry:
  %n0 = load i32, ptr addrspace(1) %param, align 4
  %any = icmp ne i32 %n0, 0
  br i1 %any, label %body, label %exit

body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %idx = zext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(2) %words, i64 %idx
  %w = load i32, ptr addrspace(2) %p, align 4
  %x0 = xor i32 %w, %seed
  %a0 = add i32 %x0, 1518500249
  %x1 = call i32 @llvm.fshl.i32(i32 %a0, i32 %a0, i32 5)
  %a1 = add i32 %x1, 1518501226
  %x2 = call i32 @llvm.fshl.i32(i32 %a1, i32 %a1, i32 6)
  %a2 = add i32 %x2, 1518502203
  %x3 = call i32 @llvm.fshl.i32(i32 %a2, i32 %a2, i32 7)
  %a3 = add i32 %x3, 1518503180
  %x4 = call i32 @llvm.fshl.i32(i32 %a3, i32 %a3, i32 8)
  %a4 = add i32 %x4, 1518504157
  %x5 = call i32 @llvm.fshl.i32(i32 %a4, i32 %a4, i32 9)
  %a5 = add i32 %x5, 1518505134
  %x6 = call i32 @llvm.fshl.i32(i32 %a5, i32 %a5, i32 10)
  %a6 = add i32 %x6, 1518506111
  %x7 = call i32 @llvm.fshl.i32(i32 %a6, i32 %a6, i32 11)
  %a7 = add i32 %x7, 1518507088
  %x8 = call i32 @llvm.fshl.i32(i32 %a7, i32 %a7, i32 5)
  %a8 = add i32 %x8, 1518508065
  %x9 = call i32 @llvm.fshl.i32(i32 %a8, i32 %a8, i32 6)
  %a9 = add i32 %x9, 1518509042
  %x10 = call i32 @llvm.fshl.i32(i32 %a9, i32 %a9, i32 7)
  %a10 = add i32 %x10, 1518510019
  %x11 = call i32 @llvm.fshl.i32(i32 %a10, i32 %a10, i32 8)
  %a11 = add i32 %x11, 1518510996
  %x12 = call i32 @llvm.fshl.i32(i32 %a11, i32 %a11, i32 9)
  %a12 = add i32 %x12, 1518511973
  %x13 = call i32 @llvm.fshl.i32(i32 %a12, i32 %a12, i32 10)
  %a13 = add i32 %x13, 1518512950
  %x14 = call i32 @llvm.fshl.i32(i32 %a13, i32 %a13, i32 11)
  %a14 = add i32 %x14, 1518513927
  %x15 = call i32 @llvm.fshl.i32(i32 %a14, i32 %a14, i32 5)
  %a15 = add i32 %x15, 1518514904
  %x16 = call i32 @llvm.fshl.i32(i32 %a15, i32 %a15, i32 6)
  %a16 = add i32 %x16, 1518515881
  %x17 = call i32 @llvm.fshl.i32(i32 %a16, i32 %a16, i32 7)
  %a17 = add i32 %x17, 1518516858
  %x18 = call i32 @llvm.fshl.i32(i32 %a17, i32 %a17, i32 8)
  %a18 = add i32 %x18, 1518517835
  %x19 = call i32 @llvm.fshl.i32(i32 %a18, i32 %a18, i32 9)
  %a19 = add i32 %x19, 1518518812
  %x20 = call i32 @llvm.fshl.i32(i32 %a19, i32 %a19, i32 10)
  %hit = icmp eq i32 %x20, 12345
  br i1 %hit, label %match, label %latch

match:
  %old = atomicrmw add ptr addrspace(1) %found, i32 1 seq_cst, align 4
  br label %latch

latch:
  %i.next = add nuw i32 %i, 1
  %more = icmp ugt i32 %x20, 1000
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare i32 @llvm.fshl.i32(i32, i32, i32)

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.parallel_accesses", !2}
!2 = distinct !{}
