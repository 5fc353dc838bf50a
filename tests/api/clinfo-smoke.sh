#!/bin/sh
# clinfo smoke test: clinfo <platform name> (OCL_ICD_VENDORS set by ctest).
# Passes when clinfo exits 0, lists the platform, and no query failed; clinfo
# prints "<error: ...>", an error code name such as CL_INVALID_VALUE, or
# "Invalid ..." where a query fails.
CLINFO=${1:-clinfo}
PLATFORM=${2:-Weft}
OUT=$("$CLINFO" 2>&1)
STATUS=$?
printf '%s\n' "$OUT"
if [ "$STATUS" -ne 0 ]; then
  echo "FAIL: clinfo exited with status $STATUS" >&2
  exit 1
fi
if ! printf '%s\n' "$OUT" | grep -q "Platform Name *$PLATFORM"; then
  echo "FAIL: clinfo does not list platform \"$PLATFORM\"" >&2
  exit 1
fi
if ! printf '%s\n' "$OUT" | grep -q "Device Name"; then
  echo "FAIL: clinfo lists no device" >&2
  exit 1
fi
ERRORS=$(printf '%s\n' "$OUT" | grep -nE '<error|CL_INVALID|CL_OUT_OF|Invalid')
if [ -n "$ERRORS" ]; then
  echo "FAIL: clinfo reports failed queries:" >&2
  printf '%s\n' "$ERRORS" >&2
  exit 1
fi
echo "PASS: clinfo lists $PLATFORM without errors"
