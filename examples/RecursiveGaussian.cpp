//===- examples/RecursiveGaussian.cpp - IIR Gaussian blur of an RGBA image ===//
//
// Blurs a Size x Size RGBA image (uchar4 pixels) with Deriche's recursive
// approximation of a Gaussian: the filter whose impulse response is
//   f(n) = k (1 + alpha |n|) exp(-alpha |n|),  alpha = 1.695 / sigma,
// run as a second-order causal recursion down a line plus a second-order
// anticausal one up it, whose sum is f applied to the line. The cost per
// pixel does not depend on sigma. Edges are clamped: the recursions start
// from the steady state of a constant continuation of the edge pixel.
//
// One kernel filters every column of an image, one work-item per column
// walking it top to bottom and back (neighbouring work-items read
// neighbouring pixels of a row, so the accesses of a work-group are
// contiguous). Rows are filtered by transposing the image in local-memory
// tiles, filtering its columns and transposing back, so one iteration is
// four launches: columns, transpose, columns, transpose. Each pass rounds
// to uchar4, as a sample that keeps its images in 8 bits does.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace example;

static constexpr size_t Tile = 16;
static constexpr float Sigma = 4.0f;

static const char *const Source = R"CLC(
// Columns of In (Width x Height) into Out. Causal holds the causal
// recursion's output until the anticausal pass adds its own: rounding it to
// 8 bits in between would lose what the sum needs.
kernel void gaussianColumns(global const uchar4 *In, global uchar4 *Out,
                            global float4 *Causal, uint Width, uint Height,
                            float A0, float A1, float A2, float A3, float B1,
                            float B2, float EdgeCausal,
                            float EdgeAnticausal) {
  uint X = get_global_id(0);
  if (X >= Width)
    return;
  float4 XPrev = convert_float4(In[X]);
  float4 YPrev = EdgeCausal * XPrev, YPrev2 = YPrev;
  for (uint Y = 0; Y < Height; ++Y) {
    float4 Xc = convert_float4(In[Y * Width + X]);
    float4 Yc = A0 * Xc + A1 * XPrev + B1 * YPrev + B2 * YPrev2;
    Causal[Y * Width + X] = Yc;
    XPrev = Xc;
    YPrev2 = YPrev;
    YPrev = Yc;
  }
  float4 XNext = convert_float4(In[(Height - 1) * Width + X]), XNext2 = XNext;
  float4 YNext = EdgeAnticausal * XNext, YNext2 = YNext;
  for (uint Y = Height; Y-- > 0;) {
    float4 Xc = convert_float4(In[Y * Width + X]);
    float4 Yc = A2 * XNext + A3 * XNext2 + B1 * YNext + B2 * YNext2;
    Out[Y * Width + X] = convert_uchar4_sat_rte(Causal[Y * Width + X] + Yc);
    XNext2 = XNext;
    XNext = Xc;
    YNext2 = YNext;
    YNext = Yc;
  }
}

#define TILE 16
// Out (Height x Width) = In (Width x Height) transposed, through a tile in
// local memory, so that both the reads and the writes of a work-group are
// along rows.
kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose(global const uchar4 *In, global uchar4 *Out, uint Width,
               uint Height) {
  local uchar4 Block[TILE][TILE + 1];
  uint Lx = get_local_id(0), Ly = get_local_id(1);
  uint X = get_group_id(0) * TILE + Lx, Y = get_group_id(1) * TILE + Ly;
  if (X < Width && Y < Height)
    Block[Ly][Lx] = In[Y * Width + X];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint OutX = get_group_id(1) * TILE + Lx, OutY = get_group_id(0) * TILE + Ly;
  if (OutX < Height && OutY < Width)
    Out[OutY * Height + OutX] = Block[Lx][Ly];
}
)CLC";

