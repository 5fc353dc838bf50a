//===- examples/BitonicSort.cpp - Batcher's bitonic sorting network -------===//
//
// Sorts Size (a power of two) keys ascending. The network has
// log2(Size) stages; stage S has S + 1 passes; a pass compares and swaps
// Size / 2 disjoint pairs, one per work-item, so the host enqueues one
// launch per pass and the in-order queue orders them.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <algorithm>

using namespace example;

// Pair I of a pass with distance 2^Pass: the lower element sits at I with
// bit Pass inserted as 0; its partner is 2^Pass above. The pair sorts
// ascending when bit Stage + 1 of the lower index is 0.
static const char *const Source = R"CLC(
kernel void bitonicPass(global uint *Keys, uint Stage, uint Pass) {
  uint I = get_global_id(0);
  uint Distance = 1u << Pass;
  uint Low = ((I >> Pass) << (Pass + 1)) | (I & (Distance - 1));
  uint High = Low + Distance;
  bool Ascending = ((Low >> (Stage + 1)) & 1) == 0;
  uint A = Keys[Low], B = Keys[High];
  if ((A > B) == Ascending) {
    Keys[Low] = B;
    Keys[High] = A;
  }
}
)CLC";

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  if (N < 2 || (N & (N - 1)))
    throw Error("--size must be a power of two of at least 2");
  std::vector<cl_uint> Input = randomUints(N, 31);
  Mem KeyBuf(S.buffer(CL_MEM_READ_WRITE, N * sizeof(cl_uint)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "bitonicPass"));
  setArg(K, 0, KeyBuf.H);
  unsigned Log2 = 0;
  while ((size_t(1) << Log2) < N)
    ++Log2;

  Result R;
  R.KernelMs = S.timeMedian(
      [&] {
        for (cl_uint Stage = 0; Stage < Log2; ++Stage)
          for (cl_uint Pass = Stage + 1; Pass-- > 0;) {
            setArg(K, 1, Stage);
            setArg(K, 2, Pass);
            enqueue1D(S, K, N / 2, 0);
          }
      },
      [&] { writeBuffer(S, KeyBuf, Input); });
  std::vector<cl_uint> Keys(N);
  readBuffer(S, KeyBuf, Keys);
  std::vector<cl_uint> Want = Input;
  std::sort(Want.begin(), Want.end());
  for (size_t I = 0; I < N; ++I)
    if (Keys[I] != Want[I]) {
      R.Detail = mismatch("Keys", I, Keys[I], Want[I]);
      return R;
    }
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%u launches", Log2 * (Log2 + 1) / 2);
  R.Detail = Buf;
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "BitonicSort", 1 << 18,
                    "number of keys (a power of two)", run);
}
