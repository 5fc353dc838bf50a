#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// Y = A * X + Y in double precision.
kernel void double_axpy(global double *Y, global const double *X, double A) {
  size_t I = get_global_id(0);
  Y[I] = A * X[I] + Y[I];
}
