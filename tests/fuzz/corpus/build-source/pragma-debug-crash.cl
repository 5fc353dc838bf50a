#pragma clang __debug crash
__kernel void f(__global int *p) { p[0] = 1; }
