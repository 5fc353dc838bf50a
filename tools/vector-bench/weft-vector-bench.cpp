//===- weft-vector-bench.cpp - SAXPY, an exp map and a reduction ----------===//
//
// Usage: weft-vector-bench [--platform NAME] [--size N] [--runs K]
//
// Times three kernels on the first device of the platform: SAXPY, a map of
// exp, and a work-group tree reduction in local memory (barriers). Each is
// run once to compile and check its result against the host, then K times;
// the median wall time of enqueue + clFinish is printed. run.sh runs it
// with Weft's vectorization on and off (WEFT_DISABLE_VECTORIZE=1) and on
// pocl, which is the comparison it exists for.
//
//===----------------------------------------------------------------------===//
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "common/ExampleCommon.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

// examples/common's check(): throws with the error's name; main reports it.
using example::check;
using example::findPlatform;

const char *const Source = R"CLC(
kernel void saxpy(global float *Y, global const float *X, float A) {
  size_t I = get_global_id(0);
  Y[I] = A * X[I] + Y[I];
}
kernel void expmap(global float *Out, global const float *In) {
  size_t I = get_global_id(0);
  Out[I] = exp(In[I]);
}
kernel void reduceSum(global const float *In, uint PerItem,
                      global float *GroupSums, local float *Partial) {
  uint L = get_local_id(0), W = get_local_size(0);
  size_t Base = get_group_id(0) * W * PerItem;
  float Sum = 0.0f;
  for (uint K = 0; K < PerItem; ++K)
    Sum += In[Base + K * W + L];
  Partial[L] = Sum;
  for (uint Active = W / 2; Active > 0; Active /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (L < Active)
      Partial[L] += Partial[L + Active];
  }
  if (L == 0)
    GroupSums[get_group_id(0)] = Partial[0];
}
)CLC";

double medianMs(cl_command_queue Q, int Runs, const std::function<void()> &Enqueue) {
  std::vector<double> Ms;
  for (int R = 0; R < Runs; ++R) {
    auto Start = std::chrono::steady_clock::now();
    Enqueue();
    check(clFinish(Q), "clFinish");
    Ms.push_back(std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - Start)
                     .count());
  }
  std::sort(Ms.begin(), Ms.end());
  return Ms[Ms.size() / 2];
}

} // namespace

