#!/usr/bin/env bash
# Command 2: dependencies, build everything (after scripts/run.sh: the test
# suites), then every test (API suites on every Weft device, the examples as
# tests, clinfo, weftcc, compiler pass tests and unit tests), then the API
# suites again in a tree built with AddressSanitizer and
# UndefinedBehaviorSanitizer (scripts/sanitize.sh address, in build-asan;
# WEFT_SANITIZERS=0 skips that stage for a quick local run). Prints the time
# each stage took.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${WEFT_BUILD_DIR:-$ROOT/build}
source "$ROOT/scripts/stages.sh"

stage_begin "install deps"
"$ROOT/scripts/install-deps.sh"
stage_end
"$ROOT/scripts/build.sh"
stage_begin "run tests"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j2
stage_end
if [[ ${WEFT_SANITIZERS:-1} != 0 ]]; then
  "$ROOT/scripts/sanitize.sh" address
fi
