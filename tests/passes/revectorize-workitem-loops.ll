; CLBlast's Xgemm compute region after O3, float4 of A (consecutive across
; work-items) times each component of a float2 of B (the same for every
; work-item), written per component (MultiplyAddVector): scalar fmuladds
; over extractelements. In a function HorizontalLoops marked
; weft-vectors-kept, the SLP vectorizer rebuilds one <4 x float> fmuladd per
; component of B, and each splat of an element of the loaded float2 becomes
; a splat of a scalar load of that element (a broadcast from memory), with
; the loop's access group kept so the loop stays parallel.
; RUN: weft-opt -weft-target-cpu=znver4 -passes=weft-revectorize-workitem-loops -S %s | FileCheck %s

; CHECK-LABEL: define void @mad4(
; CHECK: x.loop:
; CHECK: [[B1P:%.*]] = getelementptr inbounds i8, ptr addrspace(3) %pb, i64 4
; CHECK-NEXT: %b.elt1 = load float, ptr addrspace(3) [[B1P]], align 4, !llvm.access.group ![[AG:[0-9]+]]
; CHECK-NEXT: %b.elt0 = load float, ptr addrspace(3) %pb, align 8, !llvm.access.group ![[AG]]
; CHECK-NOT: extractelement
; CHECK-DAG: [[S0I:%.*]] = insertelement <4 x float> poison, float %b.elt0, i64 0
; CHECK-DAG: [[S0:%.*]] = shufflevector <4 x float> [[S0I]], <4 x float> poison, <4 x i32> zeroinitializer
; CHECK-DAG: call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a, <4 x float> [[S0]], <4 x float> %c0)
; CHECK-DAG: [[S1I:%.*]] = insertelement <4 x float> poison, float %b.elt1, i64 0
; CHECK-DAG: [[S1:%.*]] = shufflevector <4 x float> [[S1I]], <4 x float> poison, <4 x i32> zeroinitializer
; CHECK-DAG: call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %a, <4 x float> [[S1]], <4 x float> %c1)
; CHECK-NOT: call float @llvm.fmuladd.f32
; CHECK-NOT: load <2 x float>
; CHECK: br i1 %done, label %exit, label %x.loop, !llvm.loop ![[LOOP:[0-9]+]]
define void @mad4(ptr addrspace(3) %A, ptr addrspace(3) %B, ptr %ctx0, ptr %ctx1, i64 %y) #0 {
entry:
  %pb = getelementptr inbounds <2 x float>, ptr addrspace(3) %B, i64 %y
  br label %x.loop

