/*===- hashcat-kernel-bench.c - one hashcat kernel alone, on any platform -===//
 *
 * `hashcat -b` on a shared machine mixes the kernel's speed with hashcat's
 * own work and with whatever else the cores run. This builds one of
 * hashcat's optimized attack-mode-3 kernels from the installed sources
 * (/usr/share/hashcat/OpenCL) with the options hashcat gives a CPU device
 * (captured from hashcat 6.2.6), launches it as `-b` does (2048 work-items
 * in groups of one: Accel 1024 x 2 compute units, Thr 1; 1024 candidates
 * per work-item), with zeroed passwords and a digest nothing matches, and
 * prints the kernel's profiled time (median and minimum of the launches)
 * and the rate per CPU-second, which other processes on the cores disturb
 * least. The first OpenCL platform's first device is used: choose with
 * OCL_ICD_VENDORS, WEFT_DEVICES=basic / POCL_DEVICES=basic for one core.
 *
 *   gcc -O1 tools/hashcat-bench/hashcat-kernel-bench.c \
 *       -o build/hashcat-kernel-bench -lOpenCL
 *   OCL_ICD_VENDORS=build/vendors/weft.icd build/hashcat-kernel-bench \
 *       md5 [--vector 16] [--launches 50] [--candidates 1024]
 *
 * md5 runs m00000_s04 (hashcat -m 0), sha256 m01400_s04 (-m 1400).
 * --vector is hashcat's Vec (VECT_SIZE: 16 for AVX-512, 8 for AVX2).
 *===----------------------------------------------------------------------===*/
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define HASHCAT_DIR "/usr/share/hashcat/OpenCL"

static void check(cl_int Err, const char *What) {
  if (Err != CL_SUCCESS) {
    fprintf(stderr, "hashcat-kernel-bench: %s failed: %d\n", What, Err);
    exit(1);
  }
}

