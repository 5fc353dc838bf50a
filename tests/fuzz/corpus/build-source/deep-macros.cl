#define B !!!!!!!!!!
#define C B B B B B B B B B B
#define D C C C C C C C C C C
#define E D D D D D D D D D D
#define F E E E E E E E E E E
__kernel void f(__global int *p){ p[0] = F p[1]; }
