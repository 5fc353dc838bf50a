//===- examples/MatrixTranspose.cpp - out-of-place transpose via local tiles
//===//
//
// Out = In^T for a Size x (Size / 2) matrix. A 16x16 work-group reads a
// tile with consecutive work-items on consecutive columns, stores it in
// local memory, and after a barrier writes it back transposed, again with
// consecutive work-items on consecutive addresses, so both the reads and
// the writes stream through memory.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

using namespace example;

static constexpr size_t Tile = 16;

static const char *const Source = R"CLC(
#define TILE 16
kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose(global float *Out, global const float *In, uint Width,
               uint Height) {
  // One padding column keeps a tile column from mapping to one bank.
  local float Block[TILE][TILE + 1];
  uint X = get_local_id(0), Y = get_local_id(1);
  size_t Gx = get_group_id(0) * TILE, Gy = get_group_id(1) * TILE;
  Block[Y][X] = In[(Gy + Y) * Width + Gx + X];
  barrier(CLK_LOCAL_MEM_FENCE);
  // Out is Width rows of Height: row Gx + Y, column Gy + X.
  Out[(Gx + Y) * Height + Gy + X] = Block[X][Y];
}
)CLC";

static Result run(Session &S) {
  const size_t Width = S.Opts->Size, Height = Width / 2;
  if (Width % (2 * Tile))
    throw Error("--size must be a multiple of 32");
  const size_t Elements = Width * Height;
  std::vector<float> In = randomFloats(Elements, 91, -100, 100);
  Mem InBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     Elements * sizeof(float), In.data()));
  Mem OutBuf(S.buffer(CL_MEM_WRITE_ONLY, Elements * sizeof(float)));
  Program P(S.build(Source));
  Kernel K(S.kernel(P, "transpose"));
  setArg(K, 0, OutBuf.H);
  setArg(K, 1, InBuf.H);
  setArg(K, 2, cl_uint(Width));
  setArg(K, 3, cl_uint(Height));

  size_t Global[2] = {Width, Height}, Local[2] = {Tile, Tile};
  Result R;
  R.KernelMs = S.timeMedian([&] { enqueue(S, K, 2, Global, Local); });
  std::vector<float> Out(Elements);
  readBuffer(S, OutBuf, Out);
  for (size_t Row = 0; Row < Height; ++Row)
    for (size_t Col = 0; Col < Width; ++Col)
      if (Out[Col * Height + Row] != In[Row * Width + Col]) {
        R.Detail = mismatch("Out", Col * Height + Row, Out[Col * Height + Row],
                            In[Row * Width + Col]);
        return R;
      }
  char Buf[64];
  snprintf(Buf, sizeof(Buf), "%.2f GB/s",
           2.0 * Elements * sizeof(float) / (R.KernelMs * 1e6));
  R.Detail = Buf;
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "MatrixTranspose", 1024,
                    "matrix width (a multiple of 32; height is half)", run);
}
