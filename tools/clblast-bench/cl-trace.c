/*===- cl-trace.c - log what an application asks of OpenCL (LD_PRELOAD) ---===//
 *
 * A preload shim between an application (or a library such as CLBlast) and
 * the ICD loader: each program source goes to $CL_TRACE_DIR/progN.cl (default
 * /tmp), and build options, kernel arguments (4-byte values shown as int and
 * float), buffer writes (first 16 bytes) and NDRange launches go to stderr.
 * Enough to capture the exact kernel a library builds and run it alone.
 *
 *   gcc -shared -fPIC -O1 tools/clblast-bench/cl-trace.c \
 *       -o build/cl-trace.so -ldl -lOpenCL
 *   LD_PRELOAD=build/cl-trace.so OCL_ICD_VENDORS=build/vendors/weft.icd \
 *       stdbuf -oL build/clblast-batched h -v -c 0
 *
 * CL_TRACE_HALF_SCALARS=1 also rewrites CLBlast's `__constant real_arg*
 * arg_alphas` / `arg_betas` to `__constant real*` before the source reaches
 * the implementation: CLBlast 1.5.3 uploads those arrays in the matrices'
 * type, so under PRECISION 16 its batched kernels read halves as floats
 * (see clblast-batched.c).
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REAL(Name) ((__typeof__(&Name))dlsym(RTLD_NEXT, #Name))

static void kernelName(cl_kernel K, char *Name, size_t Size) {
  Name[0] = 0;
  clGetKernelInfo(K, CL_KERNEL_FUNCTION_NAME, Size, Name, NULL);
}

/* Overwrites each Pattern in Text with Replacement (same length). */
static void replaceSameLength(char *Text, const char *Pattern,
                              const char *Replacement) {
  size_t Len = strlen(Pattern);
  for (char *P = strstr(Text, Pattern); P; P = strstr(P + Len, Pattern))
    memcpy(P, Replacement, Len);
}

cl_program clCreateProgramWithSource(cl_context Ctx, cl_uint Count,
                                     const char **Strings,
                                     const size_t *Lengths, cl_int *Err) {
  static int Programs;
  size_t Total = 0;
  for (cl_uint I = 0; I < Count; I++)
    Total += Lengths && Lengths[I] ? Lengths[I] : strlen(Strings[I]);
  char *Source = malloc(Total + 1), *Out = Source;
  for (cl_uint I = 0; I < Count; I++) {
    size_t Len = Lengths && Lengths[I] ? Lengths[I] : strlen(Strings[I]);
    memcpy(Out, Strings[I], Len);
    Out += Len;
  }
  *Out = 0;
  if (getenv("CL_TRACE_HALF_SCALARS")) {
    replaceSameLength(Source, "__constant real_arg* arg_alphas",
                      "__constant real*     arg_alphas");
    replaceSameLength(Source, "__constant real_arg* arg_betas",
                      "__constant real*     arg_betas");
  }
  const char *Dir = getenv("CL_TRACE_DIR") ? getenv("CL_TRACE_DIR") : "/tmp";
  char Path[4096];
  snprintf(Path, sizeof Path, "%s/prog%d.cl", Dir, Programs++);
  FILE *F = fopen(Path, "w");
  if (F) {
    fwrite(Source, 1, Total, F);
    fclose(F);
  }
  fprintf(stderr, "[cl-trace] program source -> %s\n", Path);
  const char *One = Source;
  cl_program P = REAL(clCreateProgramWithSource)(Ctx, 1, &One, NULL, Err);
  free(Source);
  return P;
}

cl_int clBuildProgram(cl_program P, cl_uint NumDevices,
                      const cl_device_id *Devices, const char *Options,
                      void (*Notify)(cl_program, void *), void *User) {
  fprintf(stderr, "[cl-trace] build options: %s\n", Options ? Options : "");
  return REAL(clBuildProgram)(P, NumDevices, Devices, Options, Notify, User);
}

cl_int clSetKernelArg(cl_kernel K, cl_uint Index, size_t Size,
                      const void *Value) {
  char Name[256];
  kernelName(K, Name, sizeof Name);
  if (Size == 4 && Value) {
    int I;
    float F;
    memcpy(&I, Value, 4);
    memcpy(&F, Value, 4);
    fprintf(stderr, "[cl-trace] %s arg %u: 4 bytes, int %d, float %g\n", Name,
            Index, I, F);
  } else {
    fprintf(stderr, "[cl-trace] %s arg %u: %zu bytes%s\n", Name, Index, Size,
            Value ? "" : " (local)");
  }
  return REAL(clSetKernelArg)(K, Index, Size, Value);
}

cl_int clEnqueueWriteBuffer(cl_command_queue Q, cl_mem Buffer,
                            cl_bool Blocking, size_t Offset, size_t Size,
                            const void *Ptr, cl_uint NumEvents,
                            const cl_event *Wait, cl_event *Event) {
  fprintf(stderr, "[cl-trace] write %zu bytes at %zu:", Size, Offset);
  for (size_t I = 0; I < Size && I < 16; I++)
    fprintf(stderr, " %02x", ((const unsigned char *)Ptr)[I]);
  fprintf(stderr, "\n");
  return REAL(clEnqueueWriteBuffer)(Q, Buffer, Blocking, Offset, Size, Ptr,
                                    NumEvents, Wait, Event);
}

cl_int clEnqueueNDRangeKernel(cl_command_queue Q, cl_kernel K, cl_uint Dims,
                              const size_t *GlobalOffset,
                              const size_t *Global, const size_t *Local,
                              cl_uint NumEvents, const cl_event *Wait,
                              cl_event *Event) {
  char Name[256];
  kernelName(K, Name, sizeof Name);
  size_t G[3] = {1, 1, 1}, L[3] = {0, 0, 0};
  for (cl_uint D = 0; D < Dims && D < 3; D++) {
    G[D] = Global[D];
    L[D] = Local ? Local[D] : 0;
  }
  fprintf(stderr, "[cl-trace] launch %s global %zu,%zu,%zu local %zu,%zu,%zu\n",
          Name, G[0], G[1], G[2], L[0], L[1], L[2]);
  return REAL(clEnqueueNDRangeKernel)(Q, K, Dims, GlobalOffset, Global, Local,
                                      NumEvents, Wait, Event);
}
