#!/usr/bin/python3
"""Which function each math builtin finally calls in Weft's JIT-compiled code.

For every math builtin (and the common and geometric builtins that compute
with math), every type (float, double, half) and every width (1, 2, 3, 4,
8, 16), compiles one small kernel through Weft -- `O[i] = f(A[i], ...)` over
a work-group of 64, so that the work-item loop is what the vectorizer sees,
as in a real kernel -- and, with `--guarded`, the same call under a
data-dependent branch (a border test, as in a Sobel filter). The final IR
that WEFT_DUMP_IR writes is put through llc-19 (the JIT's code generator,
with the target CPU and features the IR carries), and every call in the
assembly is listed: SLEEF's vector functions, SLEEF's or libm's scalar
ones, libgcc's half conversions.

  /usr/bin/python3 tools/builtin-routes/weft-builtin-routes.py \\
      --icd build/vendors/weft.icd --levels host,x86-64-v3,x86-64 \\
      --guarded --relaxed --update docs/builtin-vector-table.md

Each level runs in a child process with WEFT_TARGET_CPU set (`host` leaves
it unset), so nothing depends on the machine beyond the `host` section.
--only hypot,sin restricts the builtins; --types float restricts the types;
without --update the tables go to stdout. About three minutes per section
on two cores.

A cell names, per function the kernel calls, the widest form it calls:
`hypotf16_u35` is Sleef_hypotf16_u35<isa> (16 lanes; the section's header
names each width's ISA), `hypotf_u05 (scalar)` SLEEF's one-value function,
`hypotf (libm)` glibc's; `xN` counts call sites. Scalar calls next to a
vector call of the same function are the vectorized loop's remainder and
are left out. A cell whose widest call takes one value is in bold: the
builtin runs one element at a time there. `inline` means no call at all,
`inline scalar` no call and no vector operation in the kernel's code (the
work-item loop was not vectorized).
"""

import argparse
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

WIDTHS = [1, 2, 3, 4, 8, 16]
GEOMETRIC_WIDTHS = [1, 2, 3, 4]

# Signatures: the result kind, then each argument's kind.
#   g  the builtin's type (floatN)      S  its scalar (float)
#   i  intN                             u  the unsigned type of the same size
#   P  pointer to gentype               I  pointer to intN
ONE = "g:g"
TWO = "g:gg"
THREE = "g:ggg"
MATH = {
    "acos": ONE, "acosh": ONE, "acospi": ONE, "asin": ONE, "asinh": ONE,
    "asinpi": ONE, "atan": ONE, "atanh": ONE, "atanpi": ONE, "atan2": TWO,
    "atan2pi": TWO, "cbrt": ONE, "ceil": ONE, "copysign": TWO, "cos": ONE,
    "cosh": ONE, "cospi": ONE, "erfc": ONE, "erf": ONE, "exp": ONE,
    "exp2": ONE, "exp10": ONE, "expm1": ONE, "fabs": ONE, "fdim": TWO,
    "floor": ONE, "fma": THREE, "fmax": TWO, "fmin": TWO, "fmod": TWO,
    "fract": "g:gP", "frexp": "g:gI", "hypot": TWO, "ilogb": "i:g",
    "ldexp": "g:gi", "lgamma": ONE, "lgamma_r": "g:gI", "log": ONE,
    "log2": ONE, "log10": ONE, "log1p": ONE, "logb": ONE, "mad": THREE,
    "maxmag": TWO, "minmag": TWO, "modf": "g:gP", "nan": "g:u",
    "nextafter": TWO, "pow": TWO, "pown": "g:gi", "powr": TWO,
    "remainder": TWO, "remquo": "g:ggI", "rint": ONE, "rootn": "g:gi",
    "round": ONE, "rsqrt": ONE, "sin": ONE, "sincos": "g:gP", "sinh": ONE,
    "sinpi": ONE, "sqrt": ONE, "tan": ONE, "tanh": ONE, "tanpi": ONE,
    "tgamma": ONE, "trunc": ONE,
}
# half_ and native_ forms: float only.
REDUCED = {
    "cos": ONE, "divide": TWO, "exp": ONE, "exp2": ONE, "exp10": ONE,
    "log": ONE, "log2": ONE, "log10": ONE, "powr": TWO, "recip": ONE,
    "rsqrt": ONE, "sin": ONE, "sqrt": ONE, "tan": ONE,
}
COMMON = {
    "clamp": THREE, "degrees": ONE, "max": TWO, "min": TWO, "mix": THREE,
    "radians": ONE, "sign": ONE, "smoothstep": THREE, "step": TWO,
}
GEOMETRIC = {
    "dot": "S:gg", "distance": "S:gg", "length": "S:g", "normalize": ONE,
    "cross": TWO,
}
FAST_GEOMETRIC = {"fast_distance": "S:gg", "fast_length": "S:g",
                  "fast_normalize": ONE}


