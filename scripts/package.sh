#!/usr/bin/env bash
# Builds the Debian package (cpack -G DEB, packaging/Package.cmake) into
# ./build/package, from the build tree configured for the prefix /usr
# (reconfigured if it was not), and checks it:
#  - the control fields (dpkg-deb -I) and the files (dpkg-deb -c): libweft.so
#    in Debian's multiarch directory, weftcc, /etc/OpenCL/vendors/weft.icd
#    naming the packaged library, the ICD file a conffile, the ldconfig
#    trigger, the machine models where libweft looks for them, the copyright
#    file, the changelog and weftcc's manual page;
#  - every library libweft.so and weftcc link, and libsleef.so.3 and clang's
#    OpenCL headers which libweft loads at run time, come from a package
#    the Depends field names (dpkg -S);
#  - unpacked (dpkg-deb -x; as root also installed by dpkg into a throwaway
#    root, its maintainer scripts run), the packaged library is the Weft
#    platform clinfo lists, and the packaged weftcc builds a kernel with it;
#  - as root, removed and purged from that root: the ICD file stays after
#    the removal (a conffile) and nothing of the package after the purge.
# Prints the package's path; exits nonzero if a check fails.
#
#   scripts/package.sh                 build the package and check it
#   scripts/package.sh --check X.deb   only check X.deb (tests/package)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${WEFT_BUILD_DIR:-$ROOT/build}
OUT_DIR=$BUILD_DIR/package
source "$ROOT/scripts/stages.sh"

