#!/usr/bin/env bash
# Runs the API tests under a dynamic checker, each in a build tree of its
# own so that the normal build stays untouched:
#
#   scripts/sanitize.sh thread    ThreadSanitizer: the thread-heavy suites
#   scripts/sanitize.sh address   AddressSanitizer + LeakSanitizer: all
#                                 API suites
#   scripts/sanitize.sh helgrind  valgrind --tool=helgrind on the stress
#                                 suite of the normal build
#   scripts/sanitize.sh memcheck  valgrind memcheck (leaks included) on the
#                                 API suites of the normal build
#
# Not part of the default ctest run: instrumented builds take long, and the
# valgrind runs are slow. Exit status is non-zero on any report.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MODE=${1:-thread}
JOBS=${WEFT_JOBS:-2}
# Suites that exercise many threads; the sanitizer runs use them unless
# WEFT_SANITIZE_FILTER says otherwise.
THREADED='*/Stress.*:*/HostThreads.*:*/Queues.*:*/Events.*'

build_instrumented() {
  local Dir=$1 Kind=$2
  cmake -S "$ROOT" -B "$Dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DWEFT_SANITIZE="$Kind" >/dev/null
  cmake --build "$Dir" -j"$JOBS" --target weft weft-api-tests
}

case "$MODE" in
thread)
  DIR=${WEFT_BUILD_DIR:-$ROOT/build-tsan}
  build_instrumented "$DIR" thread
  export OCL_ICD_VENDORS=$DIR/vendors/weft.icd
  # halt_on_error: any race fails the run.
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
    "$DIR/tests/api/weft-api-tests" \
    --gtest_filter="${WEFT_SANITIZE_FILTER:-$THREADED}"
  ;;
address)
  DIR=${WEFT_BUILD_DIR:-$ROOT/build-asan}
  build_instrumented "$DIR" address
  export OCL_ICD_VENDORS=$DIR/vendors/weft.icd
  ASAN_OPTIONS="detect_leaks=1 ${ASAN_OPTIONS:-}" \
    "$DIR/tests/api/weft-api-tests" \
    --gtest_filter="${WEFT_SANITIZE_FILTER:-*}"
  ;;
helgrind | memcheck)
  DIR=${WEFT_BUILD_DIR:-$ROOT/build}
  cmake --build "$DIR" -j"$JOBS" --target weft weft-api-tests
  export OCL_ICD_VENDORS=$DIR/vendors/weft.icd
  if [ "$MODE" = helgrind ]; then
    TOOL=(--tool=helgrind)
    FILTER=${WEFT_SANITIZE_FILTER:-*/Stress.*}
  else
    TOOL=(--tool=memcheck --leak-check=full --errors-for-leak-kinds=definite)
    FILTER=${WEFT_SANITIZE_FILTER:-*/Queues.*:*/Svm.*:*/Binaries.*:*/RectTransfers.*:*/Stress.*}
  fi
  valgrind "${TOOL[@]}" --error-exitcode=99 \
    --suppressions="$ROOT/scripts/valgrind.supp" \
    "$DIR/tests/api/weft-api-tests" --gtest_filter="$FILTER"
  ;;
*)
  echo "usage: $0 thread|address|helgrind|memcheck" >&2
  exit 2
  ;;
esac
