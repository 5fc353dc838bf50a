kernel void increment(global int *P) { P[get_global_id(0)] += 1; }
