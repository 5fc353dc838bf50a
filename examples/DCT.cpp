//===- examples/DCT.cpp - 8x8 block DCT-II of an image --------------------===//
//
// The orthonormal two-dimensional DCT-II of every 8x8 block of a Size x
// Size image, as JPEG uses it: Out = C * Block * C^T with
// C[u][x] = a(u) cos((2x + 1) u pi / 16). One 8x8 work-group per block;
// the block and the intermediate C * Block go through local memory.
//
// --runtime-bound runs the form of the pocl paper's static multi-issue
// experiment (section 6.4): the block width is a kernel argument, so the
// two inner loops have a trip count the compiler does not know and cannot
// unroll; only horizontal inner-loop parallelization (HorizontalLoops.cpp,
// WEFT_HORIZONTAL=0 turns it off) puts the work-items' iterations side by
// side. With --profile on the accelerator simulator the kernel time printed
// is the simulated one.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <cmath>

using namespace example;

static const char *const Source = R"CLC(
kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void dct8x8(global float *Out, global const float *In,
            constant float *Basis, uint Width) {
  local float Block[8][8];
  local float Columns[8][8];
  uint X = get_local_id(0), Y = get_local_id(1);
  size_t Gx = get_global_id(0), Gy = get_global_id(1);
  Block[Y][X] = In[Gy * Width + Gx];
  barrier(CLK_LOCAL_MEM_FENCE);
  float Sum = 0.0f;
  for (int K = 0; K < 8; ++K)
    Sum += Basis[Y * 8 + K] * Block[K][X];
  Columns[Y][X] = Sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  Sum = 0.0f;
  for (int K = 0; K < 8; ++K)
    Sum += Columns[Y][K] * Basis[X * 8 + K];
  Out[Gy * Width + Gx] = Sum;
}
)CLC";

// The same transform with the block width N (8 here) given at run time.
static const char *const RuntimeBoundSource = R"CLC(
kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void dct8x8(global float *Out, global const float *In,
            constant float *Basis, uint Width, uint N) {
  local float Block[8 * 8];
  local float Columns[8 * 8];
  uint X = get_local_id(0), Y = get_local_id(1);
  size_t Gx = get_global_id(0), Gy = get_global_id(1);
  Block[Y * N + X] = In[Gy * Width + Gx];
  barrier(CLK_LOCAL_MEM_FENCE);
  float Sum = 0.0f;
  for (uint K = 0; K < N; ++K)
    Sum += Basis[Y * N + K] * Block[K * N + X];
  Columns[Y * N + X] = Sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  Sum = 0.0f;
  for (uint K = 0; K < N; ++K)
    Sum += Columns[Y * N + K] * Basis[X * N + K];
  Out[Gy * Width + Gx] = Sum;
}
)CLC";

static Result run(Session &S) {
  const size_t Width = S.Opts->Size;
  if (Width == 0 || Width % 8)
    throw Error("--size must be a multiple of 8");
  const size_t Pixels = Width * Width;
  std::vector<double> Basis(64);
  std::vector<float> BasisF(64);
  for (unsigned U = 0; U < 8; ++U)
    for (unsigned X = 0; X < 8; ++X) {
      double A = U == 0 ? std::sqrt(1.0 / 8) : std::sqrt(2.0 / 8);
      Basis[U * 8 + X] = A * std::cos((2 * X + 1) * U * M_PI / 16);
      BasisF[U * 8 + X] = float(Basis[U * 8 + X]);
    }
  std::vector<float> Image = randomFloats(Pixels, 41, 0, 255);
  Mem InBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     Pixels * sizeof(float), Image.data()));
  Mem BasisBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                        64 * sizeof(float), BasisF.data()));
  Mem OutBuf(S.buffer(CL_MEM_WRITE_ONLY, Pixels * sizeof(float)));
  const bool RuntimeBound = S.Opts->has("--runtime-bound");
  Program P(S.build(RuntimeBound ? RuntimeBoundSource : Source));
  Kernel K(S.kernel(P, "dct8x8"));
  setArg(K, 0, OutBuf.H);
  setArg(K, 1, InBuf.H);
  setArg(K, 2, BasisBuf.H);
  setArg(K, 3, cl_uint(Width));
  if (RuntimeBound)
    setArg(K, 4, cl_uint(8));

  size_t Global[2] = {Width, Width}, Local[2] = {8, 8};
  Result R;
  R.KernelMs = S.timeMedian([&] { enqueue(S, K, 2, Global, Local); });
  std::vector<float> Out(Pixels);
  readBuffer(S, OutBuf, Out);
  for (size_t By = 0; By < Width; By += 8)
    for (size_t Bx = 0; Bx < Width; Bx += 8)
      for (unsigned V = 0; V < 8; ++V)
        for (unsigned U = 0; U < 8; ++U) {
          double Want = 0;
          for (unsigned Y = 0; Y < 8; ++Y)
            for (unsigned X = 0; X < 8; ++X)
              Want += Basis[V * 8 + Y] * Basis[U * 8 + X] *
                      Image[(By + Y) * Width + Bx + X];
          size_t At = (By + V) * Width + Bx + U;
          // Coefficients reach 8 * 255; 16 float products each way.
          if (!(std::fabs(Out[At] - Want) <= 5e-3)) {
            R.Detail = mismatch("Out", At, Out[At], Want);
            return R;
          }
        }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "DCT", 512,
                    "image width and height (a multiple of 8)",
                    {{"--runtime-bound",
                      "the block width a kernel argument (loops of unknown "
                      "trip count, as in the pocl paper's experiment)"}},
                    run);
}
