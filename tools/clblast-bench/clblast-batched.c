/*===- clblast-batched.c - CLBlast batched GEMM correctness, half and float ===//
 *
 * Runs CLBlast's batched GEMMs (CLBlast{H,S}gemmBatched and
 * CLBlast{H,S}gemmStridedBatched) over layouts, transposes, shapes and
 * alpha/beta pairs and checks every entry of every batch against a host
 * reference computed in float from the same (half-rounded, for h) inputs.
 * Small problems take CLBlast's XgemmDirectBatched kernel, larger ones
 * XgemmBatched (with its pad/transpose helper kernels). Not built by CMake
 * (CLBlast is a benchmark dependency, not a build one):
 *
 *   apt-get install libclblast-dev
 *   gcc -O2 tools/clblast-bench/clblast-batched.c -o build/clblast-batched \
 *       -lclblast -lOpenCL -lm
 *   OCL_ICD_VENDORS=build/vendors/weft.icd build/clblast-batched h
 *   OCL_ICD_VENDORS=build/vendors/weft.icd build/clblast-batched s
 *   OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd build/clblast-batched s
 *
 * h needs cl_khr_fp16 (pocl has none: CLBlast refuses, status -2045) and a C
 * compiler with _Float16 (GCC 12 on x86-64). s runs the same cases in float.
 * -v prints every case, not only the failing ones; -c N runs case N alone
 * (numbered from 0 in the order -v prints them); -s M,N,K,BATCH runs that
 * one shape instead of the built-in list. Exit status 1 if any case
 * fails. An entry passes when |got - ref| <= 2^-7 * (sum of |terms|) + 2^-10:
 * half accumulation over these k (<= 270) stays inside that; a wrong kernel
 * does not. Entries of C outside the matrices must be left untouched.
 *
 * Two failures are CLBlast 1.5.3's own, on any device (on Weft: h 507 of
 * 1056, pointer-array 0 of 528, strided 507 of 528; s 1056 of 1056, as on
 * pocl, since float stays on the direct path at these sizes):
 *
 * - CLBlastHgemmBatched, every case: the host uploads the per-batch alphas
 *   and betas as a buffer of half (XgemmBatched<half> writes batch_count * 2
 *   bytes), but XgemmBatched and XgemmDirectBatched declare it
 *   `__constant real_arg *`, and real_arg is float under PRECISION 16: the
 *   kernel takes two neighbouring halves for a float (alphas 0.5, 1 read as
 *   0x3c003800 = 0.0078). Declaring the two arrays `__constant real *` in the
 *   captured source (tools/clblast-bench/cl-trace.c, CL_TRACE_HALF_SCALARS=1)
 *   makes all of them pass on Weft.
 * - CLBlast{H,S}gemmStridedBatched on the indirect path (XgemmStridedBatched
 *   with its pad/transpose kernels; 256^3 and up in half, larger in float)
 *   with a non-zero offset (the "tight+10" cases): a matrix that needs no
 *   padding or transposing is passed to the kernel as it is, and its offset
 *   is dropped (the no-temporary test does not look at it). pocl gives the
 *   same wrong entries: `-s 1024,1024,1024,1 -c 84` in float, 9179 wrong on
 *   both.
 *===----------------------------------------------------------------------===*/
#define CL_TARGET_OPENCL_VERSION 120
#include <clblast_c.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int Half;
static int Verbose;
static long Only = -1;
static size_t OneShape[4];

static cl_half toHalf(float F) {
  _Float16 H = (_Float16)F;
  cl_half R;
  memcpy(&R, &H, 2);
  return R;
}

static float fromHalf(cl_half V) {
  _Float16 H;
  memcpy(&H, &V, 2);
  return (float)H;
}

/* A value a half holds exactly: a multiple of 1/8 in [-1, 1]. */
static float sample(unsigned *Seed) {
  *Seed = *Seed * 1103515245u + 12345u;
  return (float)((int)((*Seed >> 16) % 17) - 8) / 8.0f;
}

/* Element (Row, Col) of a matrix stored in Layout with leading dimension Ld. */
static size_t at(int ColMajor, size_t Row, size_t Col, size_t Ld) {
  return ColMajor ? Col * Ld + Row : Row * Ld + Col;
}

