// Kernels with automatic __local variables (declared in the kernel body), for
// tests/api/LocalVariableTest.cpp. Each writes its variables from several
// work-items, crosses a barrier and reads what other work-items wrote, so
// a variable that is not shared by the group, not private to the group, or
// overlapping another gives a result the host reference does not.

#ifdef HAVE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct {
  char Tag;
  double Value;
  int Count;
} Record;

// Three variables of different sizes and alignments: 67 chars, four
// double16 (128-byte aligned) and three structs with a double. Out gets one
// value per work-item, and -1000 when a variable is misaligned.
kernel void mixed_types(global const int *In, global double *Out) {
  local char Tags[67];
  local double16 Wide[4];
  local Record Recs[3];
  const size_t L = get_local_id(0), N = get_local_size(0);
  const int Base = In[get_group_id(0)];
  for (size_t I = L; I < 67; I += N)
    Tags[I] = (char)(Base * 3 + (int)I);
  for (size_t I = L; I < 64; I += N)
    ((local double *)Wide)[I] = (double)Base + 0.5 * (double)I;
  for (size_t I = L; I < 3; I += N) {
    Recs[I].Tag = (char)(Base + (int)I);
    Recs[I].Value = 0.25 * (double)(Base - (int)I);
    Recs[I].Count = Base * (int)(I + 1);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  double16 W = Wide[L % 4];
  Record R = Recs[L % 3];
  double V = (double)Tags[(L * 7 + 3) % 67] + W.s0 + W.sf + R.Value +
             (double)R.Tag + (double)R.Count;
  barrier(CLK_LOCAL_MEM_FENCE);
  // The same variables again, rewritten by one work-item for all.
  if (L == N - 1) {
    int Sum = 0;
    for (int I = 0; I < 67; ++I)
      Sum += Tags[I];
    Recs[1].Count = Sum;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  V += (double)Recs[1].Count;
  if ((ulong)Tags % __alignof__(char) || (ulong)Wide % 128 ||
      (ulong)Recs % __alignof__(Record))
    V = -1000.0;
  Out[get_global_id(0)] = V;
}
#endif

#ifdef BIG
// BIG uints (set with -DBIG=...) and one more: close to the device's local
// memory. Out[group] is a sum over values other work-items wrote.
kernel void near_limit(global uint *Out) {
  local uint Big[BIG];
  local uint Total;
  const size_t L = get_local_id(0), N = get_local_size(0);
  const uint Seed = (uint)get_group_id(0) * 2654435761u;
  for (size_t I = L; I < BIG; I += N)
    Big[I] = Seed ^ (uint)I;
  if (L == 0)
    Total = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint Sum = 0;
  for (size_t I = L; I < BIG; I += N)
    Sum += Big[BIG - 1 - I] * (uint)(I & 7);
  atomic_add(&Total, Sum);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (L == 0)
    Out[get_group_id(0)] = Total;
}
#endif

// Automatic variables next to __local pointer arguments: each gets its own
// pattern, and every work-item reads all four after the barrier.
kernel void with_local_args(global int *Out, local float *A, local int4 *B,
                            int SizeA, int SizeB) {
  local short S[33];
  local float4 T[9];
  const size_t L = get_local_id(0), N = get_local_size(0);
  const int G = (int)get_group_id(0);
  for (size_t I = L; I < (size_t)SizeA; I += N)
    A[I] = (float)(G * 1000 + (int)I);
  for (size_t I = L; I < (size_t)SizeB; I += N)
    B[I] = (int4)(G, (int)I, 2 * (int)I, 7);
  for (size_t I = L; I < 33; I += N)
    S[I] = (short)(G * 100 - (int)I);
  for (size_t I = L; I < 9; I += N)
    T[I] = (float4)((float)I, (float)G, 0.5f, -2.0f);
  barrier(CLK_LOCAL_MEM_FENCE);
  int4 BV = B[(L * 5) % SizeB];
  float4 TV = T[(L * 2) % 9];
  Out[get_global_id(0)] = (int)A[(L * 3 + 1) % SizeA] + BV.x + BV.y + BV.z +
                          BV.w + S[(L + 4) % 33] + (int)(TV.x + TV.y + TV.z +
                                                         TV.w);
}

// Layout: a char, a float16 (64-byte aligned) and an int, in that order.
kernel void padded(global float *Out) {
  local char C[3];
  local float16 W[1];
  local int I;
  const size_t L = get_local_id(0);
  if (L == 0) {
    C[0] = 1;
    W[0] = (float16)(2.0f);
    I = 3;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[get_global_id(0)] = (float)C[0] + W[0].s5 + (float)I;
}