static double wallSeconds(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

static double cpuSeconds(void) {
  struct rusage U;
  getrusage(RUSAGE_SELF, &U);
  return U.ru_utime.tv_sec + U.ru_utime.tv_usec * 1e-6 + U.ru_stime.tv_sec +
         U.ru_stime.tv_usec * 1e-6;
}

static int byValue(const void *A, const void *B) {
  double X = *(const double *)A, Y = *(const double *)B;
  return X < Y ? -1 : X > Y;
}

static char *readFile(const char *Path) {
  FILE *F = fopen(Path, "rb");
  if (!F) {
    perror(Path);
    exit(1);
  }
  fseek(F, 0, SEEK_END);
  long Size = ftell(F);
  fseek(F, 0, SEEK_SET);
  char *Text = malloc(Size + 1);
  if (fread(Text, 1, Size, F) != (size_t)Size) {
    perror(Path);
    exit(1);
  }
  Text[Size] = 0;
  fclose(F);
  return Text;
}

/* What differs between the two hash modes in hashcat's build options. */
struct Mode {
  const char *Name, *File, *Kernel;
  int KernType, DigestElems, Order[4];
};

static const struct Mode Modes[] = {
    {"md5", "m00000_a3-optimized.cl", "m00000_s04", 0, 4, {0, 3, 2, 1}},
    {"sha256", "m01400_a3-optimized.cl", "m01400_s04", 1400, 8, {3, 7, 2, 6}},
};

/* hashcat's kernel_param_t (inc_types.h). */
struct KernelParam {
  uint32_t BitmapMask, BitmapShift1, BitmapShift2, SaltPosHost, LoopPos,
      LoopCnt, IlCnt, DigestsCnt, DigestsOffsetHost, CombsMode, SaltRepeat;
  uint64_t PwsPos, GidMax;
};

int main(int Argc, char **Argv) {
  const struct Mode *M = NULL;
  int Vector = 16, Launches = 50;
  unsigned Candidates = 1024;
  for (int I = 1; I < Argc; ++I) {
    if (!strcmp(Argv[I], "--vector") && I + 1 < Argc)
      Vector = atoi(Argv[++I]);
    else if (!strcmp(Argv[I], "--launches") && I + 1 < Argc)
      Launches = atoi(Argv[++I]);
    else if (!strcmp(Argv[I], "--candidates") && I + 1 < Argc)
      Candidates = (unsigned)atoi(Argv[++I]);
    else
      for (size_t J = 0; J < sizeof Modes / sizeof Modes[0]; ++J)
        if (!strcmp(Argv[I], Modes[J].Name))
          M = &Modes[J];
  }
  if (!M || Launches < 1 || Candidates % Vector) {
    fprintf(stderr, "usage: hashcat-kernel-bench md5|sha256 [--vector N] "
                    "[--launches N] [--candidates N]\n(candidates: a "
                    "multiple of the vector)\n");
    return 2;
  }

  cl_platform_id Platform;
  cl_device_id Device;
  cl_int Err;
  check(clGetPlatformIDs(1, &Platform, NULL), "clGetPlatformIDs");
  check(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 1, &Device, NULL),
        "clGetDeviceIDs");
  char DeviceName[256];
  check(clGetDeviceInfo(Device, CL_DEVICE_NAME, sizeof DeviceName, DeviceName,
                        NULL),
        "clGetDeviceInfo");
  cl_context Context = clCreateContext(NULL, 1, &Device, NULL, NULL, &Err);
  check(Err, "clCreateContext");
  cl_command_queue Queue =
      clCreateCommandQueue(Context, Device, CL_QUEUE_PROFILING_ENABLE, &Err);
  check(Err, "clCreateCommandQueue");

  char Path[512];
  snprintf(Path, sizeof Path, "%s/%s", HASHCAT_DIR, M->File);
  char *Source = readFile(Path);
  cl_program Program = clCreateProgramWithSource(
      Context, 1, (const char **)&Source, NULL, &Err);
  check(Err, "clCreateProgramWithSource");
  char Options[2048];
  snprintf(Options, sizeof Options,
           "-D KERNEL_STATIC -D INCLUDE_PATH=%s -D XM2S(x)=#x "
           "-D M2S(x)=XM2S(x) -D LOCAL_MEM_TYPE=2 -D VENDOR_ID=2147483648 "
           "-D CUDA_ARCH=0 -D HAS_ADD=0 -D HAS_ADDC=0 -D HAS_SUB=0 "
           "-D HAS_SUBC=0 -D HAS_VADD=0 -D HAS_VADDC=0 -D HAS_VADD_CO=0 "
           "-D HAS_VADDC_CO=0 -D HAS_VSUB=0 -D HAS_VSUBB=0 -D HAS_VSUB_CO=0 "
           "-D HAS_VSUBB_CO=0 -D HAS_VPERM=0 -D HAS_VADD3=0 -D HAS_VBFE=0 "
           "-D HAS_BFE=0 -D HAS_LOP3=0 -D HAS_MOV64=0 -D HAS_PRMT=0 "
           "-D VECT_SIZE=%d -D DEVICE_TYPE=2 -D DGST_R0=%d -D DGST_R1=%d "
           "-D DGST_R2=%d -D DGST_R3=%d -D DGST_ELEM=%d -D KERN_TYPE=%d "
           "-D ATTACK_EXEC=11 -D ATTACK_KERN=3 -D ATTACK_MODE=3 -w -I %s",
           HASHCAT_DIR, Vector, M->Order[0], M->Order[1], M->Order[2],
           M->Order[3], M->DigestElems, M->KernType, HASHCAT_DIR);
  double BuildStart = wallSeconds();
  if (clBuildProgram(Program, 1, &Device, Options, NULL, NULL) != CL_SUCCESS) {
    size_t Size = 0;
    clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, 0, NULL,
                          &Size);
    char *Log = calloc(1, Size + 1);
    clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, Size, Log,
                          NULL);
    fprintf(stderr, "hashcat-kernel-bench: build failed:\n%s\n", Log);
    return 1;
  }
  double BuildSeconds = wallSeconds() - BuildStart;
  cl_kernel Kernel = clCreateKernel(Program, M->Kernel, &Err);
  check(Err, "clCreateKernel");

  /* hashcat's 24 buffer arguments, zeroed (no password, no rule, empty
     bitmaps), then the kernel parameters. */
  const size_t Items = 2048, GroupSize = 1, BufferBytes = 4 << 20;
  void *Zeros = calloc(1, BufferBytes);
  cl_mem Buffers[25];
  for (int I = 0; I < 24; ++I) {
    Buffers[I] = clCreateBuffer(Context,
                                CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                BufferBytes, Zeros, &Err);
    check(Err, "clCreateBuffer");
  }
  enum { WordsArg = 3, DigestsArg = 15 };
  uint32_t Digest[64];
  for (int I = 0; I < 64; ++I)
    Digest[I] = 0x9e3779b9u * (I + 1);
  check(clEnqueueWriteBuffer(Queue, Buffers[DigestsArg], CL_TRUE, 0,
                             sizeof Digest, Digest, 0, NULL, NULL),
        "clEnqueueWriteBuffer");
  uint32_t *Words = malloc(Candidates * sizeof(uint32_t));
  for (unsigned I = 0; I < Candidates; ++I)
    Words[I] = I * 0x01010101u;
  check(clEnqueueWriteBuffer(Queue, Buffers[WordsArg], CL_TRUE, 0,
                             Candidates * sizeof(uint32_t), Words, 0, NULL,
                             NULL),
        "clEnqueueWriteBuffer");
  struct KernelParam Param;
  memset(&Param, 0, sizeof Param);
  Param.LoopCnt = Param.IlCnt = Candidates;
  Param.DigestsCnt = 1;
  Param.GidMax = Items;
  Buffers[24] = clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               sizeof Param, &Param, &Err);
  check(Err, "clCreateBuffer");
  for (cl_uint I = 0; I < 25; ++I)
    check(clSetKernelArg(Kernel, I, sizeof(cl_mem), &Buffers[I]),
          "clSetKernelArg");

  cl_event Event;
  check(clEnqueueNDRangeKernel(Queue, Kernel, 1, NULL, &Items, &GroupSize, 0,
                               NULL, &Event),
        "clEnqueueNDRangeKernel");
  check(clFinish(Queue), "clFinish");
  clReleaseEvent(Event);

  double *KernelSeconds = malloc(Launches * sizeof(double));
  double Cpu = cpuSeconds(), Wall = wallSeconds();
  for (int L = 0; L < Launches; ++L) {
    check(clEnqueueNDRangeKernel(Queue, Kernel, 1, NULL, &Items, &GroupSize,
                                 0, NULL, &Event),
          "clEnqueueNDRangeKernel");
    check(clFinish(Queue), "clFinish");
    cl_ulong Start, End;
    check(clGetEventProfilingInfo(Event, CL_PROFILING_COMMAND_START,
                                  sizeof Start, &Start, NULL),
          "clGetEventProfilingInfo");
    check(clGetEventProfilingInfo(Event, CL_PROFILING_COMMAND_END, sizeof End,
                                  &End, NULL),
          "clGetEventProfilingInfo");
    KernelSeconds[L] = (End - Start) * 1e-9;
    clReleaseEvent(Event);
  }
  Cpu = cpuSeconds() - Cpu;
  Wall = wallSeconds() - Wall;
  qsort(KernelSeconds, Launches, sizeof(double), byValue);
  double Hashes = (double)Items * Candidates;
  double Median = KernelSeconds[Launches / 2];
  printf("%s %s (Vec:%d): kernel median %.3f ms, min %.3f ms = %.1f MH/s "
         "(%.1f at the minimum); %.1f MH per CPU-second, %.1f MH/s over the "
         "%d launches; build %.2f s\n",
         DeviceName, M->Kernel, Vector, Median * 1e3, KernelSeconds[0] * 1e3,
         Hashes / Median / 1e6, Hashes / KernelSeconds[0] / 1e6,
         Hashes * Launches / Cpu / 1e6, Hashes * Launches / Wall / 1e6,
         Launches, BuildSeconds);
  return 0;
}
