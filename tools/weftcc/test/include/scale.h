// Included as <scale.h> by axpb.cl: only weftcc's -I finds it.
#define SCALED(x, s) ((x) * (s))
