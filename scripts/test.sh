#!/usr/bin/env bash
# Command 2: dependencies, build, then every test (API suites on every Weft
# device, the examples as tests, clinfo, compiler pass tests and unit tests).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${WEFT_BUILD_DIR:-$ROOT/build}

"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j2
