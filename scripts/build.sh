#!/usr/bin/env bash
# Release build of Weft into ./build (WEFT_BUILD_DIR overrides), with -j2
# unless JOBS says otherwise. Configures only when the build directory has
# not been configured yet; later CMakeLists changes are picked up by the
# build itself.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${WEFT_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-2}

if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
  echo "build: configuring $BUILD_DIR (Release)"
  cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
fi
echo "build: building with -j$JOBS"
cmake --build "$BUILD_DIR" -j "$JOBS"
