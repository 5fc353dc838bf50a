; Under WEFT_ACCELSIM_CHECK=1 every access to global, constant, local and
; generic memory takes its address from __weft_checked_address.p<space>,
; with the access's size, read/write flags and address space (bits 8 and up), and the
; work-item's local ids asked for right before it, and the kernel argument
; or program variable it derives from (null if none, and for local memory,
; which is checked as a whole). Private memory and the
; program's own __constant tables are left alone; a memcpy's length drops to
; 0 when either address was refused, a memset.inline keeps its constant one.
; RUN: weft-opt -passes=weft-check-memory-accesses -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@table = addrspace(2) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@tile = internal addrspace(3) global [16 x float] poison

declare i64 @_Z13get_global_idj(i32)
declare void @llvm.memcpy.p1.p3.i64(ptr addrspace(1), ptr addrspace(3), i64, i1)
declare void @llvm.memset.inline.p1.i64(ptr addrspace(1), i8, i64, i1)

; CHECK-LABEL: define spir_kernel void @accesses(
define spir_kernel void @accesses(ptr addrspace(1) %in, ptr addrspace(1) %out,
                                  ptr addrspace(2) %coef,
                                  ptr addrspace(3) %scratch, i64 %n) {
entry:
  %i = call i64 @_Z13get_global_idj(i32 0)
  %src = getelementptr <4 x float>, ptr addrspace(1) %in, i64 %i
; A 16-byte global read: flags 1 | 1 << 8.
; CHECK:      %src = getelementptr
; CHECK-NEXT: [[G0:%.*]] = call i64 @_Z12get_local_idj(i32 0)
; CHECK-NEXT: [[G1:%.*]] = call i64 @_Z12get_local_idj(i32 1)
; CHECK-NEXT: [[G2:%.*]] = call i64 @_Z12get_local_idj(i32 2)
; CHECK-NEXT: [[SRC:%.*]] = call ptr addrspace(1) @__weft_checked_address.p1(ptr addrspace(1) %src, i64 16, i32 257, i64 [[G0]], i64 [[G1]], i64 [[G2]], ptr addrspace(1) %in)
; CHECK-NEXT: %v = load <4 x float>, ptr addrspace(1) [[SRC]]
  %v = load <4 x float>, ptr addrspace(1) %src, align 16
  %f = extractelement <4 x float> %v, i32 0
; A local write, to a __local variable of the kernel: 2 | 3 << 8.
; CHECK:      [[L:%.*]] = call ptr addrspace(3) @__weft_checked_address.p3(ptr addrspace(3) %l, i64 4, i32 770, {{.*}}, ptr addrspace(3) null)
; CHECK-NEXT: store float %f, ptr addrspace(3) [[L]]
  %l = getelementptr float, ptr addrspace(3) @tile, i64 %i
  store float %f, ptr addrspace(3) %l, align 4
; A __constant argument is a buffer: checked (1 | 2 << 8). The program's
; own table is not.
; CHECK:      [[C:%.*]] = call ptr addrspace(2) @__weft_checked_address.p2(ptr addrspace(2) %c, i64 4, i32 513, {{.*}}, ptr addrspace(2) %coef)
; CHECK-NEXT: %cv = load i32, ptr addrspace(2) [[C]]
; CHECK-NEXT: %t = getelementptr
; CHECK-NEXT: %k = load i32, ptr addrspace(2) %t
  %c = getelementptr i32, ptr addrspace(2) %coef, i64 %i
  %cv = load i32, ptr addrspace(2) %c, align 4
  %t = getelementptr i32, ptr addrspace(2) @table, i64 %i
  %k = load i32, ptr addrspace(2) %t, align 4
; Private memory is not checked.
; CHECK-NEXT: %p = alloca i32
; CHECK-NEXT: store i32 %k, ptr %p
  %p = alloca i32, align 4
  store i32 %k, ptr %p, align 4
; Atomics read and write: 3 | 1 << 8 and 3 | 3 << 8.
; CHECK:      [[A:%.*]] = call ptr addrspace(1) @__weft_checked_address.p1(ptr addrspace(1) %out, i64 4, i32 259, {{.*}}, ptr addrspace(1) %out)
; CHECK-NEXT: %old = atomicrmw add ptr addrspace(1) [[A]]
  %old = atomicrmw add ptr addrspace(1) %out, i32 %cv monotonic, align 4
; CHECK:      [[X:%.*]] = call ptr addrspace(3) @__weft_checked_address.p3(ptr addrspace(3) %scratch, i64 8, i32 771,
; CHECK-NEXT: %x = cmpxchg ptr addrspace(3) [[X]]
  %x = cmpxchg ptr addrspace(3) %scratch, i64 0, i64 1 monotonic monotonic, align 8
; A memcpy: the destination written, the source read, both %n bytes; the
; length survives only if both addresses do.
; CHECK:      [[D:%.*]] = call ptr addrspace(1) @__weft_checked_address.p1(ptr addrspace(1) %out, i64 %n, i32 258, {{.*}}, ptr addrspace(1) %out)
; CHECK-NEXT: [[DSAME:%.*]] = icmp eq ptr addrspace(1) [[D]], %out
; CHECK:      [[S:%.*]] = call ptr addrspace(3) @__weft_checked_address.p3(ptr addrspace(3) %scratch, i64 %n, i32 769,
; CHECK-NEXT: [[SSAME:%.*]] = icmp eq ptr addrspace(3) [[S]], %scratch
; CHECK-NEXT: [[BOTH:%.*]] = and i1 [[DSAME]], [[SSAME]]
; CHECK-NEXT: [[LEN:%.*]] = select i1 [[BOTH]], i64 %n, i64 0
; CHECK-NEXT: call void @llvm.memcpy.p1.p3.i64(ptr addrspace(1) [[D]], ptr addrspace(3) [[S]], i64 [[LEN]], i1 false)
  call void @llvm.memcpy.p1.p3.i64(ptr addrspace(1) %out, ptr addrspace(3) %scratch, i64 %n, i1 false)
; CHECK:      [[M:%.*]] = call ptr addrspace(1) @__weft_checked_address.p1(ptr addrspace(1) %out, i64 8, i32 258,
; CHECK-NEXT: call void @llvm.memset.inline.p1.i64(ptr addrspace(1) [[M]], i8 0, i64 8, i1 false)
  call void @llvm.memset.inline.p1.i64(ptr addrspace(1) %out, i8 0, i64 8, i1 false)
; A pointer that derives from either of two buffers: no base.
; CHECK:      [[Y:%.*]] = call ptr addrspace(1) @__weft_checked_address.p1(ptr addrspace(1) %either, i64 4, i32 257, {{.*}}, ptr addrspace(1) null)
; CHECK-NEXT: %y = load i32, ptr addrspace(1) [[Y]]
  %first = icmp eq i64 %i, 0
  %either = select i1 %first, ptr addrspace(1) %in, ptr addrspace(1) %out
  %y = load i32, ptr addrspace(1) %either, align 4
; A generic write (2 | 4 << 8): its base the buffer made generic.
; CHECK:      %gen = addrspacecast
; CHECK:      [[GB:%.*]] = addrspacecast ptr addrspace(1) %out to ptr addrspace(4)
; CHECK-NEXT: [[GN:%.*]] = call ptr addrspace(4) @__weft_checked_address.p4(ptr addrspace(4) %gen, i64 4, i32 1026, {{.*}}, ptr addrspace(4) [[GB]])
; CHECK-NEXT: store i32 %y, ptr addrspace(4) [[GN]]
  %gen = addrspacecast ptr addrspace(1) %out to ptr addrspace(4)
  store i32 %y, ptr addrspace(4) %gen, align 4
; CHECK-NEXT: ret void
  ret void
}

; Unoptimized code keeps the parameter in a stack slot and reloads it: the
; base is still the parameter. A slot stored twice tells nothing.
; CHECK-LABEL: define spir_kernel void @reloaded(
; CHECK: call ptr addrspace(1) @__weft_checked_address.p1(ptr addrspace(1) %a, i64 4, i32 257, {{.*}}, ptr addrspace(1) %in)
; CHECK: call ptr addrspace(1) @__weft_checked_address.p1(ptr addrspace(1) %b, i64 4, i32 258, {{.*}}, ptr addrspace(1) null)
define spir_kernel void @reloaded(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %in.addr = alloca ptr addrspace(1), align 8
  %out.addr = alloca ptr addrspace(1), align 8
  store ptr addrspace(1) %in, ptr %in.addr, align 8
  store ptr addrspace(1) %out, ptr %out.addr, align 8
  store ptr addrspace(1) %in, ptr %out.addr, align 8
  %i = call i64 @_Z13get_global_idj(i32 0)
  %p = load ptr addrspace(1), ptr %in.addr, align 8
  %a = getelementptr inbounds i32, ptr addrspace(1) %p, i64 %i
  %v = load i32, ptr addrspace(1) %a, align 4
  %q = load ptr addrspace(1), ptr %out.addr, align 8
  %b = getelementptr inbounds i32, ptr addrspace(1) %q, i64 %i
  store i32 %v, ptr addrspace(1) %b, align 4
  ret void
}

; Only the kernel's memory is left to the checker: the check itself reads
; and writes nothing the kernel sees.
; CHECK: declare ptr addrspace(1) @__weft_checked_address.p1(ptr addrspace(1), i64, i32, i64, i64, i64, ptr addrspace(1)) [[ATTRS:#[0-9]+]]
; CHECK: attributes [[ATTRS]] = { nounwind willreturn memory(inaccessiblemem: readwrite) }
