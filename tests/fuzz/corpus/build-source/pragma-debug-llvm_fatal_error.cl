#pragma clang __debug llvm_fatal_error
__kernel void f(__global int *p) { p[0] = 1; }
