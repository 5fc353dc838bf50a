// Echoes arguments of many types so the host can check how each was passed.
kernel void scalar_args(global long *Ints, global float *Floats, char C,
                        uchar UC, short S, ushort US, int I, uint U, long L,
                        ulong UL, float F, float4 V, int2 I2) {
  Ints[0] = C;
  Ints[1] = UC;
  Ints[2] = S;
  Ints[3] = US;
  Ints[4] = I;
  Ints[5] = U;
  Ints[6] = L;
  Ints[7] = (long)UL;
  Ints[8] = I2.x;
  Ints[9] = I2.y;
  Floats[0] = F;
  Floats[1] = V.x;
  Floats[2] = V.y;
  Floats[3] = V.z;
  Floats[4] = V.w;
}
