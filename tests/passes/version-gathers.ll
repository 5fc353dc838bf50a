; Gathers and scatters whose addresses come from the lane's position get a
; run-time test of whether their active lanes are consecutive, and a vector
; load or store for when they are. The test reads the GEP's index (the
; narrow one, with a no-wrap check, under an extension; the addresses
; themselves otherwise), ignores inactive lanes, and is shared by the
; accesses of a block with the same addresses. Addresses that depend on
; data read from a buffer, or on a private array that holds such data,
; table lookups in constant memory and narrow vectors are left alone.
; RUN: weft-opt -passes=weft-version-gathers -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@table = internal constant [64 x float] zeroinitializer

; A bitonic pass: bit P inserted into the position, read and written back
; under a data-dependent mask. One test on the narrow index, no wrap past
; 2^32 - 4, serves the gather and the masked scatter to the same lanes.
; CHECK-LABEL: define void @bitonic(
; CHECK: %[[IDX:[0-9]+]] = freeze <4 x i32> %low
; CHECK: %[[FIRST:[0-9]+]] = extractelement <4 x i32> %[[IDX]], i64 0
; CHECK: %[[SPLATI:.*]] = insertelement <4 x i32> poison, i32 %[[FIRST]], i64 0
; CHECK: %[[SPLAT:.*]] = shufflevector <4 x i32> %[[SPLATI]], <4 x i32> poison, <4 x i32> zeroinitializer
; CHECK: %[[WANT:[0-9]+]] = add <4 x i32> %[[SPLAT]], <i32 0, i32 1, i32 2, i32 3>
; CHECK: %lanes.consecutive = icmp eq <4 x i32> %[[IDX]], %[[WANT]]
; CHECK: %[[ALL:[0-9]+]] = call i1 @llvm.vector.reduce.and.v4i1(<4 x i1> %lanes.consecutive)
; CHECK: icmp ule i32 %{{[0-9]+}}, -4
; CHECK: br i1 %[[TEST:[0-9]+]], label %gather.consecutive, label %gather.scattered
; CHECK: gather.consecutive:
; CHECK: %[[BASE:[0-9]+]] = getelementptr inbounds i32, ptr addrspace(1) %keys, i64
; CHECK: load <4 x i32>, ptr addrspace(1) %[[BASE]], align 4, !tbaa
; CHECK: gather.scattered:
; CHECK: call <4 x i32> @llvm.masked.gather.v4i32.v4p1(
; CHECK: %a = phi <4 x i32>
; CHECK-NOT: lanes.consecutive
; CHECK: br i1 %[[TEST]], label %gather.consecutive{{[0-9]*}}, label %gather.scattered
; CHECK: call void @llvm.masked.store.v4i32.p1(<4 x i32> %b, ptr addrspace(1) %{{[0-9]+}}, i32 4, <4 x i1> %swap)
; CHECK: call void @llvm.masked.scatter.v4i32.v4p1(<4 x i32> %b, <4 x ptr addrspace(1)> %p, i32 4, <4 x i1> %swap)
; CHECK: ret void
define void @bitonic(ptr addrspace(1) %keys, i32 %pass, <4 x i32> %pos, <4 x i32> %b) {
entry:
  %ps = insertelement <4 x i32> poison, i32 %pass, i64 0
  %pv = shufflevector <4 x i32> %ps, <4 x i32> poison, <4 x i32> zeroinitializer
  %hi = lshr <4 x i32> %pos, %pv
  %hi2 = shl <4 x i32> %hi, %pv
  %lo = and <4 x i32> %pos, <i32 3, i32 3, i32 3, i32 3>
  %low = or <4 x i32> %hi2, %lo
  %wide = zext <4 x i32> %low to <4 x i64>
  %p = getelementptr inbounds i32, ptr addrspace(1) %keys, <4 x i64> %wide
  %a = call <4 x i32> @llvm.masked.gather.v4i32.v4p1(<4 x ptr addrspace(1)> %p, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x i32> poison), !tbaa !0
  %swap = icmp ugt <4 x i32> %a, %b
  call void @llvm.masked.scatter.v4i32.v4p1(<4 x i32> %b, <4 x ptr addrspace(1)> %p, i32 4, <4 x i1> %swap), !tbaa !0
  ret void
}

; A masked gather through a pointer vector that is no single-index GEP:
; the test compares the addresses, elements of 8 bytes apart, and ignores
; the lanes whose mask is off.
; CHECK-LABEL: define <4 x double> @addresses(
; CHECK: %[[INTS:[0-9]+]] = ptrtoint <4 x ptr> %q to <4 x i64>
; CHECK: freeze <4 x i64> %[[INTS]]
; CHECK: add <4 x i64> %{{.*}}, <i64 0, i64 8, i64 16, i64 24>
; CHECK: %lanes.consecutive = icmp eq <4 x i64>
; CHECK: %[[OFF:[0-9]+]] = xor <4 x i1> %{{[0-9]+}}, <i1 true, i1 true, i1 true, i1 true>
; CHECK: or <4 x i1> %lanes.consecutive, %[[OFF]]
; CHECK: gather.consecutive:
; CHECK: %[[P0:[0-9]+]] = extractelement <4 x ptr> %q, i64 0
; CHECK: call <4 x double> @llvm.masked.load.v4f64.p0(ptr %[[P0]], i32 8, <4 x i1> %m, <4 x double> zeroinitializer)
; CHECK: gather.scattered:
; CHECK: call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %q, i32 8, <4 x i1> %m, <4 x double> zeroinitializer)
define <4 x double> @addresses(ptr %base, <4 x i64> %pos, <4 x i1> %m) {
entry:
  %rows = getelementptr [4 x double], ptr %base, <4 x i64> %pos, i64 1
  %q = getelementptr i8, <4 x ptr> %rows, i64 -8
  %v = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %q, i32 8, <4 x i1> %m, <4 x double> zeroinitializer)
  ret <4 x double> %v
}

; A value carried in a private array across a barrier is followed to what
; was stored there: the position, so the gather is tested.
; CHECK-LABEL: define <4 x float> @carried(
; CHECK: lanes.consecutive
; CHECK: gather.consecutive:
define <4 x float> @carried(ptr addrspace(1) %in, <4 x i32> %pos) {
entry:
  %ctx = alloca [16 x i32], align 64
  %slot = getelementptr [16 x i32], ptr %ctx, i64 0, i64 4
  %half = lshr <4 x i32> %pos, <i32 1, i32 1, i32 1, i32 1>
  store <4 x i32> %half, ptr %slot, align 16
  %back = load <4 x i32>, ptr %slot, align 16
  %wide = sext <4 x i32> %back to <4 x i64>
  %p = getelementptr float, ptr addrspace(1) %in, <4 x i64> %wide
  %v = call <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)> %p, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  ret <4 x float> %v
}

; Left alone: an index read from a buffer, a probe computed from values
; kept in a private array that also holds gathered data, a lookup in a
; constant table, a splat address, and two-lane vectors.
; CHECK-LABEL: define void @left_alone(
; CHECK-NOT: lanes.consecutive
; CHECK-NOT: gather.consecutive
; CHECK: ret void
define void @left_alone(ptr addrspace(1) %data, ptr addrspace(1) %idx, <4 x i32> %pos, ptr addrspace(1) %out) {
entry:
  %state = alloca [16 x i32], align 64
  %ip = getelementptr <4 x i32>, ptr addrspace(1) %idx, i64 0
  %iv = load <4 x i32>, ptr addrspace(1) %ip, align 16
  %iw = zext <4 x i32> %iv to <4 x i64>
  %p1 = getelementptr float, ptr addrspace(1) %data, <4 x i64> %iw
  %g1 = call <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)> %p1, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  %pw = zext <4 x i32> %pos to <4 x i64>
  %lo = lshr <4 x i32> %iv, <i32 1, i32 1, i32 1, i32 1>
  store <4 x i32> %lo, ptr %state, align 16
  %probe = load <4 x i32>, ptr %state, align 16
  %pw2 = zext <4 x i32> %probe to <4 x i64>
  %p3 = getelementptr float, ptr addrspace(1) %data, <4 x i64> %pw2
  %g3 = call <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)> %p3, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  %p4 = getelementptr float, ptr @table, <4 x i64> %pw
  %g4 = call <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr> %p4, i32 4, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x float> poison)
  %s = insertelement <4 x ptr addrspace(1)> poison, ptr addrspace(1) %out, i64 0
  %splat = shufflevector <4 x ptr addrspace(1)> %s, <4 x ptr addrspace(1)> poison, <4 x i32> zeroinitializer
  call void @llvm.masked.scatter.v4f32.v4p1(<4 x float> %g1, <4 x ptr addrspace(1)> %splat, i32 4, <4 x i1> <i1 true, i1 false, i1 false, i1 false>)
  %pos2 = shufflevector <4 x i64> %pw, <4 x i64> poison, <2 x i32> <i32 0, i32 1>
  %p5 = getelementptr float, ptr addrspace(1) %out, <2 x i64> %pos2
  %v2 = shufflevector <4 x float> %g3, <4 x float> %g4, <2 x i32> <i32 0, i32 4>
  call void @llvm.masked.scatter.v2f32.v2p1(<2 x float> %v2, <2 x ptr addrspace(1)> %p5, i32 4, <2 x i1> <i1 true, i1 true>)
  ret void
}

