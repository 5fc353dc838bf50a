#!/usr/bin/python3
"""Explicit-vector kernels on one OpenCL device: chains of dependent FMAs
(clpeak's shape: x = mad(y, x, y); y = mad(x, y, x); ... with distinct
components) and a triad streaming the same types through memory, for float
and float2..float16. Prints GFLOP/s and GB/s, median of --runs launches.

  OCL_ICD_VENDORS=build/vendors/weft.icd /usr/bin/python3 \\
      tools/vector-bench/weft-mad-chains.py [--runs 7] [--platform Weft]

Measures what ScalarizeWorkItemLoops and InterleaveWorkItemLoops buy
(WEFT_SCALARIZE=0 turns the first off) and compares with other platforms.
Needs Debian's python3-pyopencl and python3-numpy.
"""
import argparse
import statistics
import time

import numpy as np
import pyopencl as cl

SOURCE = """
#define MAD_4(x, y) x = mad(y, x, y); y = mad(x, y, x); x = mad(y, x, y); y = mad(x, y, x);
#define MAD_16(x, y) MAD_4(x, y); MAD_4(x, y); MAD_4(x, y); MAD_4(x, y);
#define MAD_64(x, y) MAD_16(x, y); MAD_16(x, y); MAD_16(x, y); MAD_16(x, y);
kernel void triad(global const T *a, global const T *b, global T *c, float s) {
  size_t i = get_global_id(0);
  c[i] = a[i] + s * b[i];
}
kernel void chains(global T *out, float A) {
  T x = INIT;
  T y = (T)get_local_id(0);
  MAD_64(x, y); MAD_64(x, y); MAD_64(x, y); MAD_64(x, y);
  out[get_global_id(0)] = y;
}
"""
MADS_PER_ITEM = 4 * 64  # each mad is 2 flops per component


def init(width):
    if width == 1:
        return "A"
    return "(float%d)(%s)" % (width, ", ".join("A + %d" % i for i in range(width)))


def median_seconds(queue, kernel, size, runs):
    times = []
    for _ in range(runs):
        queue.finish()
        start = time.perf_counter()
        cl.enqueue_nd_range_kernel(queue, kernel, (size,), (256,))
        queue.finish()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--platform", default="")
    ap.add_argument("--device", type=int, default=0)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    platform = next(p for p in cl.get_platforms() if args.platform in p.name)
    device = platform.get_devices()[args.device]
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    print("%s / %s, median of %d" % (platform.name, device.name, args.runs))
    for width in (1, 2, 4, 8, 16):
        type_name = "float" if width == 1 else "float%d" % width
        source = "#define T %s\n#define INIT %s\n%s" % (
            type_name, init(width), SOURCE)
        prog = cl.Program(ctx, source).build()
        items = (1 << 24) // width
        bufs = [cl.Buffer(ctx, cl.mem_flags.READ_WRITE, size=items * 4 * width)
                for _ in range(3)]
        triad = prog.triad
        triad.set_args(bufs[0], bufs[1], bufs[2], np.float32(2))
        seconds = median_seconds(queue, triad, items, args.runs)
        gbs = 12 * items * width / seconds / 1e9
        chain_items = (1 << 20) // width
        chains = prog.chains
        chains.set_args(bufs[2], np.float32(1.5))
        seconds = median_seconds(queue, chains, chain_items, args.runs)
        gflops = 2 * MADS_PER_ITEM * chain_items * width / seconds / 1e9
        print("%-8s chains %7.1f GFLOP/s   triad %6.1f GB/s" %
              (type_name, gflops, gbs))


if __name__ == "__main__":
    main()