x.loop:
  %x = phi i64 [ %x.next, %x.loop ], [ 0, %entry ]
  %pc0 = getelementptr inbounds <4 x float>, ptr %ctx0, i64 %x
  %pc1 = getelementptr inbounds <4 x float>, ptr %ctx1, i64 %x
  %c0 = load <4 x float>, ptr %pc0, align 16, !llvm.access.group !1
  %c1 = load <4 x float>, ptr %pc1, align 16, !llvm.access.group !1
  %pa = getelementptr inbounds <4 x float>, ptr addrspace(3) %A, i64 %x
  %a = load <4 x float>, ptr addrspace(3) %pa, align 16, !llvm.access.group !1
  %b = load <2 x float>, ptr addrspace(3) %pb, align 8, !llvm.access.group !1
  %b0 = extractelement <2 x float> %b, i64 0
  %b1 = extractelement <2 x float> %b, i64 1
  %a0 = extractelement <4 x float> %a, i64 0
  %a1 = extractelement <4 x float> %a, i64 1
  %a2 = extractelement <4 x float> %a, i64 2
  %a3 = extractelement <4 x float> %a, i64 3
  %c00 = extractelement <4 x float> %c0, i64 0
  %c01 = extractelement <4 x float> %c0, i64 1
  %c02 = extractelement <4 x float> %c0, i64 2
  %c03 = extractelement <4 x float> %c0, i64 3
  %c10 = extractelement <4 x float> %c1, i64 0
  %c11 = extractelement <4 x float> %c1, i64 1
  %c12 = extractelement <4 x float> %c1, i64 2
  %c13 = extractelement <4 x float> %c1, i64 3
  %r00 = call float @llvm.fmuladd.f32(float %a0, float %b0, float %c00)
  %r01 = call float @llvm.fmuladd.f32(float %a1, float %b0, float %c01)
  %r02 = call float @llvm.fmuladd.f32(float %a2, float %b0, float %c02)
  %r03 = call float @llvm.fmuladd.f32(float %a3, float %b0, float %c03)
  %r10 = call float @llvm.fmuladd.f32(float %a0, float %b1, float %c10)
  %r11 = call float @llvm.fmuladd.f32(float %a1, float %b1, float %c11)
  %r12 = call float @llvm.fmuladd.f32(float %a2, float %b1, float %c12)
  %r13 = call float @llvm.fmuladd.f32(float %a3, float %b1, float %c13)
  %v00 = insertelement <4 x float> poison, float %r00, i64 0
  %v01 = insertelement <4 x float> %v00, float %r01, i64 1
  %v02 = insertelement <4 x float> %v01, float %r02, i64 2
  %v03 = insertelement <4 x float> %v02, float %r03, i64 3
  %v10 = insertelement <4 x float> poison, float %r10, i64 0
  %v11 = insertelement <4 x float> %v10, float %r11, i64 1
  %v12 = insertelement <4 x float> %v11, float %r12, i64 2
  %v13 = insertelement <4 x float> %v12, float %r13, i64 3
  store <4 x float> %v03, ptr %pc0, align 16, !llvm.access.group !1
  store <4 x float> %v13, ptr %pc1, align 16, !llvm.access.group !1
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 8
  br i1 %done, label %exit, label %x.loop, !llvm.loop !2

exit:
  ret void
}

; The same loop in a function HorizontalLoops scalarized (not marked) and
; in a marked function whose loop is not a work-item loop (no parallel
; accesses): left alone.
; CHECK-LABEL: define void @unmarked(
; CHECK: call float @llvm.fmuladd.f32
; CHECK-NOT: <4 x float> @llvm.fmuladd.v4f32
; CHECK: ret void
define void @unmarked(ptr addrspace(3) %A, ptr addrspace(3) %B, ptr %ctx0, i64 %y) #1 {
entry:
  %pb = getelementptr inbounds <2 x float>, ptr addrspace(3) %B, i64 %y
  br label %x.loop

x.loop:
  %x = phi i64 [ %x.next, %x.loop ], [ 0, %entry ]
  %pc0 = getelementptr inbounds <4 x float>, ptr %ctx0, i64 %x
  %c0 = load <4 x float>, ptr %pc0, align 16, !llvm.access.group !4
  %pa = getelementptr inbounds <4 x float>, ptr addrspace(3) %A, i64 %x
  %a = load <4 x float>, ptr addrspace(3) %pa, align 16, !llvm.access.group !4
  %b = load <2 x float>, ptr addrspace(3) %pb, align 8, !llvm.access.group !4
  %b0 = extractelement <2 x float> %b, i64 0
  %a0 = extractelement <4 x float> %a, i64 0
  %a1 = extractelement <4 x float> %a, i64 1
  %a2 = extractelement <4 x float> %a, i64 2
  %a3 = extractelement <4 x float> %a, i64 3
  %c00 = extractelement <4 x float> %c0, i64 0
  %c01 = extractelement <4 x float> %c0, i64 1
  %c02 = extractelement <4 x float> %c0, i64 2
  %c03 = extractelement <4 x float> %c0, i64 3
  %r00 = call float @llvm.fmuladd.f32(float %a0, float %b0, float %c00)
  %r01 = call float @llvm.fmuladd.f32(float %a1, float %b0, float %c01)
  %r02 = call float @llvm.fmuladd.f32(float %a2, float %b0, float %c02)
  %r03 = call float @llvm.fmuladd.f32(float %a3, float %b0, float %c03)
  %v00 = insertelement <4 x float> poison, float %r00, i64 0
  %v01 = insertelement <4 x float> %v00, float %r01, i64 1
  %v02 = insertelement <4 x float> %v01, float %r02, i64 2
  %v03 = insertelement <4 x float> %v02, float %r03, i64 3
  store <4 x float> %v03, ptr %pc0, align 16, !llvm.access.group !4
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 8
  br i1 %done, label %exit, label %x.loop, !llvm.loop !5

exit:
  ret void
}

