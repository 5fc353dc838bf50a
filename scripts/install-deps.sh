#!/usr/bin/env bash
# Checks that the Debian packages Weft needs to build and test are installed
# (with --fuzz, also those of the fuzz targets).
# As root, installs the missing ones with apt-get; otherwise prints the exact
# command to run and exits 1.
#
# Debian 12 (bookworm) carries LLVM/Clang 19 in its main archive since
# point release 12.10 (19.1.7-3~deb12u1); older package lists only need an
# `apt-get update`.
set -euo pipefail

PACKAGES=(
  cmake make g++ pkg-config
  llvm-19-dev clang-19 libclang-19-dev lld-19 llvm-19-tools
  opencl-headers ocl-icd-opencl-dev clinfo
  libhwloc-dev libsleef-dev
  googletest libgtest-dev
  # SPIR-V programs (clCreateProgramWithIL): the translator runs as a
  # separate process; clang-15 and spirv-tools make the tests' modules.
  llvm-spirv-15 clang-15 spirv-tools
  # The Debian package (scripts/package.sh): cpack's dependency scan runs
  # dpkg-shlibdeps and file.
  dpkg-dev file
)
# Optional: `install-deps.sh --fuzz` also installs what the libFuzzer targets
# need (scripts/fuzz.sh; not part of CI): clang 19's fuzzer and sanitizer
# runtimes.
FUZZ_PACKAGES=(libclang-rt-19-dev)
if [[ "${1:-}" == "--fuzz" ]]; then
  PACKAGES+=("${FUZZ_PACKAGES[@]}")
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "install-deps: this script needs a Debian-based system (dpkg)." >&2
  echo "install-deps: install the equivalents of: ${PACKAGES[*]}" >&2
  exit 1
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  if [[ "$status" != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#PACKAGES[@]} packages are installed."
  exit 0
fi

echo "install-deps: missing packages: ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  echo "install-deps: not running as root; install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update
# LLVM 19 must come from the configured sources; say so clearly if not.
for pkg in "${missing[@]}"; do
  candidate=$(apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ {print $2}')
  if [[ -z "$candidate" || "$candidate" == "(none)" ]]; then
    echo "install-deps: no installable version of $pkg in the configured apt" >&2
    echo "install-deps: sources. Weft expects Debian 12 (bookworm) main, which" >&2
    echo "install-deps: has LLVM/Clang 19 since Debian 12.10." >&2
    exit 1
  fi
done
apt-get install -y --no-install-recommends "${missing[@]}"
echo "install-deps: installed ${missing[*]}"
