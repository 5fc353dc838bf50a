#!/usr/bin/env bash
# Runs one libFuzzer target of tests/fuzz for a given time:
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]
#
# TARGET is program-binary, cache-entry, build-source or load-binary. The
# target is built first (clang 19, -DWEFT_FUZZ=ON, in build-fuzz or
# WEFT_FUZZ_BUILD_DIR) and then run niced, starting from the seed corpus
# tests/fuzz/corpus/TARGET. What it finds goes under BUILD/fuzz/TARGET/:
# corpus/ (new inputs), crashes/ (inputs that crashed, timed out or ran out
# of memory) and log. The exit status is non-zero when the run found a
# crash.
#
# WEFT_BUILD_LOCK=FILE runs the build under flock FILE (a shared machine);
# WEFT_FUZZ_NO_BUILD=1 uses the target as it is built; WEFT_JOBS (default 2)
# is the build's parallelism. Not part of CI.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${WEFT_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
JOBS=${WEFT_JOBS:-2}

if [[ $# -lt 2 ]]; then
  echo "usage: scripts/fuzz.sh program-binary|cache-entry|build-source|load-binary SECONDS [libFuzzer options...]" >&2
  exit 2
fi
TARGET=$1 SECONDS_TO_RUN=$2
shift 2
case "$TARGET" in
program-binary | cache-entry | build-source | load-binary) ;;
*)
  echo "fuzz: unknown target '$TARGET' (program-binary, cache-entry, build-source, load-binary)" >&2
  exit 2
  ;;
esac

CLANGXX=$(command -v clang++-19 || true)
if [[ -z "$CLANGXX" ]]; then
  echo "fuzz: clang++-19 not found; run scripts/install-deps.sh" >&2
  exit 2
fi
if [[ ! -e "$("$CLANGXX" -print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a" ]]; then
  echo "fuzz: clang 19's libFuzzer runtime is missing (Debian: libclang-rt-19-dev);" >&2
  echo "fuzz: install it with: scripts/install-deps.sh --fuzz" >&2
  exit 2
fi

locked() {
  if [[ -n "${WEFT_BUILD_LOCK:-}" ]]; then
    flock "$WEFT_BUILD_LOCK" "$@"
  else
    "$@"
  fi
}

BIN=$BUILD/tests/fuzz/weft-fuzz-$TARGET
if [[ -z "${WEFT_FUZZ_NO_BUILD:-}" ]]; then
  if [[ ! -f "$BUILD/CMakeCache.txt" ]]; then
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
      -DCMAKE_C_FLAGS=-gline-tables-only -DCMAKE_CXX_FLAGS=-gline-tables-only \
      -DWEFT_FUZZ=ON >/dev/null
  fi
  locked cmake --build "$BUILD" -j"$JOBS" --target "weft-fuzz-$TARGET"
fi
if [[ ! -x "$BIN" ]]; then
  echo "fuzz: $BIN is not built" >&2
  exit 2
fi

WORK=$BUILD/fuzz/$TARGET
mkdir -p "$WORK/corpus" "$WORK/crashes" "$WORK/scratch"
OPTIONS=(-max_total_time="$SECONDS_TO_RUN" -print_final_stats=1
  -artifact_prefix="$WORK/crashes/")
case "$TARGET" in
build-source)
  # A build takes tens of milliseconds; a minute is a hang. The compiler's
  # process-wide state (the builtin library, LLVM's option registry) is not
  # a leak of one input.
  # A source nesting deeper than the front end's stack leaks that compile
  # by design (lib/llvmopencl/FrontEnd/FrontEnd.cpp): no leak check at exit
  # either.
  OPTIONS+=(-dict="$ROOT/tests/fuzz/build-source.dict" -max_len=8192
    -timeout=60 -rss_limit_mb=4096 -detect_leaks=0)
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
  ;;
load-binary)
  # Each input is read in a child process, then compiled and run: like
  # build-source, tens of milliseconds, and the compiler's process-wide
  # state is no leak. Bitcode on which LLVM's reader spins is refused after
  # 60 s (CheckProgramBinary.cpp): the timeout is longer.
  OPTIONS+=(-max_len=65536 -timeout=120 -rss_limit_mb=4096 -detect_leaks=0)
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
  ;;
*)
  OPTIONS+=(-max_len=65536 -timeout=10)
  ;;
esac

# The source target also starts from the test kernels themselves (read
# only: libFuzzer writes new inputs to the first directory alone).
SEEDS=("$ROOT/tests/fuzz/corpus/$TARGET")
[[ $TARGET == build-source ]] && SEEDS+=("$ROOT/tests/kernels")

echo "fuzz: $TARGET for $SECONDS_TO_RUN s; log in $WORK/log"
STATUS=0
# In a scratch directory: anything a build option makes the compiler write
# lands there, not in the source tree.
(cd "$WORK/scratch" &&
  nice -n 19 "$BIN" "${OPTIONS[@]}" "$@" "$WORK/corpus" "${SEEDS[@]}") \
  >"$WORK/log" 2>&1 || STATUS=$?
grep -E '^(#[0-9]+[[:space:]]+DONE|stat::|Done )' "$WORK/log" || true
if [[ $STATUS -ne 0 ]]; then
  echo "fuzz: $TARGET failed (status $STATUS); the end of $WORK/log:" >&2
  tail -n 40 "$WORK/log" >&2
  ls -l "$WORK/crashes" >&2
  exit 1
fi
echo "fuzz: $TARGET: no crash"
