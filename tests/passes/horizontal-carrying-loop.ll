; A uniform loop of 16 trips that carries a per-work-item accumulator is
; marked for full unrolling instead of getting implicit barriers: made
; horizontal, every trip's work-item loop would reload and store the
; accumulators through context arrays; unrolled, the one work-item loop
; around it keeps them in registers. Its float4 accumulator stays whole and
; the function is marked weft-vectors-kept (RevectorizeWorkItemLoops and
; WidenWorkItemLoops run four work-items' float4 per register later); under
; WEFT_REVECTORIZE=0 it is scalarized for the loop vectorizer, as for a
; horizontal loop, which always is. With 64 trips the
; unrolled body would be too big, and the loop is horizontal; a 16-trip
; loop that carries only its uniform counter is horizontal too, and so is
; one that loads nothing (a mad chain, laid out by GroupWorkItemChains).
; RUN: weft-opt -passes=weft-horizontal-loops -weft-local-size=8,1,1 -S %s | FileCheck %s --check-prefixes=CHECK,KEPT
; RUN: env WEFT_REVECTORIZE=0 weft-opt -passes=weft-horizontal-loops -weft-local-size=8,1,1 -S %s | FileCheck %s --check-prefixes=CHECK,SPLIT

; CHECK-LABEL: define internal void @carry16.workitem(
; KEPT-SAME: #[[KEPT:[0-9]+]]
; CHECK-NOT: call void @__weft_barrier()
; CHECK: loop:
; KEPT: phi <4 x float>
; SPLIT: phi float
; SPLIT-NOT: phi <4 x float>
; CHECK: br label %loop, !llvm.loop ![[UNROLL:[0-9]+]]
; CHECK-NOT: call void @__weft_barrier()
; CHECK: ret void

; A horizontal loop's function is scalarized either way.
; CHECK-LABEL: define internal void @carry64.workitem(
; CHECK-NOT: phi <4 x float>
; CHECK: call void @__weft_barrier()
; CHECK: ret void

; CHECK-LABEL: define internal void @uniform16.workitem(
; CHECK: call void @__weft_barrier()
; CHECK: ret void

; CHECK-LABEL: define internal void @chain16.workitem(
; CHECK: call void @__weft_barrier()
; CHECK: ret void

; KEPT: attributes #[[KEPT]] = { "weft-vectors-kept" "weft-workitem-of"="carry16" }
; SPLIT-NOT: weft-vectors-kept
; CHECK: ![[UNROLL]] = distinct !{![[UNROLL]], ![[FULL:[0-9]+]]}
; CHECK: ![[FULL]] = !{!"llvm.loop.unroll.full", i32 1}

define internal void @carry16.workitem(ptr addrspace(1) %a, ptr addrspace(1) %c, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="carry16" {
entry:
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %body ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc.next, %body ]
  %more = icmp ult i64 %k, 16
  br i1 %more, label %body, label %done
body:
  %row = mul i64 %k, 8
  %idx = add i64 %row, %x
  %pa = getelementptr <4 x float>, ptr addrspace(1) %a, i64 %idx
  %va = load <4 x float>, ptr addrspace(1) %pa
  %acc.next = fadd <4 x float> %acc, %va
  %k.next = add i64 %k, 1
  br label %loop
done:
  %pc = getelementptr <4 x float>, ptr addrspace(1) %c, i64 %x
  store <4 x float> %acc, ptr addrspace(1) %pc
  ret void
}

define internal void @carry64.workitem(ptr addrspace(1) %a, ptr addrspace(1) %c, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="carry64" {
entry:
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %body ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %acc.next, %body ]
  %more = icmp ult i64 %k, 64
  br i1 %more, label %body, label %done
body:
  %row = mul i64 %k, 8
  %idx = add i64 %row, %x
  %pa = getelementptr <4 x float>, ptr addrspace(1) %a, i64 %idx
  %va = load <4 x float>, ptr addrspace(1) %pa
  %acc.next = fadd <4 x float> %acc, %va
  %k.next = add i64 %k, 1
  br label %loop
done:
  %pc = getelementptr <4 x float>, ptr addrspace(1) %c, i64 %x
  store <4 x float> %acc, ptr addrspace(1) %pc
  ret void
}

define internal void @uniform16.workitem(ptr addrspace(1) %a, ptr addrspace(1) %c, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="uniform16" {
entry:
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %body ]
  %more = icmp ult i64 %k, 16
  br i1 %more, label %body, label %done
body:
  %row = mul i64 %k, 8
  %idx = add i64 %row, %x
  %pa = getelementptr float, ptr addrspace(1) %a, i64 %idx
  %va = load float, ptr addrspace(1) %pa
  %pc = getelementptr float, ptr addrspace(1) %c, i64 %idx
  store float %va, ptr addrspace(1) %pc
  %k.next = add i64 %k, 1
  br label %loop
done:
  ret void
}

define internal void @chain16.workitem(ptr addrspace(1) %c, float %seed, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="chain16" {
entry:
  %xf = uitofp i64 %x to float
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %body ]
  %a = phi float [ %xf, %entry ], [ %a.next, %body ]
  %more = icmp ult i64 %k, 16
  br i1 %more, label %body, label %done
body:
  %a.next = call float @llvm.fmuladd.f32(float %a, float %seed, float %a)
  %k.next = add i64 %k, 1
  br label %loop
done:
  %pc = getelementptr float, ptr addrspace(1) %c, i64 %x
  store float %a, ptr addrspace(1) %pc
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)
