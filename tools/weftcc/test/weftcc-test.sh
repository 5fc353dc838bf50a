#!/usr/bin/env bash
# End-to-end test of weftcc (ctest tools.weftcc):
#
#   weftcc-test.sh <weftcc> <weftcc-load-binary> <this directory> <work dir>
#
# Compiles axpb.cl for every Weft device and runs each binary in a separate
# process (weftcc-load-binary: clCreateProgramWithBinary, the kernel, a host
# reference); checks --list-devices, --kernels on source and on a binary,
# -I/-D/-b, the default output name, and the failures: a syntax error
# (exit 1, the build log with file and line on stderr, no output written),
# a missing header, a bad command line (exit 2).
# OCL_ICD_VENDORS must select this build's Weft (ctest sets it).
set -uo pipefail

WEFTCC=$(realpath "$1")
LOADER=$(realpath "$2")
SRC=$(realpath "$3")
WORK=$(realpath -m "$4")

rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK" || exit 1

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
ok() { echo "ok: $*"; }

# Runs weftcc with the given arguments; its stdout, stderr and exit status
# land in $out, $err and $status.
run() {
  "$WEFTCC" "$@" >stdout.txt 2>stderr.txt
  status=$?
  out=$(cat stdout.txt)
  err=$(cat stderr.txt)
}

# --list-devices: "<index>: <name>", one line per device, the same devices
# in the same order as the platform reports them (WEFT_DEVICES picks them).
run --list-devices
echo "$out"
if [[ $status -ne 0 ]]; then
  fail "--list-devices exit status $status: $err"
elif ! grep -qE '^0: pthread-.+' <<<"$out" || ! grep -qE '^1: basic-.+' <<<"$out" ||
  [[ $(wc -l <<<"$out") -ne 2 ]]; then
  fail "--list-devices did not list 0: pthread-..., 1: basic-..."
else
  ok "--list-devices"
fi
Devices=$out
if Listing=$(WEFT_DEVICES=basic "$WEFTCC" --list-devices) &&
  grep -qE '^0: basic-' <<<"$Listing" && [[ $(wc -l <<<"$Listing") -eq 1 ]]; then
  ok "--list-devices with WEFT_DEVICES=basic"
else
  fail "--list-devices with WEFT_DEVICES=basic gave: $Listing"
fi

# Every device: a binary with -I and -b, loaded and run elsewhere.
while IFS= read -r Line; do
  Index=${Line%%:*}
  Name=${Line#*: }
  run -d "$Index" -I "$SRC/include" -b "-DOFFSET=11 -cl-std=CL3.0" \
    -o "axpb-$Index.bin" "$SRC/axpb.cl"
  if [[ $status -ne 0 || ! -s axpb-$Index.bin ]]; then
    fail "weftcc -d $Index: exit status $status: $err"
    continue
  fi
  if "$LOADER" "axpb-$Index.bin" "$Index" 11; then
    ok "binary for device $Index ($Name) runs in another process"
  else
    fail "binary for device $Index ($Name) did not run correctly"
  fi
done <<<"$Devices"

# A device by part of its name, -D instead of -b, and the default output
# (the input's name with .bin, in the current directory).
run -d basic -I "$SRC/include" -D OFFSET=5 "$SRC/axpb.cl"
BasicIndex=$(grep -E '^[0-9]+: basic-' <<<"$Devices" | cut -d: -f1)
if [[ $status -ne 0 || ! -s axpb.bin ]]; then
  fail "weftcc -d basic -D OFFSET=5: exit status $status, $err"
elif "$LOADER" axpb.bin "$BasicIndex" 5; then
  ok "-d basic, -D, default output name axpb.bin"
else
  fail "axpb.bin (-d basic -D OFFSET=5) did not run correctly"
fi

run --no-such-option "$SRC/axpb.cl"
if [[ $status -eq 2 ]]; then
  ok "an unknown option is a usage error (exit 2)"
else
  fail "weftcc --no-such-option: exit status $status, expected 2"
fi

# The same build again gives the same bytes, to stdout with -o -.
if "$WEFTCC" -I "$SRC/include" -b "-DOFFSET=11 -cl-std=CL3.0" -o - \
  "$SRC/axpb.cl" >stdout.bin 2>stderr.txt && cmp -s stdout.bin axpb-0.bin; then
  ok "-o - writes the same binary to stdout"
else
  fail "-o - did not write device 0's binary to stdout: $(cat stderr.txt)"
fi

# A syntax error: exit 1, the log on stderr naming file and line, nothing
# written.
run -o bad.bin "$SRC/bad.cl"
if [[ $status -ne 1 ]]; then
  fail "bad.cl: exit status $status, expected 1"
elif ! grep -q "bad.cl:4:[0-9]*: error: expected ';'" <<<"$err"; then
  fail "bad.cl: the build log on stderr does not name bad.cl:4: $err"
elif [[ -n $out || -e bad.bin ]]; then
  fail "bad.cl: output written despite the error"
else
  ok "syntax error: exit 1, build log on stderr"
  echo "$err" | sed 's/^/  | /'
fi

# Without -I the header is not found.
run -b -DOFFSET=1 -o noinclude.bin "$SRC/axpb.cl"
if [[ $status -eq 1 ]] && grep -q "'scale.h' file not found" <<<"$err"; then
  ok "missing -I: the header is not found"
else
  fail "axpb.cl without -I: exit status $status: $err"
fi

# --kernels, on the source (nothing written without -o) and on a binary.
Expected=(
  "axpb(__global uint* out, __global const uint* in, uint scale, uint n)"
  "weighted_sum(__global float* restrict sums, __constant float* weights, __local float* scratch, __global const volatile int* flags, __read_only image2d_t image, sampler_t sampler) [reqd_work_group_size(64,1,1)]"
)
checkKernels() {
  local What=$1
  if [[ $status -ne 0 ]]; then
    fail "--kernels $What: exit status $status: $err"
    return
  fi
  echo "$out" | sed 's/^/  | /'
  if [[ $(wc -l <<<"$out") -ne ${#Expected[@]} ]]; then
    fail "--kernels $What: expected ${#Expected[@]} lines"
    return
  fi
  for Line in "${Expected[@]}"; do
    if ! grep -qxF "$Line" <<<"$out"; then
      fail "--kernels $What: missing line: $Line"
      return
    fi
  done
  ok "--kernels $What"
}
rm -f axpb.bin
run --kernels -I "$SRC/include" -D OFFSET=3 "$SRC/axpb.cl"
checkKernels "on the source"
[[ -e axpb.bin ]] && fail "--kernels without -o wrote axpb.bin"
run --kernels axpb-0.bin
checkKernels "on a binary"

# A binary is no source to compile; a missing file is an error.
run -o again.bin axpb-0.bin
if [[ $status -eq 1 && ! -e again.bin ]]; then
  ok "a binary given as source is refused"
else
  fail "compiling a binary: exit status $status"
fi
run missing.cl
if [[ $status -eq 1 ]]; then
  ok "missing input: exit 1"
else
  fail "missing input: exit status $status"
fi

# From the build tree weftcc finds its own build's libweft without
# OCL_ICD_VENDORS.
if Listing=$(env -u OCL_ICD_VENDORS "$WEFTCC" --list-devices) &&
  [[ $Listing == "$Devices" ]]; then
  ok "build-tree weftcc without OCL_ICD_VENDORS"
else
  fail "build-tree weftcc without OCL_ICD_VENDORS listed: $Listing"
fi

if [[ $failures -ne 0 ]]; then
  echo "weftcc-test: $failures failure(s)"
  exit 1
fi
echo "weftcc-test: all checks passed"