namespace {

/// Deriche's coefficients for one sigma, and the steady-state gains that
/// start each recursion at an edge.
struct Coefficients {
  float A0, A1, A2, A3, B1, B2, EdgeCausal, EdgeAnticausal;
  double Alpha, K;
};

Coefficients deriche(double Sigma) {
  Coefficients C;
  double Alpha = 1.695 / Sigma, E = std::exp(-Alpha), E2 = std::exp(-2 * Alpha);
  // k makes the impulse response sum to 1 over the integers.
  double K = (1 - E) * (1 - E) / (1 + 2 * Alpha * E - E2);
  C.Alpha = Alpha;
  C.K = K;
  C.A0 = float(K);
  C.A1 = float(K * (Alpha - 1) * E);
  C.A2 = float(K * (Alpha + 1) * E);
  C.A3 = float(-K * E2);
  C.B1 = float(2 * E);
  C.B2 = float(-E2);
  // A constant input c makes each recursion settle at c * gain.
  C.EdgeCausal = (C.A0 + C.A1) / (1 - C.B1 - C.B2);
  C.EdgeAnticausal = (C.A2 + C.A3) / (1 - C.B1 - C.B2);
  return C;
}

/// The filter along one line of N values, in the kernel's float
/// operations and order.
void filterLine(const float *In, float *Out, size_t N, const Coefficients &C) {
  std::vector<float> Causal(N);
  float XPrev = In[0], YPrev = C.EdgeCausal * XPrev, YPrev2 = YPrev;
  for (size_t I = 0; I < N; ++I) {
    float Y = C.A0 * In[I] + C.A1 * XPrev + C.B1 * YPrev + C.B2 * YPrev2;
    Causal[I] = Y;
    XPrev = In[I];
    YPrev2 = YPrev;
    YPrev = Y;
  }
  float XNext = In[N - 1], XNext2 = XNext;
  float YNext = C.EdgeAnticausal * XNext, YNext2 = YNext;
  for (size_t I = N; I-- > 0;) {
    float Y = C.A2 * XNext + C.A3 * XNext2 + C.B1 * YNext + C.B2 * YNext2;
    Out[I] = Causal[I] + Y;
    XNext2 = XNext;
    XNext = In[I];
    YNext2 = YNext;
    YNext = Y;
  }
}

/// The host's reference for one gaussianColumns launch: every column and
/// channel of a Width x Height RGBA image, rounded like convert_uchar4_sat_rte.
std::vector<cl_uchar> filterColumns(const std::vector<cl_uchar> &In,
                                    size_t Width, size_t Height,
                                    const Coefficients &C) {
  std::vector<cl_uchar> Out(In.size());
  std::vector<float> Line(Height), Filtered(Height);
  for (size_t X = 0; X < Width; ++X)
    for (size_t Ch = 0; Ch < 4; ++Ch) {
      for (size_t Y = 0; Y < Height; ++Y)
        Line[Y] = In[(Y * Width + X) * 4 + Ch];
      filterLine(Line.data(), Filtered.data(), Height, C);
      for (size_t Y = 0; Y < Height; ++Y)
        Out[(Y * Width + X) * 4 + Ch] = cl_uchar(
            std::min(255.0f, std::max(0.0f, std::nearbyint(Filtered[Y]))));
    }
  return Out;
}

std::vector<cl_uchar> transposeImage(const std::vector<cl_uchar> &In,
                                     size_t Width, size_t Height) {
  std::vector<cl_uchar> Out(In.size());
  for (size_t Y = 0; Y < Height; ++Y)
    for (size_t X = 0; X < Width; ++X)
      for (size_t Ch = 0; Ch < 4; ++Ch)
        Out[(X * Height + Y) * 4 + Ch] = In[(Y * Width + X) * 4 + Ch];
  return Out;
}

/// The recursions must reproduce the filter's definition: an impulse comes
/// out as k (1 + alpha |n|) exp(-alpha |n|). Checks the coefficients and
/// filterLine, which the image reference is built from; empty when they do.
std::string checkImpulseResponse(const Coefficients &C) {
  const size_t N = 201, Mid = N / 2;
  std::vector<float> Impulse(N, 0.0f), Response(N);
  Impulse[Mid] = 1.0f;
  filterLine(Impulse.data(), Response.data(), N, C);
  for (size_t I = 0; I < N; ++I) {
    double D = std::abs(double(I) - double(Mid));
    double Want = C.K * (1 + C.Alpha * D) * std::exp(-C.Alpha * D);
    if (std::abs(Response[I] - Want) > 1e-5)
      return "host filter's impulse response: " +
             mismatch("f", I, Response[I], Want);
  }
  return "";
}

size_t roundUp(size_t N, size_t To) { return (N + To - 1) / To * To; }

} // namespace

