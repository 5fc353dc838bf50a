// Kernels with barriers, run by tests/api/BarrierTest.cpp against host
// references. The 1D kernels share one signature,
//   (global uint *Out, global const uint *In, local uint *S, int P0, int P1)
// so one harness runs them at many local sizes; P0 and P1 are uniform.

#define LID get_local_id(0)
#define LSIZE get_local_size(0)
#define GID get_global_id(0)

kernel void straight_line(global uint *Out, global const uint *In,
                          local uint *S, int P0, int P1) {
  size_t L = LID, N = LSIZE;
  S[L] = In[GID];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint A = S[(L + 1) % N];
  barrier(CLK_LOCAL_MEM_FENCE);
  S[L] = A * 2u;
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[GID] = S[N - 1 - L] + A;
}

kernel void uniform_if(global uint *Out, global const uint *In, local uint *S,
                       int P0, int P1) {
  size_t L = LID, N = LSIZE;
  uint V = In[GID];
  if ((get_group_id(0) + P0) % 2 == 0) {
    S[L] = V + 1u;
    barrier(CLK_LOCAL_MEM_FENCE);
    V = S[N - 1 - L];
  } else {
    S[L] = V * 3u;
    barrier(CLK_LOCAL_MEM_FENCE);
    V = S[(L + 1) % N];
    barrier(CLK_LOCAL_MEM_FENCE);
    S[L] = V ^ 5u;
    barrier(CLK_LOCAL_MEM_FENCE);
    V = S[(L + 2) % N];
  }
  Out[GID] = V;
}

