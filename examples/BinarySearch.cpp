//===- examples/BinarySearch.cpp - lower bounds in a sorted array ---------===//
//
// Every work-item looks up one key in a sorted array of Size keys by
// bisection and writes the index of the first element not less than it
// (std::lower_bound's answer, Size when every element is smaller).
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <algorithm>

using namespace example;

static const char *const Source = R"CLC(
kernel void lowerBound(global const uint *Sorted, uint N,
                       global const uint *Keys, global uint *Index) {
  size_t I = get_global_id(0);
  uint Key = Keys[I];
  uint Lo = 0, Count = N;
  while (Count > 0) {
    uint Half = Count / 2;
    if (Sorted[Lo + Half] < Key) {
      Lo += Half + 1;
      Count -= Half + 1;
    } else {
      Count = Half;
    }
  }
  Index[I] = Lo;
}
)CLC";

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  // Keys spread over twice the range of the array, so some are past its end
  // and many are absent.
  std::vector<cl_uint> Sorted = randomUints(N, 11, cl_uint(4 * N + 1));
  std::sort(Sorted.begin(), Sorted.end());
  const size_t Queries = N;
  std::vector<cl_uint> Keys = randomUints(Queries, 12, cl_uint(8 * N + 1));
  Mem SortedBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                         N * sizeof(cl_uint), Sorted.data()));
  Mem KeyBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                      Queries * sizeof(cl_uint), Keys.data()));
  Mem IndexBuf(S.buffer(CL_MEM_WRITE_ONLY, Queries * sizeof(cl_uint)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "lowerBound"));
  setArg(K, 0, SortedBuf.H);
  setArg(K, 1, cl_uint(N));
  setArg(K, 2, KeyBuf.H);
  setArg(K, 3, IndexBuf.H);

  Result R;
  R.KernelMs = S.timeMedian([&] { enqueue1D(S, K, Queries, 0); });
  std::vector<cl_uint> Index(Queries);
  readBuffer(S, IndexBuf, Index);
  for (size_t I = 0; I < Queries; ++I) {
    size_t Want = std::lower_bound(Sorted.begin(), Sorted.end(), Keys[I]) -
                  Sorted.begin();
    if (Index[I] != Want) {
      R.Detail = mismatch("Index", I, Index[I], double(Want));
      return R;
    }
  }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "BinarySearch", 1 << 20,
                    "elements in the sorted array (and keys looked up)", run);
}