if [[ ${1:-} == --check ]]; then
  if [[ $# -ne 2 || ! -f $2 ]]; then
    echo "usage: scripts/package.sh [--check FILE.deb]" >&2
    exit 2
  fi
  DEB=$(realpath "$2")
else
  stage_begin "install deps"
  "$ROOT/scripts/install-deps.sh"
  stage_end
  # cpack installs from the build tree after building all of it. The
  # package installs under /usr, and libweft has its install paths
  # compiled in.
  WEFT_INSTALL_PREFIX=/usr "$ROOT/scripts/build.sh"

  stage_begin package
  rm -rf "$OUT_DIR"
  (cd "$BUILD_DIR" && cpack -G DEB -B "$OUT_DIR" >"$BUILD_DIR/cpack.log" 2>&1) || {
    cat "$BUILD_DIR/cpack.log" >&2
    echo "package: cpack failed" >&2
    exit 1
  }
  shopt -s nullglob
  Debs=("$OUT_DIR"/*.deb)
  shopt -u nullglob
  if [[ ${#Debs[@]} -ne 1 ]]; then
    echo "package: expected one .deb in $OUT_DIR, found ${#Debs[@]}" >&2
    exit 1
  fi
  DEB=${Debs[0]}
  stage_end
fi

stage_begin "check package"
Failures=0
fail() {
  echo "package: FAIL: $*" >&2
  Failures=$((Failures + 1))
}

echo
echo "== dpkg-deb -I $(basename "$DEB")"
dpkg-deb -I "$DEB"
echo
echo "== dpkg-deb -c $(basename "$DEB")"
Contents=$(dpkg-deb -c "$DEB")
echo "$Contents"

Depends=$(dpkg-deb -f "$DEB" Depends)
[[ $(dpkg-deb -f "$DEB" Package) == weft ]] || fail "package name is not weft"
# Only the names: "libllvm19 (>= 1:19.1.7), a | b" -> libllvm19 a b
DependNames=$(tr ',|' '\n' <<<"$Depends" | sed -e 's/(.*)//' -e 's/:any//' |
  tr -d ' ' | grep -v '^$' | sort -u)

# Files: paths inside the package, without the leading ".".
Files=$(awk '{print $NF}' <<<"$Contents" | sed 's|^\.||')
Lib=$(grep -E '/libweft\.so$' <<<"$Files" || true)
Weftcc=$(grep -E '/bin/weftcc$' <<<"$Files" || true)
[[ -n $Lib ]] || fail "no libweft.so in the package"
# Debian's multiarch directory, as GNUInstallDirs gives it for /usr.
Multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null ||
  gcc -print-multiarch)
if [[ -n $Lib && $Lib != "/usr/lib/$Multiarch/libweft.so" ]]; then
  fail "libweft.so is $Lib, not in the multiarch directory /usr/lib/$Multiarch"
fi
[[ -n $Weftcc ]] || fail "no weftcc in the package"
grep -qx /etc/OpenCL/vendors/weft.icd <<<"$Files" ||
  fail "no /etc/OpenCL/vendors/weft.icd in the package"
for Document in /usr/share/doc/weft/copyright /usr/share/doc/weft/changelog.gz \
  /usr/share/man/man1/weftcc.1.gz; do
  grep -qx "$Document" <<<"$Files" || fail "no $Document in the package"
done

Unpacked=$(mktemp -d "${TMPDIR:-/tmp}/weft-package.XXXXXX")
trap 'Status=$?; rm -rf "$Unpacked"; stage_exit "$Status"' EXIT
dpkg-deb -x "$DEB" "$Unpacked/root"
dpkg-deb -e "$DEB" "$Unpacked/control"
Icd=$(cat "$Unpacked/root/etc/OpenCL/vendors/weft.icd")
if [[ $Icd != "$Lib" ]]; then
  fail "weft.icd names '$Icd', the package installs '$Lib'"
fi
grep -qx /etc/OpenCL/vendors/weft.icd "$Unpacked/control/conffiles" 2>/dev/null ||
  fail "weft.icd is not a conffile"
grep -qx "activate-noawait ldconfig" "$Unpacked/control/triggers" 2>/dev/null ||
  fail "no ldconfig trigger (control file triggers)"
# WEFT_ACCELSIM_MACHINE=<name> is looked up in the directory compiled into
# libweft; a library configured for another prefix looks elsewhere.
Machine=$(grep -m1 -E '/weft/accelsim/machines/[^/]*\.json$' <<<"$Files" || true)
if [[ -z $Machine ]]; then
  fail "no accelsim machine model in the package"
elif [[ -n $Lib ]] &&
  ! grep -qaF "$(dirname "$Machine")" "$Unpacked/root$Lib"; then
  fail "libweft.so does not look for machine models in $(dirname "$Machine")"
fi

# The package of a file, or nothing; dpkg -S knows a library by the path
# it was installed under, which merged /usr may differ from.
# (Readers take all their input: one that quits early kills the writer with
# SIGPIPE, which pipefail and set -e turn into the script's exit 141.)
ownerOf() {
  local Path=$1
  dpkg -S "$Path" 2>/dev/null | awk -F: 'NR == 1 {print $1}' && return
  dpkg -S "${Path#/usr}" 2>/dev/null | awk -F: 'NR == 1 {print $1}' && return
  dpkg -S "/usr$Path" 2>/dev/null | awk -F: 'NR == 1 {print $1}'
}
requireDepends() { # $1: what needs it, $2: a file it needs
  local Pkg
  Pkg=$(ownerOf "$2")
  if [[ -z $Pkg ]]; then
    fail "$1 needs $2, which no installed package owns"
  elif grep -qx "$Pkg" <<<"$DependNames"; then
    echo "  $1 needs $2: $Pkg, in Depends"
  else
    fail "$1 needs $2 from $Pkg, which Depends does not name"
  fi
}
echo
echo "== runtime needs against Depends: $Depends"
for Elf in "$Lib" "$Weftcc"; do
  [[ -n $Elf ]] || continue
  # ldd resolves each NEEDED entry as the installed file would.
  while read -r Needed; do
    Path=$(ldd "$Unpacked/root$Elf" | awk -v N="$Needed" '$1 == N {print $3}')
    if [[ -z $Path || $Path == "not" ]]; then
      fail "$(basename "$Elf"): $Needed not found"
      continue
    fi
    requireDepends "$(basename "$Elf")" "$(readlink -f "$Path")"
  done < <(readelf -d "$Unpacked/root$Elf" |
    sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v '^ld-linux')
done
# Loaded at run time, not linked (lib/llvmopencl/WorkGroupCompiler.cpp,
# BuildProgram.cpp).
Sleef=$(ldconfig -p | awk '$1 == "libsleef.so.3" && !Seen {print $NF; Seen = 1}')
if [[ -n $Sleef ]]; then
  requireDepends libweft.so "$(readlink -f "$Sleef")"
else
  fail "libsleef.so.3 is not installed here"
fi
requireDepends libweft.so /usr/lib/llvm-19/lib/clang/19/include/opencl-c-base.h

# Whether the packaged files work: the ICD loader given only the unpacked
# library, as the installed ICD file would name it.
checkRoot() { # $1: a root the package's files are in, $2: what it is
  local Root=$1 What=$2 Listing
  printf '%s\n' "$Root$Lib" >"$Unpacked/weft-$What.icd"
  echo
  echo "== clinfo -l, $What ($Root$Lib)"
  if Listing=$(OCL_ICD_VENDORS="$Unpacked/weft-$What.icd" clinfo -l 2>&1) &&
    grep -q "Platform #[0-9]*: Weft" <<<"$Listing"; then
    echo "$Listing"
  else
    echo "$Listing"
    fail "clinfo does not list the Weft platform of the $What package"
  fi
  printf '__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }\n' \
    >"$Unpacked/k.cl"
  if (cd "$Unpacked" && OCL_ICD_VENDORS="$Unpacked/weft-$What.icd" \
    WEFT_CACHE_DIR="$Unpacked/cache" "$Root$Weftcc" --kernels -o k.bin k.cl) &&
    [[ -s $Unpacked/k.bin ]]; then
    echo "  $What weftcc built k.cl"
  else
    fail "the $What weftcc did not build a kernel"
  fi
  rm -f "$Unpacked/k.bin"
}
checkRoot "$Unpacked/root" unpacked

# As root, dpkg installs it into a throwaway root with a database of its own
# and the only programs its maintainer scripts run (sh, ldconfig, with their
# libraries) copied in, as it would on a system: archive paths, conffiles,
# triggers, postinst and postrm chrooted into that root. --force-depends as
# the dependencies are this system's.
if [[ $(id -u) -eq 0 ]]; then
  Throwaway=$Unpacked/dpkg-root
  mkdir -p "$Throwaway/var/lib/dpkg/updates" "$Throwaway/var/lib/dpkg/info"
  touch "$Throwaway/var/lib/dpkg/status"
  for Program in /bin/sh /sbin/ldconfig; do
    Real=$(readlink -f "$Program")
    install -D "$Real" "$Throwaway$Program"
    # ldd names the libraries as the dynamic linker looks for them.
    for Library in $(ldd "$Real" 2>/dev/null | grep -o '/[^ ]*'); do
      [[ -e $Throwaway$Library ]] ||
        install -D "$(readlink -f "$Library")" "$Throwaway$Library"
    done
  done
  dpkgRoot() {
    echo "\$ dpkg $*" >>"$Unpacked/dpkg.log"
    dpkg --root="$Throwaway" --force-depends --log=/dev/null "$@" \
      >>"$Unpacked/dpkg.log" 2>&1
  }
  statusIn() {
    dpkg --root="$Throwaway" -s weft 2>/dev/null | sed -n 's/^Status: //p'
  }
  # Files, not directories, each with its path in the throwaway root.
  PackagedFiles=$(grep -v '/$' <<<"$Files" | sed "s|^|$Throwaway|")
  echo
  echo "== dpkg --root $Throwaway --install, --remove, --purge"
  if dpkgRoot --install "$DEB" &&
    [[ $(statusIn) == "install ok installed" ]]; then
    echo "  installed: $(statusIn); files: $(dpkg --root="$Throwaway" -L weft |
      tr '\n' ' ')"
    checkRoot "$Throwaway" dpkg-installed
    if dpkgRoot --remove weft &&
      [[ $(statusIn) == "deinstall ok config-files" ]]; then
      echo "  removed: $(statusIn)"
      [[ -f $Throwaway/etc/OpenCL/vendors/weft.icd ]] ||
        fail "dpkg --remove did not keep the conffile weft.icd"
      [[ ! -e $Throwaway$Lib ]] || fail "dpkg --remove left $Lib"
    else
      fail "dpkg could not remove the package from $Throwaway"
    fi
    if dpkgRoot --purge weft && [[ -z $(statusIn) ]]; then
      echo "  purged: not installed"
      while read -r Left; do
        [[ ! -e $Left ]] || fail "dpkg --purge left ${Left#"$Throwaway"}"
      done <<<"$PackagedFiles"
    else
      fail "dpkg could not purge the package from $Throwaway"
    fi
  else
    fail "dpkg could not install the package into $Throwaway"
  fi
  if [[ $Failures -ne 0 ]]; then
    cat "$Unpacked/dpkg.log"
  fi
else
  echo "package: not root: no dpkg install into a throwaway root"
fi
stage_end

echo
if [[ $Failures -ne 0 ]]; then
  echo "package: $Failures check(s) failed for $DEB" >&2
  exit 1
fi
echo "package: $DEB ($(du -h "$DEB" | cut -f1)) passed every check"
