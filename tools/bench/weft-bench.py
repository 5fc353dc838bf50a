#!/usr/bin/python3
"""Weft benchmark runner: the sample applications on two OpenCL platforms.

Runs every sample of examples/ (built in a Weft build tree) with benchmark
sizes on two platforms, each selected by its ICD file through
OCL_ICD_VENDORS, in alternation (sample by sample, platform after platform)
for several rounds, so that slow drifts of a shared machine hit both alike.
Prints per sample the median over rounds of each platform's kernel median,
their ratio (first / second) and the geometric mean of the ratios; the
build (clBuildProgram) time of each sample's program; launch latency from
examples/LaunchLatency; optionally Weft's pthread device against its basic
device; and clpeak's figures when clpeak is installed (nothing is
installed here).

  /usr/bin/python3 tools/bench/weft-bench.py \\
      --icd build/vendors/weft.icd --icd /etc/OpenCL/vendors/pocl.icd

Every sample verifies its own results; a sample that fails or skips on a
platform is reported as such and left out of the geometric mean.
"""

import argparse
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

# Benchmark problem sizes: bigger than ctest's, each a few to a few hundred
# milliseconds of kernel time on a 2-core machine.
BENCH_SIZES = [
    ("VectorAdd", 1 << 24),
    ("Saxpy", 1 << 24),
    ("MatrixMultiplication", 512),
    ("MatrixMultiplicationTiled", 512),
    ("Mandelbrot", 1024),
    ("BlackScholes", 1 << 22),
    ("BinarySearch", 1 << 22),
    ("BinomialOption", 2048),
    ("BitonicSort", 1 << 20),
    ("DCT", 2048),
    ("DwtHaar1D", 1 << 23),
    ("FastWalshTransform", 1 << 22),
    ("FloydWarshall", 512),
    ("Histogram", 1 << 26),
    ("MatrixTranspose", 4096),
    ("MersenneTwister", 1 << 22),
    ("NBody", 8192),
    ("PrefixSum", 1 << 22),
    ("RadixSort", 1 << 22),
    ("Reduction", 1 << 25),
    ("ScanLargeArrays", 1 << 23),
    ("SimpleConvolution", 2048),
    ("SobelFilter", 4096),
    ("Stream", 1 << 24),
]

# Samples whose time is arithmetic, not memory traffic or launches: where a
# second core should nearly halve the time.
COMPUTE_BOUND = {"MatrixMultiplication", "MatrixMultiplicationTiled",
                 "Mandelbrot", "BlackScholes", "BinomialOption", "NBody",
                 "MersenneTwister", "DCT", "SimpleConvolution"}

RESULT_LINE = re.compile(
    r"^(?P<name>\S+) \[(?P<device>[^\]]*)\]: (?P<status>PASS|FAIL|SKIP)\s+"
    r"(?P<rest>.*)$")
PASS_REST = re.compile(
    r"kernel median (?P<ms>[0-9.]+) ms \((?P<it>\d+) iterations\), "
    r"build (?P<build>[0-9.]+) ms(?:, (?P<detail>.*))?$")
LATENCY_DETAIL = re.compile(
    r"empty kernel, 1 work-group: (?P<empty>[0-9.]+) us; no-op over "
    r"(?P<n>\d+) work-items: (?P<wide>[0-9.]+) us")


class Target:
    """One platform (ICD file) and one device index of it."""

    def __init__(self, label, icd, device):
        self.label = label
        self.icd = icd
        self.device = device

    def env(self, extra):
        env = dict(os.environ)
        env["OCL_ICD_VENDORS"] = self.icd
        env.update(extra)
        return env


