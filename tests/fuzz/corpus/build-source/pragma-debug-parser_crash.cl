#pragma clang __debug parser_crash
__kernel void f(__global int *p) { p[0] = 1; }
