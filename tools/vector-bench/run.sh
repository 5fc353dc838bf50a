#!/bin/sh
# Times weft-vector-bench with Weft's vectorization on, off, and on pocl.
# Usage: tools/vector-bench/run.sh [build dir] [bench args...]
# The machine these numbers come from may be shared: run it more than once.
set -e
Build=${1:-build}
[ $# -gt 0 ] && shift
Bench="$Build/tools/vector-bench/weft-vector-bench"
Weft="$Build/vendors/weft.icd"
export WEFT_KERNEL_CACHE=0
echo "== Weft, vectorized"
OCL_ICD_VENDORS="$Weft" "$Bench" "$@"
echo "== Weft, WEFT_DISABLE_VECTORIZE=1"
OCL_ICD_VENDORS="$Weft" WEFT_DISABLE_VECTORIZE=1 "$Bench" "$@"
if [ -e /etc/OpenCL/vendors/pocl.icd ]; then
  echo "== pocl"
  OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd "$Bench" "$@"
fi