def run_sample(exe, target, size, iterations, extra_env, timeout):
    """Runs one sample once; returns (status, kernel_ms, build_ms, detail)."""
    cmd = [exe, "--device", str(target.device), "--size", str(size),
           "--iterations", str(iterations)]
    try:
        proc = subprocess.run(cmd, env=target.env(extra_env),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ("FAIL", None, None, "timed out after %d s" % timeout)
    for line in proc.stdout.splitlines():
        m = RESULT_LINE.match(line)
        if not m:
            continue
        if m.group("status") != "PASS":
            first = m.group("rest").splitlines()[0] if m.group("rest") else ""
            log = [l for l in proc.stdout.splitlines() if "error" in l]
            return (m.group("status"), None, None,
                    (log[0] if log else first)[:100])
        p = PASS_REST.match(m.group("rest"))
        if not p:
            return ("FAIL", None, None, "unparsable: " + line[:100])
        return ("PASS", float(p.group("ms")), float(p.group("build")),
                p.group("detail") or "")
    return ("FAIL", None, None,
            "exit status %d, no result line: %s" %
            (proc.returncode, proc.stdout.strip()[-100:]))


def median(values):
    return statistics.median(values) if values else None


def fmt_ms(value):
    if value is None:
        return "-"
    return "%.3f" % value if value < 10 else "%.1f" % value


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def machine_summary():
    model, mhz, flags = "?", None, set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name":
                    model = value.strip()
                elif key == "cpu MHz" and mhz is None:
                    mhz = float(value)
                elif key == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    cores = os.cpu_count() or 1
    # Single-precision FLOP per cycle and core: two FMA pipes of the widest
    # vector unit (an estimate: Zen 4 splits 512-bit operations in halves).
    lanes = 16 if "avx512f" in flags else 8 if "avx2" in flags else 4
    fma = 2 if "fma" in flags else 1
    flop_per_cycle = 2 * lanes * fma if "avx512f" not in flags else 32
    peak = cores * (mhz or 0) * flop_per_cycle / 1000.0
    return model, cores, mhz, flop_per_cycle, peak


def run_clpeak(target):
    """clpeak's single-precision compute and global bandwidth, if present."""
    exe = shutil.which("clpeak")
    if not exe:
        return None
    try:
        proc = subprocess.run(
            [exe, "-p", "0", "-d", str(target.device), "--compute-sp",
             "--compute-dp", "--global-bandwidth"],
            env=target.env({}), stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "clpeak timed out"
    return proc.stdout


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--icd", action="append", required=True,
                    help="ICD file of a platform (give it twice: the first "
                         "is the one measured, the second the baseline)")
    ap.add_argument("--build-dir", default=None,
                    help="Weft build tree with examples/ (default: the "
                         "directory two levels above --icd's vendors/)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=5,
                    help="timed launches per run (the sample's median)")
    ap.add_argument("--latency-iterations", type=int, default=2000)
    ap.add_argument("--only", default="",
                    help="comma-separated samples to run (default: all)")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="multiply every benchmark size (rounded to keep "
                         "powers of two and multiples)")
    ap.add_argument("--no-basic", action="store_true",
                    help="skip Weft's basic device (pthread over basic)")
    ap.add_argument("--cold-build", action="store_true",
                    help="disable the kernel caches of Weft and pocl, so the "
                         "build column is a compile, not a cache hit")
    ap.add_argument("--timeout", type=int, default=600)
    args = ap.parse_args()
    if len(args.icd) != 2:
        ap.error("give --icd exactly twice")
    icds = [os.path.abspath(p) for p in args.icd]
    for p in icds:
        if not os.path.isfile(p):
            ap.error("no ICD file %s" % p)
    build_dir = args.build_dir or os.path.dirname(os.path.dirname(icds[0]))
    examples = os.path.join(build_dir, "examples")

    names = []
    for icd in icds:
        try:
            with open(icd) as f:
                names.append(os.path.basename(f.read().strip()))
        except OSError:
            names.append(os.path.basename(icd))
    first = Target("A", icds[0], 0)
    second = Target("B", icds[1], 0)
    basic = None if args.no_basic else Target("A/dev1", icds[0], 1)
    extra_env = {}
    if args.cold_build:
        extra_env.update({"WEFT_KERNEL_CACHE": "0", "POCL_KERNEL_CACHE": "0"})

    only = set(filter(None, args.only.split(",")))
    samples = [(n, s) for n, s in BENCH_SIZES if not only or n in only]

    def scaled(name, size):
        if args.scale == 1.0:
            return size
        value = max(1, int(size * args.scale))
        if size & (size - 1) == 0:  # keep powers of two
            value = 1 << max(1, round(math.log2(value)))
        return max(64, value // 64 * 64)

    model, cores, mhz, flop_per_cycle, peak = machine_summary()
    print("weft-bench: %s, %d cores at %s MHz (shared machine: figures are "
          "noisy)" % (model, cores, "%.0f" % mhz if mhz else "?"))
    print("A = %s (%s), B = %s (%s)" % (icds[0], names[0], icds[1], names[1]))
    print("%d rounds, alternating A and B per sample; each run reports the "
          "median of %d launches" % (args.rounds, args.iterations))
    print(flush=True)

    results = {}  # (sample, label) -> list of (status, ms, build, detail)
    targets = [first, second] + ([basic] if basic else [])
    for rnd in range(args.rounds):
        for name, size in samples:
            exe = os.path.join(examples, name)
            if not os.access(exe, os.X_OK):
                for t in targets:
                    results.setdefault((name, t.label), []).append(
                        ("FAIL", None, None, "not built"))
                continue
            # Alternate which platform goes first from round to round.
            order = targets if rnd % 2 == 0 else [second, first] + targets[2:]
            for t in order:
                r = run_sample(exe, t, scaled(name, size), args.iterations,
                               extra_env, args.timeout)
                results.setdefault((name, t.label), []).append(r)
                print("  round %d %-26s %-6s %s %s ms" %
                      (rnd + 1, name, t.label, r[0], fmt_ms(r[1])),
                      file=sys.stderr, flush=True)

    def summary(name, label):
        runs = results.get((name, label), [])
        passed = [r for r in runs if r[0] == "PASS"]
        if len(passed) != len(runs) or not runs:
            bad = [r for r in runs if r[0] != "PASS"]
            return bad[0][0] if bad else "-", None, None, bad[0][3] if bad else ""
        return ("PASS", median([r[1] for r in passed]),
                median([r[2] for r in passed]), passed[-1][3])

    print("== kernel time: median over rounds of each run's median (ms); "
          "ratio = A / B (< 1: A faster)")
    header = "%-26s %10s %10s %7s %10s %10s" % (
        "sample", "A ms", "B ms", "A/B", "A build", "B build")
    if basic:
        header += " %10s %8s" % ("A basic", "basic/A")
    print(header)
    ratios, compute_speedups = [], []
    notes = []
    for name, size in samples:
        sa, ma, ba, da = summary(name, first.label)
        sb, mb, bb, db = summary(name, second.label)
        ratio = ma / mb if ma and mb else None
        if ratio:
            ratios.append(ratio)
        line = "%-26s %10s %10s %7s %10s %10s" % (
            name, fmt_ms(ma) if sa == "PASS" else sa,
            fmt_ms(mb) if sb == "PASS" else sb,
            "%.2f" % ratio if ratio else "-", fmt_ms(ba), fmt_ms(bb))
        if basic:
            sc, mc, _, dc = summary(name, basic.label)
            speedup = mc / ma if mc and ma else None
            if speedup and name in COMPUTE_BOUND:
                compute_speedups.append(speedup)
            line += " %10s %8s" % (fmt_ms(mc) if sc == "PASS" else sc,
                                   "%.2f" % speedup if speedup else "-")
            if sc != "PASS":
                notes.append("%s on A's basic device: %s %s" % (name, sc, dc))
        if ratio and ratio > 1.10:
            line += "   <- A slower by more than 10%"
        print(line)
        for label, status, detail in ((first.label, sa, da),
                                      (second.label, sb, db)):
            if status != "PASS":
                notes.append("%s on %s: %s %s" % (name, label, status, detail))
    print()
    if ratios:
        print("geometric mean of A/B over %d samples: %.3f" %
              (len(ratios), geomean(ratios)))
        print("samples where A is slower than B by more than 10%%: %d" %
              sum(1 for r in ratios if r > 1.10))
    if compute_speedups:
        print("A's device 0 over device 1 (pthread over basic) on "
              "compute-bound samples: geometric mean %.2fx, min %.2fx" %
              (geomean(compute_speedups), min(compute_speedups)))
    for n in notes:
        print("note: " + n)
    print("build = clBuildProgram of the sample's program (the kernel "
          "compile at first launch is untimed)%s" %
          ("; kernel caches off" if args.cold_build else
           "; kernel caches on, as installed"))

    print()
    print("== launch latency (enqueue -> clFinish returns, median of %d)" %
          args.latency_iterations)
    exe = os.path.join(examples, "LaunchLatency")
    for t in targets:
        runs = [run_sample(exe, t, 1 << 20, args.latency_iterations,
                           extra_env, args.timeout)
                for _ in range(args.rounds)]
        empties, wides = [], []
        for r in runs:
            m = LATENCY_DETAIL.search(r[3] or "") if r[0] == "PASS" else None
            if m:
                empties.append(float(m.group("empty")))
                wides.append(float(m.group("wide")))
        if empties:
            print("%-7s empty kernel, 1 work-group: %8.2f us   no-op over "
                  "1M work-items: %8.2f us" %
                  (t.label, median(empties), median(wides)))
        else:
            print("%-7s %s" % (t.label, runs[0][3]))

    print()
    print("== peak figures")
    print("machine limit (estimate): %d cores x %s MHz x %d SP FLOP/cycle = "
          "%.0f GFLOP/s" % (cores, "%.0f" % mhz if mhz else "?",
                             flop_per_cycle, peak))
    native = os.path.join(build_dir, "tools", "native-peak", "weft-native-peak")
    if os.path.isfile(native):
        proc = subprocess.run([native, "--mib", "256"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=600)
        print("machine limit (measured by %s):" % os.path.relpath(native))
        for line in proc.stdout.splitlines():
            print("   " + line.strip())
    for t in (first, second):
        out = run_clpeak(t)
        if out is None:
            print("clpeak not installed: skipped (apt-get install clpeak)")
            break
        print("-- clpeak on %s" % t.label)
        for line in out.splitlines():
            if re.search(r"float|double|GFLOPS|GBPS|bandwidth|Platform|Device",
                         line, re.I):
                print("   " + line.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