struct Case {
  int ColMajor, TransA, TransB, Strided;
  /* 0: leading dimensions one larger than needed and batches 3 elements
   * apart; 1: tight leading dimensions and batches, all shifted by 10
   * elements (CLBlast's own tests use offsets of 10). */
  int Tight;
  size_t M, N, K, Batch;
  float Alpha, Beta;
};

static cl_context Ctx;
static cl_command_queue Queue;

/* Runs one case; returns the number of wrong entries (or -1 on a CLBlast
 * error, which is reported). */
static long runCase(const struct Case *C) {
  size_t ES = Half ? 2 : 4;
  /* op(A) is M x K, op(B) is K x N, C is M x N. Stored A is M x K or K x M. */
  size_t ARows = C->TransA ? C->K : C->M, ACols = C->TransA ? C->M : C->K;
  size_t BRows = C->TransB ? C->N : C->K, BCols = C->TransB ? C->K : C->N;
  size_t Pad = C->Tight ? 0 : 1, Gap = C->Tight ? 0 : 3, Base = C->Tight ? 10 : 0;
  size_t ALd = (C->ColMajor ? ARows : ACols) + Pad;
  size_t BLd = (C->ColMajor ? BRows : BCols) + Pad;
  size_t CLd = (C->ColMajor ? C->M : C->N) + Pad;
  size_t ASize = ALd * (C->ColMajor ? ACols : ARows);
  size_t BSize = BLd * (C->ColMajor ? BCols : BRows);
  size_t CSize = CLd * (C->ColMajor ? C->N : C->M);
  size_t AStride = ASize + Gap, BStride = BSize + Gap, CStride = CSize + Gap;
  size_t NA = Base + AStride * C->Batch, NB = Base + BStride * C->Batch,
         NC = Base + CStride * C->Batch;
  float *FA = malloc(NA * 4), *FB = malloc(NB * 4), *FC = malloc(NC * 4);
  void *HA = malloc(NA * ES), *HB = malloc(NB * ES), *HC = malloc(NC * ES);
  unsigned Seed = (unsigned)(C->M * 131 + C->N * 17 + C->K * 7 + C->TransA +
                             2 * C->TransB + 4 * C->ColMajor);
  for (size_t I = 0; I < NA; I++)
    FA[I] = sample(&Seed);
  for (size_t I = 0; I < NB; I++)
    FB[I] = sample(&Seed);
  for (size_t I = 0; I < NC; I++)
    FC[I] = sample(&Seed);
  for (size_t I = 0; I < NA; I++)
    Half ? (void)(((cl_half *)HA)[I] = toHalf(FA[I])) : (void)(((float *)HA)[I] = FA[I]);
  for (size_t I = 0; I < NB; I++)
    Half ? (void)(((cl_half *)HB)[I] = toHalf(FB[I])) : (void)(((float *)HB)[I] = FB[I]);
  for (size_t I = 0; I < NC; I++)
    Half ? (void)(((cl_half *)HC)[I] = toHalf(FC[I])) : (void)(((float *)HC)[I] = FC[I]);

  cl_int Err;
  cl_mem A = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, NA * ES, HA, &Err);
  cl_mem B = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, NB * ES, HB, &Err);
  cl_mem CB = clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, NC * ES, HC, &Err);
  CLBlastLayout Layout = C->ColMajor ? CLBlastLayoutColMajor : CLBlastLayoutRowMajor;
  CLBlastTranspose TA = C->TransA ? CLBlastTransposeYes : CLBlastTransposeNo;
  CLBlastTranspose TB = C->TransB ? CLBlastTransposeYes : CLBlastTransposeNo;
  /* The pointer-array form gets a different alpha/beta per batch. */
  size_t *AOff = malloc(C->Batch * sizeof(size_t)),
         *BOff = malloc(C->Batch * sizeof(size_t)),
         *COff = malloc(C->Batch * sizeof(size_t));
  float *Alphas = malloc(C->Batch * 4), *Betas = malloc(C->Batch * 4);
  cl_half *HAlphas = malloc(C->Batch * 2), *HBetas = malloc(C->Batch * 2);
  for (size_t I = 0; I < C->Batch; I++) {
    AOff[I] = Base + I * AStride;
    BOff[I] = Base + I * BStride;
    COff[I] = Base + I * CStride;
    Alphas[I] = C->Strided ? C->Alpha : C->Alpha * (float)(I + 1) / 2.0f;
    Betas[I] = C->Strided ? C->Beta : C->Beta - 0.25f * (float)I;
    if (Half) {
      HAlphas[I] = toHalf(Alphas[I]);
      HBetas[I] = toHalf(Betas[I]);
      Alphas[I] = fromHalf(HAlphas[I]);
      Betas[I] = fromHalf(HBetas[I]);
    }
  }
  cl_event Ev = NULL;
  CLBlastStatusCode S;
  if (Half && C->Strided)
    S = CLBlastHgemmStridedBatched(Layout, TA, TB, C->M, C->N, C->K,
                                   HAlphas[0], A, Base, ALd, AStride, B, Base,
                                   BLd, BStride, HBetas[0], CB, Base, CLd,
                                   CStride,
                                   C->Batch, &Queue, &Ev);
  else if (Half)
    S = CLBlastHgemmBatched(Layout, TA, TB, C->M, C->N, C->K, HAlphas, A, AOff,
                            ALd, B, BOff, BLd, HBetas, CB, COff, CLd, C->Batch,
                            &Queue, &Ev);
  else if (C->Strided)
    S = CLBlastSgemmStridedBatched(Layout, TA, TB, C->M, C->N, C->K, Alphas[0],
                                   A, Base, ALd, AStride, B, Base, BLd,
                                   BStride, Betas[0], CB, Base, CLd, CStride,
                                   C->Batch,
                                   &Queue, &Ev);
  else
    S = CLBlastSgemmBatched(Layout, TA, TB, C->M, C->N, C->K, Alphas, A, AOff,
                            ALd, B, BOff, BLd, Betas, CB, COff, CLd, C->Batch,
                            &Queue, &Ev);
  long Wrong = 0;
  double MaxErr = 0;
  if (S != CLBlastSuccess) {
    printf("  CLBlast status %d\n", S);
    Wrong = -1;
  } else {
    clWaitForEvents(1, &Ev);
    clReleaseEvent(Ev);
    clEnqueueReadBuffer(Queue, CB, CL_TRUE, 0, NC * ES, HC, 0, NULL, NULL);
    for (size_t Bt = 0; Bt < C->Batch; Bt++)
      for (size_t I = 0; I < C->M; I++)
        for (size_t J = 0; J < C->N; J++) {
          float Sum = 0, Abs = 0;
          for (size_t L = 0; L < C->K; L++) {
            float AV = FA[Base + Bt * AStride + (C->TransA ? at(C->ColMajor, L, I, ALd)
                                                     : at(C->ColMajor, I, L, ALd))];
            float BV = FB[Base + Bt * BStride + (C->TransB ? at(C->ColMajor, J, L, BLd)
                                                     : at(C->ColMajor, L, J, BLd))];
            Sum += AV * BV;
            Abs += fabsf(AV * BV);
          }
          size_t CI = Base + Bt * CStride + at(C->ColMajor, I, J, CLd);
          float Ref = Alphas[Bt] * Sum + Betas[Bt] * FC[CI];
          float Mag = fabsf(Alphas[Bt]) * Abs + fabsf(Betas[Bt] * FC[CI]);
          float Got = Half ? fromHalf(((cl_half *)HC)[CI]) : ((float *)HC)[CI];
          double E = fabs((double)Got - Ref);
          if (!(E <= Mag / 128 + 1.0 / 1024)) {
            if (Verbose && Wrong < 3)
              printf("    batch %zu (%zu,%zu): got %g want %g\n", Bt, I, J,
                     Got, Ref);
            Wrong++;
          }
          if (E > MaxErr)
            MaxErr = E;
        }
    /* Entries outside the matrices (the ld padding and the gaps) must be
     * untouched. */
    for (size_t I = 0; I < NC; I++) {
      size_t Off = (I - Base) % CStride;
      size_t Major = Off / CLd, Minor = Off % CLd;
      int Inside = I >= Base && Off < CSize &&
                   Minor < (C->ColMajor ? C->M : C->N) &&
                   Major < (C->ColMajor ? C->N : C->M);
      float Got = Half ? fromHalf(((cl_half *)HC)[I]) : ((float *)HC)[I];
      if (!Inside && Got != FC[I])
        Wrong++;
    }
  }
  if (Verbose || Wrong)
    printf("%s %s%s %c%c m=%zu n=%zu k=%zu batch=%zu alpha=%g beta=%g: %s "
           "(%ld wrong, max abs err %.3g)\n",
           C->Strided ? "strided" : "batched", C->ColMajor ? "col" : "row",
           C->Tight ? " tight+10" : "",
           C->TransA ? 'T' : 'N', C->TransB ? 'T' : 'N', C->M, C->N, C->K,
           C->Batch, C->Alpha, C->Beta, Wrong ? "FAIL" : "ok", Wrong, MaxErr);
  clReleaseMemObject(A);
  clReleaseMemObject(B);
  clReleaseMemObject(CB);
  free(FA), free(FB), free(FC), free(HA), free(HB), free(HC);
  free(AOff), free(BOff), free(COff), free(Alphas), free(Betas);
  free(HAlphas), free(HBetas);
  return Wrong;
}

