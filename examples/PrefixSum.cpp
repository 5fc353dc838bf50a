//===- examples/PrefixSum.cpp - inclusive scan in one work-group ----------===//
//
// The inclusive prefix sum of Size unsigned integers (modulo 2^32) by a
// single work-group of 256 work-items, as a building block would do it for
// a short array: each work-item sums its contiguous chunk, the group scans
// those 256 totals in local memory (Hillis-Steele, a barrier between
// steps), and each work-item rescans its chunk from its exclusive offset.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

using namespace example;

static constexpr size_t GroupSize = 256;

static const char *const Source = R"CLC(
kernel void prefixSum(global const uint *In, global uint *Out, uint N,
                      local uint *Totals) {
  uint L = get_local_id(0), W = get_local_size(0);
  uint Chunk = (N + W - 1) / W;
  uint Begin = min(N, L * Chunk), End = min(N, Begin + Chunk);
  uint Sum = 0;
  for (uint I = Begin; I < End; ++I)
    Sum += In[I];
  Totals[L] = Sum;
  for (uint Distance = 1; Distance < W; Distance *= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    uint Add = L >= Distance ? Totals[L - Distance] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    Totals[L] += Add;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  uint Running = L ? Totals[L - 1] : 0;
  for (uint I = Begin; I < End; ++I) {
    Running += In[I];
    Out[I] = Running;
  }
}
)CLC";

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  std::vector<cl_uint> In = randomUints(N, 111);
  Mem InBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     N * sizeof(cl_uint), In.data()));
  Mem OutBuf(S.buffer(CL_MEM_WRITE_ONLY, N * sizeof(cl_uint)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "prefixSum"));
  setArg(K, 0, InBuf.H);
  setArg(K, 1, OutBuf.H);
  setArg(K, 2, cl_uint(N));
  setLocalArg(K, 3, GroupSize * sizeof(cl_uint));

  Result R;
  R.KernelMs = S.timeMedian([&] { enqueue1D(S, K, GroupSize, GroupSize); });
  std::vector<cl_uint> Out(N);
  readBuffer(S, OutBuf, Out);
  cl_uint Want = 0;
  for (size_t I = 0; I < N; ++I) {
    Want += In[I];
    if (Out[I] != Want) {
      R.Detail = mismatch("Out", I, Out[I], Want);
      return R;
    }
  }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "PrefixSum", 1 << 20,
                    "number of elements (scanned by one work-group)", run);
}
