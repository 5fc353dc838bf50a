// Builtins that take pointers, called through __generic pointers to global,
// local and private memory (OpenCL C 3.0 with
// __opencl_c_generic_address_space; lib/kernel/generic.cl). Each helper
// takes generic pointers only, so every call inside it is to the generic
// overload; each kernel calls the helper three times, once per memory, and
// writes what the local and private copies hold to global memory for the
// host to compare. Run with work-groups of LOCAL_SIZE work-items.
// (tests/builtins/GenericBuiltinsTest.cpp is the host side.)

#define LOCAL_SIZE 64

//===----------------------------------------------------------------------===//
// Math functions with a pointer result
//===----------------------------------------------------------------------===//

// R[0..6) the results; F[0..3) fract's floor, modf's integral part and
// sincos's cosine; N[0..3) frexp's exponent, remquo's quotient and
// lgamma_r's sign.
static void math_family(float X, float Y, __generic float *F,
                        __generic int *N, __global float *R) {
  R[0] = fract(X, F + 0);
  R[1] = modf(X, F + 1);
  R[2] = sincos(X, F + 2);
  R[3] = frexp(X, N + 0);
  R[4] = remquo(X, Y, N + 1);
  R[5] = lgamma_r(X, N + 2);
}

// For work-item i and memory m (0 global, 1 local, 2 private):
// R[(i * 3 + m) * 6 ..], F[(i * 3 + m) * 3 ..], N[(i * 3 + m) * 3 ..].
kernel void math_generic(global const float *X, global const float *Y,
                         global float *R, global float *F, global int *N) {
  size_t I = get_global_id(0), L = get_local_id(0);
  local float LF[LOCAL_SIZE * 3];
  local int LN[LOCAL_SIZE * 3];
  float PF[3];
  int PN[3];
  size_t Base = I * 3;
  math_family(X[I], Y[I], F + Base * 3, N + Base * 3, R + Base * 6);
  math_family(X[I], Y[I], LF + L * 3, LN + L * 3, R + (Base + 1) * 6);
  math_family(X[I], Y[I], PF, PN, R + (Base + 2) * 6);
  for (int K = 0; K < 3; ++K) {
    F[(Base + 1) * 3 + K] = LF[L * 3 + K];
    N[(Base + 1) * 3 + K] = LN[L * 3 + K];
    F[(Base + 2) * 3 + K] = PF[K];
    N[(Base + 2) * 3 + K] = PN[K];
  }
}

//===----------------------------------------------------------------------===//
// vload16/vload4/vload3 and the vstores
//===----------------------------------------------------------------------===//

// Chunks of 25 floats, at odd offsets so that the vectors are aligned to
// their elements only: elements 0-15 are a float16, 16-19 a float4 and
// 21-23 a float3 (offsets 0, 4 and 7 in vectors); 20 and 24 are not
// touched, and must keep what the destination held.
#define CHUNK 25

static void copy_vectors(__generic const float *Src, __generic float *Dst) {
  float16 A = vload16(0, Src);
  float4 B = vload4(4, Src);
  float3 C = vload3(7, Src);
  vstore16(A * 2.0f, 0, Dst);
  vstore4(B + 1.0f, 4, Dst);
  vstore3(C - 1.0f, 7, Dst);
}

// Out holds three destinations per work-item (global, local, private), all
// filled by the host beforehand; each gets Src's chunk transformed.
kernel void vectors_generic(global const float *In, global float *Out) {
  size_t I = get_global_id(0), L = get_local_id(0);
  local float LSrc[LOCAL_SIZE * CHUNK], LDst[LOCAL_SIZE * CHUNK];
  float PSrc[CHUNK], PDst[CHUNK];
  global const float *Src = In + I * CHUNK;
  global float *Dst = Out + I * 3 * CHUNK;
  for (int K = 0; K < CHUNK; ++K) {
    LSrc[L * CHUNK + K] = PSrc[K] = Src[K];
    LDst[L * CHUNK + K] = Dst[CHUNK + K];
    PDst[K] = Dst[2 * CHUNK + K];
  }
  copy_vectors(Src, Dst);
  copy_vectors(LSrc + L * CHUNK, LDst + L * CHUNK);
  copy_vectors(PSrc, PDst);
  for (int K = 0; K < CHUNK; ++K) {
    Dst[CHUNK + K] = LDst[L * CHUNK + K];
    Dst[2 * CHUNK + K] = PDst[K];
  }
}

