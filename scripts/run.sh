#!/usr/bin/env bash
# Command 1: dependencies, build (the library, the tools and the examples;
# the test suites are scripts/test.sh's), show Weft through clinfo, then
# run every example on every Weft device. Prints each example's result line,
# a summary and the time each stage took; exits nonzero if anything failed.
# An example whose program Weft refuses to build because it uses a feature
# Weft names as not supported yet prints SKIP (exit status 77); it counts as
# skipped, never as passed.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${WEFT_BUILD_DIR:-$ROOT/build}
EXAMPLES=(VectorAdd Saxpy MatrixMultiplication Mandelbrot BlackScholes
  BinarySearch BinomialOption BitonicSort DCT DwtHaar1D FastWalshTransform
  FloydWarshall Histogram MatrixMultiplicationTiled MatrixTranspose
  MersenneTwister NBody PrefixSum RadixSort Reduction ScanLargeArrays
  SimpleConvolution SobelFilter Stream LaunchLatency RecursiveGaussian
  AESEncryptDecrypt)

source "$ROOT/scripts/stages.sh"

stage_begin "install deps"
"$ROOT/scripts/install-deps.sh"
stage_end
"$ROOT/scripts/build.sh" weft-apps

ICD="$BUILD_DIR/vendors/weft.icd"
if [[ ! -f "$ICD" ]]; then
  echo "run: $ICD is missing: the build did not produce libweft" >&2
  exit 1
fi
# Only Weft, whatever else is installed in /etc/OpenCL/vendors.
export OCL_ICD_VENDORS="$ICD"
stage_begin run

echo
echo "== clinfo (OCL_ICD_VENDORS=$ICD)"
if ! Listing=$(clinfo -l); then
  echo "run: clinfo failed" >&2
  exit 1
fi
echo "$Listing"
# Not `clinfo | grep -q`: grep quitting early fails the pipeline (pipefail).
if ! grep -q "Platform #[0-9]*: Weft" <<<"$Listing"; then
  echo "run: clinfo does not list the Weft platform" >&2
  exit 1
fi

echo
echo "== examples on every Weft device"
passed=0
failed=0
skipped=0
failures=()
for example in "${EXAMPLES[@]}"; do
  exe="$BUILD_DIR/examples/$example"
  if [[ ! -x "$exe" ]]; then
    echo "$example: FAIL  not built ($exe)"
    failed=$((failed + 1))
    failures+=("$example")
    continue
  fi
  set +e
  output=$("$exe" --platform Weft 2>&1)
  status=$?
  set -e
  printf '%s\n' "$output"
  p=$(printf '%s\n' "$output" | grep -c ': PASS ' || true)
  s=$(printf '%s\n' "$output" | grep -c ': SKIP ' || true)
  passed=$((passed + p))
  skipped=$((skipped + s))
  if [[ $status -eq 77 && $s -gt 0 ]]; then
    continue
  fi
  if [[ $status -ne 0 || $p -eq 0 ]]; then
    f=$(printf '%s\n' "$output" | grep -c ': FAIL ' || true)
    # A crash or an early exit counts as one failure.
    [[ $f -eq 0 ]] && f=1
    failed=$((failed + f))
    failures+=("$example (exit status $status)")
  fi
done

stage_end
echo
echo "== summary: $passed passed, $failed failed, $skipped skipped"
if [[ $failed -ne 0 ]]; then
  printf '  failed: %s\n' "${failures[@]}"
  exit 1
fi