int main(int Argc, char **Argv) {
  for (int I = 1; I < Argc; I++) {
    if (!strcmp(Argv[I], "h"))
      Half = 1;
    else if (!strcmp(Argv[I], "-v"))
      Verbose = 1;
    else if (!strcmp(Argv[I], "-c") && I + 1 < Argc)
      Only = atol(Argv[++I]);
    else if (!strcmp(Argv[I], "-s") && I + 1 < Argc)
      sscanf(Argv[++I], "%zu,%zu,%zu,%zu", &OneShape[0], &OneShape[1],
             &OneShape[2], &OneShape[3]);
  }
  cl_platform_id P;
  clGetPlatformIDs(1, &P, NULL);
  cl_device_id D;
  clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &D, NULL);
  char Name[256];
  clGetDeviceInfo(D, CL_DEVICE_NAME, sizeof Name, Name, NULL);
  Ctx = clCreateContext(NULL, 1, &D, NULL, NULL, NULL);
  Queue = clCreateCommandQueue(Ctx, D, 0, NULL);

  /* Small shapes go direct, the larger ones indirect (CLBlast's threshold is
   * per device; -v shows which kernels ran with WEFT_DEBUG=compile). */
  size_t Shapes[][4] = {{7, 5, 3, 3},     {16, 16, 16, 2},
                                     {7, 64, 7, 1},    {64, 7, 64, 1},
                                     {33, 17, 9, 3},   {64, 64, 64, 2},
                                     {65, 31, 40, 2},  {128, 96, 80, 2},
                                     {200, 130, 96, 2}, {256, 256, 256, 1},
                                     {270, 250, 260, 2}};
  size_t NumShapes = sizeof Shapes / sizeof *Shapes;
  if (OneShape[3]) {
    memcpy(Shapes[0], OneShape, sizeof OneShape);
    NumShapes = 1;
  }
  static const float AlphaBeta[][2] = {{1, 0}, {0.5f, 1.5f}, {-1, 0.25f}};
  long Cases = 0, Passed = 0, Errors = 0;
  long VariantCases[2] = {0, 0}, VariantPassed[2] = {0, 0};
  for (int Strided = 0; Strided < 2; Strided++)
   for (int Tight = 0; Tight < 2; Tight++)
    for (int ColMajor = 0; ColMajor < 2; ColMajor++)
      for (int TA = 0; TA < 2; TA++)
        for (int TB = 0; TB < 2; TB++)
          for (size_t S = 0; S < NumShapes; S++)
            for (size_t AB = 0; AB < 3; AB++) {
              struct Case C = {ColMajor, TA, TB, Strided, Tight,
                               Shapes[S][0], Shapes[S][1], Shapes[S][2],
                               Shapes[S][3], AlphaBeta[AB][0], AlphaBeta[AB][1]};
              if (Only >= 0 && Cases++ != Only)
                continue;
              if (Only < 0)
                Cases++;
              long W = runCase(&C);
              VariantCases[Strided]++;
              VariantPassed[Strided] += W == 0;
              Passed += W == 0;
              Errors += W < 0;
            }
  if (Only >= 0)
    Cases = 1;
  printf("%s %cGEMM batched: %ld of %ld cases pass (pointer-array %ld of %ld, "
         "strided %ld of %ld; %ld CLBlast errors)\n",
         Name, Half ? 'H' : 'S', Passed, Cases, VariantPassed[0],
         VariantCases[0], VariantPassed[1], VariantCases[1], Errors);
  return Passed != Cases;
}
