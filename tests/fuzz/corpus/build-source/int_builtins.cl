// Integer builtins on In[I] and In[I + 1].
kernel void int_builtins(global uint *Out, global const uint *In) {
  size_t I = get_global_id(0);
  uint A = In[I], B = In[I + 1];
  global uint *P = Out + I * 8;
  P[0] = popcount(A);
  P[1] = clz(A);
  P[2] = rotate(A, B & 31u);
  P[3] = (uint)abs_diff((int)A, (int)B);
  P[4] = add_sat(A, B);
  P[5] = mul_hi(A, B);
  P[6] = min(A, B);
  P[7] = (uint)max((int)A, (int)B);
}
