; CLBlast's GlobalToLocalB with 16 work-items in x and NDIMB = 8: after
; FoldLocalIdDivisions work-item x copies the double4 at 2 * (x & 7) + i
; (i = 0, 1) of row 2 * (x >> 3) of a tile. Across two work-items (a group
; starting at an even x) x & 7 steps by one and x >> 3 stays: each access
; steps by two double4, and the two accesses of a work-item are neighbours.
; Together they are one load (and one store) of four double4: the widened
; loop copies 128 bytes per access instead of gathering. The row's
; multiplication by a run-time width is common to the group; the index
; arithmetic's nsw flags make its sign extension exact.
; Not widened: a strided access without its partner, and a group with a
; store to the same address space between its loads.
; RUN: weft-opt -weft-target-cpu=znver4 -passes=weft-widen-workitem-loops -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @tile_copy(
; CHECK: x.loop:
; CHECK: [[ALL0:%.*]] = load <16 x double>, ptr addrspace(1) %p0, align 32, !llvm.access.group
; CHECK: [[V0:%.*]] = shufflevector <16 x double> [[ALL0]], <16 x double> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11>
; CHECK: [[V1:%.*]] = shufflevector <16 x double> [[ALL0]], <16 x double> poison, <8 x i32> <i32 4, i32 5, i32 6, i32 7, i32 12, i32 13, i32 14, i32 15>
; CHECK-NOT: store <4 x double>
; CHECK: [[JOIN:%.*]] = shufflevector <8 x double> [[V0]], <8 x double> [[V1]], <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 8, i32 9, i32 10, i32 11, i32 4, i32 5, i32 6, i32 7, i32 12, i32 13, i32 14, i32 15>
; CHECK: store <16 x double> [[JOIN]], ptr addrspace(3) %q0, align 32, !llvm.access.group
; CHECK: %x.next = add nuw nsw i64 %x, 2
define void @tile_copy(ptr addrspace(1) %src, ptr addrspace(3) %dst, i32 %width) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %x32 = trunc i64 %x to i32
  %t = shl nuw nsw i32 %x32, 1
  %lo = and i32 %t, 14
  %hi0 = lshr i32 %x32, 2
  %hi = and i32 %hi0, 1073741822
  %row = mul nsw i32 %hi, %width
  %i0 = add nsw i32 %row, %lo
  %i0w = sext i32 %i0 to i64
  %p0 = getelementptr inbounds <4 x double>, ptr addrspace(1) %src, i64 %i0w
  %v0 = load <4 x double>, ptr addrspace(1) %p0, align 32, !llvm.access.group !1
  %hiw = zext nneg i32 %hi to i64
  %rowl = shl nuw nsw i64 %hiw, 4
  %low = zext nneg i32 %lo to i64
  %j0 = or disjoint i64 %rowl, %low
  %q0 = getelementptr inbounds <4 x double>, ptr addrspace(3) %dst, i64 %j0
  store <4 x double> %v0, ptr addrspace(3) %q0, align 32, !llvm.access.group !1
  %lo1 = or disjoint i32 %lo, 1
  %i1 = add nsw i32 %row, %lo1
  %i1w = sext i32 %i1 to i64
  %p1 = getelementptr inbounds <4 x double>, ptr addrspace(1) %src, i64 %i1w
  %v1 = load <4 x double>, ptr addrspace(1) %p1, align 32, !llvm.access.group !1
  %low1 = zext nneg i32 %lo1 to i64
  %j1 = or disjoint i64 %rowl, %low1
  %q1 = getelementptr inbounds <4 x double>, ptr addrspace(3) %dst, i64 %j1
  store <4 x double> %v1, ptr addrspace(3) %q1, align 32, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 16
  br i1 %done, label %exit, label %x.loop, !llvm.loop !2

exit:
  ret void
}

; The second double4 of each work-item is not copied: alone, the first is
; a gather.
; CHECK-LABEL: define void @lone_stride(
; CHECK: load <4 x double>
; CHECK: %x.next = add nuw nsw i64 %x, 1
define void @lone_stride(ptr addrspace(1) %src, ptr addrspace(3) %dst) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %two = shl nuw nsw i64 %x, 1
  %p0 = getelementptr inbounds <4 x double>, ptr addrspace(1) %src, i64 %two
  %v0 = load <4 x double>, ptr addrspace(1) %p0, align 32, !llvm.access.group !3
  %q0 = getelementptr inbounds <4 x double>, ptr addrspace(3) %dst, i64 %x
  store <4 x double> %v0, ptr addrspace(3) %q0, align 32, !llvm.access.group !3
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 16
  br i1 %done, label %exit, label %x.loop, !llvm.loop !4

exit:
  ret void
}

; A store to global memory between the two loads from global memory: the
; second load cannot move up to the first.
; CHECK-LABEL: define void @store_between(
; CHECK: load <4 x double>
; CHECK: %x.next = add nuw nsw i64 %x, 1
define void @store_between(ptr addrspace(1) %src, ptr addrspace(1) %dst) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %two = shl nuw nsw i64 %x, 1
  %p0 = getelementptr inbounds <4 x double>, ptr addrspace(1) %src, i64 %two
  %v0 = load <4 x double>, ptr addrspace(1) %p0, align 32, !llvm.access.group !5
  %q0 = getelementptr inbounds <4 x double>, ptr addrspace(1) %dst, i64 %two
  store <4 x double> %v0, ptr addrspace(1) %q0, align 32, !llvm.access.group !5
  %two1 = or disjoint i64 %two, 1
  %p1 = getelementptr inbounds <4 x double>, ptr addrspace(1) %src, i64 %two1
  %v1 = load <4 x double>, ptr addrspace(1) %p1, align 32, !llvm.access.group !5
  %q1 = getelementptr inbounds <4 x double>, ptr addrspace(1) %dst, i64 %two1
  store <4 x double> %v1, ptr addrspace(1) %q1, align 32, !llvm.access.group !5
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 16
  br i1 %done, label %exit, label %x.loop, !llvm.loop !6

exit:
  ret void
}

attributes #0 = { "target-cpu"="znver4" "prefer-vector-width"="512" }

!1 = distinct !{}
!2 = distinct !{!2, !7}
!7 = !{!"llvm.loop.parallel_accesses", !1}
!3 = distinct !{}
!4 = distinct !{!4, !8}
!8 = !{!"llvm.loop.parallel_accesses", !3}
!5 = distinct !{}
!6 = distinct !{!6, !9}
!9 = !{!"llvm.loop.parallel_accesses", !5}