kernel void loop_for(global uint *Out, global const uint *In, local uint *S,
                     int P0, int P1) {
  size_t L = LID, N = LSIZE;
  uint V = In[GID];
  for (int I = 0; I < P0; ++I) {
    S[L] = V;
    barrier(CLK_LOCAL_MEM_FENCE);
    V = S[(L + 1) % N] + (uint)I;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  Out[GID] = V;
}

// Values carried around a loop with barriers where the old value is still
// read after the next one exists (Prev), and two values trading places
// (A, B): ParallelRegions may give a carried value its PHI's context slot
// only where no read of the old value can follow the new one.
kernel void loop_carried(global uint *Out, global const uint *In, local uint *S,
                         int P0, int P1) {
  size_t L = LID, N = LSIZE;
  uint Acc = In[GID], Prev = 0, A = (uint)L, B = 7u;
  for (int I = 0; I < P0; ++I) {
    S[L] = Acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint Next = Acc * 3u + S[(L + 1) % N];
    barrier(CLK_LOCAL_MEM_FENCE);
    Prev = Acc ^ Next;
    Acc = Next;
    uint T = A;
    A = B + (uint)I;
    B = T;
  }
  Out[GID] = Acc + Prev * 5u + A * 11u + B * 13u;
}

kernel void loop_while(global uint *Out, global const uint *In, local uint *S,
                       int P0, int P1) {
  size_t L = LID, N = LSIZE;
  uint V = In[GID];
  int I = 0;
  while (I < P0) {
    S[L] = V * 3u;
    barrier(CLK_LOCAL_MEM_FENCE);
    V = S[(L + (size_t)I) % N] + 1u;
    barrier(CLK_LOCAL_MEM_FENCE);
    ++I;
  }
  Out[GID] = V;
}

kernel void loop_do(global uint *Out, global const uint *In, local uint *S,
                    int P0, int P1) {
  size_t L = LID, N = LSIZE;
  uint V = In[GID];
  int I = 0;
  do {
    S[L] = V;
    barrier(CLK_LOCAL_MEM_FENCE);
    V = V + S[N - 1 - L];
    barrier(CLK_LOCAL_MEM_FENCE);
  } while (++I < P0);
  Out[GID] = V;
}

kernel void loop_nested(global uint *Out, global const uint *In, local uint *S,
                        int P0, int P1) {
  size_t L = LID, N = LSIZE;
  uint V = In[GID];
  for (int I = 0; I < P0; ++I) {
    for (int J = 0; J < P1; ++J) {
      S[L] = V;
      barrier(CLK_LOCAL_MEM_FENCE);
      V = S[(L + (size_t)J + 1) % N] + (uint)I;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    V = V * 3u + 1u;
  }
  Out[GID] = V;
}

// Leaves a loop of 100 iterations at iteration P0 (uniform), by break.
kernel void loop_early_exit(global uint *Out, global const uint *In,
                            local uint *S, int P0, int P1) {
  size_t L = LID, N = LSIZE;
  uint V = In[GID];
  for (int I = 0; I < 100; ++I) {
    S[L] = V;
    barrier(CLK_LOCAL_MEM_FENCE);
    V = S[(L + 1) % N] + 1u;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (I == P0)
      break;
  }
  Out[GID] = V;
}

// Same as loop_early_exit, leaving the kernel by return inside the loop.
kernel void loop_return(global uint *Out, global const uint *In, local uint *S,
                        int P0, int P1) {
  size_t L = LID, N = LSIZE;
  uint V = In[GID];
  for (int I = 0; I < 100; ++I) {
    S[L] = V;
    barrier(CLK_LOCAL_MEM_FENCE);
    V = S[(L + 1) % N] + 1u;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (I == P0) {
      Out[GID] = V;
      return;
    }
  }
  Out[GID] = 0u;
}

static void exchange_reversed(local uint *S, uint *V) {
  size_t L = LID, N = LSIZE;
  S[L] = *V;
  barrier(CLK_LOCAL_MEM_FENCE);
  *V = S[N - 1 - L];
  barrier(CLK_LOCAL_MEM_FENCE);
}

static uint rotate_through(local uint *S, uint V, size_t By) {
  S[LID] = V;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint R = S[(LID + By) % LSIZE];
  barrier(CLK_LOCAL_MEM_FENCE);
  return R;
}

kernel void called_barrier(global uint *Out, global const uint *In,
                           local uint *S, int P0, int P1) {
  uint V = In[GID];
  exchange_reversed(S, &V);
  V += 1u;
  V = rotate_through(S, V, 3);
  exchange_reversed(S, &V);
  Out[GID] = V;
}

// Every work-item gets the sum of its group's inputs; any local size.
kernel void reduce_sum(global uint *Out, global const uint *In, local uint *S,
                       int P0, int P1) {
  size_t L = LID, N = LSIZE;
  S[L] = In[GID];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t Stride = 1; Stride < N; Stride *= 2) {
    if (L % (2 * Stride) == 0 && L + Stride < N)
      S[L] += S[L + Stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  Out[GID] = S[0];
}

// The same with an automatic __local array (local sizes up to 256).
kernel void reduce_static(global uint *Out, global const uint *In,
                          local uint *Unused, int P0, int P1) {
  local uint S[256];
  size_t L = LID, N = LSIZE;
  S[L] = In[GID];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t Stride = 1; Stride < N; Stride *= 2) {
    if (L % (2 * Stride) == 0 && L + Stride < N)
      S[L] += S[L + Stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  Out[GID] = S[0];
}

// Blelloch's exclusive scan of each group (power-of-two local sizes).
kernel void scan_blelloch(global uint *Out, global const uint *In,
                          local uint *T, int P0, int P1) {
  size_t L = LID, N = LSIZE;
  T[L] = In[GID];
  for (size_t D = 1; D < N; D <<= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t I = (L + 1) * 2 * D - 1;
    if (I < N)
      T[I] += T[I - D];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (L == N - 1)
    T[N - 1] = 0;
  for (size_t D = N >> 1; D >= 1; D >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t I = (L + 1) * 2 * D - 1;
    if (I < N) {
      uint Left = T[I - D];
      T[I - D] = T[I];
      T[I] += Left;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[GID] = T[L];
}

// Sorts each group's slice ascending (power-of-two local sizes).
kernel void bitonic_sort(global uint *Out, global const uint *In,
                         local uint *S, int P0, int P1) {
  size_t L = LID, N = LSIZE;
  S[L] = In[GID];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t K = 2; K <= N; K <<= 1)
    for (size_t J = K >> 1; J > 0; J >>= 1) {
      size_t P = L ^ J;
      if (P > L) {
        uint A = S[L], B = S[P];
        bool Up = (L & K) == 0;
        if ((A > B) == Up) {
          S[L] = B;
          S[P] = A;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  Out[GID] = S[L];
}

// 1 KiB of private data per work-item live across a barrier, plus scalars.
kernel void private_1k(global uint *Out, global const uint *In, local uint *S,
                       int P0, int P1) {
  size_t L = LID, N = LSIZE;
  uint X = In[GID];
  uint P[256];
  for (int I = 0; I < 256; ++I)
    P[I] = X * (uint)(I + 1) + (uint)I;
  uint A = X + 1u, B = X * 7u, C = X ^ 0x55u, D = X >> 3, E = X * X;
  S[L] = P[L % 256];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint Acc = S[(L + 1) % N];
  for (int I = 0; I < 256; ++I)
    Acc += P[(I * 7 + (int)(L % 256)) % 256] ^ (uint)I;
  Out[GID] = Acc + A + B * 3u + C * 5u + D * 9u + E;
}

// A 3D group reversed through local memory in local-linear order.
kernel void reverse_3d(global uint *Out, global const uint *In,
                       local uint *S) {
  size_t Lin = get_local_id(0) +
               get_local_size(0) * (get_local_id(1) +
                                    get_local_size(1) * get_local_id(2));
  size_t N = get_local_size(0) * get_local_size(1) * get_local_size(2);
  size_t G = get_global_id(0) +
             get_global_size(0) *
                 (get_global_id(1) + get_global_size(1) * get_global_id(2));
  S[Lin] = In[G];
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[G] = S[N - 1 - Lin];
}

// Square tiles of any side T = get_local_size(0) == get_local_size(1).
kernel void transpose(global float *Out, global const float *In,
                      local float *Tile, uint Width, uint Height) {
  size_t T = get_local_size(0);
  size_t LX = get_local_id(0), LY = get_local_id(1);
  Tile[LY * (T + 1) + LX] = In[get_global_id(1) * Width + get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t OX = get_group_id(1) * T + LX, OY = get_group_id(0) * T + LY;
  Out[OY * Height + OX] = Tile[LX * (T + 1) + LY];
}

// Forward 2D DCT-II of 8x8 blocks, one work-item per coefficient; Coef[u*8+x]
// is c(u) cos((2x+1) u pi / 16).
kernel void dct8x8(global float *Out, global const float *In,
                   constant float *Coef, uint Width) {
  local float Block[64];
  local float Rows[64];
  size_t U = get_local_id(0), V = get_local_id(1);
  size_t GX = get_global_id(0), GY = get_global_id(1);
  Block[V * 8 + U] = In[GY * Width + GX];
  barrier(CLK_LOCAL_MEM_FENCE);
  float Sum = 0.0f;
  for (int X = 0; X < 8; ++X)
    Sum += Block[V * 8 + X] * Coef[U * 8 + X];
  Rows[V * 8 + U] = Sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  Sum = 0.0f;
  for (int Y = 0; Y < 8; ++Y)
    Sum += Rows[Y * 8 + U] * Coef[V * 8 + Y];
  Out[GY * Width + GX] = Sum;
}

#if __OPENCL_C_VERSION__ >= 200
// OpenCL C 2.0+ spelling, with and without a scope.
kernel void work_group_barrier_scopes(global uint *Out, global const uint *In,
                                      local uint *S, int P0, int P1) {
  size_t L = LID, N = LSIZE;
  S[L] = In[GID];
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  uint V = S[N - 1 - L];
  work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
  S[L] = V + 1u;
  work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  Out[GID] = S[(L + 1) % N];
}
#endif
