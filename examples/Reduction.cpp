//===- examples/Reduction.cpp - sum of an array by work-group trees -------===//
//
// The sum of Size floats. A work-group of W work-items takes a block of
// W * PerItem consecutive values; each work-item first adds PerItem of them
// (consecutive work-items on consecutive addresses), then the group adds
// its W partial sums pairwise in local memory, halving the active
// work-items after every barrier. The host adds the per-group sums.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <cmath>

using namespace example;

static constexpr size_t GroupSize = 256, PerItem = 16;

static const char *const Source = R"CLC(
kernel void reduceSum(global const float *In, uint N, uint PerItem,
                      global float *GroupSums, local float *Partial) {
  uint L = get_local_id(0), W = get_local_size(0);
  size_t Base = get_group_id(0) * W * PerItem;
  float Sum = 0.0f;
  for (uint K = 0; K < PerItem; ++K) {
    size_t At = Base + K * W + L;
    if (At < N)
      Sum += In[At];
  }
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

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  const size_t Groups = (N + GroupSize * PerItem - 1) / (GroupSize * PerItem);
  std::vector<float> In = randomFloats(N, 141, -1, 1);
  Mem InBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float),
                     In.data()));
  Mem SumBuf(S.buffer(CL_MEM_WRITE_ONLY, Groups * sizeof(float)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "reduceSum"));
  setArg(K, 0, InBuf.H);
  setArg(K, 1, cl_uint(N));
  setArg(K, 2, cl_uint(PerItem));
  setArg(K, 3, SumBuf.H);
  setLocalArg(K, 4, GroupSize * sizeof(float));

  Result R;
  R.KernelMs =
      S.timeMedian([&] { enqueue1D(S, K, Groups * GroupSize, GroupSize); });
  std::vector<float> GroupSums(Groups);
  readBuffer(S, SumBuf, GroupSums);
  // Each group's sum against its own exact sum, then the total.
  double Total = 0, Want = 0;
  for (size_t G = 0; G < Groups; ++G) {
    double Exact = 0, Magnitude = 0;
    for (size_t I = G * GroupSize * PerItem;
         I < std::min(N, (G + 1) * GroupSize * PerItem); ++I) {
      Exact += In[I];
      Magnitude += std::fabs(In[I]);
    }
    // Float additions in a tree of depth PerItem + log2(W).
    if (!(std::fabs(GroupSums[G] - Exact) <= 3e-6 * Magnitude)) {
      R.Detail = mismatch("GroupSums", G, GroupSums[G], Exact);
      return R;
    }
    Total += GroupSums[G];
    Want += Exact;
  }
  char Buf[96];
  snprintf(Buf, sizeof(Buf), "sum %.6g (exact %.6g), %.2f GB/s", Total, Want,
           N * sizeof(float) / (R.KernelMs * 1e6));
  R.Detail = Buf;
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "Reduction", 1 << 22, "number of floats", run);
}
