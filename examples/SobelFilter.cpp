//===- examples/SobelFilter.cpp - Sobel edge magnitude of a grey image ----===//
//
// For every interior pixel of a Size x Size 8-bit image, the gradient
// magnitude sqrt(Gx^2 + Gy^2) of the 3x3 Sobel operators, saturated to
// 255; border pixels are 0. One work-item per pixel.
//
// --rgba filters an RGBA image of uchar4 pixels instead, each channel on
// its own, in float4 arithmetic with hypot, the way image-processing
// samples write it. --transfer-each-iteration times, in every iteration,
// the write of the input image, the launch and the read of the result, as
// an application that filters one frame after another does.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace example;

static const char *const Source = R"CLC(
kernel void sobel(global uchar *Out, global const uchar *In, uint Width,
                  uint Height) {
  uint X = get_global_id(0), Y = get_global_id(1);
  if (X == 0 || Y == 0 || X == Width - 1 || Y == Height - 1) {
    Out[Y * Width + X] = 0;
    return;
  }
  global const uchar *P = In + Y * Width + X;
  int Row = Width; // signed, so that -Row reaches the row above
  int Nw = P[-Row - 1], N = P[-Row], Ne = P[-Row + 1];
  int W = P[-1], E = P[1];
  int Sw = P[Row - 1], S = P[Row], Se = P[Row + 1];
  int Gx = (Ne + 2 * E + Se) - (Nw + 2 * W + Sw);
  int Gy = (Sw + 2 * S + Se) - (Nw + 2 * N + Ne);
  float Magnitude = sqrt((float)(Gx * Gx + Gy * Gy));
  Out[Y * Width + X] = convert_uchar_sat(Magnitude);
}

kernel void sobelRgba(global uchar4 *Out, global const uchar4 *In,
                      uint Width, uint Height) {
  uint X = get_global_id(0), Y = get_global_id(1);
  if (X == 0 || Y == 0 || X == Width - 1 || Y == Height - 1) {
    Out[Y * Width + X] = (uchar4)(0);
    return;
  }
  global const uchar4 *P = In + Y * Width + X;
  int Row = Width;
  float4 Nw = convert_float4(P[-Row - 1]), N = convert_float4(P[-Row]),
         Ne = convert_float4(P[-Row + 1]);
  float4 W = convert_float4(P[-1]), E = convert_float4(P[1]);
  float4 Sw = convert_float4(P[Row - 1]), S = convert_float4(P[Row]),
         Se = convert_float4(P[Row + 1]);
  float4 Gx = (Ne + 2.0f * E + Se) - (Nw + 2.0f * W + Sw);
  float4 Gy = (Sw + 2.0f * S + Se) - (Nw + 2.0f * N + Ne);
  Out[Y * Width + X] = convert_uchar4_sat(hypot(Gx, Gy));
}
)CLC";

static Result run(Session &S) {
  const size_t Width = S.Opts->Size, Height = Width;
  if (Width < 3)
    throw Error("--size must be at least 3");
  const bool Rgba = S.Opts->has("--rgba");
  const bool TransferEach = S.Opts->has("--transfer-each-iteration");
  const size_t Channels = Rgba ? 4 : 1;
  const size_t Pixels = Width * Height, Bytes = Pixels * Channels;
  // A smooth pattern plus noise: edges of every strength, placed
  // differently in each channel.
  std::vector<cl_uint> Noise = randomUints(Bytes, 161, 64);
  std::vector<cl_uchar> In(Bytes);
  for (size_t Y = 0; Y < Height; ++Y)
    for (size_t X = 0; X < Width; ++X)
      for (size_t C = 0; C < Channels; ++C) {
        size_t I = (Y * Width + X) * Channels + C;
        In[I] = cl_uchar(((X / 16 + Y / 16 + C) % 2) * 160 +
                         (X * 3 + Y + 7 * C) % 32 + Noise[I]);
      }
  Mem InBuf(
      S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes, In.data()));
  Mem OutBuf(S.buffer(CL_MEM_WRITE_ONLY, Bytes));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, Rgba ? "sobelRgba" : "sobel"));
  setArg(K, 0, OutBuf.H);
  setArg(K, 1, InBuf.H);
  setArg(K, 2, cl_uint(Width));
  setArg(K, 3, cl_uint(Height));

  size_t Global[2] = {Width, Height};
  std::vector<cl_uchar> Out(Bytes);
  Result R;
  R.KernelMs = S.timeMedian([&] {
    if (TransferEach)
      writeBuffer(S, InBuf, In);
    enqueue(S, K, 2, Global, nullptr);
    if (TransferEach)
      readBuffer(S, OutBuf, Out);
  });
  // Without transfers in the loop, the result still has to come back.
  if (!TransferEach)
    readBuffer(S, OutBuf, Out);
  for (size_t Y = 0; Y < Height; ++Y)
    for (size_t X = 0; X < Width; ++X)
      for (size_t C = 0; C < Channels; ++C) {
        int Want = 0;
        if (X && Y && X + 1 < Width && Y + 1 < Height) {
          auto At = [&](int Dx, int Dy) {
            return int(In[((Y + Dy) * Width + X + Dx) * Channels + C]);
          };
          int Gx = At(1, -1) + 2 * At(1, 0) + At(1, 1) - At(-1, -1) -
                   2 * At(-1, 0) - At(-1, 1);
          int Gy = At(-1, 1) + 2 * At(0, 1) + At(1, 1) - At(-1, -1) -
                   2 * At(0, -1) - At(1, -1);
          Want = std::min(255, int(std::sqrt(double(Gx * Gx + Gy * Gy))));
        }
        // OpenCL's sqrt may be 3 ulp off and hypot 4: at an integer
        // boundary the truncation can land one lower or higher.
        size_t I = (Y * Width + X) * Channels + C;
        if (std::abs(int(Out[I]) - Want) > 1) {
          R.Detail = mismatch("Out", I, Out[I], Want);
          return R;
        }
      }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(
      Argc, Argv, "SobelFilter", 1024, "image width and height",
      {{"--rgba", "an RGBA image of uchar4 pixels (default: 8-bit grey)"},
       {"--transfer-each-iteration",
        "time the input's write and the result's read with each launch"}},
      run);
}
