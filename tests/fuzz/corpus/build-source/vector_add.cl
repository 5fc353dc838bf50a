kernel void vector_add(global float *C, global const float *A,
                       global const float *B) {
  size_t I = get_global_id(0);
  C[I] = A[I] + B[I];
}
