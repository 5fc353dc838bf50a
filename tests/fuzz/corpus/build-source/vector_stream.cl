// Work-item loops over explicit vectors that WidenWorkItemLoops runs several
// work-items at a time. Ids are ints, as in clpeak and most samples: their
// addresses are sign extensions the pass must prove consecutive.

// Four loads per trip of a four-trip loop, as clpeak writes them: the loop
// is unrolled, not made a horizontal loop.
#define FETCH(S, Id, A, Step)                                                  \
  S += A[Id];                                                                  \
  Id += Step;

// Each work-item sums 16 float4 the local size apart (clpeak's
// global_bandwidth_v4_local_offset) and writes the sum of the components.
kernel void sum_strided4(global const float4 *A, global float *Out) {
  int Id = get_group_id(0) * get_local_size(0) * 16 + get_local_id(0);
  float4 S = 0;
  for (int I = 0; I < 4; ++I) {
    FETCH(S, Id, A, get_local_size(0));
    FETCH(S, Id, A, get_local_size(0));
    FETCH(S, Id, A, get_local_size(0));
    FETCH(S, Id, A, get_local_size(0));
  }
  Out[get_global_id(0)] = S.x + S.y + S.z + S.w;
}

// The same from the global id, 16 float2 the global size apart: the
// addresses add the global offset and size, whose low bits decide at run
// time whether the widened loop may run.
kernel void sum_global2(global const float2 *A, global float *Out) {
  int Id = get_global_id(0);
  float2 S = 0;
  for (int I = 0; I < 4; ++I) {
    FETCH(S, Id, A, get_global_size(0));
    FETCH(S, Id, A, get_global_size(0));
    FETCH(S, Id, A, get_global_size(0));
    FETCH(S, Id, A, get_global_size(0));
  }
  Out[get_global_id(0) - get_global_offset(0)] = S.x - S.y;
}

// Shuffles, comparisons, selects and a vector built from scalars, float8.
kernel void mix8(global float8 *Out, global const float8 *A,
                 global const float8 *B, float K) {
  int I = get_global_id(0);
  float8 X = A[I], Y = B[I];
  float8 M = select(Y, X, X > Y);
  float8 V = (float8)(M.s7, X.s1 * K, Y.s0, M.s3 - X.s0, X.s5, Y.s6, K, M.s2);
  Out[I] = V + X.s12345670 * Y.s76543210;
}