; Lanes a constant 64 bytes apart (a context slot read across y in a loop
; InterchangeWorkItemLoops made innermost) are never consecutive: left
; alone. The same shape 8 bytes apart is tested.
; CHECK-LABEL: define <4 x double> @constant_stride(
; CHECK-NOT: lanes.consecutive
; CHECK: ret <4 x double>
define <4 x double> @constant_stride(ptr %arena, i64 %off) {
entry:
  %v = getelementptr i8, ptr %arena, <4 x i64> <i64 0, i64 64, i64 128, i64 192>
  %p = getelementptr i8, <4 x ptr> %v, i64 %off
  %g = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %p, i32 8, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x double> poison)
  ret <4 x double> %g
}

; CHECK-LABEL: define <4 x double> @constant_consecutive(
; CHECK: %lanes.consecutive =
; CHECK: ret <4 x double>
define <4 x double> @constant_consecutive(ptr %arena, i64 %off) {
entry:
  %v = getelementptr i8, ptr %arena, <4 x i64> <i64 0, i64 8, i64 16, i64 24>
  %p = getelementptr i8, <4 x ptr> %v, i64 %off
  %g = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %p, i32 8, <4 x i1> <i1 true, i1 true, i1 true, i1 true>, <4 x double> poison)
  ret <4 x double> %g
}

declare <4 x i32> @llvm.masked.gather.v4i32.v4p1(<4 x ptr addrspace(1)>, i32, <4 x i1>, <4 x i32>)
declare <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)>, i32, <4 x i1>, <4 x float>)
declare <4 x float> @llvm.masked.gather.v4f32.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x float>)
declare <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x double>)
declare void @llvm.masked.scatter.v4i32.v4p1(<4 x i32>, <4 x ptr addrspace(1)>, i32, <4 x i1>)
declare void @llvm.masked.scatter.v4f32.v4p1(<4 x float>, <4 x ptr addrspace(1)>, i32, <4 x i1>)
declare void @llvm.masked.scatter.v2f32.v2p1(<2 x float>, <2 x ptr addrspace(1)>, i32, <2 x i1>)

!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C++ TBAA"}
