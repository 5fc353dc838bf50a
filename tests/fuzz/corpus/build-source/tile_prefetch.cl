// Tiled kernels whose copy into local memory is a work-item loop inside a
// loop around barriers: PrefetchWorkItemLoads prefetches the next tile's
// rows before each copy (tests/api/TilePrefetchTest.cpp). The tiles are
// visited in order (STEP > 0), backwards (STEP < 0) and in a permuted order
// (PERMUTE: tile t at (t * 5) & (tiles - 1)), so the next trip's address
// is not always the current one plus a constant.

#ifndef TK
#define TK 8 // rows of A per tile
#endif
#define LX 8 // work-items in x: one float4 column each
#define LY 4 // work-items in y: TK / LY rows of the tile each

// Out[g * LX + x][y] = sum over rows r of A[r][g * LX + x] * (y + 1 + r % 3),
// a float4 per work-item, the rows taken tile by tile through local memory.
__kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
void tile_sums(int Rows, int Ld4, __global const float4 *A,
               __global float4 *Out) {
  __local float4 Tile[TK][LX];
  const int X = get_local_id(0), Y = get_local_id(1);
  const int Col = get_group_id(0) * LX + X;
  const int Tiles = Rows / TK;
  float4 Acc = (float4)(0.0f);
#if STEP > 0
  for (int T = 0; T < Tiles; T += STEP) {
#else
  for (int T = Tiles - 1; T >= 0; T += STEP) {
#endif
#ifdef PERMUTE
    const int K = ((T * 5) & (Tiles - 1)) * TK;
#else
    const int K = T * TK;
#endif
    for (int R = 0; R < TK / LY; ++R) {
      int Row = Y * (TK / LY) + R;
      Tile[Row][X] = A[(K + Row) * Ld4 + Col];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int R = 0; R < TK; ++R)
      Acc += Tile[R][X] * (float)(Y + 1 + (K + R) % 3);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  Out[Col * LY + Y] = Acc;
}
