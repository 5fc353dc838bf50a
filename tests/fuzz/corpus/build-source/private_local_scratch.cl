// Uses a local-memory argument without sharing between work-items (each
// work-item touches only its own slot), so it needs no barrier.
kernel void private_local_scratch(global int *Out, local int *Scratch) {
  size_t L = get_local_id(0);
  Scratch[L] = (int)get_global_id(0) * 2;
  Out[get_global_id(0)] = Scratch[L] + 1;
}
