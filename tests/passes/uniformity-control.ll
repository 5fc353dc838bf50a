; Uniformity through control: a PHI joining the arms of a branch on a
; varying condition is varying, one after a uniform branch is not; a loop
; whose exit depends on the local id runs a different number of trips per
; work-item, so its induction variable and anything it carries out of the
; loop are varying, while a loop with a uniform trip count keeps them
; uniform.
; RUN: weft-opt -passes='function(print<weft-uniformity>)' -o /dev/null %s | FileCheck %s

; CHECK-LABEL: uniformity of k.workitem:
; CHECK-DAG: varying: i32 %div.phi
; CHECK-DAG: uniform: i32 %uni.phi
; CHECK-DAG: uniform: i32 %i
; CHECK-DAG: uniform: i32 %i.next
; CHECK-DAG: uniform: i32 %uni.out
; CHECK-DAG: varying: i32 %j
; CHECK-DAG: varying: i32 %j.next
; CHECK-DAG: varying: i32 %div.out
; CHECK-DAG: uniform: i1 %c.uni
; CHECK-DAG: varying: i1 %c.div

define internal void @k.workitem(ptr addrspace(1) %p, i32 %n, ptr %ctx, i64 %x, i64 %y, i64 %z) "weft-workitem-of"="k" {
entry:
  %x32 = trunc i64 %x to i32
  %c.div = icmp ult i32 %x32, 4
  br i1 %c.div, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  %div.phi = phi i32 [ 1, %a ], [ 2, %b ]
  %c.uni = icmp ult i32 %n, 4
  br i1 %c.uni, label %c, label %d
c:
  br label %join2
d:
  br label %join2
join2:
  %uni.phi = phi i32 [ 1, %c ], [ 2, %d ]
  br label %uloop
uloop:
  %i = phi i32 [ 0, %join2 ], [ %i.next, %uloop ]
  %i.next = add i32 %i, 1
  %uc = icmp ult i32 %i.next, %n
  br i1 %uc, label %uloop, label %uexit
uexit:
  %uni.out = add i32 %i.next, %uni.phi
  br label %dloop
dloop:
  %j = phi i32 [ 0, %uexit ], [ %j.next, %dloop ]
  %j.next = add i32 %j, 1
  %dc = icmp ult i32 %j.next, %x32
  br i1 %dc, label %dloop, label %dexit
dexit:
  %div.out = add i32 %j.next, %uni.out
  %s = add i32 %div.out, %div.phi
  store i32 %s, ptr addrspace(1) %p
  ret void
}
