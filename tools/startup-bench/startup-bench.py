#!/usr/bin/python3
"""Start-up of an application that ships its kernels, on two OpenCL platforms.

Times one process (weft-startup-probe) from its start to its first kernel
result for a program of 50 kernels (about 5,000 lines of OpenCL C, made
here from a fixed recipe), in three ways:

  cold     from source, with an empty kernel cache
  warm     from source, with the cache filled by an earlier run
  binary   from a binary the application stored (CL_PROGRAM_BINARIES of an
           earlier run, after its first kernel ran), with the cache off

Each platform is selected by its ICD file (OCL_ICD_VENDORS); runs alternate
between the platforms. Prints the median over --runs of each mode, and the
ratio of the first platform to the second.

  /usr/bin/python3 tools/startup-bench/startup-bench.py \\
      --icd build/vendors/weft.icd --icd /etc/OpenCL/vendors/pocl.icd

A benchmark, not a test: the figures depend on the machine and its load.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time

KERNELS = 50

# Where each implementation keeps its kernel cache, and how it is turned off.
CACHE_DIR_VARS = ['WEFT_CACHE_DIR', 'POCL_CACHE_DIR']
CACHE_OFF = {'WEFT_KERNEL_CACHE': '0', 'POCL_KERNEL_CACHE': '0'}


def kernel_text(i):
    """About 100 lines: helpers with loops and math, a switch, local memory
    and barriers, vector code."""
    c1, c2, c3 = 0.5 + i / 100.0, 0.25 + i / 200.0, 1.0 + i / 50.0
    cases = '\n'.join(
        f'  case {j}: x = x * {1 + j / 10.0:.2f}f + {j}.0f; break;'
        for j in range(45))
    return f'''
float mix{i}(float x, int n) {{
  float acc = 0.0f;
  for (int j = 0; j < n; ++j) {{
    acc += sin(x * (float)(j + {i})) * {c1:.4f}f;
    acc = fma(acc, {c2:.4f}f, cos(acc));
  }}
  return acc;
}}

float4 shape{i}(float4 v) {{
  float4 r = v * {c3:.4f}f + (float4)({i}.0f, 1.0f, 2.0f, 3.0f);
  r = select(r, sqrt(fabs(r)), isgreater(r, (float4)(10.0f)));
  return normalize(r) + exp(-fabs(r));
}}

float step{i}(float x, int k) {{
  switch (k % 45) {{
{cases}
  default: x = -x; break;
  }}
  return x;
}}

int bits{i}(uint u) {{
  int s = 0;
  for (int b = 0; b < 8; ++b)
    s += popcount(rotate(u, (uint)(b * {i % 7 + 1}))) & (b + 1);
  return s + clz(u | 1u) - (int)(mul_hi(u, {i}u) & 7u);
}}

kernel void k{i}(global float *out, global const float *in,
                local float *tile, int n) {{
  size_t g = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);
  tile[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = 0.0f;
  for (size_t k = 0; k < ls; ++k)
    s += tile[(l + k) % ls] * (float)(k + 1);
  float4 v = (float4)(in[g], s, (float)l, (float)n);
  float m = mix{i}(in[g], n) + dot(shape{i}(v), (float4)(1.0f));
  m = step{i}(m, (int)g + n);
  int b = bits{i}(as_uint(m));
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[ls - 1 - l] = m + (float)b;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tile[l] + s;
}}

'''


def program_text():
    parts = ['kernel void k0(global float *out, global const float *in) {\n'
             '  size_t i = get_global_id(0);\n'
             '  out[i] = in[i] * 3.0f + 1.0f;\n'
             '}\n']
    parts += [kernel_text(i) for i in range(1, KERNELS)]
    return ''.join(parts)


def platform_env(icd, cache_dir, cache_on):
    env = dict(os.environ)
    env['OCL_ICD_VENDORS'] = icd
    for var in CACHE_DIR_VARS:
        env[var] = cache_dir
    for var in CACHE_OFF:
        env.pop(var, None)
    if not cache_on:
        env.update(CACHE_OFF)
    return env


def probe(args, env, *probe_args):
    env = dict(env)
    env['WEFT_STARTUP_T0_NS'] = str(time.clock_gettime_ns(time.CLOCK_MONOTONIC))
    out = subprocess.run([args.probe, *probe_args], env=env,
                         capture_output=True, text=True, check=False)
    for line in out.stdout.splitlines():
        if line.startswith('first-result-ms '):
            return float(line.split()[1])
    raise SystemExit(f'probe failed: {out.stderr.strip()}')


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--icd', action='append', required=True,
                    help='ICD file of a platform (give two)')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--probe', default=os.path.join(
        here, '..', '..', 'build', 'tools', 'startup-bench',
        'weft-startup-probe'))
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix='startup-bench-')
    source = os.path.join(work, 'program.cl')
    with open(source, 'w') as f:
        f.write(program_text())
    with open(source) as f:
        lines = sum(1 for _ in f)
    print(f'program: {KERNELS} kernels, {lines} lines; '
          f'median of {args.runs} runs, ms from process start to the first '
          f'result')
    results = {}
    try:
        for p, icd in enumerate(args.icd):
            warm_dir = os.path.join(work, f'warm{p}')
            os.makedirs(warm_dir)
            # Fills the warm cache and stores the binary (after k0 ran).
            binary = os.path.join(work, f'program{p}.bin')
            probe(args, platform_env(icd, warm_dir, True), '--source', source,
                  '--save-binary', binary)
            results[p] = {'cold': [], 'warm': [], 'binary': []}
        for run in range(args.runs):
            for p, icd in enumerate(args.icd):
                cold_dir = os.path.join(work, f'cold{p}-{run}')
                os.makedirs(cold_dir)
                results[p]['cold'].append(probe(
                    args, platform_env(icd, cold_dir, True), '--source',
                    source))
                results[p]['warm'].append(probe(
                    args, platform_env(icd, os.path.join(work, f'warm{p}'),
                                       True), '--source', source))
                results[p]['binary'].append(probe(
                    args, platform_env(icd, os.path.join(work, 'none'), False),
                    '--binary', os.path.join(work, f'program{p}.bin')))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    names = [os.path.basename(i) for i in args.icd]
    print(f'{"mode":8}' + ''.join(f'{n:>22}' for n in names) +
          ('       ratio' if len(names) == 2 else ''))
    for mode in ('cold', 'warm', 'binary'):
        meds = [statistics.median(results[p][mode])
                for p in range(len(names))]
        row = f'{mode:8}' + ''.join(f'{m:22.1f}' for m in meds)
        if len(meds) == 2:
            row += f'{meds[0] / meds[1]:12.2f}'
        print(row)


if __name__ == '__main__':
    main()
