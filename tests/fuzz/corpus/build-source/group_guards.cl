// Bounds guards on affine functions of the local ids around loops
// (GroupGuardTest.cpp). VersionGroupGuards gives each guard a copy for
// groups where it holds in every work-item; groups where it holds in some
// work-items only, or in none, keep the original.

// Each work-item sums two neighbouring columns over the rows, as CLBlast's
// direct GEMM owns two columns per work-item: col = 2 * lx + 2 * LX * gx
// + off. A work-item whose two columns are both inside [0, n) writes the
// weighted sums; the others leave their output alone.
kernel void guarded_columns(global const float *in, global float *out, int n,
                            int rows, int off) {
  const int col = (int)get_local_id(0) * 2 + (int)get_group_id(0) * (2 * LX) +
                  off;
  if (col + 1 < n && col >= 0) {
    float s0 = 0.0f, s1 = 0.0f;
    for (int r = 0; r < rows; ++r) {
      s0 += in[r * n + col] * (float)(r + 1);
      s1 += in[r * n + col + 1] * (float)(2 * r + 1);
    }
    out[col] = s0;
    out[col + 1] = s1;
  }
}

// Two dimensions, a `&&` chain of guards on x and y, and `if (...) return`.
kernel void guarded_block(global const int *in, global int *out, int w,
                          int h, int depth) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int acc = 0;
  for (int d = 0; d < depth; ++d)
    acc = acc * 3 + in[(d * h + y) * w + x];
  out[y * w + x] = acc;
}

// Barriers under the guard: it only ever holds in whole groups (every
// work-item of a group agrees), as a valid kernel with barriers needs.
// Tail columns past the last whole group take a checked path.
kernel void guarded_tiles(global const float *in, global float *out, int n,
                          int rows, local float *tile) {
  const int lx = get_local_id(0);
  const int col = lx + (int)get_group_id(0) * LX;
  if (col < (n / LX) * LX) {
    float s = 0.0f;
    for (int r = 0; r < rows; ++r) {
      tile[lx] = in[r * n + col];
      barrier(CLK_LOCAL_MEM_FENCE);
      s += tile[LX - 1 - lx] * (float)(r + 1);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[col] = s;
  } else if (col < n) {
    float s = 0.0f;
    for (int r = 0; r < rows; ++r)
      s += in[r * n + col];
    out[col] = -s;
  }
}

// The guarded value reaches the ends of the int range: col = lx + off.
kernel void guarded_offset(global int *out, int n, int off, int reps) {
  const int lx = get_local_id(0);
  const int col = lx + off;
  int acc = -1;
  if (col < n) {
    acc = 0;
    for (int r = 0; r < reps; ++r)
      acc += (col - off) * 2 + r;
  }
  out[get_global_id(0)] = acc;
}

// col wraps past INT_MAX in some work-items: the int of a size_t sum.
kernel void guarded_wrap(global int *out, uint off, int reps) {
  const int col = (int)(get_local_id(0) + off);
  int acc = -1;
  if (col >= 0) {
    acc = 0;
    for (int r = 0; r < reps; ++r)
      acc += (int)get_local_id(0) * 2 + r;
  }
  out[get_global_id(0)] = acc;
}
