; An ashr of a sum of shifted terms (InstCombine's form of an int index
; sign-extended after `group * size * 16 + lid`) becomes an ashr of one
; shl of the sum of the quotients, the form scalar evolution reads as a
; sign extension; the loop vectorizer then sees consecutive accesses.
; Sums with a term that is not a multiple of the shift, a single shifted
; term, or a shift smaller than the ashr's are left alone.
; RUN: weft-opt -passes=weft-expose-index-extensions -S %s | FileCheck %s
; RUN: weft-opt -passes='weft-expose-index-extensions,loop-vectorize' -force-vector-width=4 -S %s | FileCheck %s --check-prefix=VEC

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @local_offset(
; CHECK: %[[G:[0-9]+]] = shl i64 %group, 12
; CHECK: %[[S0:[0-9]+]] = add i64 %[[G]], %lid
; CHECK: %sum.exposed = shl i64 %[[S0]], 32
; CHECK: %off0 = ashr exact i64 %sum.exposed, 30
; CHECK: %[[S1:[0-9]+]] = add i64 %{{[0-9]+}}, 256
; CHECK: %sum1.exposed = shl i64 %[[S1]], 32
; CHECK: %off1 = ashr exact i64 %sum1.exposed, 30
; VEC-LABEL: define void @local_offset(
; VEC: vector.body:
; VEC: load <4 x float>
; VEC: load <4 x float>
define void @local_offset(ptr addrspace(1) %A, ptr addrspace(1) %B, i64 %group) {
entry:
  %g = shl i64 %group, 44
  br label %x.loop

x.loop:
  %lid = phi i64 [ 0, %entry ], [ %lid.next, %x.loop ]
  %l = shl i64 %lid, 32
  %sum = add i64 %g, %l
  %off0 = ashr exact i64 %sum, 30
  %p0 = getelementptr inbounds i8, ptr addrspace(1) %A, i64 %off0
  %v0 = load float, ptr addrspace(1) %p0, align 4, !llvm.access.group !1
  %sum1 = add nuw nsw i64 %sum, 1099511627776
  %off1 = ashr exact i64 %sum1, 30
  %p1 = getelementptr inbounds i8, ptr addrspace(1) %A, i64 %off1
  %v1 = load float, ptr addrspace(1) %p1, align 4, !llvm.access.group !1
  %v = fadd float %v0, %v1
  %q = getelementptr inbounds float, ptr addrspace(1) %B, i64 %lid
  store float %v, ptr addrspace(1) %q, align 4, !llvm.access.group !1
  %lid.next = add nuw nsw i64 %lid, 1
  %more = icmp ult i64 %lid.next, 256
  br i1 %more, label %x.loop, label %exit, !llvm.loop !0

exit:
  ret void
}

; CHECK-LABEL: define i64 @left_alone(
; CHECK: %a = ashr i64 %s1, 30
; CHECK: %b = ashr i64 %s2, 30
; CHECK: %c = ashr i64 %s3b, 30
; CHECK: %d = ashr i64 %s4, 34
define i64 @left_alone(i64 %x, i64 %y) {
  %xs = shl i64 %x, 32
  %ys = shl i64 %y, 32
  ; an addend that is no multiple of 2^32
  %s1 = add i64 %xs, %y
  %a = ashr i64 %s1, 30
  ; one shifted term and a constant: SCEV reads it already
  %s2 = add i64 %xs, 4294967296
  %b = ashr i64 %s2, 30
  ; a constant that is no multiple of 2^32
  %s3 = add i64 %xs, %ys
  %s3b = add i64 %s3, 12
  %c = ashr i64 %s3b, 30
  ; the ashr shifts further than the common factor
  %s4 = add i64 %xs, %ys
  %d = ashr i64 %s4, 34
  %r1 = add i64 %a, %b
  %r2 = add i64 %c, %d
  %r = add i64 %r1, %r2
  ret i64 %r
}

!0 = distinct !{!0, !2}
!1 = distinct !{}
!2 = !{!"llvm.loop.parallel_accesses", !1}

; The same index for float2 accesses is left alone: consecutive explicit
; vectors become interleaved groups, slower in a streaming loop.
; CHECK-LABEL: define <2 x float> @vector_access(
; CHECK: %off = ashr exact i64 %sum, 29
define <2 x float> @vector_access(ptr addrspace(1) %A, i64 %group, i64 %lid) {
  %g = shl i64 %group, 44
  %l = shl i64 %lid, 32
  %sum = add i64 %g, %l
  %off = ashr exact i64 %sum, 29
  %p = getelementptr inbounds i8, ptr addrspace(1) %A, i64 %off
  %v = load <2 x float>, ptr addrspace(1) %p, align 8
  ret <2 x float> %v
}
