// Out = In.wzyx * Scale, one float4 per work-item.
kernel void float4_scale(global float4 *Out, global const float4 *In,
                         float4 Scale) {
  size_t I = get_global_id(0);
  Out[I] = In[I].wzyx * Scale;
}
