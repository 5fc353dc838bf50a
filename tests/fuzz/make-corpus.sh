#!/usr/bin/env bash
# Remakes the seed corpora of tests/fuzz/corpus from a normal build tree
# (default: build): program binaries of a few test kernels made by weftcc,
# whole and as bare payloads (the form weft-fuzz-program-binary decodes under
# a header of its own), the same whole again for weft-fuzz-load-binary with
# one that carries compiled code (pyopencl), the smallest entries of the
# build's kernel cache, and a few test kernels behind build options (the
# test kernels themselves are seeds through scripts/fuzz.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${1:-$ROOT/build}
OUT=$ROOT/tests/fuzz/corpus
mkdir -p "$OUT"/program-binary "$OUT"/cache-entry "$OUT"/build-source
export OCL_ICD_VENDORS=$BUILD/vendors/weft.icd WEFT_KERNEL_CACHE=0
WEFTCC=$BUILD/tools/weftcc/weftcc

for K in saxpy vector_add scalar_args local_variables private_tiles; do
  "$WEFTCC" -o "$OUT/program-binary/$K.bin" "$ROOT/tests/kernels/$K.cl"
  # The payload follows the 28-byte header (magic, version, size, checksum).
  tail -c +29 "$OUT/program-binary/$K.bin" >"$OUT/program-binary/$K.payload"
done
"$WEFTCC" -b "-cl-std=CL3.0 -cl-kernel-arg-info" \
  -o "$OUT/program-binary/saxpy-cl3.bin" "$ROOT/tests/kernels/saxpy.cl"
tail -c +29 "$OUT/program-binary/saxpy-cl3.bin" \
  >"$OUT/program-binary/saxpy-cl3.payload"

# Whole binaries for weft-fuzz-load-binary, which seals them again for this
# device; one also carries saxpy's compiled code (made by running it).
mkdir -p "$OUT"/load-binary
cp "$OUT"/program-binary/*.bin "$OUT"/load-binary/
/usr/bin/python3 - "$ROOT/tests/kernels/saxpy.cl" "$OUT/load-binary/saxpy-ran.bin" <<'PY'
import sys
import numpy as np
import pyopencl as cl
weft = [p for p in cl.get_platforms() if "Weft" in p.name][0]
ctx = cl.Context(weft.get_devices()[:1])
prg = cl.Program(ctx, open(sys.argv[1]).read()).build()
queue = cl.CommandQueue(ctx)
y = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 256 * 4)
x = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 256 * 4)
prg.saxpy(queue, (256,), (64,), y, x, np.float32(2)).wait()
open(sys.argv[2], "wb").write(prg.get_info(cl.program_info.BINARIES)[0])
PY

# Cache entries: three real ones (an object of 2 to 6 KiB) of the build's
# cache, if it has any; the unit tests' tiny made-up entries are left out.
if [ -d "$BUILD/kernel-cache" ]; then
  find "$BUILD/kernel-cache" -name '*.wkc' -size +2k -size -6k >/tmp/weft-corpus.$$ || true
  head -3 /tmp/weft-corpus.$$ | while read -r F; do cp "$F" "$OUT/cache-entry/"; done
  rm -f /tmp/weft-corpus.$$
fi

# The test kernels themselves are seeds too: scripts/fuzz.sh passes
# tests/kernels as a second corpus directory, so they are not copied here.
# "options NUL source" inputs.
printf -- '-cl-std=CL3.0\0' | cat - "$ROOT/tests/kernels/saxpy.cl" \
  >"$OUT/build-source/saxpy-cl3.opts"
printf -- '-DN=4 -cl-fast-relaxed-math\0#define M N*2\n__kernel void f(__global int *p) { p[get_global_id(0)] = M; }\n' \
  >"$OUT/build-source/define.opts"
printf -- '-cl-kernel-arg-info -w\0' | cat - "$ROOT/tests/kernels/scalar_args.cl" \
  >"$OUT/build-source/scalar_args-arginfo.opts"
