//===- examples/Stream.cpp - STREAM copy, scale, add and triad ------------===//
//
// The four kernels of McCalpin's STREAM benchmark over arrays of Size
// floats: copy C = A, scale B = q C, add C = A + B, triad A = B + q C.
// Each is timed on its own; the reported kernel time is the sum of the
// four medians, the detail line gives each kernel's bandwidth (bytes read
// plus bytes written, as STREAM counts them).
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <cmath>

using namespace example;

static const char *const Source = R"CLC(
kernel void copy(global float *C, global const float *A) {
  size_t I = get_global_id(0);
  C[I] = A[I];
}
kernel void scale(global float *B, global const float *C, float Q) {
  size_t I = get_global_id(0);
  B[I] = Q * C[I];
}
kernel void add(global float *C, global const float *A,
                global const float *B) {
  size_t I = get_global_id(0);
  C[I] = A[I] + B[I];
}
kernel void triad(global float *A, global const float *B,
                  global const float *C, float Q) {
  size_t I = get_global_id(0);
  A[I] = B[I] + Q * C[I];
}
)CLC";

static Result run(Session &S) {
  const size_t N = S.Opts->Size;
  const float Q = 3.0f;
  const size_t Bytes = N * sizeof(float);
  std::vector<float> A0 = randomFloats(N, 171, -1, 1);
  std::vector<float> B0 = randomFloats(N, 172, -1, 1);
  std::vector<float> C0 = randomFloats(N, 173, -1, 1);
  Mem A(S.buffer(CL_MEM_READ_WRITE, Bytes)),
      B(S.buffer(CL_MEM_READ_WRITE, Bytes)),
      C(S.buffer(CL_MEM_READ_WRITE, Bytes));
  Program P(S.build(Source));
  Kernel Copy(S.kernel(P, "copy")), Scale(S.kernel(P, "scale")),
      Add(S.kernel(P, "add")), Triad(S.kernel(P, "triad"));
  setArg(Copy, 0, C.H);
  setArg(Copy, 1, A.H);
  setArg(Scale, 0, B.H);
  setArg(Scale, 1, C.H);
  setArg(Scale, 2, Q);
  setArg(Add, 0, C.H);
  setArg(Add, 1, A.H);
  setArg(Add, 2, B.H);
  setArg(Triad, 0, A.H);
  setArg(Triad, 1, B.H);
  setArg(Triad, 2, C.H);
  setArg(Triad, 3, Q);
  auto Reset = [&] {
    writeBuffer(S, A, A0);
    writeBuffer(S, B, B0);
    writeBuffer(S, C, C0);
  };

  Reset();
  const char *Names[4] = {"copy", "scale", "add", "triad"};
  cl_kernel Kernels[4] = {Copy, Scale, Add, Triad};
  const double Moved[4] = {2.0 * Bytes, 2.0 * Bytes, 3.0 * Bytes, 3.0 * Bytes};
  double Ms[4];
  for (int K = 0; K < 4; ++K)
    Ms[K] = S.timeMedian([&] { enqueue1D(S, Kernels[K], N, 0); }, Reset);

  // One pass of the sequence from the initial arrays, checked exactly: every
  // step is one correctly rounded operation, or a fused multiply-add.
  Reset();
  for (cl_kernel K : Kernels)
    enqueue1D(S, K, N, 0);
  std::vector<float> Ra(N), Rb(N), Rc(N);
  readBuffer(S, A, Ra);
  readBuffer(S, B, Rb);
  readBuffer(S, C, Rc);
  Result R;
  for (size_t I = 0; I < N; ++I) {
    float Cc = A0[I];
    float Bb = Q * Cc;
    float Cn = A0[I] + Bb;
    double An = double(Bb) + double(Q) * Cn;
    if (Rb[I] != Bb || Rc[I] != Cn ||
        !(std::fabs(Ra[I] - An) <= 1e-6 * std::fabs(An) + 1e-30)) {
      R.Detail = "element " + std::to_string(I) + ": A " +
                 std::to_string(Ra[I]) + " B " + std::to_string(Rb[I]) + " C " +
                 std::to_string(Rc[I]) + ", expected A " + std::to_string(An) +
                 " B " + std::to_string(Bb) + " C " + std::to_string(Cn);
      return R;
    }
  }
  std::string Detail;
  for (int K = 0; K < 4; ++K) {
    char Buf[64];
    snprintf(Buf, sizeof(Buf), "%s%s %.2f GB/s", K ? ", " : "", Names[K],
             Moved[K] / (Ms[K] * 1e6));
    Detail += Buf;
  }
  R.KernelMs = Ms[0] + Ms[1] + Ms[2] + Ms[3];
  R.Detail = Detail;
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "Stream", 1 << 22,
                    "elements of each array (floats)", run);
}