def builtins():
    """(name, signature, types, widths) of every builtin in the table."""
    everything = ("float", "double", "half")
    rows = [(n, s, everything, WIDTHS) for n, s in MATH.items()]
    for prefix in ("half_", "native_"):
        rows += [(prefix + n, s, ("float",), WIDTHS) for n, s in REDUCED.items()]
    rows += [(n, s, everything, WIDTHS) for n, s in COMMON.items()]
    for n, s in GEOMETRIC.items():
        widths = [3, 4] if n == "cross" else GEOMETRIC_WIDTHS
        rows.append((n, s, everything, widths))
    rows += [(n, s, ("float",), GEOMETRIC_WIDTHS)
             for n, s in FAST_GEOMETRIC.items()]
    return rows


def vec(scalar, width):
    return scalar if width == 1 else f"{scalar}{width}"


def kernel_source(name, signature, scalar, width, guarded):
    """One kernel: every operand loaded from its own buffer, the result (and
    what a pointer argument received) stored."""
    result, args = signature.split(":")
    unsigned = {"float": "uint", "double": "ulong", "half": "ushort"}[scalar]
    g, i, u = vec(scalar, width), vec("int", width), vec(unsigned, width)
    types = {"g": g, "S": scalar, "i": i}
    kname = f"w{width}{'_if' if guarded else ''}"
    lines = [
        f"kernel void {kname}(global const {g} *A, global const {g} *B,",
        f"    global const {g} *C, global const {i} *N, global const {u} *U,",
        f"    global {types[result]} *O, global {g} *P, global {i} *Q,",
        f"    global const int *Guard) {{",
        "  size_t i = get_global_id(0);",
    ]
    if guarded:
        lines.append("  if (Guard[i] == 0) return;")
    operands, floats = [], iter(["A", "B", "C"])
    for kind in args:
        if kind == "g":
            operands.append(f"{next(floats)}[i]")
        elif kind == "i":
            operands.append("N[i]")
        elif kind == "u":
            operands.append("U[i]")
        elif kind == "P":
            lines.append(f"  {g} p;")
            operands.append("&p")
        elif kind == "I":
            lines.append(f"  {i} q;")
            operands.append("&q")
    call = f"{name}({', '.join(operands)})"
    lines.append(f"  O[i] = {call};" if result != "i" else f"  Q[i] = {call};")
    if "P" in args:
        lines.append("  P[i] = p;")
    if "I" in args:
        lines.append("  Q[i] = q;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def program_source(name, signature, scalar, widths, guarded):
    pragma = {"double": "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n",
              "half": "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"}
    source = pragma.get(scalar, "")
    for w in widths:
        source += kernel_source(name, signature, scalar, w, False)
        if guarded:
            source += kernel_source(name, signature, scalar, w, True)
    return source


# --- running kernels through the ICD loader (child process) ---------------

class OpenCL:
    """The few OpenCL calls the child needs, through ctypes."""

    def __init__(self):
        P = ctypes.c_void_p
        cl = ctypes.CDLL("libOpenCL.so.1")
        cl.clGetPlatformIDs.argtypes = [ctypes.c_uint, P, P]
        cl.clGetDeviceIDs.argtypes = [P, ctypes.c_uint64, ctypes.c_uint, P, P]
        cl.clCreateContext.argtypes = [P, ctypes.c_uint, P, P, P, P]
        cl.clCreateContext.restype = P
        cl.clCreateCommandQueueWithProperties.argtypes = [P, P, P, P]
        cl.clCreateCommandQueueWithProperties.restype = P
        cl.clCreateProgramWithSource.argtypes = [P, ctypes.c_uint, P, P, P]
        cl.clCreateProgramWithSource.restype = P
        cl.clBuildProgram.argtypes = [P, ctypes.c_uint, P, ctypes.c_char_p, P,
                                      P]
        cl.clGetProgramBuildInfo.argtypes = [P, P, ctypes.c_uint,
                                             ctypes.c_size_t, P, P]
        cl.clCreateKernel.argtypes = [P, ctypes.c_char_p, P]
        cl.clCreateKernel.restype = P
        cl.clSetKernelArg.argtypes = [P, ctypes.c_uint, ctypes.c_size_t, P]
        cl.clEnqueueNDRangeKernel.argtypes = [P, P, ctypes.c_uint, P, P, P,
                                              ctypes.c_uint, P, P]
        cl.clCreateBuffer.argtypes = [P, ctypes.c_uint64, ctypes.c_size_t, P,
                                      P]
        cl.clCreateBuffer.restype = P
        cl.clFinish.argtypes = [P]
        cl.clReleaseKernel.argtypes = [P]
        cl.clReleaseProgram.argtypes = [P]
        self.cl = cl
        count = ctypes.c_uint()
        platforms = (P * 16)()
        self.check(cl.clGetPlatformIDs(16, platforms, ctypes.byref(count)),
                   "clGetPlatformIDs")
        devices = (P * 1)()
        self.check(cl.clGetDeviceIDs(platforms[0], 0xFFFFFFFF, 1, devices,
                                     None), "clGetDeviceIDs")
        self.device = P(devices[0])
        err = ctypes.c_int()
        self.context = P(cl.clCreateContext(None, 1, ctypes.byref(self.device),
                                            None, None, ctypes.byref(err)))
        self.check(err.value, "clCreateContext")
        self.queue = P(cl.clCreateCommandQueueWithProperties(
            self.context, self.device, None, ctypes.byref(err)))
        self.check(err.value, "clCreateCommandQueueWithProperties")
        # Large enough for 256 work-items of double16, zero-filled.
        size = 256 * 16 * 8
        zeros = ctypes.create_string_buffer(size)
        self.buffers = [
            P(cl.clCreateBuffer(self.context, 1 | 32, size, zeros,
                                ctypes.byref(err)))  # READ_WRITE | COPY_HOST
            for _ in range(9)]
        self.check(err.value, "clCreateBuffer")

    @staticmethod
    def check(err, what):
        if err != 0:
            raise RuntimeError(f"{what} failed: {err}")

    def run(self, source, kernels, options):
        """Builds source and runs each kernel once over 256 work-items in
        groups of 64; the build log on failure."""
        cl, P = self.cl, ctypes.c_void_p
        err = ctypes.c_int()
        text = ctypes.c_char_p(source.encode())
        program = P(cl.clCreateProgramWithSource(
            self.context, 1, ctypes.byref(text), None, ctypes.byref(err)))
        self.check(err.value, "clCreateProgramWithSource")
        try:
            if cl.clBuildProgram(program, 1, ctypes.byref(self.device),
                                 options.encode(), None, None) != 0:
                size = ctypes.c_size_t()
                cl.clGetProgramBuildInfo(program, self.device, 0x1183, 0,
                                         None, ctypes.byref(size))
                log = ctypes.create_string_buffer(size.value)
                cl.clGetProgramBuildInfo(program, self.device, 0x1183,
                                         size.value, log, None)
                return log.value.decode(errors="replace")
            for name in kernels:
                kernel = P(cl.clCreateKernel(program, name.encode(),
                                             ctypes.byref(err)))
                self.check(err.value, "clCreateKernel " + name)
                for index, buf in enumerate(self.buffers):
                    self.check(cl.clSetKernelArg(
                        kernel, index, ctypes.sizeof(P),
                        ctypes.cast(ctypes.byref(buf), P)), "clSetKernelArg")
                glob, local = (ctypes.c_size_t * 1)(256), (ctypes.c_size_t * 1)(64)
                self.check(cl.clEnqueueNDRangeKernel(
                    self.queue, kernel, 1, None, glob, local, 0, None, None),
                    "clEnqueueNDRangeKernel " + name)
                self.check(cl.clFinish(self.queue), "clFinish")
                cl.clReleaseKernel(kernel)
        finally:
            cl.clReleaseProgram(program)
        return None


# --- reading the calls out of the code ------------------------------------

# C's math functions: a name is libm's double function, or its float form
# with an f suffix.
LIBM = set("""acos acosh asin asinh atan atan2 atanh cbrt ceil copysign cos
cosh erf erfc exp exp2 exp10 expm1 fabs fdim floor fma fmax fmin fmod frexp
hypot ilogb ldexp lgamma lgamma_r log log10 log1p log2 logb modf nan nextafter
pow remainder remquo rint round sin sincos sinh sqrt tan tanh tgamma trunc
""".split())
SLEEF_VECTOR = re.compile(r"^Sleef_([a-z0-9]+?)([fd])(\d+)_(u\d\d)([a-z0-9]*)$")
SLEEF_SCALAR_FLOAT = re.compile(r"^Sleef_([a-z0-9]+?)f_(u\d\d)$")
SLEEF_SCALAR_DOUBLE = re.compile(r"^Sleef_([a-z0-9]+?)_(u\d\d)$")
CALL = re.compile(r"^\s*(?:call|jmp)q?\s+\*?([A-Za-z_][A-Za-z_0-9.]*)(?:@PLT)?\s*$")
DECLARE = re.compile(r"^declare [^@]*?(<(\d+) x (float|double)>|float|double) @([A-Za-z_0-9.]+)\(")


def classify(callee, declared):
    """(stem, element type, lanes, accuracy, isa, library) of a called
    function, as far as its name and declaration tell."""
    m = SLEEF_VECTOR.match(callee)
    if m:
        elt = "float" if m.group(2) == "f" else "double"
        return (m.group(1), elt, int(m.group(3)), m.group(4), m.group(5),
                "sleef")
    decl = declared.get(callee)
    m = SLEEF_SCALAR_DOUBLE.match(callee)
    if m:
        # Sleef_erf_u10 is double, Sleef_erff_u10 float: the declaration says.
        f = SLEEF_SCALAR_FLOAT.match(callee)
        if f and (decl is None or decl[0] == "float"):
            return (f.group(1), "float", 1, f.group(2), "", "sleef")
        return (m.group(1), "double", 1, m.group(2), "", "sleef")
    if callee in LIBM:
        return (callee, "double", 1, "", "", "libm")
    if callee.endswith("f") and callee[:-1] in LIBM:
        return (callee[:-1], "float", 1, "", "", "libm")
    return (callee, "", 1, "", "", "other")


VECTOR_VALUE = re.compile(r"^\s+(?:%\S+ = )?.*<\d+ x (?:float|double|half|i\d+)>")


def calls_of(final_ir, llc):
    """{callee: call sites} of the code llc makes of final_ir, the declared
    result types of the IR's functions, and whether the IR computes on
    vectors anywhere."""
    declared, vectors = {}, False
    with open(final_ir) as f:
        for line in f:
            m = DECLARE.match(line)
            if m:
                elt = m.group(3) or m.group(1)
                declared[m.group(4)] = (elt, int(m.group(2) or 1))
            elif VECTOR_VALUE.match(line):
                vectors = True
    asm = subprocess.run([llc, "-O3", "-relocation-model=pic", final_ir, "-o",
                          "-"], check=True, capture_output=True, text=True)
    calls = {}
    for line in asm.stdout.splitlines():
        m = CALL.match(line)
        if m and not m.group(1).startswith(".L"):
            calls[m.group(1)] = calls.get(m.group(1), 0) + 1
    return calls, declared, vectors


def worker(args):
    """Child: compiles every kernel at one level, prints JSON lines."""
    cl = OpenCL()
    dump = tempfile.mkdtemp(prefix="weft-routes-")
    os.environ["WEFT_DUMP_IR"] = dump
    only = set(args.only.split(",")) if args.only else None
    types = set(args.types.split(","))
    try:
        for name, signature, scalars, widths in builtins():
            if only and name not in only:
                continue
            for scalar in scalars:
                if scalar not in types:
                    continue
                source = program_source(name, signature, scalar, widths,
                                        args.guarded)
                kernels = [m.group(1) for m in
                           re.finditer(r"kernel void (\w+)\(", source)]
                log = cl.run(source, kernels, args.options)
                record = {"name": name, "type": scalar, "cells": {}}
                if log is not None:
                    record["error"] = log.strip().splitlines()[:3]
                for entry in sorted(os.listdir(dump)):
                    path = os.path.join(dump, entry)
                    m = re.match(r"\d+-(\w+)-final\.ll$", entry)
                    if m:
                        calls, declared, vectors = calls_of(path, args.llc)
                        record["cells"][m.group(1)] = {
                            "vectors": vectors,
                            "calls": [[callee, count, classify(callee,
                                                               declared)]
                                      for callee, count in
                                      sorted(calls.items())]}
                    os.unlink(path)
                print(json.dumps(record), flush=True)
    finally:
        shutil.rmtree(dump, ignore_errors=True)


# --- the table (parent process) -------------------------------------------

def summarize(cell):
    """A cell's text and whether its widest call takes one value (or,
    without calls, whether nothing computes on vectors)."""
    calls = cell["calls"]
    if not calls:
        return ("inline", False) if cell["vectors"] else ("inline scalar",
                                                          True)
    groups = {}
    for callee, count, (stem, elt, lanes, acc, isa, lib) in calls:
        if lib == "other":
            stem = callee
        groups.setdefault((stem, elt), []).append(
            (lanes, callee, count, acc, lib))
    parts, widest = [], 0
    for (stem, elt), members in sorted(groups.items()):
        top = max(m[0] for m in members)
        widest = max(widest, top)
        for lanes, callee, count, acc, lib in sorted(members):
            if lanes != top:
                continue  # epilogue and remainder loops
            suffix = "f" if elt == "float" else "d" if elt == "double" else ""
            if lib == "sleef" and lanes > 1:
                text = f"{stem}{suffix}{lanes}_{acc}"
            elif lib == "sleef":
                text = f"{stem}{'f' if elt == 'float' else ''}_{acc} (scalar)"
            elif lib == "libm":
                text = f"{callee} (libm)"
            else:
                text = callee
            if count > 1 and lanes == 1:
                text += f" x{count}"
            parts.append(text)
    return "<br>".join(parts), widest == 1


def isa_legend(records):
    """The ISA suffix of each (element type, lanes) the section calls."""
    seen = {}
    for record in records:
        for cell in record["cells"].values():
            for callee, _, (stem, elt, lanes, acc, isa, lib) in cell["calls"]:
                if lib == "sleef" and lanes > 1:
                    seen.setdefault((elt, lanes), set()).add(isa)
    return ", ".join(f"{'f' if e == 'float' else 'd'}{n}: "
                     f"{'/'.join(sorted(isas))}"
                     for (e, n), isas in sorted(seen.items()))


def table(records, guarded):
    """The section's table, and the rows that call nothing at any width
    (listed in a sentence instead)."""
    columns = [str(w) for w in WIDTHS]
    if guarded:
        columns += [f"{w} if" for w in WIDTHS]
    out = ["| builtin | type | " + " | ".join(columns) + " |",
           "| --- | --- |" + " --- |" * len(columns)]
    inline = []
    for record in records:
        cells, texts = [], set()
        for column in columns:
            width, _, cond = column.partition(" ")
            cell = record["cells"].get(f"w{width}{'_if' if cond else ''}")
            if cell is None:
                cells.append("")
                continue
            text, scalar = summarize(cell)
            texts.add(text)
            cells.append(f"**{text}**" if scalar else text)
        if "error" in record:
            cells = ["build failed: " + " ".join(record["error"])[:80]] + \
                cells[1:]
        elif texts == {"inline"}:
            inline.append(f"{record['name']} ({record['type']})")
            continue
        out.append(f"| {record['name']} | {record['type']} | " +
                   " | ".join(cells) + " |")
    return "\n".join(out), inline


def section(level, options, records, guarded, llc):
    name = level if level != "host" else f"this host ({host_cpu(llc)})"
    text, inline = table(records, guarded)
    out = [f"## {name}{', ' + options if options else ''}\n",
           f"ISA of the vector calls: {isa_legend(records)}.\n"]
    if inline:
        out.append("No call at any width (computed in line): " +
                   ", ".join(inline) + ".\n")
    out.append(text + "\n")
    return "\n".join(out)


MARKER = "<!-- generated by tools/builtin-routes/weft-builtin-routes.py -->"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--icd", default="build/vendors/weft.icd")
    parser.add_argument("--levels", default="host,x86-64-v3,x86-64",
                        help="WEFT_TARGET_CPU values; host leaves it unset")
    parser.add_argument("--options", default="",
                        help="build options of every program")
    parser.add_argument("--relaxed", action="store_true",
                        help="also a section per level with "
                             "-cl-fast-relaxed-math")
    parser.add_argument("--guarded", action="store_true",
                        help="also each call under a data-dependent branch")
    parser.add_argument("--only", default="", help="builtins, comma-separated")
    parser.add_argument("--types", default="float,double,half")
    parser.add_argument("--llc", default="llc-19")
    parser.add_argument("--update", metavar="FILE",
                        help="replace what follows the marker line in FILE "
                             "(docs/builtin-vector-table.md) instead of "
                             "printing a document")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return 0

    command = "tools/builtin-routes/weft-builtin-routes.py " + " ".join(
        a for a in sys.argv[1:] if not a.startswith("--update"))
    parts = [f"Generated by `{command.strip()}`.\n",
             __doc__.strip().split("\n\n")[-1] + "\n"]
    failed = False
    option_sets = [args.options]
    if args.relaxed:
        option_sets.append((args.options + " -cl-fast-relaxed-math").strip())
    for level in args.levels.split(","):
        for options in option_sets:
            env = dict(os.environ, OCL_ICD_VENDORS=os.path.abspath(args.icd),
                       WEFT_KERNEL_CACHE="0")
            env.pop("WEFT_TARGET_CPU", None)
            if level != "host":
                env["WEFT_TARGET_CPU"] = level
            child = [sys.executable, os.path.abspath(__file__), "--worker",
                     "--types", args.types, "--llc", args.llc,
                     "--options=" + options]
            if args.only:
                child += ["--only", args.only]
            if args.guarded:
                child.append("--guarded")
            run = subprocess.run(child, env=env, capture_output=True,
                                 text=True)
            if run.returncode != 0:
                sys.stderr.write(run.stderr)
                failed = True
            records = [json.loads(l) for l in run.stdout.splitlines() if l]
            parts.append(section(level, options, records, args.guarded, args.llc))
    generated = "\n".join(parts)
    if args.update:
        with open(args.update) as f:
            head = f.read()
        if MARKER not in head:
            sys.stderr.write(f"{args.update} has no line {MARKER}\n")
            return 1
        with open(args.update, "w") as f:
            f.write(head[:head.index(MARKER) + len(MARKER)] + "\n\n" +
                    generated)
    else:
        print("# Builtin routes: what each math builtin calls\n")
        print(generated)
    return 1 if failed else 0


def host_cpu(llc):
    """The CPU llc (and so the JIT) compiles for on this machine."""
    try:
        out = subprocess.run([llc, "--version"], capture_output=True,
                             text=True).stdout
        m = re.search(r"Host CPU: (\S+)", out)
        return m.group(1) if m else "unknown"
    except OSError:
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
