//===- examples/RadixSort.cpp - LSD radix sort of 32-bit keys -------------===//
//
// Eight stable passes over 4-bit digits, least significant first. Each
// work-item owns a contiguous chunk of 256 keys. A pass:
//   1. count:   every work-item counts its chunk's digits into 16 counters,
//               written digit-major: Counts[Digit * Items + Item];
//   2. scan:    one work-group turns Counts into exclusive offsets, so that
//               all keys with a smaller digit come first and, within a
//               digit, lower chunks come first (this is what keeps the
//               pass stable);
//   3. scatter: every work-item walks its chunk again in order and writes
//               each key to its digit's next offset.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <algorithm>

using namespace example;

static constexpr size_t Chunk = 256, ScanGroup = 256;

static const char *const Source = R"CLC(
#define RADIX 16
kernel void countDigits(global const uint *Keys, global uint *Counts,
                        uint Chunk, uint Shift) {
  uint Item = get_global_id(0), Items = get_global_size(0);
  uint Count[RADIX];
  for (int D = 0; D < RADIX; ++D)
    Count[D] = 0;
  for (uint I = Item * Chunk; I < (Item + 1) * Chunk; ++I)
    ++Count[(Keys[I] >> Shift) & (RADIX - 1)];
  for (int D = 0; D < RADIX; ++D)
    Counts[D * Items + Item] = Count[D];
}

// Exclusive scan of N counters by one work-group (see PrefixSum).
kernel void scanCounts(global uint *Counts, uint N, local uint *Totals) {
  uint L = get_local_id(0), W = get_local_size(0);
  uint Per = (N + W - 1) / W;
  uint Begin = min(N, L * Per), End = min(N, Begin + Per);
  uint Sum = 0;
  for (uint I = Begin; I < End; ++I)
    Sum += Counts[I];
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
    uint Count = Counts[I];
    Counts[I] = Running;
    Running += Count;
  }
}

kernel void scatterKeys(global const uint *Keys, global uint *Sorted,
                        global const uint *Offsets, uint Chunk, uint Shift) {
  uint Item = get_global_id(0), Items = get_global_size(0);
  uint Next[RADIX];
  for (int D = 0; D < RADIX; ++D)
    Next[D] = Offsets[D * Items + Item];
  for (uint I = Item * Chunk; I < (Item + 1) * Chunk; ++I) {
    uint Key = Keys[I];
    Sorted[Next[(Key >> Shift) & (RADIX - 1)]++] = Key;
  }
}
)CLC";

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  if (N == 0 || N % Chunk)
    throw Error("--size must be a multiple of 256");
  const size_t Items = N / Chunk;
  std::vector<cl_uint> Input = randomUints(N, 131);
  Mem Keys[2] = {Mem(S.buffer(CL_MEM_READ_WRITE, N * sizeof(cl_uint))),
                 Mem(S.buffer(CL_MEM_READ_WRITE, N * sizeof(cl_uint)))};
  Mem CountBuf(S.buffer(CL_MEM_READ_WRITE, 16 * Items * sizeof(cl_uint)));
  Program P(S.build(Source));
  Kernel Count(S.kernel(P, "countDigits"));
  Kernel Scan(S.kernel(P, "scanCounts"));
  Kernel Scatter(S.kernel(P, "scatterKeys"));
  setArg(Count, 1, CountBuf.H);
  setArg(Count, 2, cl_uint(Chunk));
  setArg(Scan, 0, CountBuf.H);
  setArg(Scan, 1, cl_uint(16 * Items));
  setLocalArg(Scan, 2, ScanGroup * sizeof(cl_uint));
  setArg(Scatter, 2, CountBuf.H);
  setArg(Scatter, 3, cl_uint(Chunk));

  auto Sort = [&] {
    for (cl_uint Pass = 0; Pass < 8; ++Pass) {
      cl_uint Shift = 4 * Pass;
      cl_mem From = Keys[Pass % 2], To = Keys[1 - Pass % 2];
      setArg(Count, 0, From);
      setArg(Count, 3, Shift);
      enqueue1D(S, Count, Items, 0);
      enqueue1D(S, Scan, ScanGroup, ScanGroup);
      setArg(Scatter, 0, From);
      setArg(Scatter, 1, To);
      setArg(Scatter, 4, Shift);
      enqueue1D(S, Scatter, Items, 0);
    }
  };
  Result R;
  R.KernelMs = S.timeMedian(Sort, [&] { writeBuffer(S, Keys[0], Input); });
  // Eight passes end where they started.
  std::vector<cl_uint> Sorted(N);
  readBuffer(S, Keys[0], Sorted);
  std::vector<cl_uint> Want = Input;
  std::sort(Want.begin(), Want.end());
  for (size_t I = 0; I < N; ++I)
    if (Sorted[I] != Want[I]) {
      R.Detail = mismatch("Sorted", I, Sorted[I], Want[I]);
      return R;
    }
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%.1f M keys/s", N / (R.KernelMs * 1e3));
  R.Detail = Buf;
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "RadixSort", 1 << 20,
                    "number of keys (a multiple of 256)", run);
}
