#!/usr/bin/env bash
# Runs the API tests under a dynamic checker, each in a build tree of its
# own so that the normal build stays untouched:
#
#   scripts/sanitize.sh address   AddressSanitizer + LeakSanitizer +
#                                 UndefinedBehaviorSanitizer: every API
#                                 suite (ctest's api.<Suite> entries) in
#                                 build-asan. scripts/test.sh's last stage.
#   scripts/sanitize.sh thread    ThreadSanitizer: the thread-heavy suites
#                                 in build-tsan
#   scripts/sanitize.sh helgrind  valgrind --tool=helgrind on the stress
#                                 suite of the normal build
#   scripts/sanitize.sh memcheck  valgrind memcheck (leaks included) on the
#                                 API suites of the normal build
#
# Only libweft (with its drivers) and the API test binaries are built
# instrumented; LLVM, Clang and the kernels Weft compiles at run time are
# not. Any report fails the run: ASan and UBSan end the process (built with
# -fno-sanitize-recover), TSan halts on the first race, valgrind exits 99.
# WEFT_SANITIZE_FILTER (a gtest filter) replaces a mode's choice of tests;
# WEFT_SANITIZE_BUILD_DIR another instrumented tree (the valgrind modes use
# the normal one, WEFT_BUILD_DIR as in scripts/build.sh); WEFT_BUILD_LOCK=FILE
# runs builds and tests under flock FILE (a shared machine); WEFT_JOBS
# (default 2) the build's and ctest's parallelism. Each stage's time is
# printed at the end.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MODE=${1:-thread}
JOBS=${WEFT_JOBS:-2}
# Suites that exercise many threads; the sanitizer runs use them unless
# WEFT_SANITIZE_FILTER says otherwise.
THREADED='*/Stress.*:*/HostThreads.*:*/Queues.*:*/Events.*'
source "$ROOT/scripts/stages.sh"

locked() {
  if [[ -n "${WEFT_BUILD_LOCK:-}" ]]; then
    flock "$WEFT_BUILD_LOCK" "$@"
  else
    "$@"
  fi
}

# build_instrumented DIR KIND TARGET...: -O1 with line tables is enough for
# the reports' stack traces and compiles far faster than RelWithDebInfo's
# full debug information (the CI stage's time is mostly this build).
build_instrumented() {
  local Dir=$1 Kind=$2
  shift 2
  if [[ ! -f "$Dir/CMakeCache.txt" ]]; then
    local Launcher=()
    if [[ ${WEFT_CCACHE:-1} != 0 ]] && command -v ccache >/dev/null 2>&1; then
      Launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
        -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    stage_begin "$Kind configure"
    cmake -S "$ROOT" -B "$Dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
      -DWEFT_SANITIZE="$Kind" "${Launcher[@]}" >/dev/null
    stage_end
  fi
  stage_begin "$Kind build"
  locked cmake --build "$Dir" -j"$JOBS" --target "$@"
  stage_end
}

# api_tests DIR FILTER: the API test binary of DIR, as ctest runs it.
api_tests() {
  locked env OCL_ICD_VENDORS="$1/vendors/weft.icd" \
    WEFT_CACHE_DIR="$1/kernel-cache" \
    "$1/tests/api/weft-api-tests" --gtest_filter="$2"
}

