; Integer divisions whose divisor may be 0 (or -1 under the signed minimum)
; get a divisor of 1 there, so x86's div/idiv cannot raise SIGFPE; constant
; divisors that rule the trap out are left alone.
; RUN: weft-opt -passes=weft-guard-integer-division -S %s | FileCheck %s

; CHECK-LABEL: define i32 @unsigned_div(
; CHECK:      [[D:%.*]] = freeze i32 %d
; CHECK-NEXT: [[Z:%.*]] = icmp eq i32 [[D]], 0
; CHECK-NEXT: [[S:%.*]] = select i1 [[Z]], i32 1, i32 [[D]]
; CHECK-NEXT: %q = udiv i32 %n, [[S]]
define i32 @unsigned_div(i32 %n, i32 %d) {
  %q = udiv i32 %n, %d
  ret i32 %q
}

; CHECK-LABEL: define i64 @signed_rem(
; CHECK:      [[D:%.*]] = freeze i64 %d
; CHECK-NEXT: [[Z:%.*]] = icmp eq i64 [[D]], 0
; CHECK-NEXT: [[N:%.*]] = freeze i64 %n
; CHECK-NEXT: [[MIN:%.*]] = icmp eq i64 [[N]], -9223372036854775808
; CHECK-NEXT: [[M1:%.*]] = icmp eq i64 [[D]], -1
; CHECK-NEXT: [[OV:%.*]] = and i1 [[MIN]], [[M1]]
; CHECK-NEXT: [[T:%.*]] = or i1 [[Z]], [[OV]]
; CHECK-NEXT: [[S:%.*]] = select i1 [[T]], i64 1, i64 [[D]]
; CHECK-NEXT: %r = srem i64 %n, [[S]]
define i64 @signed_rem(i64 %n, i64 %d) {
  %r = srem i64 %n, %d
  ret i64 %r
}

; CHECK-LABEL: define <4 x i8> @vector_sdiv(
; CHECK:      [[Z:%.*]] = icmp eq <4 x i8> [[D:%.*]], zeroinitializer
; CHECK:      [[MIN:%.*]] = icmp eq <4 x i8> {{%.*}}, <i8 -128, i8 -128, i8 -128, i8 -128>
; CHECK:      [[S:%.*]] = select <4 x i1> {{%.*}}, <4 x i8> <i8 1, i8 1, i8 1, i8 1>, <4 x i8> [[D]]
; CHECK-NEXT: %q = sdiv <4 x i8> %n, [[S]]
define <4 x i8> @vector_sdiv(<4 x i8> %n, <4 x i8> %d) {
  %q = sdiv <4 x i8> %n, %d
  ret <4 x i8> %q
}

; A constant divisor other than 0 needs no guard, nor, signed, one other
; than -1; -1 itself does, and 0 lanes in a vector constant too.
; CHECK-LABEL: define i32 @constants(
; CHECK-NEXT: %a = udiv i32 %n, 7
; CHECK-NEXT: %b = sdiv i32 %n, -3
; CHECK-NEXT: %c = urem i32 %n, -1
; CHECK:      select
; CHECK:      %d = sdiv i32 %n,
; CHECK-NOT:  %d = sdiv i32 %n, -1
define i32 @constants(i32 %n) {
  %a = udiv i32 %n, 7
  %b = sdiv i32 %n, -3
  %c = urem i32 %n, -1
  %d = sdiv i32 %n, -1
  %s1 = add i32 %a, %b
  %s2 = add i32 %c, %d
  %s = add i32 %s1, %s2
  ret i32 %s
}

; CHECK-LABEL: define <2 x i32> @vector_constants(
; CHECK-NEXT: %a = udiv <2 x i32> %n, <i32 3, i32 5>
; CHECK:      select <2 x i1>
; CHECK:      %b = udiv <2 x i32> %n,
define <2 x i32> @vector_constants(<2 x i32> %n) {
  %a = udiv <2 x i32> %n, <i32 3, i32 5>
  %b = udiv <2 x i32> %n, <i32 3, i32 0>
  %s = add <2 x i32> %a, %b
  ret <2 x i32> %s
}