static Result run(Session &S) {
  const size_t Width = S.Opts->Size, Height = Width;
  const size_t Pixels = Width * Height, Bytes = Pixels * 4;
  const Coefficients C = deriche(Sigma);
  Result R;
  R.Detail = checkImpulseResponse(C);
  if (!R.Detail.empty())
    return R;

  // Blocks of flat colour with noise, sharp edges between them.
  std::vector<cl_uint> Noise = randomUints(Bytes, 313, 48);
  std::vector<cl_uchar> Image(Bytes);
  for (size_t Y = 0; Y < Height; ++Y)
    for (size_t X = 0; X < Width; ++X)
      for (size_t Ch = 0; Ch < 4; ++Ch) {
        size_t I = (Y * Width + X) * 4 + Ch;
        Image[I] = cl_uchar(((X / 24 + Y / 40 + Ch) % 3) * 90 + Noise[I]);
      }

  Mem ImageBuf(
      S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes, Image.data()));
  Mem FilteredBuf(S.buffer(CL_MEM_READ_WRITE, Bytes));
  Mem TransposedBuf(S.buffer(CL_MEM_READ_WRITE, Bytes));
  Mem OutBuf(S.buffer(CL_MEM_WRITE_ONLY, Bytes));
  Mem CausalBuf(S.buffer(CL_MEM_READ_WRITE, Pixels * sizeof(cl_float4)));
  Program P(S.build(Source));
  Kernel Columns(S.kernel(P, "gaussianColumns"));
  Kernel Transpose(S.kernel(P, "transpose"));
  setArg(Columns, 2, CausalBuf.H);
  cl_uint Arg = 5;
  for (float V :
       {C.A0, C.A1, C.A2, C.A3, C.B1, C.B2, C.EdgeCausal, C.EdgeAnticausal})
    setArg(Columns, Arg++, V);

  auto filter = [&](cl_mem In, cl_mem Out, size_t W, size_t H) {
    setArg(Columns, 0, In);
    setArg(Columns, 1, Out);
    setArg(Columns, 3, cl_uint(W));
    setArg(Columns, 4, cl_uint(H));
    enqueue1D(S, Columns, W, 0);
  };
  auto transpose = [&](cl_mem In, cl_mem Out, size_t W, size_t H) {
    setArg(Transpose, 0, In);
    setArg(Transpose, 1, Out);
    setArg(Transpose, 2, cl_uint(W));
    setArg(Transpose, 3, cl_uint(H));
    size_t Global[2] = {roundUp(W, Tile), roundUp(H, Tile)};
    size_t Local[2] = {Tile, Tile};
    enqueue(S, Transpose, 2, Global, Local);
  };
  R.KernelMs = S.timeMedian([&] {
    filter(ImageBuf, FilteredBuf, Width, Height);
    transpose(FilteredBuf, TransposedBuf, Width, Height);
    filter(TransposedBuf, FilteredBuf, Height, Width);
    transpose(FilteredBuf, OutBuf, Height, Width);
  });
  std::vector<cl_uchar> Out(Bytes);
  readBuffer(S, OutBuf, Out);

  std::vector<cl_uchar> Want = filterColumns(Image, Width, Height, C);
  Want = transposeImage(Want, Width, Height);
  Want = filterColumns(Want, Height, Width, C);
  Want = transposeImage(Want, Height, Width);
  // The kernel may contract the recursions into FMAs, so a value at a
  // rounding boundary may round the other way in the first pass and move
  // its neighbours' sums in the second: at most 1 + 1.
  for (size_t I = 0; I < Bytes; ++I)
    if (std::abs(int(Out[I]) - int(Want[I])) > 2) {
      R.Detail = mismatch("Out", I, Out[I], Want[I]);
      return R;
    }
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "RecursiveGaussian", 512,
                    "image width and height (RGBA pixels)", run);
}
