// Kernels whose addresses are functions of the id that the vectorizer
// cannot prove consecutive: gathers and scatters whose lanes are
// consecutive for some arguments and not for others (VersionGathers).
// tests/api/GatherTest.cpp holds their host references.

// One pass of Batcher's bitonic network: bit Pass inserted into the id.
kernel void bitonic_pass(global uint *Keys, uint Stage, uint Pass) {
  uint I = get_global_id(0);
  uint Distance = 1u << Pass;
  uint Low = ((I >> Pass) << (Pass + 1)) | (I & (Distance - 1));
  uint High = Low + Distance;
  bool Ascending = ((Low >> (Stage + 1)) & 1) == 0;
  uint A = Keys[Low], B = Keys[High];
  if ((A > B) == Ascending) {
    Keys[Low] = B;
    Keys[High] = A;
  }
}

// Lanes permuted inside a vector when a mask is below the vector width,
// consecutive when it is a multiple of it.
kernel void xor_permute(global int *Out, global const int *In, uint M1,
                        uint M2) {
  uint I = get_global_id(0);
  Out[I ^ M1] = In[I ^ M2] * 3 + (int)I;
}

// Only work-items with bit B of the id clear store: a masked scatter.
kernel void masked_xor(global int *Out, global const int *In, uint M, uint B) {
  uint I = get_global_id(0);
  if (((I >> B) & 1) == 0)
    Out[I ^ M] = In[I ^ M] + 1;
}

// A 16-bit index that wraps from 65535 to 0 inside a vector: consecutive
// in 16 bits, not as addresses. The xor hides the index from the
// vectorizer's own run-time checks.
kernel void wrap16(global float *Out, global const float *In, uint Off,
                   uint M) {
  uint I = get_global_id(0);
  ushort J = (ushort)((I ^ M) + Off);
  Out[I] = In[J];
}

// Elements of 8 and of 1 byte.
kernel void xor_double(global double *Out, global const double *In, uint M) {
  uint I = get_global_id(0);
  Out[I] = In[I ^ M] * 0.5;
}

kernel void xor_char(global uchar *Out, global const uchar *In, uint M) {
  uint I = get_global_id(0);
  Out[I] = (uchar)(In[I ^ M] + 1);
}

// clpeak's global-bandwidth kernel with a local offset: an int index of
// size_t ids, which InstCombine turns into a sum of shifts under an ashr
// (ExposeIndexExtensions makes it readable to the vectorizer again).
kernel void local_offset_sums(global const float *A, global float *B) {
  int Id = (get_group_id(0) * get_local_size(0) * 16) + get_local_id(0);
  float Sum = 0;
  for (int I = 0; I < 4; I++) {
    Sum += A[Id];
    Id += get_local_size(0);
    Sum += A[Id] * 2.0f;
    Id += get_local_size(0);
    Sum += A[Id] * 3.0f;
    Id += get_local_size(0);
    Sum += A[Id] * 4.0f;
    Id += get_local_size(0);
  }
  B[get_global_id(0)] = Sum;
}
