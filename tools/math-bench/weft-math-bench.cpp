//===- weft-math-bench.cpp - throughput of the math builtins --------------===//
//
// Usage: weft-math-bench [--platform NAME] [--size N] [--iterations K]
//                        [--options BUILD-OPTIONS] [--only F,F:TYPE,...]
//
// For each function and width (float, float4, float8, float16, double,
// double4, double8) runs y[i] = f(x[i]) over N elements and prints millions
// of elements per second (the best of K runs, after one warm-up run that
// also compiles). --options passes build options (-cl-fast-relaxed-math).
// Run it once per platform to compare implementations, e.g. Weft and pocl:
//
//   OCL_ICD_VENDORS=build/vendors/weft.icd
//   build/tools/math-bench/weft-math-bench
//   OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd \
//       build/tools/math-bench/weft-math-bench --platform Portable
//
//===----------------------------------------------------------------------===//
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "common/ExampleCommon.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// examples/common's check(): throws with the error's name; main reports it.
using example::check;
using example::findPlatform;

} // namespace

static int run(int Argc, char **Argv) {
  std::string Wanted;
  size_t N = 1 << 22;
  int Iterations = 5;
  std::string Options, Only;
  for (int I = 1; I < Argc; ++I) {
    if (!strcmp(Argv[I], "--platform") && I + 1 < Argc)
      Wanted = Argv[++I];
    else if (!strcmp(Argv[I], "--size") && I + 1 < Argc)
      N = strtoull(Argv[++I], nullptr, 0);
    else if (!strcmp(Argv[I], "--iterations") && I + 1 < Argc)
      Iterations = atoi(Argv[++I]);
    else if (!strcmp(Argv[I], "--options") && I + 1 < Argc)
      Options = Argv[++I];
    else if (!strcmp(Argv[I], "--only") && I + 1 < Argc)
      Only = "," + std::string(Argv[++I]) + ",";
    else {
      fprintf(stderr,
              "usage: %s [--platform NAME] [--size N] [--iterations K] "
              "[--options BUILD-OPTIONS] [--only F,F:TYPE,...]\n",
              Argv[0]);
      return 2;
    }
  }
  cl_platform_id Platform = findPlatform(Wanted);
  if (!Platform) {
    fprintf(stderr, "weft-math-bench: no platform matches '%s'\n",
            Wanted.c_str());
    return 1;
  }
  char Name[256] = {};
  clGetPlatformInfo(Platform, CL_PLATFORM_NAME, sizeof(Name), Name, nullptr);
  cl_device_id Device;
  check(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 1, &Device, nullptr),
        "clGetDeviceIDs");
  char DevName[256];
  clGetDeviceInfo(Device, CL_DEVICE_NAME, sizeof(DevName), DevName, nullptr);
  printf("# platform %s, device %s, %zu elements, best of %d, options '%s'\n",
         Name, DevName, N, Iterations, Options.c_str());
  cl_int Err;
  cl_context Ctx = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  check(Err, "clCreateContext");
  cl_command_queue Q =
      clCreateCommandQueueWithProperties(Ctx, Device, nullptr, &Err);
  check(Err, "clCreateCommandQueue");

  std::vector<double> Host(N);
  for (size_t I = 0; I < N; ++I)
    Host[I] = 0.5 + 4.0 * double(I % 10007) / 10007.0;
  std::vector<float> HostF(Host.begin(), Host.end());
  cl_mem XF = clCreateBuffer(Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             N * 4, HostF.data(), &Err);
  cl_mem XD = clCreateBuffer(Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             N * 8, Host.data(), &Err);
  cl_mem Y = clCreateBuffer(Ctx, CL_MEM_WRITE_ONLY, N * 8, nullptr, &Err);
  check(Err, "clCreateBuffer");

  const char *Functions[] = {"exp",  "log",  "sin",  "cos",  "tan",
                             "pow",  "atan2", "erf", "sqrt", "cbrt",
                             "exp2", "atan", "hypot", "sinh"};
  struct Width {
    const char *Type, *Scalar;
    unsigned N;
  } Widths[] = {{"float", "float", 1},   {"float4", "float", 4},
                {"float8", "float", 8},  {"float16", "float", 16},
                {"double", "double", 1}, {"double4", "double", 4},
                {"double8", "double", 8}};
  printf("%-8s %-8s %12s\n", "function", "type", "Melem/s");
  for (const char *F : Functions)
    for (const Width &W : Widths) {
      // --only exp,sin:float4 runs exp at every width and sin on float4.
      if (!Only.empty() &&
          Only.find("," + std::string(F) + ",") == std::string::npos &&
          Only.find("," + std::string(F) + ":" + W.Type + ",") ==
              std::string::npos)
        continue;
      bool Two =
          !strcmp(F, "pow") || !strcmp(F, "atan2") || !strcmp(F, "hypot");
      std::string Src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                        "kernel void k(global const " +
                        std::string(W.Scalar) + " *X, global " + W.Scalar +
                        " *Y) {\n  size_t i = get_global_id(0);\n  ";
      if (W.N == 1)
        Src += std::string(W.Type) + " x = X[i];\n  Y[i] = " + F +
               (Two ? "(x, x * 0.5f)" : "(x)") + ";\n}\n";
      else
        Src += std::string(W.Type) + " x = vload" + std::to_string(W.N) +
               "(i, X);\n  vstore" + std::to_string(W.N) + "(" + F +
               (Two ? "(x, x * 0.5f)" : "(x)") + ", i, Y);\n}\n";
      const char *Text = Src.c_str();
      cl_program P = clCreateProgramWithSource(Ctx, 1, &Text, nullptr, &Err);
      if (clBuildProgram(P, 1, &Device, Options.c_str(), nullptr, nullptr) !=
          CL_SUCCESS) {
        printf("%-8s %-8s %12s\n", F, W.Type, "build failed");
        clReleaseProgram(P);
        continue;
      }
      cl_kernel K = clCreateKernel(P, "k", &Err);
      cl_mem X = !strcmp(W.Scalar, "double") ? XD : XF;
      clSetKernelArg(K, 0, sizeof(cl_mem), &X);
      clSetKernelArg(K, 1, sizeof(cl_mem), &Y);
      size_t Global = N / W.N, Local = 64;
      double Best = 1e30;
      for (int It = -1; It < Iterations; ++It) {
        auto Start = std::chrono::steady_clock::now();
        check(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0,
                                     nullptr, nullptr),
              "clEnqueueNDRangeKernel");
        clFinish(Q);
        double S = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - Start)
                       .count();
        if (It >= 0)
          Best = std::min(Best, S);
      }
      printf("%-8s %-8s %12.1f\n", F, W.Type, double(N) / Best / 1e6);
      fflush(stdout);
      clReleaseKernel(K);
      clReleaseProgram(P);
    }
  clReleaseMemObject(XF);
  clReleaseMemObject(XD);
  clReleaseMemObject(Y);
  clReleaseCommandQueue(Q);
  clReleaseContext(Ctx);
  return 0;
}

int main(int Argc, char **Argv) {
  try {
    return run(Argc, Argv);
  } catch (const example::Error &E) {
    fprintf(stderr, "weft-math-bench: %s\n", E.what());
    return 1;
  }
}