static int run(int Argc, char **Argv) {
  std::string Wanted;
  size_t N = 1 << 24;
  int Runs = 21;
  for (int I = 1; I < Argc; ++I) {
    if (!strcmp(Argv[I], "--platform") && I + 1 < Argc)
      Wanted = Argv[++I];
    else if (!strcmp(Argv[I], "--size") && I + 1 < Argc)
      N = strtoull(Argv[++I], nullptr, 0);
    else if (!strcmp(Argv[I], "--runs") && I + 1 < Argc)
      Runs = std::max(1, atoi(Argv[++I]));
    else {
      fprintf(stderr, "usage: %s [--platform NAME] [--size N] [--runs K]\n",
              Argv[0]);
      return 2;
    }
  }
  const size_t Local = 256, PerItem = 16;
  N = std::max(Local * PerItem, N / (Local * PerItem) * (Local * PerItem));

  cl_platform_id Platform = findPlatform(Wanted);
  if (!Platform) {
    fprintf(stderr, "weft-vector-bench: no platform matches '%s'\n",
            Wanted.c_str());
    return 1;
  }
  char Name[256] = {};
  clGetPlatformInfo(Platform, CL_PLATFORM_NAME, sizeof(Name), Name, nullptr);
  cl_device_id Device;
  check(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 1, &Device, nullptr),
        "clGetDeviceIDs");
  char DevName[256] = {};
  clGetDeviceInfo(Device, CL_DEVICE_NAME, sizeof(DevName), DevName, nullptr);
  const char *NoVec = getenv("WEFT_DISABLE_VECTORIZE");
  printf("# %s / %s, %zu floats, median of %d runs%s\n", Name, DevName, N,
         Runs, NoVec && *NoVec && strcmp(NoVec, "0") ? ", WEFT_DISABLE_VECTORIZE" : "");

  cl_int Err;
  cl_context Ctx = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  check(Err, "clCreateContext");
  cl_command_queue Q =
      clCreateCommandQueueWithProperties(Ctx, Device, nullptr, &Err);
  check(Err, "clCreateCommandQueue");
  const char *Text = Source;
  cl_program P = clCreateProgramWithSource(Ctx, 1, &Text, nullptr, &Err);
  check(Err, "clCreateProgramWithSource");
  check(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), "clBuildProgram");

  std::vector<float> X(N), Y(N);
  for (size_t I = 0; I < N; ++I) {
    X[I] = float(I % 1000) / 1000.0f - 0.5f;
    Y[I] = float(I % 7);
  }
  cl_mem XBuf = clCreateBuffer(Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               N * 4, X.data(), &Err);
  check(Err, "clCreateBuffer");
  cl_mem YBuf = clCreateBuffer(Ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               N * 4, Y.data(), &Err);
  check(Err, "clCreateBuffer");
  size_t Groups = N / (Local * PerItem);
  cl_mem Sums = clCreateBuffer(Ctx, CL_MEM_READ_WRITE, Groups * 4, nullptr, &Err);
  check(Err, "clCreateBuffer");

  auto Kernel = [&](const char *KName) {
    cl_kernel K = clCreateKernel(P, KName, &Err);
    check(Err, "clCreateKernel");
    return K;
  };
  auto Run = [&](cl_kernel K, size_t Global) {
    check(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr,
                                 nullptr),
          "clEnqueueNDRangeKernel");
  };
  std::vector<float> Out(N);
  auto Read = [&](cl_mem B, size_t Count) {
    check(clEnqueueReadBuffer(Q, B, CL_TRUE, 0, Count * 4, Out.data(), 0,
                              nullptr, nullptr),
          "clEnqueueReadBuffer");
  };

  // SAXPY: one checked run from the initial Y, then the timed ones.
  cl_kernel Saxpy = Kernel("saxpy");
  float A = 1.5f;
  clSetKernelArg(Saxpy, 0, sizeof(cl_mem), &YBuf);
  clSetKernelArg(Saxpy, 1, sizeof(cl_mem), &XBuf);
  clSetKernelArg(Saxpy, 2, sizeof(float), &A);
  Run(Saxpy, N);
  Read(YBuf, N);
  for (size_t I = 0; I < N; I += 9973)
    if (std::fabs(Out[I] - (A * X[I] + Y[I])) > 1e-5f) {
      fprintf(stderr, "saxpy: wrong result at %zu\n", I);
      return 1;
    }
  double SaxpyMs = medianMs(Q, Runs, [&] { Run(Saxpy, N); });

  cl_kernel ExpMap = Kernel("expmap");
  clSetKernelArg(ExpMap, 0, sizeof(cl_mem), &YBuf);
  clSetKernelArg(ExpMap, 1, sizeof(cl_mem), &XBuf);
  Run(ExpMap, N);
  Read(YBuf, N);
  for (size_t I = 0; I < N; I += 9973)
    if (std::fabs(Out[I] - std::exp(X[I])) > 1e-5f * std::exp(X[I])) {
      fprintf(stderr, "expmap: wrong result at %zu\n", I);
      return 1;
    }
  double ExpMs = medianMs(Q, Runs, [&] { Run(ExpMap, N); });

  cl_kernel Reduce = Kernel("reduceSum");
  cl_uint Per = PerItem;
  clSetKernelArg(Reduce, 0, sizeof(cl_mem), &XBuf);
  clSetKernelArg(Reduce, 1, sizeof(cl_uint), &Per);
  clSetKernelArg(Reduce, 2, sizeof(cl_mem), &Sums);
  clSetKernelArg(Reduce, 3, Local * sizeof(float), nullptr);
  Run(Reduce, Groups * Local);
  Read(Sums, Groups);
  double Got = 0, Want = 0;
  for (size_t G = 0; G < Groups; ++G)
    Got += Out[G];
  for (float V : X)
    Want += V;
  if (std::fabs(Got - Want) > 1e-3 * N) {
    fprintf(stderr, "reduceSum: sum %g, expected %g\n", Got, Want);
    return 1;
  }
  double ReduceMs = medianMs(Q, Runs, [&] { Run(Reduce, Groups * Local); });

  double GB = double(N) * 4 / 1e9;
  printf("%-10s %10s %10s\n", "kernel", "ms", "GB/s");
  printf("%-10s %10.3f %10.2f\n", "saxpy", SaxpyMs, 3 * GB / (SaxpyMs / 1e3));
  printf("%-10s %10.3f %10.2f\n", "exp", ExpMs, 2 * GB / (ExpMs / 1e3));
  printf("%-10s %10.3f %10.2f\n", "reduction", ReduceMs, GB / (ReduceMs / 1e3));

  clReleaseKernel(Saxpy);
  clReleaseKernel(ExpMap);
  clReleaseKernel(Reduce);
  clReleaseMemObject(XBuf);
  clReleaseMemObject(YBuf);
  clReleaseMemObject(Sums);
  clReleaseProgram(P);
  clReleaseCommandQueue(Q);
  clReleaseContext(Ctx);
  return 0;
}

int main(int Argc, char **Argv) {
  try {
    return run(Argc, Argv);
  } catch (const example::Error &E) {
    fprintf(stderr, "weft-vector-bench: %s\n", E.what());
    return 1;
  }
}
