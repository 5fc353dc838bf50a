//===- examples/Mandelbrot.cpp - escape-time Mandelbrot set, 2D NDRange ---===//

#include "common/ExampleCommon.h"

#include <cmath>

using namespace example;

// Iteration counts of the escape-time algorithm over [-2, 1] x [-1.5, 1.5].
// FP_CONTRACT OFF keeps the arithmetic identical to the host reference
// (built with -ffp-contract=off), so the counts can be compared exactly.
static const char *const Source = R"CLC(
#pragma OPENCL FP_CONTRACT OFF
kernel void mandelbrot(global uint *Counts, uint Width, uint Height,
                       uint MaxIter) {
  uint Px = get_global_id(0), Py = get_global_id(1);
  float Cr = -2.0f + 3.0f * (float)Px / (float)Width;
  float Ci = -1.5f + 3.0f * (float)Py / (float)Height;
  float Zr = 0.0f, Zi = 0.0f;
  uint N = 0;
  while (N < MaxIter && Zr * Zr + Zi * Zi <= 4.0f) {
    float T = Zr * Zr - Zi * Zi + Cr;
    Zi = 2.0f * Zr * Zi + Ci;
    Zr = T;
    ++N;
  }
  Counts[Py * Width + Px] = N;
}
)CLC";

static unsigned hostCount(unsigned Px, unsigned Py, unsigned Width,
                          unsigned Height, unsigned MaxIter) {
  volatile float Cr = -2.0f + 3.0f * float(Px) / float(Width);
  volatile float Ci = -1.5f + 3.0f * float(Py) / float(Height);
  float Zr = 0.0f, Zi = 0.0f;
  unsigned N = 0;
  while (N < MaxIter && Zr * Zr + Zi * Zi <= 4.0f) {
    float T = Zr * Zr - Zi * Zi + Cr;
    Zi = 2.0f * Zr * Zi + Ci;
    Zr = T;
    ++N;
  }
  return N;
}

static Result run(Session &S) {
  const cl_uint Width = cl_uint(S.Opts->Size), Height = Width, MaxIter = 256;
  const size_t Pixels = size_t(Width) * Height;
  Mem Counts(S.buffer(CL_MEM_WRITE_ONLY, Pixels * sizeof(cl_uint)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "mandelbrot"));
  setArg(K, 0, Counts.H);
  setArg(K, 1, Width);
  setArg(K, 2, Height);
  setArg(K, 3, MaxIter);
  size_t Global[2] = {Width, Height}, Local[2] = {16, 4};
  const size_t *LocalPtr = Width % 16 == 0 ? Local : nullptr;
  Result R;
  R.KernelMs = S.timeMedian([&] {
    check(clEnqueueNDRangeKernel(S.Queue, K, 2, nullptr, Global, LocalPtr, 0,
                                 nullptr, nullptr),
          "clEnqueueNDRangeKernel");
  });
  std::vector<cl_uint> Got(Pixels);
  check(clEnqueueReadBuffer(S.Queue, Counts, CL_TRUE, 0,
                            Pixels * sizeof(cl_uint), Got.data(), 0, nullptr,
                            nullptr),
        "clEnqueueReadBuffer");
  size_t Mismatches = 0, Inside = 0;
  std::string First;
  for (cl_uint Y = 0; Y < Height; ++Y)
    for (cl_uint X = 0; X < Width; ++X) {
      unsigned Want = hostCount(X, Y, Width, Height, MaxIter);
      unsigned Have = Got[size_t(Y) * Width + X];
      Inside += Want == MaxIter;
      if (Have != Want && Mismatches++ == 0)
        First = "pixel (" + std::to_string(X) + "," + std::to_string(Y) +
                ") has " + std::to_string(Have) + " iterations, expected " +
                std::to_string(Want);
    }
  // Division and conversions may round differently within the allowed ULPs,
  // which can flip a few chaotic boundary pixels: allow 0.1% of them.
  if (Mismatches * 1000 > Pixels) {
    R.Detail = std::to_string(Mismatches) + " of " + std::to_string(Pixels) +
               " pixels differ; first: " + First;
    return R;
  }
  if (Pixels >= 64 && (Inside == 0 || Inside == Pixels)) {
    R.Detail = "degenerate image";
    return R;
  }
  if (Mismatches)
    R.Detail = std::to_string(Mismatches) + " boundary pixels differ";
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "Mandelbrot", 512,
                    "image width and height in pixels", run);
}
