#!/usr/bin/python3
"""Weft benchmark runner: the sample applications on two OpenCL platforms.

Runs every sample of examples/ (built in a Weft build tree) with benchmark
sizes on two platforms, each selected by its ICD file through
OCL_ICD_VENDORS, in alternation (sample by sample, platform after platform)
for several rounds, so that slow drifts of a shared machine hit both alike.
Prints per sample the median over rounds of each platform's kernel median,
their ratio (first / second) and the geometric mean of the ratios; the
build (clBuildProgram) time of each sample's program; launch latency from
examples/LaunchLatency (for Weft also with WEFT_THREADS=2 and 16);
optionally Weft's pthread device against its basic device; and clpeak's
figures when clpeak is installed (nothing is installed here).

  /usr/bin/python3 tools/bench/weft-bench.py \\
      --icd build/vendors/weft.icd --icd /etc/OpenCL/vendors/pocl.icd

The samples: --set bench (every sample at a benchmark size), --set issue18
(the workloads of issue 18 at its sizes: a 512x512 uchar4 Sobel filter
with a transfer each iteration, the recursive Gaussian, fast Walsh,
bitonic sort of 512K keys, a 2,048-element prefix sum 200 times,
Floyd-Warshall on 1,024 nodes, binary search, AES-128), or --set all (both;
the default). The conditions users have, one run each:

  ... (nothing more)            quiet: only what else the machine runs
  ... --shared-cores            a CPU-bound busy loop on every online CPU
                                beside the benchmark, for the whole run
  ... --weft-threads 8          WEFT_THREADS=8 for the Weft platform only
                                (more workers than cores)
  ... --poll                    the samples wait by polling event status

The output header names the condition and the machine, so the output can
be quoted as it is. Every sample verifies its own results; a sample that
fails or skips on a platform is reported as such and left out of the
geometric mean.
"""

import argparse
import ctypes
import math
import os
import re
import shlex
import shutil
import signal
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

# The workloads issue 18 names, at its sizes: (row, sample, size,
# iterations (None: --iterations), extra arguments). Where the issue names
# no size (fast Walsh, binary search) the bench size stands, and --set all
# runs that row once.
ISSUE18_SET = [
    ("SobelFilter/uchar4+xfer", "SobelFilter", 512, None,
     ["--rgba", "--transfer-each-iteration"]),
    ("RecursiveGaussian", "RecursiveGaussian", 512, None, []),
    ("FastWalshTransform", "FastWalshTransform", 1 << 22, None, []),
    ("BitonicSort/512K", "BitonicSort", 1 << 19, None, []),
    ("PrefixSum/2048x200", "PrefixSum", 2048, 200, []),
    ("FloydWarshall/1024", "FloydWarshall", 1024, None, []),
    ("BinarySearch", "BinarySearch", 1 << 22, None, []),
    ("AESEncryptDecrypt", "AESEncryptDecrypt", 512, None, []),
]


def sample_set(name):
    """The rows of a --set: (row, sample, size, iterations, extra args)."""
    bench = [(n, n, size, None, []) for n, size in BENCH_SIZES]
    if name == "bench":
        return bench
    if name == "issue18":
        return list(ISSUE18_SET)
    rows = list(bench)
    for row in ISSUE18_SET:
        if not any(r[1:] == row[1:] for r in rows):
            rows.append(row)
    return rows


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
    """One platform (ICD file) and one device index of it, with the
    environment variables set for that platform only."""

    def __init__(self, label, icd, device, own_env=None):
        self.label = label
        self.icd = icd
        self.device = device
        self.own_env = dict(own_env or {})

    def env(self, extra):
        env = dict(os.environ)
        env["OCL_ICD_VENDORS"] = self.icd
        env.update(extra)
        env.update(self.own_env)
        return env


class BusyLoops:
    """One CPU-bound process per online CPU while the with-block runs: the
    shared-cores condition, where an application's threads compete with
    other processes for every core. The loops are killed when the block
    ends, however it ends, and by the kernel if this runner dies first."""

    COMMAND = ["sh", "-c", "while :; do :; done"]

    def __init__(self, count):
        self.count = count
        self.procs = []

    @staticmethod
    def _die_with_parent():
        # PR_SET_PDEATHSIG: even a SIGKILLed runner leaves no busy loop.
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass

    def __enter__(self):
        try:
            for _ in range(self.count):
                self.procs.append(subprocess.Popen(
                    self.COMMAND, stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                    preexec_fn=self._die_with_parent))
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
        for p in self.procs:
            p.wait()
        self.procs = []

    def __exit__(self, *exc):
        self.stop()
        return False


