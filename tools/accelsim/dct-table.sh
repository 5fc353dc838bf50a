#!/usr/bin/env bash
# The pocl paper's static multi-issue experiment (section 6.4) on the
# accelerator simulator: the DCT sample with its loop bound a kernel argument
# (examples/DCT.cpp --runtime-bound), simulated on a machine model with and
# without horizontal inner-loop parallelization (WEFT_HORIZONTAL=0), and the
# ratio. One line per machine:
#
#   tools/accelsim/dct-table.sh [SIZE] [MACHINE...]
#
# SIZE: image width and height (default 256); MACHINE: names of
# devices/accelsim/machines/*.json or paths (default: pocl-table2 wide).
# Needs a build (scripts/build.sh weft-apps); WEFT_BUILD_DIR picks another.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${WEFT_BUILD_DIR:-$ROOT/build}
SIZE=${1:-256}
shift || true
MACHINES=("$@")
[[ ${#MACHINES[@]} -gt 0 ]] || MACHINES=(pocl-table2 wide)

# Cycles and simulated milliseconds of one DCT launch, from the simulator's
# log line for the kernel ("kernel dct8x8 ...: <cycles> cycles, <us> us").
run() {
  local Machine=$1 Horizontal=$2 Out Line
  # The whole output first: a reader that stops early would kill the
  # sample with SIGPIPE.
  Out=$(OCL_ICD_VENDORS=$BUILD/vendors/weft.icd WEFT_DEVICES=accelsim \
    WEFT_ACCELSIM_MACHINE=$Machine WEFT_HORIZONTAL=$Horizontal \
    WEFT_DEBUG=accelsim "$BUILD/examples/DCT" --runtime-bound --profile \
    --size "$SIZE" --iterations 1 2>&1) || true
  Line=$(grep -m1 'kernel dct8x8' <<<"$Out") || {
    echo "dct-table: no simulated DCT kernel on $Machine" >&2
    exit 1
  }
  sed -E 's/.*: ([0-9]+) cycles, ([0-9.]+) us.*/\1 \2/' <<<"$Line"
}

printf '%-14s %7s  %14s %12s  %14s %12s  %6s\n' machine size \
  'cycles (horiz)' 'ms (horiz)' 'cycles (none)' 'ms (none)' ratio
for M in "${MACHINES[@]}"; do
  read -r CyclesH UsH < <(run "$M" 1)
  read -r CyclesN UsN < <(run "$M" 0)
  awk -v m="$M" -v s="${SIZE}x$SIZE" -v ch="$CyclesH" -v uh="$UsH" \
    -v cn="$CyclesN" -v un="$UsN" 'BEGIN {
      printf "%-14s %7s  %14d %12.2f  %14d %12.2f  %5.2fx\n",
             m, s, ch, uh / 1000, cn, un / 1000, cn / ch }'
done
