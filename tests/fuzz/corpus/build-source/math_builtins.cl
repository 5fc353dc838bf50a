// One float builtin per row: Out[F * N + I] = builtin F of In[I].
kernel void math_builtins(global float *Out, global const float *In, uint N) {
  size_t I = get_global_id(0);
  float X = In[I];
  Out[0 * N + I] = sqrt(fabs(X));
  Out[1 * N + I] = exp(X);
  Out[2 * N + I] = log(fabs(X) + 0.5f);
  Out[3 * N + I] = sin(X);
  Out[4 * N + I] = cos(X);
  Out[5 * N + I] = floor(X * 3.0f);
  Out[6 * N + I] = fmin(X, 0.25f) + fmax(X, -0.25f);
  Out[7 * N + I] = fma(X, X, 1.0f);
  Out[8 * N + I] = clamp(X, -1.0f, 1.0f);
  Out[9 * N + I] = pow(fabs(X) + 1.0f, 1.5f);
}
