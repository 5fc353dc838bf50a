// Y = A * X + Y
kernel void saxpy(global float *Y, global const float *X, float A) {
  size_t I = get_global_id(0);
  Y[I] = A * X[I] + Y[I];
}
