// Every work-item writes what it knows about itself into 22 ints at its
// position in the (offset-relative) global range: dimension d of
// get_global_id, get_global_offset, get_local_id, get_group_id,
// get_num_groups, get_global_size, get_local_size, and get_work_dim.
kernel void work_item_ids(global int *Out) {
  size_t Width = get_global_size(0), Height = get_global_size(1);
  size_t X = get_global_id(0) - get_global_offset(0);
  size_t Y = get_global_id(1) - get_global_offset(1);
  size_t Z = get_global_id(2) - get_global_offset(2);
  global int *P = Out + ((Z * Height + Y) * Width + X) * 22;
  for (uint D = 0; D < 3; ++D) {
    P[D] = (int)get_global_id(D);
    P[3 + D] = (int)get_global_offset(D);
    P[6 + D] = (int)get_local_id(D);
    P[9 + D] = (int)get_group_id(D);
    P[12 + D] = (int)get_num_groups(D);
    P[15 + D] = (int)get_global_size(D);
    P[18 + D] = (int)get_local_size(D);
  }
  P[21] = (int)get_work_dim();
}
