; A work-item loop over float4 whose accesses are consecutive across
; work-items runs four work-items per iteration on AVX-512: each <4 x float>
; becomes a <16 x float> holding four work-items' vectors, the extracts of
; the horizontal sum shuffles taking one element of each, the scalar store a
; <4 x float> store, the id steps by 4. Int ids reach the pass as
; `ashr exact (shl id, 32), 28`: consecutive because the group's base has
; its low bits zero (known here, tested at run time when they come from an
; argument). Loops the pass cannot prove right stay as they are.
; RUN: weft-opt -weft-target-cpu=znver4 -passes=weft-widen-workitem-loops -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; clpeak's global_bandwidth_v4_local_offset, two of its sixteen loads.
; CHECK-LABEL: define void @stream4(
; CHECK: x.loop:
; CHECK: %x = phi i64 [ %x.next, %x.loop ], [ 0, %entry ]
; CHECK: [[V0:%.*]] = load <16 x float>, ptr %a0, align 16, !llvm.access.group
; CHECK: [[S0:%.*]] = fadd <16 x float> [[V0]], zeroinitializer
; CHECK: [[V1:%.*]] = load <16 x float>, ptr %a1, align 16, !llvm.access.group
; CHECK: [[S:%.*]] = fadd <16 x float> [[S0]], [[V1]]
; CHECK: [[E0:%.*]] = shufflevector <16 x float> [[S]], <16 x float> poison, <4 x i32> <i32 0, i32 4, i32 8, i32 12>
; CHECK: [[E1:%.*]] = shufflevector <16 x float> [[S]], <16 x float> poison, <4 x i32> <i32 1, i32 5, i32 9, i32 13>
; CHECK: [[R:%.*]] = fadd <4 x float> [[E0]], [[E1]]
; CHECK: store <4 x float> [[R]], ptr %out, align 4, !llvm.access.group
; CHECK: %x.next = add nuw nsw i64 %x, 4
; CHECK: br i1 %done, label %exit, label %x.loop, !llvm.loop [[LOOP4:![0-9]+]]
define void @stream4(ptr %A, ptr %B, i64 %group) #0 {
entry:
  %base = shl i64 %group, 44
  br label %x.loop

x.loop:
  %x = phi i64 [ %x.next, %x.loop ], [ 0, %entry ]
  %hi = shl i64 %x, 32
  %id0 = add i64 %base, %hi
  %off0 = ashr exact i64 %id0, 28
  %a0 = getelementptr inbounds i8, ptr %A, i64 %off0
  %v0 = load <4 x float>, ptr %a0, align 16, !llvm.access.group !1
  %s0 = fadd <4 x float> %v0, zeroinitializer
  %id1 = add nuw nsw i64 %id0, 1099511627776
  %off1 = ashr exact i64 %id1, 28
  %a1 = getelementptr inbounds i8, ptr %A, i64 %off1
  %v1 = load <4 x float>, ptr %a1, align 16, !llvm.access.group !1
  %s = fadd <4 x float> %s0, %v1
  %e0 = extractelement <4 x float> %s, i64 0
  %e1 = extractelement <4 x float> %s, i64 1
  %r = fadd float %e0, %e1
  %out = getelementptr float, ptr %B, i64 %x
  store float %r, ptr %out, align 4, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 256
  br i1 %done, label %exit, label %x.loop, !llvm.loop !2

exit:
  ret void
}

; int id = get_global_id(0): the base (offset + group * size) is an
; argument, so a run-time test of its low 3 bits (8 float2 work-items)
; picks the widened loop or the original one.
; CHECK-LABEL: define void @offset2(
; CHECK: %widen.low = and i64 %base, 7
; CHECK: %widen.check = icmp eq i64 %widen.low, 0
; CHECK: br i1 %widen.check, label %entry.split, label %entry.split.original
; CHECK: x.loop.original:
; CHECK: load <2 x float>
; CHECK: %x.next.original = add nuw nsw i64 %x.original, 1
; CHECK: x.loop:
; CHECK: load <16 x float>
; CHECK: %x.next = add nuw nsw i64 %x, 8
define void @offset2(ptr %A, ptr %B, i64 %base) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ %x.next, %x.loop ], [ 0, %entry ]
  %gid = add i64 %base, %x
  %hi = shl i64 %gid, 32
  %off = ashr exact i64 %hi, 29
  %a = getelementptr inbounds i8, ptr %A, i64 %off
  %v = load <2 x float>, ptr %a, align 8, !llvm.access.group !1
  %d = fmul <2 x float> %v, <float 2.0, float 3.0>
  %b = getelementptr inbounds i8, ptr %B, i64 %off
  store <2 x float> %d, ptr %b, align 8, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 64
  br i1 %done, label %exit, label %x.loop, !llvm.loop !2