//===----------------------------------------------------------------------===//
// vload_half, vstore_half
//===----------------------------------------------------------------------===//

// Chunks of 8 halves (as ushort bits): 0 a half, 4-7 a half4. The floats
// read go to R[0..5); the stores write element 0 rounded to nearest
// (vstore_half) and to zero (vstore_half_rtz) into elements 0 and 1, and the
// half4 towards minus infinity into 4-7.
#define HCHUNK 8

static void copy_halves(__generic const half *Src, __generic half *Dst,
                        __global float *R) {
  float A = vload_half(0, Src);
  float4 B = vload_half4(1, Src);
  R[0] = A;
  R[1] = B.x;
  R[2] = B.y;
  R[3] = B.z;
  R[4] = B.w;
  vstore_half(A * 3.0f, 0, Dst);
  vstore_half_rtz(A * 3.0f, 1, Dst);
  vstore_half4_rtn(B / 3.0f, 1, Dst);
}

// Out holds three destinations of HCHUNK per work-item, R three times 5
// floats.
kernel void halves_generic(global const ushort *In, global ushort *Out,
                           global float *R) {
  size_t I = get_global_id(0), L = get_local_id(0);
  local ushort LSrc[LOCAL_SIZE * HCHUNK], LDst[LOCAL_SIZE * HCHUNK];
  ushort PSrc[HCHUNK], PDst[HCHUNK];
  global const ushort *Src = In + I * HCHUNK;
  global ushort *Dst = Out + I * 3 * HCHUNK;
  for (int K = 0; K < HCHUNK; ++K) {
    LSrc[L * HCHUNK + K] = PSrc[K] = Src[K];
    LDst[L * HCHUNK + K] = Dst[HCHUNK + K];
    PDst[K] = Dst[2 * HCHUNK + K];
  }
  copy_halves((__generic const half *)Src, (__generic half *)Dst, R + I * 15);
  copy_halves((__generic const half *)(LSrc + L * HCHUNK),
              (__generic half *)(LDst + L * HCHUNK), R + I * 15 + 5);
  copy_halves((__generic const half *)PSrc, (__generic half *)PDst,
              R + I * 15 + 10);
  for (int K = 0; K < HCHUNK; ++K) {
    Dst[HCHUNK + K] = LDst[L * HCHUNK + K];
    Dst[2 * HCHUNK + K] = PDst[K];
  }
}

//===----------------------------------------------------------------------===//
// C11 atomics
//===----------------------------------------------------------------------===//

static int draw_ticket(volatile __generic atomic_int *Counter) {
  return atomic_fetch_add(Counter, 1);
}

// An increment built from compare-and-swap, the expected value in private
// memory (through a generic pointer too).
static void cas_increment(volatile __generic atomic_int *P) {
  int Expected = atomic_load(P);
  while (!atomic_compare_exchange_strong(P, &Expected, Expected + 1))
    ;
}

static void add_long(volatile __generic atomic_long *P, long V) {
  atomic_fetch_add_explicit(P, V, memory_order_relaxed, memory_scope_device);
}

// G[0] hands out global tickets, G[1] counts CAS increments; GL[0] sums
// the items' values shifted past 32 bits. Per group, the local ticket
// counter and CAS count go to Groups[group * 2 ..]; Tickets[i * 2 ..] are
// the item's global and local tickets.
kernel void atomics_generic(global atomic_int *G, global atomic_long *GL,
                            global int *Tickets, global int *Groups) {
  size_t I = get_global_id(0), L = get_local_id(0);
  local atomic_int LCounter, LCas;
  if (L == 0) {
    atomic_init(&LCounter, 0);
    atomic_init(&LCas, 0);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  Tickets[I * 2] = draw_ticket(&G[0]);
  Tickets[I * 2 + 1] = draw_ticket(&LCounter);
  cas_increment(&G[1]);
  cas_increment(&LCas);
  add_long(GL, (long)(I + 1) << 32);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (L == 0) {
    Groups[get_group_id(0) * 2] = atomic_load(&LCounter);
    Groups[get_group_id(0) * 2 + 1] = atomic_load(&LCas);
  }
}
