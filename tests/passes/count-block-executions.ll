; Every block of every defined function adds one to its counter when it
; starts: counter I for block I in module order (functions in order, blocks
; in layout order), the order of the static schedule. The launcher reads the
; counters from WorkGroupContext::BlockCounters (field 16, byte 216) and
; leaves them in @__weft_block_counters for the functions it calls.
; RUN: weft-opt -passes=weft-count-block-executions -S %s | FileCheck %s

; CHECK: @__weft_block_counters = internal global ptr null

; CHECK-LABEL: define void @__weft_launch_k(ptr %args, ptr %ctx)
; CHECK-NEXT: entry:
; CHECK-NEXT: [[F:%.*]] = getelementptr inbounds %weft.WorkGroupContext, ptr %ctx, i32 0, i32 16
; CHECK-NEXT: [[C:%block.counters.*]] = load ptr, ptr [[F]], align 8
; CHECK-NEXT: store ptr [[C]], ptr @__weft_block_counters, align 8
; CHECK-NEXT: [[S0:%.*]] = getelementptr inbounds i64, ptr [[C]], i64 0
; CHECK-NEXT: [[N0:%.*]] = load i64, ptr [[S0]], align 8
; CHECK-NEXT: [[A0:%.*]] = add i64 [[N0]], 1
; CHECK-NEXT: store i64 [[A0]], ptr [[S0]], align 8
; CHECK-NEXT: br label %loop
; The increment comes after the phis.
; CHECK: loop:
; CHECK-NEXT: %i = phi i64
; CHECK-NEXT: [[S1:%.*]] = getelementptr inbounds i64, ptr [[C]], i64 1
; CHECK-NEXT: [[N1:%.*]] = load i64, ptr [[S1]], align 8
; CHECK-NEXT: [[A1:%.*]] = add i64 [[N1]], 1
; CHECK-NEXT: store i64 [[A1]], ptr [[S1]], align 8
; CHECK-NEXT: call void @helper(i64 %i)
; CHECK: exit:
; CHECK-NEXT: getelementptr inbounds i64, ptr [[C]], i64 2
define void @__weft_launch_k(ptr %args, ptr %ctx) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  call void @helper(i64 %i)
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 8
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; A function the launcher calls: its counters come from the variable; its
; blocks are 3, 4 and 5.
; CHECK-LABEL: define internal void @helper(i64 %i)
; CHECK-NEXT: [[H:%block.counters.*]] = load ptr, ptr @__weft_block_counters, align 8
; CHECK-NEXT: [[S3:%.*]] = getelementptr inbounds i64, ptr [[H]], i64 3
; CHECK: then:
; CHECK-NEXT: getelementptr inbounds i64, ptr [[H]], i64 4
; CHECK: done:
; CHECK-NEXT: getelementptr inbounds i64, ptr [[H]], i64 5
define internal void @helper(i64 %i) {
  %odd = trunc i64 %i to i1
  br i1 %odd, label %then, label %done
then:
  ret void
done:
  ret void
}

; Declarations have no blocks and no counters.
; CHECK-LABEL: declare float @sinf(float)
declare float @sinf(float)
