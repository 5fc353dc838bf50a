; Before a work-item loop that copies a tile of global memory, inside a
; kernel loop around barriers, the next trip's rows are prefetched: each
; global address is recomputed with the kernel loop's counter one step on
; and the work-item id at the first work-item of each cache line and the
; last one. Loads whose address does not move with the kernel loop, or
; needs a value only the loop body knows, get none.
; RUN: weft-opt -passes=weft-prefetch-workitem-loads -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; A CLBlast-shaped copy: float4 rows, x loop of 8 (128 bytes a row: lines
; at x = 0 and 4, and x = 7), inside a y loop, the float4 split into floats
; (one access), then a float2 row (64 bytes: x = 0 and 7). The counter's
; increment is not available before the copy: the pass adds its own, with
; the latch's flags; the recomputed arithmetic has none.
; CHECK-LABEL: define void @tile_copy(
; CHECK: y.loop:
; CHECK: [[NEXT:%.*]] = add nsw i32 %kwg, 32
; CHECK: [[KY:%.*]] = add i32 %y32, [[NEXT]]
; CHECK: [[ROW:%.*]] = mul i32 [[KY]], %ld
; CHECK: [[I0:%.*]] = add i32 [[ROW]], 0
; CHECK: [[W0:%.*]] = sext i32 [[I0]] to i64
; CHECK: [[P0:%.*]] = getelementptr <4 x float>, ptr addrspace(1) %a, i64 [[W0]]
; CHECK: [[I4:%.*]] = add i32 %{{.*}}, 4
; CHECK: [[W4:%.*]] = sext i32 [[I4]] to i64
; CHECK: [[P4:%.*]] = getelementptr <4 x float>, ptr addrspace(1) %a, i64 [[W4]]
; CHECK: [[I7:%.*]] = add i32 %{{.*}}, 7
; CHECK: [[W7:%.*]] = sext i32 [[I7]] to i64
; CHECK: [[P7:%.*]] = getelementptr <4 x float>, ptr addrspace(1) %a, i64 [[W7]]
; CHECK: call void @llvm.prefetch.p1(ptr addrspace(1) [[P0]], i32 0, i32 3, i32 1)
; CHECK-NEXT: call void @llvm.prefetch.p1(ptr addrspace(1) [[P4]], i32 0, i32 3, i32 1)
; CHECK-NEXT: call void @llvm.prefetch.p1(ptr addrspace(1) [[P7]], i32 0, i32 3, i32 1)
; CHECK: getelementptr <2 x float>, ptr addrspace(1) %b
; CHECK: getelementptr <2 x float>, ptr addrspace(1) %b
; CHECK: call void @llvm.prefetch.p1(
; CHECK-NEXT: call void @llvm.prefetch.p1(
; CHECK-NOT: @llvm.prefetch
; CHECK: br label %x.loop
; CHECK: x.loop:
; CHECK: %row = mul nsw i32 %ky, %ld
; CHECK: %idx = add nsw i32 %row, %x32
; CHECK-NOT: @llvm.prefetch
; CHECK: ret void
define void @tile_copy(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(3) %l, i32 %ld, i32 %k) {
entry:
  br label %kloop

kloop:
  %kwg = phi i32 [ 0, %entry ], [ %kwg.next, %klatch ]
  br label %y.loop

y.loop:
  %y = phi i64 [ 0, %kloop ], [ %y.next, %y.latch ]
  %y32 = trunc i64 %y to i32
  %ky = add nsw i32 %y32, %kwg
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.loop ]
  %x32 = trunc i64 %x to i32
  %row = mul nsw i32 %ky, %ld
  %idx = add nsw i32 %row, %x32
  %idx64 = sext i32 %idx to i64
  %src = getelementptr inbounds <4 x float>, ptr addrspace(1) %a, i64 %idx64
  %v0 = load float, ptr addrspace(1) %src, align 16, !llvm.access.group !1
  %src1 = getelementptr inbounds i8, ptr addrspace(1) %src, i64 4
  %v1 = load float, ptr addrspace(1) %src1, align 4, !llvm.access.group !1
  %src2 = getelementptr inbounds i8, ptr addrspace(1) %src, i64 8
  %v2 = load float, ptr addrspace(1) %src2, align 8, !llvm.access.group !1
  %src3 = getelementptr inbounds i8, ptr addrspace(1) %src, i64 12
  %v3 = load float, ptr addrspace(1) %src3, align 4, !llvm.access.group !1
  %bsrc = getelementptr inbounds <2 x float>, ptr addrspace(1) %b, i64 %idx64
  %w = load <2 x float>, ptr addrspace(1) %bsrc, align 8, !llvm.access.group !1
  %s01 = fadd float %v0, %v1
  %s23 = fadd float %v2, %v3
  %s = fadd float %s01, %s23
  %w0 = extractelement <2 x float> %w, i64 0
  %t = fadd float %s, %w0
  %dst = getelementptr inbounds float, ptr addrspace(3) %l, i64 %x
  store float %t, ptr addrspace(3) %dst, align 4, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %x.done = icmp eq i64 %x.next, 8
  br i1 %x.done, label %y.latch, label %x.loop, !llvm.loop !2

y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %y.done = icmp eq i64 %y.next, 4
  br i1 %y.done, label %klatch, label %y.loop, !llvm.loop !4

klatch:
  call void @barrier()
  %kwg.next = add nsw i32 %kwg, 32
  %more = icmp slt i32 %kwg.next, %k
  br i1 %more, label %kloop, label %exit

exit:
  ret void
}

; The rows do not move with the kernel loop, the row index is loaded in the
; work-item loop (its value on the next trip is unknown), the work-item
; loop's trip count is not a constant, the work-item loop streams global
; memory without a copy into local memory (the hardware prefetchers follow
; a stream; nothing else in the trip would hide the prefetch): no prefetch.
; CHECK-LABEL: define void @no_prefetch(
; CHECK-NOT: @llvm.prefetch
; CHECK: ret void
define void @no_prefetch(ptr addrspace(1) %a, ptr addrspace(1) %rows, ptr addrspace(3) %l, i32 %ld, i32 %k, i64 %n) {
entry:
  br label %kloop

kloop:
  %kwg = phi i32 [ 0, %entry ], [ %kwg.next, %klatch ]
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %kloop ], [ %x.next, %x.loop ]
  %same = getelementptr inbounds float, ptr addrspace(1) %a, i64 %x
  %v = load float, ptr addrspace(1) %same, align 4, !llvm.access.group !1
  %rowp = getelementptr inbounds i32, ptr addrspace(1) %rows, i64 %x
  %r = load i32, ptr addrspace(1) %rowp, align 4, !llvm.access.group !1
  %rk = add nsw i32 %r, %kwg
  %rk64 = sext i32 %rk to i64
  %via = getelementptr inbounds float, ptr addrspace(1) %a, i64 %rk64
  %u = load float, ptr addrspace(1) %via, align 4, !llvm.access.group !1
  %t = fadd float %v, %u
  %dst = getelementptr inbounds float, ptr addrspace(3) %l, i64 %x
  store float %t, ptr addrspace(3) %dst, align 4, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %x.done = icmp eq i64 %x.next, 8
  br i1 %x.done, label %x2.ph, label %x.loop, !llvm.loop !2

x2.ph:
  br label %x2.loop

x2.loop:
  %x2 = phi i64 [ 0, %x2.ph ], [ %x2.next, %x2.loop ]
  %k64 = sext i32 %kwg to i64
  %kx = add nsw i64 %k64, %x2
  %moving = getelementptr inbounds float, ptr addrspace(1) %a, i64 %kx
  %m = load float, ptr addrspace(1) %moving, align 4, !llvm.access.group !1
  %dst2 = getelementptr inbounds float, ptr addrspace(3) %l, i64 %x2
  store float %m, ptr addrspace(3) %dst2, align 4, !llvm.access.group !1
  %x2.next = add nuw nsw i64 %x2, 1
  %x2.done = icmp eq i64 %x2.next, %n
  br i1 %x2.done, label %x3.ph, label %x2.loop, !llvm.loop !5

x3.ph:
  br label %x3.loop

x3.loop:
  %x3 = phi i64 [ 0, %x3.ph ], [ %x3.next, %x3.loop ]
  %k64b = sext i32 %kwg to i64
  %kx3 = add nsw i64 %k64b, %x3
  %stream = getelementptr inbounds float, ptr addrspace(1) %a, i64 %kx3
  %sv = load float, ptr addrspace(1) %stream, align 4, !llvm.access.group !1
  %out = getelementptr inbounds float, ptr addrspace(1) %rows, i64 %kx3
  store float %sv, ptr addrspace(1) %out, align 4, !llvm.access.group !1
  %x3.next = add nuw nsw i64 %x3, 1
  %x3.done = icmp eq i64 %x3.next, 8
  br i1 %x3.done, label %klatch, label %x3.loop, !llvm.loop !6

klatch:
  call void @barrier()
  %kwg.next = add nsw i32 %kwg, 32
  %more = icmp slt i32 %kwg.next, %k
  br i1 %more, label %kloop, label %exit

exit:
  ret void
}

declare void @barrier()

!1 = distinct !{}
!2 = distinct !{!2, !3}
!3 = !{!"llvm.loop.parallel_accesses", !1}
!4 = distinct !{!4, !3}
!5 = distinct !{!5, !3}
!6 = distinct !{!6, !3}