case "$MODE" in
address)
  DIR=${WEFT_SANITIZE_BUILD_DIR:-$ROOT/build-asan}
  build_instrumented "$DIR" address,undefined weft weft-api-tests \
    weft-cache-process-tests
  # halt_on_error for UBSan's runtime too: a check built recoverable (none
  # should be) still ends the run. LSan reports leaks at each test
  # process's exit; lsan.supp names the leaks that are not Weft's.
  # intercept_tls_get_addr=0: GCC 12's LSan misreads glibc 2.36's dynamic
  # TLS blocks now and then ("DTLS 6 at 0x0001000025e7-0x0091000036e9")
  # and its leak check dies scanning them ("Tracer caught signal 11"; 1 in
  # 2 runs of api.HorizontalLoops; google/sanitizers#1322). Without it LSan
  # does not scan dynamic TLS: a block only it pointed to would be reported
  # as a leak, never hidden.
  export ASAN_OPTIONS="detect_leaks=1 check_initialization_order=1 intercept_tls_get_addr=0 ${ASAN_OPTIONS:-}"
  export UBSAN_OPTIONS="print_stacktrace=1 halt_on_error=1 ${UBSAN_OPTIONS:-}"
  export LSAN_OPTIONS="suppressions=$ROOT/scripts/lsan.supp ${LSAN_OPTIONS:-}"
  stage_begin "address,undefined tests"
  if [[ -n "${WEFT_SANITIZE_FILTER:-}" ]]; then
    api_tests "$DIR" "$WEFT_SANITIZE_FILTER"
  else
    # Every api.<Suite> entry (all API suites on the default devices,
    # pthread and basic) and the cache's multi-process tests. Not clinfo
    # (an uninstrumented program cannot load an ASan library) nor the
    # variants api.<Suite>.<variant> (other settings, the simulator): they
    # would more than double the stage's time in CI.
    # All three run whatever the others found; any failure fails the stage.
    Failed=0
    locked ctest --test-dir "$DIR" --output-on-failure -j"$JOBS" \
      -R '^api\.[A-Za-z]+$' -E '^api\.(clinfo|Programs)$' || Failed=1
    # api.Programs by hand: a compile abandoned on a stack overflow leaks
    # what clang had allocated, by design (FrontEnd.cpp), so the one test
    # that overflows runs without the leak check and the others with it.
    Overflow='*/Programs.NestingDeeperThanTheStackFailsTheBuild/*'
    api_tests "$DIR" "Programs.*:*/Programs.*:-$Overflow" || Failed=1
    ASAN_OPTIONS="$ASAN_OPTIONS detect_leaks=0" api_tests "$DIR" "$Overflow" ||
      Failed=1
    if [[ $Failed -ne 0 ]]; then
      echo "sanitize: the address,undefined run failed (reports above)" >&2
      exit 1
    fi
  fi
  stage_end
  ;;
thread)
  DIR=${WEFT_SANITIZE_BUILD_DIR:-$ROOT/build-tsan}
  build_instrumented "$DIR" thread weft weft-api-tests
  # halt_on_error: any race fails the run. tsan.supp lists the reports
  # that are not races in Weft, each with its reason.
  export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$ROOT/scripts/tsan.supp ${TSAN_OPTIONS:-}"
  stage_begin "thread tests"
  api_tests "$DIR" "${WEFT_SANITIZE_FILTER:-$THREADED}"
  stage_end
  ;;
helgrind | memcheck)
  DIR=${WEFT_BUILD_DIR:-$ROOT/build}
  stage_begin "$MODE build"
  locked cmake --build "$DIR" -j"$JOBS" --target weft weft-api-tests
  stage_end
  export OCL_ICD_VENDORS=$DIR/vendors/weft.icd
  if [ "$MODE" = helgrind ]; then
    TOOL=(--tool=helgrind)
    FILTER=${WEFT_SANITIZE_FILTER:-*/Stress.*}
  else
    TOOL=(--tool=memcheck --leak-check=full --errors-for-leak-kinds=definite)
    FILTER=${WEFT_SANITIZE_FILTER:-*/Queues.*:*/Svm.*:*/Binaries.*:*/RectTransfers.*:*/Stress.*}
  fi
  stage_begin "$MODE tests"
  locked valgrind "${TOOL[@]}" --error-exitcode=99 \
    --suppressions="$ROOT/scripts/valgrind.supp" \
    "$DIR/tests/api/weft-api-tests" --gtest_filter="$FILTER"
  stage_end
  ;;
*)
  echo "usage: $0 address|thread|helgrind|memcheck" >&2
  exit 2
  ;;
esac
