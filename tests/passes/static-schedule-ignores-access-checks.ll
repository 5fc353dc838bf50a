; WEFT_ACCELSIM_CHECK=1 must not change the simulated cycles: the scheduler
; leaves out the checks CheckMemoryAccesses inserts and what only computes
; their operands (the local ids from the context), and sees each access at
; the address its check was given. @checked is @plain with every access
; checked: the same operations and the same cycles. Taken as unrelated
; pointers, the checks' results would keep the loads behind the store, and
; the id arithmetic would take an integer unit.
; RUN: weft-opt -passes='print<weft-static-schedule>' -o /dev/null %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

declare ptr addrspace(1) @__weft_checked_address.p1(ptr addrspace(1), i64, i32, i64, i64, i64, ptr addrspace(1)) nounwind willreturn memory(inaccessiblemem: readwrite)

; CHECK-LABEL: block plain:entry: 10 cycles, int_alu=3 float_add=1 load_store_global=4 branch=1
; CHECK:       1: store float %x, ptr addrspace(1) %r,
; CHECK-NEXT:  0: %a = load float, ptr addrspace(1) %p,
define void @plain(ptr addrspace(1) %p, float %x) {
entry:
  %q = getelementptr inbounds float, ptr addrspace(1) %p, i64 1
  %r = getelementptr inbounds float, ptr addrspace(1) %p, i64 2
  %u = getelementptr inbounds float, ptr addrspace(1) %p, i64 3
  store float %x, ptr addrspace(1) %r, align 4
  %a = load float, ptr addrspace(1) %p, align 4
  %b = load float, ptr addrspace(1) %q, align 4
  %s = fadd float %a, %b
  store float %s, ptr addrspace(1) %u, align 4
  ret void
}

; The printout shows the checked addresses, as the code runs.
; CHECK-LABEL: block checked:entry: 10 cycles, int_alu=3 float_add=1 load_store_global=4 branch=1
; CHECK:       1: store float %x, ptr addrspace(1) %r.checked
; CHECK:       0: %a = load float, ptr addrspace(1) %p.checked
define void @checked(ptr addrspace(1) %p, float %x, ptr %ctx) {
entry:
  %g = load i64, ptr %ctx, align 8, !invariant.load !0
  %lid = add i64 %g, 7
  %q = getelementptr inbounds float, ptr addrspace(1) %p, i64 1
  %r = getelementptr inbounds float, ptr addrspace(1) %p, i64 2
  %u = getelementptr inbounds float, ptr addrspace(1) %p, i64 3
  %r.checked = call ptr addrspace(1) @__weft_checked_address.p1(ptr addrspace(1) %r, i64 4, i32 258, i64 %lid, i64 0, i64 0, ptr addrspace(1) %p)
  store float %x, ptr addrspace(1) %r.checked, align 4
  %p.checked = call ptr addrspace(1) @__weft_checked_address.p1(ptr addrspace(1) %p, i64 4, i32 257, i64 %lid, i64 0, i64 0, ptr addrspace(1) %p)
  %a = load float, ptr addrspace(1) %p.checked, align 4
  %q.checked = call ptr addrspace(1) @__weft_checked_address.p1(ptr addrspace(1) %q, i64 4, i32 257, i64 %lid, i64 0, i64 0, ptr addrspace(1) %p)
  %b = load float, ptr addrspace(1) %q.checked, align 4
  %s = fadd float %a, %b
  %u.checked = call ptr addrspace(1) @__weft_checked_address.p1(ptr addrspace(1) %u, i64 4, i32 258, i64 %lid, i64 0, i64 0, ptr addrspace(1) %p)
  store float %s, ptr addrspace(1) %u.checked, align 4
  ret void
}

!0 = !{}
