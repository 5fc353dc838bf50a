/*===- tools/native-peak/weft-native-peak.c - The machine's own limits ---===//
 *
 * What hand-written native code reaches on this machine, as the yardstick
 * for clpeak's figures (issue 6's targets are fractions of it): peak FMA
 * throughput in single and double precision, and the bandwidth of a
 * read-only sum and of a STREAM triad, on every core at once.
 *
 *   build/tools/native-peak/weft-native-peak [--threads N] [--mib M]
 *
 * Each thread keeps 12 independent FMA chains in flight (two pipes times
 * four cycles of latency, with room to spare) in the widest registers the
 * compiler targets (the file is built with -march=native). Best of 5 runs.
 *
 *===---------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if defined(__AVX512F__)
#define LANES 16
#elif defined(__AVX__)
#define LANES 8
#else
#define LANES 4
#endif

typedef float VecF __attribute__((vector_size(LANES * 4)));
typedef double VecD __attribute__((vector_size(LANES * 4)));

enum { Chains = 12, FmaIterations = 1 << 22 };

/* Twelve named chains: an array of them would live in memory (GCC -O2). */
#define EACH_CHAIN(X, Y, Z)                                                    \
  X##0 = X##0 * Y + Z;                                                         \
  X##1 = X##1 * Y + Z;                                                         \
  X##2 = X##2 * Y + Z;                                                         \
  X##3 = X##3 * Y + Z;                                                         \
  X##4 = X##4 * Y + Z;                                                         \
  X##5 = X##5 * Y + Z;                                                         \
  X##6 = X##6 * Y + Z;                                                         \
  X##7 = X##7 * Y + Z;                                                         \
  X##8 = X##8 * Y + Z;                                                         \
  X##9 = X##9 * Y + Z;                                                         \
  X##10 = X##10 * Y + Z;                                                       \
  X##11 = X##11 * Y + Z

static int Threads;
static size_t Elements;
static float *A, *B, *C;
static volatile double Sink;

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

static void *fmaFloat(void *Arg) {
  VecF Y = (VecF){0} + 0.999f, Z = (VecF){0} + 0.001f;
  VecF X0 = Y, X1 = X0 + Z, X2 = X1 + Z, X3 = X2 + Z, X4 = X3 + Z, X5 = X4 + Z;
  VecF X6 = X5 + Z, X7 = X6 + Z, X8 = X7 + Z, X9 = X8 + Z, X10 = X9 + Z;
  VecF X11 = X10 + Z;
  for (long N = 0; N < FmaIterations; ++N) {
    EACH_CHAIN(X, Y, Z);
  }
  Sink = (X0 + X1 + X2 + X3 + X4 + X5 + X6 + X7 + X8 + X9 + X10 + X11)[0];
  (void)Arg;
  return NULL;
}

static void *fmaDouble(void *Arg) {
  VecD Y = (VecD){0} + 0.999, Z = (VecD){0} + 0.001;
  VecD X0 = Y, X1 = X0 + Z, X2 = X1 + Z, X3 = X2 + Z, X4 = X3 + Z, X5 = X4 + Z;
  VecD X6 = X5 + Z, X7 = X6 + Z, X8 = X7 + Z, X9 = X8 + Z, X10 = X9 + Z;
  VecD X11 = X10 + Z;
  for (long N = 0; N < FmaIterations; ++N) {
    EACH_CHAIN(X, Y, Z);
  }
  Sink = (X0 + X1 + X2 + X3 + X4 + X5 + X6 + X7 + X8 + X9 + X10 + X11)[0];
  (void)Arg;
  return NULL;
}

static void range(void *Arg, size_t *Begin, size_t *End) {
  long T = (long)Arg;
  size_t Share = Elements / Threads / LANES * LANES;
  *Begin = Share * T;
  *End = T == Threads - 1 ? Elements : *Begin + Share;
}

static void *readOnly(void *Arg) {
  size_t Begin, End;
  range(Arg, &Begin, &End);
  VecF S0 = {0}, S1 = {0}, S2 = {0}, S3 = {0};
  const VecF *P = (const VecF *)(A + Begin);
  size_t N = (End - Begin) / LANES;
  for (size_t I = 0; I + 4 <= N; I += 4) {
    S0 += P[I];
    S1 += P[I + 1];
    S2 += P[I + 2];
    S3 += P[I + 3];
  }
  VecF S = S0 + S1 + S2 + S3;
  Sink = S[0];
  return NULL;
}

static void *triad(void *Arg) {
  size_t Begin, End;
  range(Arg, &Begin, &End);
  for (size_t I = Begin; I < End; ++I)
    C[I] = A[I] + 3.0f * B[I];
  return NULL;
}

static double best(void *(*Body)(void *)) {
  double Best = 1e30;
  for (int R = 0; R < 5; ++R) {
    pthread_t T[256];
    double Start = now();
    for (long I = 0; I < Threads; ++I)
      pthread_create(&T[I], NULL, Body, (void *)I);
    for (int I = 0; I < Threads; ++I)
      pthread_join(T[I], NULL);
    double Seconds = now() - Start;
    if (Seconds < Best)
      Best = Seconds;
  }
  return Best;
}

static float *hugeArray(size_t Bytes) {
  size_t Huge = (size_t)2 << 20;
  size_t Rounded = (Bytes + Huge - 1) / Huge * Huge;
  float *P = aligned_alloc(Huge, Rounded);
  if (!P) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  madvise(P, Rounded, MADV_HUGEPAGE);
  memset(P, 0, Rounded);
  return P;
}

int main(int Argc, char **Argv) {
  Threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
  size_t MiB = 512;
  for (int I = 1; I + 1 < Argc; I += 2) {
    if (!strcmp(Argv[I], "--threads"))
      Threads = atoi(Argv[I + 1]);
    else if (!strcmp(Argv[I], "--mib"))
      MiB = strtoul(Argv[I + 1], NULL, 10);
  }
  if (Threads < 1 || Threads > 256) {
    fprintf(stderr, "usage: %s [--threads 1..256] [--mib M]\n", Argv[0]);
    return 1;
  }
  Elements = MiB * (1 << 20) / sizeof(float);
  A = hugeArray(Elements * sizeof(float));
  B = hugeArray(Elements * sizeof(float));
  C = hugeArray(Elements * sizeof(float));

  double Flop = 2.0 * Chains * (double)FmaIterations * Threads;
  printf("native peak, %d threads, %d-lane float vectors, best of 5\n",
         Threads, LANES);
  printf("fma float:  %.1f GFLOP/s\n", Flop * LANES / best(fmaFloat) / 1e9);
  printf("fma double: %.1f GFLOP/s\n",
         Flop * LANES / 2 / best(fmaDouble) / 1e9);
  printf("read-only:  %.1f GB/s\n",
         Elements * sizeof(float) / best(readOnly) / 1e9);
  printf("triad:      %.1f GB/s\n",
         3.0 * Elements * sizeof(float) / best(triad) / 1e9);
  return 0;
}
