#!/usr/bin/env bash
# Release build of Weft into ./build (WEFT_BUILD_DIR overrides), with -j2
# unless JOBS says otherwise:
#
#   scripts/build.sh              everything (what scripts/test.sh needs)
#   scripts/build.sh TARGET...    only these, e.g. weft-apps: the library,
#                                 the tools and the examples (scripts/run.sh)
#
# Configures only when the build directory has not been configured yet;
# later CMakeLists changes are picked up by the build itself. When ccache is
# installed the first configure compiles through it (WEFT_CCACHE=0: not).
# WEFT_INSTALL_PREFIX=/usr configures for that install prefix, and
# reconfigures a tree configured for another (scripts/package.sh: the
# Debian package's paths are compiled into libweft).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${WEFT_BUILD_DIR:-$ROOT/build}
JOBS=${JOBS:-2}
source "$ROOT/scripts/stages.sh"

Prefix=()
if [[ -n ${WEFT_INSTALL_PREFIX:-} ]]; then
  Prefix=(-DCMAKE_INSTALL_PREFIX="$WEFT_INSTALL_PREFIX")
fi
if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
  Launcher=()
  if [[ ${WEFT_CCACHE:-1} != 0 ]] && command -v ccache >/dev/null 2>&1; then
    Launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    echo "build: compiling through ccache ($(command -v ccache))"
  fi
  echo "build: configuring $BUILD_DIR (Release)"
  stage_begin configure
  cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "${Launcher[@]}" \
    "${Prefix[@]}"
  stage_end
elif [[ -n ${WEFT_INSTALL_PREFIX:-} ]] &&
  ! grep -qxF "CMAKE_INSTALL_PREFIX:PATH=$WEFT_INSTALL_PREFIX" \
    "$BUILD_DIR/CMakeCache.txt"; then
  echo "build: reconfiguring $BUILD_DIR for the install prefix $WEFT_INSTALL_PREFIX"
  stage_begin configure
  cmake -S "$ROOT" -B "$BUILD_DIR" "${Prefix[@]}"
  stage_end
fi
if [[ $# -eq 0 ]]; then
  echo "build: building everything with -j$JOBS"
  stage_begin build
  cmake --build "$BUILD_DIR" -j "$JOBS"
else
  echo "build: building $* with -j$JOBS"
  stage_begin build
  cmake --build "$BUILD_DIR" -j "$JOBS" --target "$@"
fi
stage_end
