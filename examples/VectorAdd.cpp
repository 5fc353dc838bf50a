//===- examples/VectorAdd.cpp - C = A + B ---------------------------------===//

#include "common/ExampleCommon.h"

using namespace example;

static const char *const Source = R"CLC(
kernel void vector_add(global float *C, global const float *A,
                       global const float *B) {
  size_t I = get_global_id(0);
  C[I] = A[I] + B[I];
}
)CLC";

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  std::vector<float> A = randomFloats(N, 1, -1000, 1000);
  std::vector<float> B = randomFloats(N, 2, -1000, 1000);
  std::vector<float> C(N, 0.0f);
  Mem ABuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                    N * sizeof(float), A.data()));
  Mem BBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                    N * sizeof(float), B.data()));
  Mem CBuf(S.buffer(CL_MEM_WRITE_ONLY, N * sizeof(float)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "vector_add"));
  setArg(K, 0, CBuf.H);
  setArg(K, 1, ABuf.H);
  setArg(K, 2, BBuf.H);

  Result R;
  R.KernelMs = S.timeMedian([&] {
    check(clEnqueueNDRangeKernel(S.Queue, K, 1, nullptr, &N, nullptr, 0,
                                 nullptr, nullptr),
          "clEnqueueNDRangeKernel");
  });
  check(clEnqueueReadBuffer(S.Queue, CBuf, CL_TRUE, 0, N * sizeof(float),
                            C.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  for (size_t I = 0; I < N; ++I)
    if (C[I] != A[I] + B[I]) {
      R.Detail = "C[" + std::to_string(I) + "] = " + std::to_string(C[I]) +
                 ", expected " + std::to_string(A[I] + B[I]);
      return R;
    }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "VectorAdd", 1 << 20, "number of elements",
                    run);
}