exit:
  ret void
}

; float4 loads two float4 apart: not consecutive.
; CHECK-LABEL: define void @strided(
; CHECK: load <4 x float>
; CHECK-NOT: <16 x float>
; CHECK: ret void
define void @strided(ptr %A, ptr %B) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ %x.next, %x.loop ], [ 0, %entry ]
  %x2 = shl i64 %x, 1
  %a = getelementptr inbounds <4 x float>, ptr %A, i64 %x2
  %v = load <4 x float>, ptr %a, align 16, !llvm.access.group !1
  %b = getelementptr inbounds <4 x float>, ptr %B, i64 %x
  store <4 x float> %v, ptr %b, align 16, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 256
  br i1 %done, label %exit, label %x.loop, !llvm.loop !2

exit:
  ret void
}

; A 32-bit id plus an unknown 32-bit value, sign-extended: it may wrap
; between two work-items and the value is not loop-invariant in a way the
; pass can test (it is loaded in the loop), so the loop stays.
; CHECK-LABEL: define void @may_wrap(
; CHECK-NOT: <16 x float>
; CHECK: ret void
define void @may_wrap(ptr %A, ptr %B, ptr %P) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ %x.next, %x.loop ], [ 0, %entry ]
  %k = load i32, ptr %P, align 4, !llvm.access.group !1
  %x32 = trunc i64 %x to i32
  %i = add i32 %x32, %k
  %i64 = sext i32 %i to i64
  %a = getelementptr inbounds <4 x float>, ptr %A, i64 %i64
  %v = load <4 x float>, ptr %a, align 16, !llvm.access.group !1
  %b = getelementptr inbounds <4 x float>, ptr %B, i64 %x
  store <4 x float> %v, ptr %b, align 16, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 256
  br i1 %done, label %exit, label %x.loop, !llvm.loop !2

exit:
  ret void
}

; The id used as data, and a trip count that is not a multiple of 4.
; CHECK-LABEL: define void @id_as_data(
; CHECK-NOT: <16 x float>
; CHECK: ret void
define void @id_as_data(ptr %A) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ %x.next, %x.loop ], [ 0, %entry ]
  %f = uitofp i64 %x to float
  %vf = insertelement <4 x float> zeroinitializer, float %f, i64 0
  %a = getelementptr inbounds <4 x float>, ptr %A, i64 %x
  %v = load <4 x float>, ptr %a, align 16, !llvm.access.group !1
  %s = fadd <4 x float> %v, %vf
  store <4 x float> %s, ptr %a, align 16, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 256
  br i1 %done, label %exit, label %x.loop, !llvm.loop !2

exit:
  ret void
}

; CHECK-LABEL: define void @odd_trip_count(
; CHECK-NOT: <16 x float>
; CHECK: ret void
define void @odd_trip_count(ptr %A) #0 {
entry:
  br label %x.loop

x.loop:
  %x = phi i64 [ %x.next, %x.loop ], [ 0, %entry ]
  %a = getelementptr inbounds <4 x float>, ptr %A, i64 %x
  %v = load <4 x float>, ptr %a, align 16, !llvm.access.group !1
  %s = fadd <4 x float> %v, %v
  store <4 x float> %s, ptr %a, align 16, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 6
  br i1 %done, label %exit, label %x.loop, !llvm.loop !2

exit:
  ret void
}

; CHECK: [[LOOP4]] = distinct !{[[LOOP4]], !{{[0-9]+}}, [[VEC:![0-9]+]], [[WIDE:![0-9]+]]}
; CHECK-DAG: [[VEC]] = !{!"llvm.loop.isvectorized", i32 1}
; CHECK-DAG: [[WIDE]] = !{!"weft.loop.widened", i32 4}

attributes #0 = { "target-cpu"="znver4" "prefer-vector-width"="512" }

!1 = distinct !{}
!2 = distinct !{!2, !3}
!3 = !{!"llvm.loop.parallel_accesses", !1}
