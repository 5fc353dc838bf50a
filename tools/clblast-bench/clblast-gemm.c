/*===- clblast-gemm.c - CLBlast S/D/HGEMM throughput on any platform ------===//
 *
 * Issue 6 measures Weft against pocl with Debian's CLBlast. Not built by
 * CMake (CLBlast is a benchmark dependency, not a build one):
 *
 *   apt-get install libclblast-dev
 *   gcc -O2 tools/clblast-bench/clblast-gemm.c -o build/clblast-gemm \
 *       -lclblast -lOpenCL -lm
 *   OCL_ICD_VENDORS=build/vendors/weft.icd build/clblast-gemm s 1024
 *   OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd build/clblast-gemm d 1024
 *   OCL_ICD_VENDORS=build/vendors/weft.icd build/clblast-gemm h 1024
 *
 * h (HGEMM) needs cl_khr_fp16 and a C compiler with _Float16 (GCC 12 on
 * x86-64); its inputs are small multiples of 0.1 rounded to half, and its
 * error is that of half accumulation (2e-3 relative at n = 256, 2e-2 at
 * 1024 on Weft).
 *
 * Prints the best of three timed runs (after one warm-up that includes
 * CLBlast's kernel compilation) and checks 16 entries against a host dot
 * product.
 *===----------------------------------------------------------------------===*/
#define CL_TARGET_OPENCL_VERSION 120
#include <clblast_c.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now() {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
int main(int argc, char **argv) {
  int dbl = argc > 1 && !strcmp(argv[1], "d");
  int hlf = argc > 1 && !strcmp(argv[1], "h");
  size_t n = argc > 2 ? atoi(argv[2]) : 1024;
  size_t es = dbl ? 8 : hlf ? 2 : 4;
  cl_platform_id p;
  clGetPlatformIDs(1, &p, NULL);
  cl_device_id d;
  clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
  char name[256];
  clGetDeviceInfo(d, CL_DEVICE_NAME, 256, name, NULL);
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, NULL);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, NULL);
  void *ha = malloc(n * n * es), *hb = malloc(n * n * es),
       *hc = malloc(n * n * es);
  for (size_t i = 0; i < n * n; i++) {
    if (dbl) {
      ((double *)ha)[i] = (i % 7) * 0.1;
      ((double *)hb)[i] = (i % 5) * 0.2;
    } else if (hlf) {
      ((_Float16 *)ha)[i] = (_Float16)((i % 7) * 0.1f);
      ((_Float16 *)hb)[i] = (_Float16)((i % 5) * 0.2f);
    } else {
      ((float *)ha)[i] = (i % 7) * 0.1f;
      ((float *)hb)[i] = (i % 5) * 0.2f;
    }
  }
  cl_mem A = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, n * n * es, ha, NULL),
         B = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, n * n * es, hb, NULL),
         C = clCreateBuffer(c, 0, n * n * es, NULL, NULL);
  double best = 1e9;
  for (int it = 0; it < 4; it++) {
    cl_event e;
    double t = now();
    CLBlastStatusCode s;
    if (dbl) {
      s = CLBlastDgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo,
                       CLBlastTransposeNo, n, n, n, 1.0, A, 0, n, B, 0, n, 0.0,
                       C, 0, n, &q, &e);
    } else if (hlf) {
      _Float16 one = 1, zero = 0;
      cl_half alpha, beta;
      memcpy(&alpha, &one, 2);
      memcpy(&beta, &zero, 2);
      s = CLBlastHgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo,
                       CLBlastTransposeNo, n, n, n, alpha, A, 0, n, B, 0, n,
                       beta, C, 0, n, &q, &e);
    } else
      s = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo,
                       CLBlastTransposeNo, n, n, n, 1.0f, A, 0, n, B, 0, n,
                       0.0f, C, 0, n, &q, &e);
    if (s != CLBlastSuccess) {
      printf("status %d\n", s);
      return 1;
    }
    clWaitForEvents(1, &e);
    t = now() - t;
    if (it && t < best)
      best = t;
  }
  clEnqueueReadBuffer(q, C, CL_TRUE, 0, n * n * es, hc, 0, NULL, NULL);
  /* check a few entries */
  double maxerr = 0;
  for (int k = 0; k < 16; k++) {
    size_t i = (k * 7919) % n, j = (k * 104729) % n;
    double ref = 0;
    for (size_t l = 0; l < n; l++)
      ref += dbl ? ((double *)ha)[i * n + l] * ((double *)hb)[l * n + j]
             : hlf ? (double)((_Float16 *)ha)[i * n + l] *
                         (double)((_Float16 *)hb)[l * n + j]
                   : (double)((float *)ha)[i * n + l] * ((float *)hb)[l * n + j];
    double got = dbl   ? ((double *)hc)[i * n + j]
                 : hlf ? (double)((_Float16 *)hc)[i * n + j]
                       : ((float *)hc)[i * n + j];
    double e = fabs(got - ref) / (fabs(ref) + 1e-9);
    if (e > maxerr)
      maxerr = e;
  }
  printf("%s %cGEMM %zu: best %.1f ms, %.1f GFLOP/s, max rel err %.2e\n", name,
         dbl ? 'D' : hlf ? 'H' : 'S', n, best * 1e3, 2.0 * n * n * n / best * 1e-9, maxerr);
  return 0;
}
