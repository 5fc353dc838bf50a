; When the nests that now run y innermost touch the context arrays more
; often than the nests left x innermost, every context index of the function
; numbers the work-items y fastest, (z * LX + x) * LY + y, so that the swapped
; nests' slot copies are consecutive across the vectorized loop. Every index
; changes alike (a work-item must find its slot in every region); when the
; x-innermost nests weigh more, or WEFT_SLOTS_Y_FIRST=0, none does.
; RUN: weft-opt -passes=weft-interchange-workitem-loops -S %s | FileCheck %s
; RUN: env WEFT_SLOTS_Y_FIRST=0 weft-opt -passes=weft-interchange-workitem-loops -S %s | FileCheck %s --check-prefix=OFF

; A tn-shaped compute nest (A 34 doubles apart across x: swapped) whose
; accumulator goes through its context slot, then a store nest (x
; innermost) that reads the slot once: 2 accesses against 1.
; CHECK-LABEL: define void @slots_follow(
; CHECK: x.loop:
; CHECK-NEXT: %y.inner = phi i64
; CHECK: [[ZX:%.*]] = mul nuw nsw i64 %z, 8
; CHECK-NEXT: [[ZXX:%.*]] = add nuw nsw i64 [[ZX]], %x.outer
; CHECK-NEXT: [[ROW:%.*]] = mul nuw nsw i64 [[ZXX]], 16
; CHECK-NEXT: %wi.linear.yfirst = add nuw nsw i64 [[ROW]], %y.inner
; CHECK: %slot.in = getelementptr inbounds double, ptr %arena, i64 %wi.linear.yfirst
; CHECK: %slot.out = getelementptr inbounds double, ptr %arena, i64 %wi.linear.yfirst
; CHECK: s.x.loop:
; CHECK: [[SZX:%.*]] = mul nuw nsw i64 %z, 8
; CHECK-NEXT: [[SZXX:%.*]] = add nuw nsw i64 [[SZX]], %sx
; CHECK-NEXT: [[SROW:%.*]] = mul nuw nsw i64 [[SZXX]], 16
; CHECK-NEXT: %wi.linear.yfirst{{[0-9]*}} = add nuw nsw i64 [[SROW]], %sy
; CHECK-NOT: %wi.linear =
; CHECK: ret void

; OFF-LABEL: define void @slots_follow(
; OFF: %wi.linear = add nuw nsw i64 %row.zy, %x.outer
; OFF: %wi.linear.s = add nuw nsw i64 %srow.zy, %sx
; OFF-NOT: yfirst

; The same compute nest, but the store nest runs in a kernel loop of 4
; trips: numbered y fastest, its slot load would be a gather 4 times
; (4) against the compute nest's load and store (3). Nothing changes.
; CHECK-LABEL: define void @slots_stay(
; CHECK: x.loop:
; CHECK-NEXT: %y.inner = phi i64
; CHECK: %wi.linear = add nuw nsw i64 %row.zy, %x.outer
; CHECK: %wi.linear.s = add nuw nsw i64 %srow.zy, %sx
; CHECK-NOT: yfirst
; CHECK: ret void

; A nest that only copies one context array into another (what a phi
; demoted across a barrier leaves in a kernel loop) runs y innermost too
; once the slots are numbered y fastest.
; CHECK-LABEL: define void @copy_follows(
; CHECK: %wi.linear.yfirst{{[0-9]*}} = add nuw nsw i64 {{%.*}}, %y.inner
; CHECK: s.x.loop:
; CHECK-NEXT: %sy.inner = phi i64
; CHECK: %wi.linear.yfirst{{[0-9]+}} = add nuw nsw i64 {{%.*}}, %sy.inner
; CHECK: ret void

declare double @llvm.fmuladd.f64(double, double, double)

define void @slots_follow(ptr addrspace(3) %alm, ptr addrspace(3) %blm, ptr %arena, ptr addrspace(1) %out, i64 %z) {
entry:
  br label %y.loop
y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.latch ]
  %zy = mul nuw nsw i64 %z, 16
  %zyy = add nuw nsw i64 %zy, %y
  %row.zy = mul nuw nsw i64 %zyy, 8
  %wi.linear = add nuw nsw i64 %row.zy, %x, !weft.context.index !4
  %slot.in = getelementptr inbounds double, ptr %arena, i64 %wi.linear
  %acc.in = load double, ptr %slot.in, !llvm.access.group !0, !weft.context.slot !4
  %arow = mul nuw nsw i64 %x, 34
  %bcol = add nuw nsw i64 %y, 0
  br label %k.loop
k.loop:
  %k = phi i64 [ 0, %x.loop ], [ %k.next, %k.loop ]
  %acc = phi double [ %acc.in, %x.loop ], [ %f, %k.loop ]
  %ai = add nuw nsw i64 %arow, %k
  %pa = getelementptr inbounds double, ptr addrspace(3) %alm, i64 %ai
  %a = load double, ptr addrspace(3) %pa, !llvm.access.group !0
  %k17 = mul nuw nsw i64 %k, 17
  %bi = add nuw nsw i64 %k17, %bcol
  %pb = getelementptr inbounds double, ptr addrspace(3) %blm, i64 %bi
  %b = load double, ptr addrspace(3) %pb, !llvm.access.group !0
  %f = call double @llvm.fmuladd.f64(double %a, double %b, double %acc)
  %k.next = add nuw nsw i64 %k, 1
  %more.k = icmp ult i64 %k.next, 16
  br i1 %more.k, label %k.loop, label %x.latch
x.latch:
  %slot.out = getelementptr inbounds double, ptr %arena, i64 %wi.linear
  store double %f, ptr %slot.out, !llvm.access.group !0, !weft.context.slot !4
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 8
  br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop !1
y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %more.y = icmp ult i64 %y.next, 16
  br i1 %more.y, label %y.loop, label %s.pre, !llvm.loop !3
s.pre:
  br label %s.y.loop
s.y.loop:
  %sy = phi i64 [ 0, %s.pre ], [ %sy.next, %s.y.latch ]
  br label %s.x.loop
s.x.loop:
  %sx = phi i64 [ 0, %s.y.loop ], [ %sx.next, %s.x.loop ]
  %szy = mul nuw nsw i64 %z, 16
  %szyy = add nuw nsw i64 %szy, %sy
  %srow.zy = mul nuw nsw i64 %szyy, 8
  %wi.linear.s = add nuw nsw i64 %srow.zy, %sx, !weft.context.index !4
  %slot.s = getelementptr inbounds double, ptr %arena, i64 %wi.linear.s
  %v = load double, ptr %slot.s, !llvm.access.group !5, !weft.context.slot !4
  %orow = mul nuw nsw i64 %sy, 8
  %oi = add nuw nsw i64 %orow, %sx
  %po = getelementptr inbounds double, ptr addrspace(1) %out, i64 %oi
  store double %v, ptr addrspace(1) %po, !llvm.access.group !5
  %sx.next = add nuw nsw i64 %sx, 1
  %more.sx = icmp ult i64 %sx.next, 8
  br i1 %more.sx, label %s.x.loop, label %s.y.latch, !llvm.loop !6
s.y.latch:
  %sy.next = add nuw nsw i64 %sy, 1
  %more.sy = icmp ult i64 %sy.next, 16
  br i1 %more.sy, label %s.y.loop, label %exit, !llvm.loop !7
exit:
  ret void
}

define void @slots_stay(ptr addrspace(3) %alm, ptr addrspace(3) %blm, ptr %arena, ptr addrspace(1) %out, i64 %z) {
entry:
  br label %y.loop
y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.latch ]
  %zy = mul nuw nsw i64 %z, 16
  %zyy = add nuw nsw i64 %zy, %y
  %row.zy = mul nuw nsw i64 %zyy, 8
  %wi.linear = add nuw nsw i64 %row.zy, %x, !weft.context.index !4
  %slot.in = getelementptr inbounds double, ptr %arena, i64 %wi.linear
  %acc.in = load double, ptr %slot.in, !llvm.access.group !0, !weft.context.slot !4
  %arow = mul nuw nsw i64 %x, 34
  %bcol = add nuw nsw i64 %y, 0
  br label %k.loop
k.loop:
  %k = phi i64 [ 0, %x.loop ], [ %k.next, %k.loop ]
  %acc = phi double [ %acc.in, %x.loop ], [ %f, %k.loop ]
  %ai = add nuw nsw i64 %arow, %k
  %pa = getelementptr inbounds double, ptr addrspace(3) %alm, i64 %ai
  %a = load double, ptr addrspace(3) %pa, !llvm.access.group !0
  %k17 = mul nuw nsw i64 %k, 17
  %bi = add nuw nsw i64 %k17, %bcol
  %pb = getelementptr inbounds double, ptr addrspace(3) %blm, i64 %bi
  %b = load double, ptr addrspace(3) %pb, !llvm.access.group !0
  %f = call double @llvm.fmuladd.f64(double %a, double %b, double %acc)
  %k.next = add nuw nsw i64 %k, 1
  %more.k = icmp ult i64 %k.next, 16
  br i1 %more.k, label %k.loop, label %x.latch
x.latch:
  %slot.out = getelementptr inbounds double, ptr %arena, i64 %wi.linear
  store double %f, ptr %slot.out, !llvm.access.group !0, !weft.context.slot !4
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 8
  br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop !1
y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %more.y = icmp ult i64 %y.next, 16
  br i1 %more.y, label %y.loop, label %t.loop, !llvm.loop !3
t.loop:
  %t = phi i64 [ 0, %y.latch ], [ %t.next, %t.latch ]
  br label %s.y.loop
s.y.loop:
  %sy = phi i64 [ 0, %t.loop ], [ %sy.next, %s.y.latch ]
  br label %s.x.loop
s.x.loop:
  %sx = phi i64 [ 0, %s.y.loop ], [ %sx.next, %s.x.loop ]
  %szy = mul nuw nsw i64 %z, 16
  %szyy = add nuw nsw i64 %szy, %sy
  %srow.zy = mul nuw nsw i64 %szyy, 8
  %wi.linear.s = add nuw nsw i64 %srow.zy, %sx, !weft.context.index !4
  %slot.s = getelementptr inbounds double, ptr %arena, i64 %wi.linear.s
  %v = load double, ptr %slot.s, !llvm.access.group !5, !weft.context.slot !4
  %orow = mul nuw nsw i64 %sy, 8
  %oi = add nuw nsw i64 %orow, %sx
  %po = getelementptr inbounds double, ptr addrspace(1) %out, i64 %oi
  store double %v, ptr addrspace(1) %po, !llvm.access.group !5
  %sx.next = add nuw nsw i64 %sx, 1
  %more.sx = icmp ult i64 %sx.next, 8
  br i1 %more.sx, label %s.x.loop, label %s.y.latch, !llvm.loop !6
s.y.latch:
  %sy.next = add nuw nsw i64 %sy, 1
  %more.sy = icmp ult i64 %sy.next, 16
  br i1 %more.sy, label %s.y.loop, label %t.latch, !llvm.loop !7
t.latch:
  %t.next = add nuw nsw i64 %t, 1
  %more.t = icmp ult i64 %t.next, 4
  br i1 %more.t, label %t.loop, label %exit
exit:
  ret void
}

define void @copy_follows(ptr addrspace(3) %alm, ptr addrspace(3) %blm, ptr %arena, ptr addrspace(1) %out, i64 %z) {
entry:
  br label %y.loop
y.loop:
  %y = phi i64 [ 0, %entry ], [ %y.next, %y.latch ]
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %y.loop ], [ %x.next, %x.latch ]
  %zy = mul nuw nsw i64 %z, 16
  %zyy = add nuw nsw i64 %zy, %y
  %row.zy = mul nuw nsw i64 %zyy, 8
  %wi.linear = add nuw nsw i64 %row.zy, %x, !weft.context.index !4
  %slot.in = getelementptr inbounds double, ptr %arena, i64 %wi.linear
  %acc.in = load double, ptr %slot.in, !llvm.access.group !0, !weft.context.slot !4
  %arow = mul nuw nsw i64 %x, 34
  %bcol = add nuw nsw i64 %y, 0
  br label %k.loop
k.loop:
  %k = phi i64 [ 0, %x.loop ], [ %k.next, %k.loop ]
  %acc = phi double [ %acc.in, %x.loop ], [ %f, %k.loop ]
  %ai = add nuw nsw i64 %arow, %k
  %pa = getelementptr inbounds double, ptr addrspace(3) %alm, i64 %ai
  %a = load double, ptr addrspace(3) %pa, !llvm.access.group !0
  %k17 = mul nuw nsw i64 %k, 17
  %bi = add nuw nsw i64 %k17, %bcol
  %pb = getelementptr inbounds double, ptr addrspace(3) %blm, i64 %bi
  %b = load double, ptr addrspace(3) %pb, !llvm.access.group !0
  %f = call double @llvm.fmuladd.f64(double %a, double %b, double %acc)
  %k.next = add nuw nsw i64 %k, 1
  %more.k = icmp ult i64 %k.next, 16
  br i1 %more.k, label %k.loop, label %x.latch
x.latch:
  %slot.out = getelementptr inbounds double, ptr %arena, i64 %wi.linear
  store double %f, ptr %slot.out, !llvm.access.group !0, !weft.context.slot !4
  %x.next = add nuw nsw i64 %x, 1
  %more.x = icmp ult i64 %x.next, 8
  br i1 %more.x, label %x.loop, label %y.latch, !llvm.loop !1
y.latch:
  %y.next = add nuw nsw i64 %y, 1
  %more.y = icmp ult i64 %y.next, 16
  br i1 %more.y, label %y.loop, label %s.pre, !llvm.loop !3
s.pre:
  br label %s.y.loop
s.y.loop:
  %sy = phi i64 [ 0, %s.pre ], [ %sy.next, %s.y.latch ]
  br label %s.x.loop
s.x.loop:
  %sx = phi i64 [ 0, %s.y.loop ], [ %sx.next, %s.x.loop ]
  %szy = mul nuw nsw i64 %z, 16
  %szyy = add nuw nsw i64 %szy, %sy
  %srow.zy = mul nuw nsw i64 %szyy, 8
  %wi.linear.s = add nuw nsw i64 %srow.zy, %sx, !weft.context.index !4
  %slot.s = getelementptr inbounds double, ptr %arena, i64 %wi.linear.s
  %v = load double, ptr %slot.s, !llvm.access.group !5, !weft.context.slot !4
  %slot.t = getelementptr inbounds double, ptr %slot.s, i64 128
  store double %v, ptr %slot.t, !llvm.access.group !5, !weft.context.slot !4
  %sx.next = add nuw nsw i64 %sx, 1
  %more.sx = icmp ult i64 %sx.next, 8
  br i1 %more.sx, label %s.x.loop, label %s.y.latch, !llvm.loop !6
s.y.latch:
  %sy.next = add nuw nsw i64 %sy, 1
  %more.sy = icmp ult i64 %sy.next, 16
  br i1 %more.sy, label %s.y.loop, label %exit, !llvm.loop !7
exit:
  ret void
}


!0 = distinct !{}
!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.parallel_accesses", !0}
!3 = distinct !{!3, !2}
!4 = !{}
!5 = distinct !{}
!6 = distinct !{!6, !8}
!7 = distinct !{!7, !8}
!8 = !{!"llvm.loop.parallel_accesses", !5}