def online_cpus():
    try:
        return os.sysconf("SC_NPROCESSORS_ONLN")
    except (ValueError, OSError):
        return os.cpu_count() or 1


def run_sample(exe, target, size, iterations, extra_env, timeout,
               extra_args=()):
    """Runs one sample once; returns (status, kernel_ms, build_ms, detail)."""
    cmd = [exe, "--device", str(target.device), "--size", str(size),
           "--iterations", str(iterations)] + list(extra_args)
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
    cores = online_cpus()
    # Single-precision FLOP per cycle and core: two FMA pipes of the widest
    # vector unit (an estimate: Zen 4 splits 512-bit operations in halves).
    lanes = 16 if "avx512f" in flags else 8 if "avx2" in flags else 4
    fma = 2 if "fma" in flags else 1
    flop_per_cycle = 2 * lanes * fma if "avx512f" not in flags else 32
    peak = cores * (mhz or 0) * flop_per_cycle / 1000.0
    return model, cores, mhz, flop_per_cycle, peak


def lscpu_summary():
    """'<model name>, N CPUs (C cores x T threads, S sockets)' from lscpu."""
    fields = {}
    try:
        proc = subprocess.run(["lscpu"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True,
                              timeout=30, env=dict(os.environ, LC_ALL="C"))
        for line in proc.stdout.splitlines():
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    model = fields.get("Model name", machine_summary()[0])
    cpus = fields.get("CPU(s)", str(online_cpus()))
    try:
        cores = int(fields["Core(s) per socket"]) * int(fields["Socket(s)"])
        shape = "%d cores, %s thread(s) per core, %s socket(s)" % (
            cores, fields["Thread(s) per core"], fields["Socket(s)"])
    except (KeyError, ValueError):
        shape = "cores unknown"
    guest = fields.get("Hypervisor vendor")
    return "%s, %s CPUs (%s)%s" % (model, cpus, shape,
                                   ", %s guest" % guest if guest else "")


def icd_library(icd):
    """The library an ICD file names (its first line)."""
    try:
        with open(icd) as f:
            return f.read().strip()
    except OSError:
        return os.path.basename(icd)


def parse_env_list(items, ap, flag):
    env = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            ap.error("%s wants KEY=VALUE, not %r" % (flag, item))
        env[key] = value
    return env


def run_clpeak(target):
    """clpeak's single-precision compute and global bandwidth, if present."""
    exe = shutil.which("clpeak")
    if not exe:
        return None
    try:
        proc = subprocess.run(
            [exe, "-p", "0", "-d", str(target.device), "--compute-sp",
             "--compute-dp", "--global-bandwidth", "--kernel-latency"],
            env=target.env({}), stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "clpeak timed out"
    return proc.stdout


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--icd", action="append", required=True,
                    help="ICD file of a platform (give it twice: the first "
                         "is the one measured, the second the baseline)")
    ap.add_argument("--build-dir", default=None,
                    help="Weft build tree with examples/ (default: the "
                         "directory two levels above --icd's vendors/)")
    ap.add_argument("--set", dest="sample_set", default="all",
                    choices=["bench", "issue18", "all"],
                    help="which samples: the benchmark sizes, issue 18's "
                         "workloads, or both (default)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=5,
                    help="timed launches per run (the sample's median; a "
                         "row with its own count, like PrefixSum/2048x200, "
                         "keeps it)")
    ap.add_argument("--latency-iterations", type=int, default=2000)
    ap.add_argument("--only", default="",
                    help="comma-separated rows or samples to run (default: "
                         "all of the set)")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="multiply every benchmark size (rounded to keep "
                         "powers of two and multiples)")
    ap.add_argument("--no-basic", action="store_true",
                    help="skip Weft's basic device (pthread over basic)")
    ap.add_argument("--cold-build", action="store_true",
                    help="disable the kernel caches of Weft and pocl, so the "
                         "build column is a compile, not a cache hit")
    ap.add_argument("--shared-cores", action="store_true",
                    help="run a CPU-bound busy loop on every online CPU "
                         "beside the benchmark for the whole run")
    ap.add_argument("--weft-threads", type=int, default=None, metavar="N",
                    help="WEFT_THREADS=N for the Weft platform only (the "
                         "first --icd whose library is libweft)")
    ap.add_argument("--env-first", action="append", default=[],
                    metavar="KEY=VALUE",
                    help="an environment variable for the first --icd's "
                         "platform only (repeatable)")
    ap.add_argument("--poll", action="store_true",
                    help="the samples wait for each launch by polling its "
                         "event's status, as many SDK samples do")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--no-peak", action="store_true",
                    help="skip the peak figures (native peak, clpeak): a "
                         "minute per run, for comparisons of the samples")
    args = ap.parse_args()
    if len(args.icd) != 2:
        ap.error("give --icd exactly twice")
    icds = [os.path.abspath(p) for p in args.icd]
    for p in icds:
        if not os.path.isfile(p):
            ap.error("no ICD file %s" % p)
    libraries = [icd_library(p) for p in icds]
    names = [os.path.basename(lib) for lib in libraries]
    weft_index = next((i for i, n in enumerate(names)
                       if "weft" in n.lower()), None)
    build_dir = args.build_dir or os.path.dirname(
        os.path.dirname(icds[weft_index or 0]))
    examples = os.path.join(build_dir, "examples")

    first_env = parse_env_list(args.env_first, ap, "--env-first")
    own_envs = [dict(first_env), {}]
    if args.weft_threads is not None:
        if weft_index is None:
            ap.error("--weft-threads: no --icd names a Weft library "
                     "(%s)" % ", ".join(names))
        if args.weft_threads < 1:
            ap.error("--weft-threads wants a positive count")
        own_envs[weft_index]["WEFT_THREADS"] = str(args.weft_threads)
    first = Target("A", icds[0], 0, own_envs[0])
    second = Target("B", icds[1], 0, own_envs[1])
    basic = None if args.no_basic else Target("A/dev1", icds[0], 1,
                                               own_envs[0])
    extra_env = {}
    if args.cold_build:
        extra_env.update({"WEFT_KERNEL_CACHE": "0", "POCL_KERNEL_CACHE": "0"})
    extra_args = ["--poll"] if args.poll else []

    only = set(filter(None, args.only.split(",")))
    samples = [r for r in sample_set(args.sample_set)
               if not only or r[0] in only or r[1] in only]
    if not samples:
        ap.error("--only %s matches no row of --set %s" %
                 (args.only, args.sample_set))

    def scaled(name, size):
        if args.scale == 1.0:
            return size
        value = max(1, int(size * args.scale))
        if size & (size - 1) == 0:  # keep powers of two
            value = 1 << max(1, round(math.log2(value)))
        return max(64, value // 64 * 64)

    busy = BusyLoops(online_cpus() if args.shared_cores else 0)

    def on_signal(signum, frame):
        raise SystemExit(128 + signum)

    # SIGTERM and SIGHUP unwind like Ctrl-C, through the busy loops' exit.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    try:
        with busy:
            report(args, icds, names, weft_index, first, second, basic,
                   extra_env, extra_args, samples, scaled, build_dir,
                   examples, busy)
    except KeyboardInterrupt:
        print("weft-bench: interrupted", file=sys.stderr)
        return 130
    return 0


def describe_condition(args, weft_index, busy):
    parts = []
    if busy.count:
        parts.append("shared cores: %d CPU-bound busy loops (%s), one per "
                     "online CPU, for the whole run" %
                     (busy.count, " ".join(shlex.quote(c)
                                           for c in busy.COMMAND)))
    else:
        parts.append("quiet: no busy loops started by the runner")
    if args.weft_threads is not None:
        parts.append("WEFT_THREADS=%d for %s only" %
                     (args.weft_threads, "AB"[weft_index]))
    else:
        parts.append("WEFT_THREADS unset (one worker per core)")
    if args.env_first:
        parts.append("on A only: %s" % " ".join(args.env_first))
    if args.poll:
        parts.append("samples wait by polling event status (--poll)")
    return "; ".join(parts)


def report(args, icds, names, weft_index, first, second, basic, extra_env,
           extra_args, samples, scaled, build_dir, examples, busy):
    model, cores, mhz, flop_per_cycle, peak = machine_summary()
    try:
        load = "%.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        load = "?"
    print("weft-bench: %s" % " ".join(
        shlex.quote(a) for a in [os.path.basename(sys.argv[0])] +
        sys.argv[1:]))
    print("machine: %s at %s MHz; load average before the run %s "
          "(shared machine: figures are noisy)" %
          (lscpu_summary(), "%.0f" % mhz if mhz else "?", load))
    print("condition: %s" % describe_condition(args, weft_index, busy))
    print("A = %s (%s), B = %s (%s)" % (icds[0], names[0], icds[1], names[1]))
    own_counts = "".join(", %s: %d" % (r[0], r[3]) for r in samples if r[3])
    print("set %s: %d rows; %d rounds, alternating A and B per sample; each "
          "run reports the median of %d launches%s" %
          (args.sample_set, len(samples), args.rounds, args.iterations,
           own_counts))
    print(flush=True)

    results = {}  # (row, label) -> list of (status, ms, build, detail)
    targets = [first, second] + ([basic] if basic else [])
    for rnd in range(args.rounds):
        for row, name, size, iterations, row_args in samples:
            exe = os.path.join(examples, name)
            if not os.access(exe, os.X_OK):
                for t in targets:
                    results.setdefault((row, t.label), []).append(
                        ("FAIL", None, None, "not built"))
                continue
            # Alternate which platform goes first from round to round.
            order = targets if rnd % 2 == 0 else [second, first] + targets[2:]
            for t in order:
                r = run_sample(exe, t, scaled(name, size),
                               iterations or args.iterations, extra_env,
                               args.timeout, row_args + extra_args)
                results.setdefault((row, t.label), []).append(r)
                print("  round %d %-26s %-6s %s %s ms" %
                      (rnd + 1, row, t.label, r[0], fmt_ms(r[1])),
                      file=sys.stderr, flush=True)

    def summary(row, label):
        runs = results.get((row, label), [])
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
    for row, name, size, iterations, row_args in samples:
        sa, ma, ba, da = summary(row, first.label)
        sb, mb, bb, db = summary(row, second.label)
        ratio = ma / mb if ma and mb else None
        if ratio:
            ratios.append(ratio)
        line = "%-26s %10s %10s %7s %10s %10s" % (
            row, fmt_ms(ma) if sa == "PASS" else sa,
            fmt_ms(mb) if sb == "PASS" else sb,
            "%.2f" % ratio if ratio else "-", fmt_ms(ba), fmt_ms(bb))
        if basic:
            sc, mc, _, dc = summary(row, basic.label)
            speedup = mc / ma if mc and ma else None
            if speedup and name in COMPUTE_BOUND:
                compute_speedups.append(speedup)
            line += " %10s %8s" % (fmt_ms(mc) if sc == "PASS" else sc,
                                   "%.2f" % speedup if speedup else "-")
            if sc != "PASS":
                notes.append("%s on A's basic device: %s %s" % (row, sc, dc))
        if ratio and ratio > 1.10:
            line += "   <- A slower by more than 10%"
        print(line)
        for label, status, detail in ((first.label, sa, da),
                                      (second.label, sb, db)):
            if status != "PASS":
                notes.append("%s on %s: %s %s" % (row, label, status, detail))
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
    sizes = ", ".join("%s %s%s" % (row, scaled(name, size),
                                   " " + " ".join(row_args) if row_args
                                   else "")
                      for row, name, size, _, row_args in samples)
    print("sizes (--size): " + sizes)

    print()
    print("== launch latency (enqueue -> clFinish returns, median of %d)" %
          args.latency_iterations)
    exe = os.path.join(examples, "LaunchLatency")
    latency_targets = list(targets)
    if weft_index is not None:
        # Launch cost must not grow with the worker count: Weft's pthread
        # device with 2 and with 16 workers, whatever this run's condition.
        weft = (first, second)[weft_index]
        for threads in (2, 16):
            env = dict(weft.own_env, WEFT_THREADS=str(threads))
            latency_targets.append(Target(
                "%s WEFT_THREADS=%d" % (weft.label, threads), weft.icd,
                weft.device, env))
    for t in latency_targets:
        runs = [run_sample(exe, t, 1 << 20, args.latency_iterations,
                           extra_env, args.timeout, extra_args)
                for _ in range(args.rounds)]
        empties, wides = [], []
        for r in runs:
            m = LATENCY_DETAIL.search(r[3] or "") if r[0] == "PASS" else None
            if m:
                empties.append(float(m.group("empty")))
                wides.append(float(m.group("wide")))
        if empties:
            print("%-18s empty kernel, 1 work-group: %8.2f us   no-op over "
                  "1M work-items: %8.2f us" %
                  (t.label, median(empties), median(wides)))
        else:
            print("%-18s %s" % (t.label, runs[0][3]))

    if args.no_peak:
        return
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
            if re.search(r"float|double|GFLOPS|GBPS|bandwidth|latency|"
                         r"Platform|Device", line, re.I):
                print("   " + line.strip())


if __name__ == "__main__":
    sys.exit(main())
