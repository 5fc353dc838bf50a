#pragma clang __debug overflow_stack
__kernel void f(__global int *p) { p[0] = 1; }
