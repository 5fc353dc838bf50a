//===- examples/FloydWarshall.cpp - all-pairs shortest paths --------------===//
//
// Floyd-Warshall on a dense directed graph of Size nodes with random
// integer edge weights: for every intermediate node K, one launch over all
// (I, J) relaxes Dist[I][J] through K. Row K and column K do not change in
// pass K, so the work-items of a pass are independent. Also tracks the
// intermediate node of every shortest path (Next), checked by walking the
// paths on the host.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

using namespace example;

static const char *const Source = R"CLC(
kernel void relax(global uint *Dist, global uint *Via, uint N, uint K) {
  size_t J = get_global_id(0), I = get_global_id(1);
  uint Through = Dist[I * N + K] + Dist[K * N + J];
  if (Through < Dist[I * N + J]) {
    Dist[I * N + J] = Through;
    Via[I * N + J] = K;
  }
}
)CLC";

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  // Weights below 1000 keep every path sum far from overflow.
  std::vector<cl_uint> Weights = randomUints(N * N, 71, 1000);
  for (size_t I = 0; I < N; ++I)
    Weights[I * N + I] = 0;
  std::vector<cl_uint> NoVia(N * N, cl_uint(-1));
  Mem DistBuf(S.buffer(CL_MEM_READ_WRITE, N * N * sizeof(cl_uint)));
  Mem ViaBuf(S.buffer(CL_MEM_READ_WRITE, N * N * sizeof(cl_uint)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "relax"));
  setArg(K, 0, DistBuf.H);
  setArg(K, 1, ViaBuf.H);
  setArg(K, 2, cl_uint(N));

  size_t Global[2] = {N, N};
  Result R;
  R.KernelMs = S.timeMedian(
      [&] {
        for (cl_uint Pass = 0; Pass < N; ++Pass) {
          setArg(K, 3, Pass);
          enqueue(S, K, 2, Global, nullptr);
        }
      },
      [&] {
        writeBuffer(S, DistBuf, Weights);
        writeBuffer(S, ViaBuf, NoVia);
      });
  std::vector<cl_uint> Dist(N * N), Via(N * N);
  readBuffer(S, DistBuf, Dist);
  readBuffer(S, ViaBuf, Via);

  std::vector<cl_uint> Want = Weights;
  for (size_t Mid = 0; Mid < N; ++Mid)
    for (size_t I = 0; I < N; ++I)
      for (size_t J = 0; J < N; ++J)
        Want[I * N + J] =
            std::min(Want[I * N + J], Want[I * N + Mid] + Want[Mid * N + J]);
  for (size_t At = 0; At < N * N; ++At)
    if (Dist[At] != Want[At]) {
      R.Detail = mismatch("Dist", At, Dist[At], Want[At]);
      return R;
    }
  // Every recorded path must add up to its distance.
  std::function<cl_uint(size_t, size_t, unsigned)> Length =
      [&](size_t I, size_t J, unsigned Depth) -> cl_uint {
    cl_uint Mid = Via[I * N + J];
    if (Mid == cl_uint(-1) || Depth > N)
      return Weights[I * N + J];
    return Length(I, Mid, Depth + 1) + Length(Mid, J, Depth + 1);
  };
  for (size_t At = 0; At < N * N; At += 1 + N / 7)
    if (Length(At / N, At % N, 0) != Want[At]) {
      R.Detail =
          mismatch("path length", At, Length(At / N, At % N, 0), Want[At]);
      return R;
    }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "FloydWarshall", 256, "number of nodes", run);
}
