//===- examples/Histogram.cpp - 256-bin byte histogram with local atomics
//--===//
//
// Counts the values of Size bytes into 256 bins. Each work-group clears a
// histogram in local memory, its work-items add their bytes to it with
// atomic_inc (several work-items hit the same bin), and after a barrier
// the group adds its bins to the global histogram with atomic_add.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

using namespace example;

static constexpr size_t GroupSize = 256, BytesPerItem = 64;

static const char *const Source = R"CLC(
kernel void histogram(global const uchar *Data, uint Bytes,
                      uint BytesPerItem, global uint *Bins) {
  local uint Local[256];
  uint L = get_local_id(0), W = get_local_size(0);
  for (uint B = L; B < 256; B += W)
    Local[B] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  // Consecutive work-items read consecutive bytes in each round.
  size_t Base = get_group_id(0) * W * BytesPerItem;
  for (uint Round = 0; Round < BytesPerItem; ++Round) {
    size_t At = Base + Round * W + L;
    if (At < Bytes)
      atomic_inc(&Local[Data[At]]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint B = L; B < 256; B += W)
    if (Local[B])
      atomic_add(&Bins[B], Local[B]);
}
)CLC";

static Result run(Session &S) {
  const size_t Bytes = S.Opts->Size;
  // Skewed data, so some bins are hot: the low byte of a product of two
  // random numbers.
  std::vector<cl_uint> A = randomUints(Bytes, 81), B = randomUints(Bytes, 82);
  std::vector<cl_uchar> Data(Bytes);
  for (size_t I = 0; I < Bytes; ++I)
    Data[I] = cl_uchar((A[I] & 0xff) * (B[I] & 0xff) >> 8);
  Mem DataBuf(
      S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes, Data.data()));
  Mem BinBuf(S.buffer(CL_MEM_READ_WRITE, 256 * sizeof(cl_uint)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "histogram"));
  setArg(K, 0, DataBuf.H);
  setArg(K, 1, cl_uint(Bytes));
  setArg(K, 2, cl_uint(BytesPerItem));
  setArg(K, 3, BinBuf.H);

  const size_t PerGroup = GroupSize * BytesPerItem;
  const size_t Groups = (Bytes + PerGroup - 1) / PerGroup;
  const std::vector<cl_uint> Zero(256, 0);
  Result R;
  R.KernelMs =
      S.timeMedian([&] { enqueue1D(S, K, Groups * GroupSize, GroupSize); },
                   [&] { writeBuffer(S, BinBuf, Zero); });
  std::vector<cl_uint> Bins(256);
  readBuffer(S, BinBuf, Bins);
  std::vector<cl_uint> Want(256, 0);
  for (cl_uchar C : Data)
    ++Want[C];
  for (size_t I = 0; I < 256; ++I)
    if (Bins[I] != Want[I]) {
      R.Detail = mismatch("Bins", I, Bins[I], Want[I]);
      return R;
    }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "Histogram", 1 << 22, "number of bytes", run);
}
