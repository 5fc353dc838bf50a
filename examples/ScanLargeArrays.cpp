//===- examples/ScanLargeArrays.cpp - multi-level exclusive scan ----------===//
//
// The exclusive prefix sum of Size unsigned integers (modulo 2^32) over
// many work-groups. Each group of W work-items scans a block of 2W
// elements in local memory with the work-efficient up-sweep/down-sweep
// (Blelloch) scheme and writes the block's total; the totals are scanned
// the same way, recursively, and added back to their blocks.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

using namespace example;

static constexpr size_t GroupSize = 128, Block = 2 * GroupSize;

static const char *const Source = R"CLC(
kernel void scanBlocks(global const uint *In, global uint *Out,
                       global uint *BlockSums, uint N, local uint *T) {
  uint L = get_local_id(0), W = get_local_size(0);
  size_t Base = get_group_id(0) * 2 * W;
  T[2 * L] = Base + 2 * L < N ? In[Base + 2 * L] : 0;
  T[2 * L + 1] = Base + 2 * L + 1 < N ? In[Base + 2 * L + 1] : 0;
  uint Offset = 1;
  for (uint Active = W; Active > 0; Active /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (L < Active)
      T[Offset * (2 * L + 2) - 1] += T[Offset * (2 * L + 1) - 1];
    Offset *= 2;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (L == 0) {
    BlockSums[get_group_id(0)] = T[2 * W - 1];
    T[2 * W - 1] = 0;
  }
  for (uint Active = 1; Active <= W; Active *= 2) {
    Offset /= 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (L < Active) {
      uint Left = Offset * (2 * L + 1) - 1, Right = Offset * (2 * L + 2) - 1;
      uint Carry = T[Left];
      T[Left] = T[Right];
      T[Right] += Carry;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (Base + 2 * L < N)
    Out[Base + 2 * L] = T[2 * L];
  if (Base + 2 * L + 1 < N)
    Out[Base + 2 * L + 1] = T[2 * L + 1];
}

kernel void addBlockOffsets(global uint *Out, global const uint *Offsets,
                            uint BlockSize) {
  size_t I = get_global_id(0);
  Out[I] += Offsets[I / BlockSize];
}
)CLC";

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  std::vector<cl_uint> In = randomUints(N, 121);
  Mem InBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     N * sizeof(cl_uint), In.data()));
  // Level 0 scans In into Out; level K + 1 scans level K's block sums.
  std::vector<size_t> Lengths = {N};
  while (Lengths.back() > Block)
    Lengths.push_back((Lengths.back() + Block - 1) / Block);
  std::vector<Mem> Outs, Sums;
  for (size_t Length : Lengths) {
    Outs.emplace_back(S.buffer(CL_MEM_READ_WRITE, Length * sizeof(cl_uint)));
    Sums.emplace_back(S.buffer(CL_MEM_READ_WRITE,
                               (Length + Block - 1) / Block * sizeof(cl_uint)));
  }
  Program P(S.build(Source));
  Kernel Scan(S.kernel(P, "scanBlocks"));
  Kernel Add(S.kernel(P, "addBlockOffsets"));
  setLocalArg(Scan, 4, Block * sizeof(cl_uint));
  setArg(Add, 2, cl_uint(Block));

  auto Run = [&] {
    for (size_t Level = 0; Level < Lengths.size(); ++Level) {
      size_t Length = Lengths[Level];
      setArg(Scan, 0, Level ? Sums[Level - 1].H : InBuf.H);
      setArg(Scan, 1, Outs[Level].H);
      setArg(Scan, 2, Sums[Level].H);
      setArg(Scan, 3, cl_uint(Length));
      enqueue1D(S, Scan, (Length + Block - 1) / Block * GroupSize, GroupSize);
    }
    // The last level is one block: its output is final. Add each level's
    // scanned block sums to it, top down.
    for (size_t Level = Lengths.size() - 1; Level-- > 0;) {
      setArg(Add, 0, Outs[Level].H);
      setArg(Add, 1, Outs[Level + 1].H);
      enqueue1D(S, Add, Lengths[Level], 0);
    }
  };
  Result R;
  R.KernelMs = S.timeMedian(Run);
  std::vector<cl_uint> Out(N);
  readBuffer(S, Outs[0], Out);
  cl_uint Want = 0;
  for (size_t I = 0; I < N; ++I) {
    if (Out[I] != Want) {
      R.Detail = mismatch("Out", I, Out[I], Want);
      return R;
    }
    Want += In[I];
  }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "ScanLargeArrays", 1 << 20,
                    "number of elements", run);
}