; CHECK-LABEL: define void @serial(
; CHECK: call float @llvm.fmuladd.f32
; CHECK-NOT: <4 x float> @llvm.fmuladd.v4f32
; CHECK: ret void
define void @serial(ptr addrspace(3) %A, ptr addrspace(3) %B, ptr %ctx0, i64 %y) #0 {
entry:
  %pb = getelementptr inbounds <2 x float>, ptr addrspace(3) %B, i64 %y
  br label %x.loop

x.loop:
  %x = phi i64 [ %x.next, %x.loop ], [ 0, %entry ]
  %pc0 = getelementptr inbounds <4 x float>, ptr %ctx0, i64 %x
  %c0 = load <4 x float>, ptr %pc0, align 16
  %pa = getelementptr inbounds <4 x float>, ptr addrspace(3) %A, i64 %x
  %a = load <4 x float>, ptr addrspace(3) %pa, align 16
  %b = load <2 x float>, ptr addrspace(3) %pb, align 8
  %b0 = extractelement <2 x float> %b, i64 0
  %a0 = extractelement <4 x float> %a, i64 0
  %a1 = extractelement <4 x float> %a, i64 1
  %a2 = extractelement <4 x float> %a, i64 2
  %a3 = extractelement <4 x float> %a, i64 3
  %c00 = extractelement <4 x float> %c0, i64 0
  %c01 = extractelement <4 x float> %c0, i64 1
  %c02 = extractelement <4 x float> %c0, i64 2
  %c03 = extractelement <4 x float> %c0, i64 3
  %r00 = call float @llvm.fmuladd.f32(float %a0, float %b0, float %c00)
  %r01 = call float @llvm.fmuladd.f32(float %a1, float %b0, float %c01)
  %r02 = call float @llvm.fmuladd.f32(float %a2, float %b0, float %c02)
  %r03 = call float @llvm.fmuladd.f32(float %a3, float %b0, float %c03)
  %v00 = insertelement <4 x float> poison, float %r00, i64 0
  %v01 = insertelement <4 x float> %v00, float %r01, i64 1
  %v02 = insertelement <4 x float> %v01, float %r02, i64 2
  %v03 = insertelement <4 x float> %v02, float %r03, i64 3
  store <4 x float> %v03, ptr %pc0, align 16
  %x.next = add nuw nsw i64 %x, 1
  %done = icmp eq i64 %x.next, 8
  br i1 %done, label %exit, label %x.loop

exit:
  ret void
}

; CHECK: ![[AG]] = distinct !{}
; CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[PAR:[0-9]+]]}
; CHECK: ![[PAR]] = !{!"llvm.loop.parallel_accesses", ![[AG]]}

declare float @llvm.fmuladd.f32(float, float, float)

attributes #0 = { "weft-vectors-kept" "target-cpu"="znver4" "prefer-vector-width"="512" }
attributes #1 = { "target-cpu"="znver4" "prefer-vector-width"="512" }

!1 = distinct !{}
!2 = distinct !{!2, !3}
!3 = !{!"llvm.loop.parallel_accesses", !1}
!4 = distinct !{}
!5 = distinct !{!5, !6}
!6 = !{!"llvm.loop.parallel_accesses", !4}
