; A printf call in K.workitem becomes one record in the PrintfBuffer the
; context points at (field 9): an atomic claim of the record's size (24
; bytes of header, then 8 + 8 for the int and 8 + 16 for the <4 x float>:
; 64), the stores when the claim fits, a terminating 0 when only 8 bytes
; fit, and 0 or -1 as printf's result. A byval argument is copied. The
; module then exports __weft_uses_printf for the loader.
; RUN: weft-opt -passes=weft-lower-printf -S %s | FileCheck %s

@fmt = private addrspace(2) constant [11 x i8] c"%d %v4hlf\0A\00"
@fmt8 = private addrspace(2) constant [6 x i8] c"%v8f\0A\00"
@fmtp = private addrspace(2) constant [4 x i8] c"%p\0A\00"

; CHECK: @__weft_uses_printf = constant i8 1
; CHECK-LABEL: define void @k.workitem(
; CHECK: %printf.buf.addr = getelementptr inbounds %weft.WorkGroupContext, ptr %ctx, i32 0, i32 9
; CHECK: %printf.buf = load ptr, ptr %printf.buf.addr, align 8, !invariant.load
; CHECK: [[START:%.*]] = atomicrmw add ptr {{.*}}, i64 64 monotonic, align 8
; CHECK: [[END:%.*]] = add i64 [[START]], 64
; CHECK: icmp ule i64 [[END]], %printf.capacity
; CHECK: printf.write:
; CHECK: store i64 64, ptr
; CHECK: store ptr addrspace(2) @fmt, ptr
; CHECK: store i64 2, ptr
; CHECK: store i64 4, ptr
; CHECK: store i32 %i, ptr
; CHECK: store i64 16, ptr
; CHECK: store <4 x float> %v, ptr
; CHECK: printf.end:
; CHECK: store i64 0, ptr %printf.record
; CHECK: printf.done:
; CHECK: %printf.result = phi i32 [ 0, %printf.write ], [ -1, %printf.nofit ], [ -1, %printf.end ]
; CHECK: store i32 %printf.result, ptr %out
; CHECK: atomicrmw add ptr {{.*}}, i64 64 monotonic
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %{{.*}}, ptr align 1 %p, i64 32, i1 false)
; A __global pointer's tag is its size, 8, with address space 1 + 1 in
; bits 32-39: 8589934600.
; CHECK: store i64 8589934600, ptr
; CHECK: store ptr addrspace(1) %g, ptr
; CHECK-NOT: call i32 (ptr addrspace(2), ...) @printf
define void @k.workitem(ptr %out, i32 %i, <4 x float> %v, ptr %p, ptr addrspace(1) %g, ptr %ctx, i64 %lid.x, i64 %lid.y, i64 %lid.z) #0 {
entry:
  %r = call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @fmt, i32 %i, <4 x float> %v)
  store i32 %r, ptr %out
  %r2 = call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @fmt8, ptr byval(<8 x float>) align 32 %p)
  %r3 = call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @fmtp, ptr addrspace(1) %g)
  ret void
}

declare i32 @printf(ptr addrspace(2), ...)

attributes #0 = { "weft-workitem-of"="k" }
