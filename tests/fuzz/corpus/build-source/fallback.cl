// Kernels for tests/api/FallbackTest.cpp: kernels the region method
// declines, so that they run through the fallback work-group method.

// Thirty uniform conditional steps, each with two barriers: the region
// method would copy the rest of the ladder into each of its 61 regions.
#define STEP(I)                                                                \
  if (Mask & (1 << I)) {                                                       \
    Tmp[L] = V;                                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    V = Tmp[(L + 1) % N] + I;                                                  \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
  } else {                                                                     \
    V = V * 3u + I;                                                            \
  }

kernel void barrier_ladder(global uint *Out, global const uint *In,
                           local uint *Tmp, int Mask) {
  size_t L = get_local_id(0), N = get_local_size(0);
  uint V = In[get_global_id(0)];
  STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7) STEP(8)
  STEP(9) STEP(10) STEP(11) STEP(12) STEP(13) STEP(14) STEP(15) STEP(16)
  STEP(17) STEP(18) STEP(19) STEP(20) STEP(21) STEP(22) STEP(23) STEP(24)
  STEP(25) STEP(26) STEP(27) STEP(28) STEP(29)
  Out[get_global_id(0)] = V;
}

// The same ladder with an automatic __local array, a private array live
// across barriers and printf from one work-item.
kernel void barrier_ladder_locals(global uint *Out, global const uint *In,
                                  int Mask) {
  local uint Tmp[256];
  uint Private[4];
  size_t L = get_local_id(0), N = get_local_size(0);
  uint V = In[get_global_id(0)];
  for (int I = 0; I < 4; ++I)
    Private[I] = V + I;
  STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7) STEP(8)
  STEP(9) STEP(10) STEP(11) STEP(12) STEP(13) STEP(14) STEP(15) STEP(16)
  STEP(17) STEP(18) STEP(19) STEP(20) STEP(21) STEP(22) STEP(23) STEP(24)
  STEP(25) STEP(26) STEP(27) STEP(28) STEP(29)
  if (get_global_id(0) == 0)
    printf("ladder %u\n", V);
  Out[get_global_id(0)] = V + Private[L % 4];
}

// restrict buffers written before a barrier and read after it by another
// work-item: a barrier must not let the compiler keep Buf in registers.
kernel void restrict_exchange(global uint *restrict Buf,
                              global uint *restrict Out) {
  size_t G = get_global_id(0), L = get_local_id(0);
  size_t Base = G - L;
  uint A = Buf[Base];
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (L == 0)
    Buf[Base] = A + 100u;
  barrier(CLK_GLOBAL_MEM_FENCE);
  Out[G] = Buf[Base] * 2u + A;
}
