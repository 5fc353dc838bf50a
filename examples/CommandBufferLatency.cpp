//===- examples/CommandBufferLatency.cpp - plain launches vs a command buffer ===//
//
// The cost per kernel of N small launches (one work-group of 64 work-items
// each, a kernel that adds 1 to a buffer) two ways, each timed from the
// first enqueue to the return of clFinish:
//   * N clEnqueueNDRangeKernel calls, then clFinish;
//   * one cl_khr_command_buffer with the N launches recorded once
//     (untimed), enqueued with clEnqueueCommandBufferKHR, then clFinish.
// Both are medians over --iterations runs; --size sets N (default 1000).
// Every run is checked: the buffer must have gained exactly N per run.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <CL/cl_ext.h>

#include <vector>

using namespace example;

static const char *const Source = R"CLC(
kernel void bump(global int *P) { P[get_global_id(0)] += 1; }
)CLC";

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  const size_t Local = 64;
  Result R;
  auto Lookup = [&](const char *Name) {
    void *F = clGetExtensionFunctionAddressForPlatform(S.Platform, Name);
    if (!F)
      throw Error(std::string(Name) + " not found: no cl_khr_command_buffer");
    return F;
  };
  auto Create = reinterpret_cast<clCreateCommandBufferKHR_fn>(
      Lookup("clCreateCommandBufferKHR"));
  auto Record = reinterpret_cast<clCommandNDRangeKernelKHR_fn>(
      Lookup("clCommandNDRangeKernelKHR"));
  auto Finalize = reinterpret_cast<clFinalizeCommandBufferKHR_fn>(
      Lookup("clFinalizeCommandBufferKHR"));
  auto EnqueueBuffer = reinterpret_cast<clEnqueueCommandBufferKHR_fn>(
      Lookup("clEnqueueCommandBufferKHR"));
  auto ReleaseBuffer = reinterpret_cast<clReleaseCommandBufferKHR_fn>(
      Lookup("clReleaseCommandBufferKHR"));

  std::vector<cl_int> Zero(Local, 0);
  Mem Buf(S.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                   Local * sizeof(cl_int), Zero.data()));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "bump"));
  setArg(K, 0, Buf.H);

  double PlainMs = S.timeMedian([&] {
    for (size_t I = 0; I < N; ++I)
      check(clEnqueueNDRangeKernel(S.Queue, K.H, 1, nullptr, &Local, &Local,
                                   0, nullptr, nullptr),
            "clEnqueueNDRangeKernel");
  });
  cl_int Err = CL_SUCCESS;
  cl_command_buffer_khr B = Create(1, &S.Queue, nullptr, &Err);
  check(Err, "clCreateCommandBufferKHR");
  for (size_t I = 0; I < N; ++I)
    check(Record(B, nullptr, nullptr, K.H, 1, nullptr, &Local, &Local, 0,
                 nullptr, nullptr, nullptr),
          "clCommandNDRangeKernelKHR");
  check(Finalize(B), "clFinalizeCommandBufferKHR");
  double BufferMs = S.timeMedian([&] {
    check(EnqueueBuffer(0, nullptr, B, 0, nullptr, nullptr),
          "clEnqueueCommandBufferKHR");
  });
  check(clFinish(S.Queue), "clFinish");
  check(ReleaseBuffer(B), "clReleaseCommandBufferKHR");

  // Each timed run (plus timeMedian's own) added N to every element.
  std::vector<cl_int> Out(Local);
  check(clEnqueueReadBuffer(S.Queue, Buf.H, CL_TRUE, 0, Local * sizeof(cl_int),
                            Out.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  R.Pass = Out[0] > 0 && Out[0] % cl_int(N) == 0;
  for (cl_int V : Out)
    R.Pass &= V == Out[0];
  char Text[160];
  snprintf(Text, sizeof(Text),
           "%zu kernels: plain enqueues %.2f us/kernel, command buffer %.2f "
           "us/kernel",
           N, PlainMs * 1e3 / N, BufferMs * 1e3 / N);
  R.Detail = Text;
  R.KernelMs = BufferMs;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "CommandBufferLatency", 1000,
                    "kernels per run", run);
}
