; Atomic operations on __local memory (address space 3) become plain
; loads and stores without the work-item loop's access group, since a
; work-group runs on one thread; global ones (address space 1) stay atomic.
; RUN: weft-opt -passes=weft-lower-local-atomics -S %s | FileCheck %s

; CHECK-LABEL: define void @histogram(
; CHECK:      %old = load i32, ptr addrspace(3) %bin, align 4{{$}}
; CHECK-NEXT: [[NEW:%.*]] = add i32 %old, 1
; CHECK-NEXT: store i32 [[NEW]], ptr addrspace(3) %bin, align 4{{$}}
; CHECK:      atomicrmw add ptr addrspace(1) %out, i32 %old seq_cst, align 4, !llvm.access.group
define void @histogram(ptr addrspace(3) %local, ptr addrspace(1) %data, ptr addrspace(1) %out) {
entry:
  br label %x.loop
x.loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.loop ]
  %at = getelementptr i8, ptr addrspace(1) %data, i64 %x
  %byte = load i8, ptr addrspace(1) %at, align 1, !llvm.access.group !1
  %idx = zext i8 %byte to i64
  %bin = getelementptr i32, ptr addrspace(3) %local, i64 %idx
  %old = atomicrmw volatile add ptr addrspace(3) %bin, i32 1 seq_cst, align 4, !llvm.access.group !1
  %g = atomicrmw add ptr addrspace(1) %out, i32 %old seq_cst, align 4, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %more = icmp ult i64 %x.next, 64
  br i1 %more, label %x.loop, label %done, !llvm.loop !0
done:
  ret void
}

; Every kind: min/max keep their signedness, xchg stores the new value,
; cmpxchg stores the new value only when the old one matched, atomic
; loads and stores lose their ordering and volatility.
; CHECK-LABEL: define i32 @kinds(
; CHECK:      %a = load i32, ptr addrspace(3) %p, align 4{{$}}
; CHECK:      icmp sgt i32 %a, %v
; CHECK:      store i32 {{.*}}, ptr addrspace(3) %p
; CHECK:      %b = load i32, ptr addrspace(3) %p, align 4{{$}}
; CHECK:      icmp ule i32 %b, %v
; CHECK:      store i32 {{.*}}, ptr addrspace(3) %p
; CHECK:      %c = load i32, ptr addrspace(3) %p, align 4{{$}}
; CHECK-NEXT: store i32 %v, ptr addrspace(3) %p, align 4{{$}}
; CHECK:      %pair.old = load i32, ptr addrspace(3) %p, align 4{{$}}
; CHECK-NEXT: %pair.success = icmp eq i32 %pair.old, 7
; CHECK-NEXT: [[SEL:%.*]] = select i1 %pair.success, i32 %v, i32 %pair.old
; CHECK-NEXT: store i32 [[SEL]], ptr addrspace(3) %p, align 4{{$}}
; CHECK:      %l = load i32, ptr addrspace(3) %p, align 4{{$}}
; CHECK:      store i32 %l, ptr addrspace(3) %p, align 4{{$}}
; CHECK-NOT:  atomic
; CHECK-NOT:  cmpxchg
; CHECK:      ret i32
define i32 @kinds(ptr addrspace(3) %p, i32 %v) {
  %a = atomicrmw max ptr addrspace(3) %p, i32 %v monotonic, align 4
  %b = atomicrmw umin ptr addrspace(3) %p, i32 %v acq_rel, align 4
  %c = atomicrmw xchg ptr addrspace(3) %p, i32 %v seq_cst, align 4
  %pair = cmpxchg volatile ptr addrspace(3) %p, i32 7, i32 %v seq_cst seq_cst, align 4
  %d = extractvalue { i32, i1 } %pair, 0
  %l = load atomic volatile i32, ptr addrspace(3) %p seq_cst, align 4
  store atomic i32 %l, ptr addrspace(3) %p release, align 4
  %s1 = add i32 %a, %b
  %s2 = add i32 %c, %d
  %s = add i32 %s1, %s2
  ret i32 %s
}

; Global atomic loads and stores stay atomic.
; CHECK-LABEL: define i32 @global(
; CHECK: load atomic i32, ptr addrspace(1) %p seq_cst
; CHECK: store atomic i32 %l, ptr addrspace(1) %p seq_cst
define i32 @global(ptr addrspace(1) %p) {
  %l = load atomic i32, ptr addrspace(1) %p seq_cst, align 4
  store atomic i32 %l, ptr addrspace(1) %p seq_cst, align 4
  ret i32 %l
}

!0 = distinct !{!0, !2}
!1 = distinct !{}
!2 = !{!"llvm.loop.parallel_accesses", !1}
