//===- examples/SimpleConvolution.cpp - 2D convolution with a 5x5 mask ----===//
//
// Out[y][x] = sum over the mask of Mask[j][i] * In[y + j - 2][x + i - 2],
// with zeros outside the Size x Size image; one work-item per output pixel,
// the mask in constant memory.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <cmath>

using namespace example;

static constexpr int MaskSize = 5, Radius = MaskSize / 2;

static const char *const Source = R"CLC(
#define MASK 5
#define RADIUS (MASK / 2)
kernel void convolve(global float *Out, global const float *In,
                     constant float *Mask, int Width, int Height) {
  int X = get_global_id(0), Y = get_global_id(1);
  float Sum = 0.0f;
  for (int J = 0; J < MASK; ++J) {
    int Sy = Y + J - RADIUS;
    if (Sy < 0 || Sy >= Height)
      continue;
    for (int I = 0; I < MASK; ++I) {
      int Sx = X + I - RADIUS;
      if (Sx >= 0 && Sx < Width)
        Sum += Mask[J * MASK + I] * In[Sy * Width + Sx];
    }
  }
  Out[Y * Width + X] = Sum;
}
)CLC";

static Result run(Session &S) {
  const int Width = int(S.Opts->Size), Height = Width;
  const size_t Pixels = size_t(Width) * Height;
  std::vector<float> In = randomFloats(Pixels, 151, 0, 1);
  std::vector<float> Mask = randomFloats(MaskSize * MaskSize, 152, -1, 1);
  Mem InBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     Pixels * sizeof(float), In.data()));
  Mem MaskBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                       Mask.size() * sizeof(float), Mask.data()));
  Mem OutBuf(S.buffer(CL_MEM_WRITE_ONLY, Pixels * sizeof(float)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "convolve"));
  setArg(K, 0, OutBuf.H);
  setArg(K, 1, InBuf.H);
  setArg(K, 2, MaskBuf.H);
  setArg(K, 3, cl_int(Width));
  setArg(K, 4, cl_int(Height));

  size_t Global[2] = {size_t(Width), size_t(Height)};
  Result R;
  R.KernelMs = S.timeMedian([&] { enqueue(S, K, 2, Global, nullptr); });
  std::vector<float> Out(Pixels);
  readBuffer(S, OutBuf, Out);
  for (int Y = 0; Y < Height; ++Y)
    for (int X = 0; X < Width; ++X) {
      double Want = 0;
      for (int J = 0; J < MaskSize; ++J)
        for (int I = 0; I < MaskSize; ++I) {
          int Sx = X + I - Radius, Sy = Y + J - Radius;
          if (Sx >= 0 && Sx < Width && Sy >= 0 && Sy < Height)
            Want += double(Mask[J * MaskSize + I]) * In[Sy * Width + Sx];
        }
      size_t At = size_t(Y) * Width + X;
      if (!(std::fabs(Out[At] - Want) <= 1e-5)) {
        R.Detail = mismatch("Out", At, Out[At], Want);
        return R;
      }
    }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "SimpleConvolution", 1024,
                    "image width and height", run);
}
