//===- examples/LaunchLatency.cpp - enqueue-to-finish time of tiny kernels ===//
//
// Not a computation but the cost of a launch: the median time from
// clEnqueueNDRangeKernel to the return of clFinish, for
//   * an empty kernel run as one work-group of one work-item, and
//   * a no-op kernel over 1,048,576 work-items (implementation's choice of
//     local size), which adds the cost of handing out the work-groups.
// --iterations sets the number of timed launches of each (default 10; the
// benchmark runner asks for more). The reported kernel time is the first.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

using namespace example;

static const char *const Source = R"CLC(
kernel void empty(void) {}
kernel void noop(global int *Unused) {}
)CLC";

static Result run(Session &S) {
  const size_t Wide = S.Opts->Size;
  Mem Dummy(S.buffer(CL_MEM_READ_WRITE, sizeof(cl_int)));
  Program P(S.build(Source));
  Kernel Empty(S.kernel(P, "empty"));
  Kernel Noop(S.kernel(P, "noop"));
  setArg(Noop, 0, Dummy.H);
  const size_t One = 1;
  Result R;
  double EmptyMs = S.timeMedian([&] { enqueue1D(S, Empty, One, One); });
  double WideMs = S.timeMedian([&] { enqueue1D(S, Noop, Wide, 0); });
  char Buf[128];
  snprintf(Buf, sizeof(Buf),
           "empty kernel, 1 work-group: %.2f us; no-op over %zu work-items: "
           "%.2f us",
           EmptyMs * 1e3, Wide, WideMs * 1e3);
  R.Detail = Buf;
  R.KernelMs = EmptyMs;
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "LaunchLatency", 1 << 20,
                    "work-items of the no-op launch", run);
}
