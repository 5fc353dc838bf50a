#!/usr/bin/env bash
# Whether scripts/package.sh's checks catch what they are there for: each
# case below damages a copy of a good package the way a packaging mistake
# would (the first is the layout before the multiarch fix: libweft.so in
# /usr/lib) and expects `package.sh --check` to fail with that case's
# message; the good package itself must pass. The cases marked root need
# dpkg's install into a throwaway root, which package.sh does only as root.
#
#   tests/package/check-mutations.sh [build/package/weft_<version>_amd64.deb]
#
# Exits nonzero when a case is not caught or the good package fails.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [[ $# -ge 1 ]]; then
  Good=$(realpath "$1")
else
  Good=$(ls "${WEFT_BUILD_DIR:-$ROOT/build}"/package/weft_*.deb 2>/dev/null |
    head -1)
fi
if [[ -z $Good || ! -f $Good ]]; then
  echo "check-mutations: no package (run scripts/package.sh first)" >&2
  exit 2
fi
Work=$(mktemp -d "${TMPDIR:-/tmp}/weft-mutations.XXXXXX")
trap 'rm -rf "$Work"' EXIT
Failures=0
Multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null ||
  gcc -print-multiarch)
LibDir=usr/lib/$Multiarch

# Each case: fresh, damage $Tree, check. check builds the package from $Tree
# and runs package.sh --check on it.
check() { # $1: name, $2: message package.sh must print, $3: "root" or ""
  local Name=$1 Expected=$2 NeedsRoot=${3:-} Log=$Work/$1.log
  if [[ $NeedsRoot == root && $(id -u) -ne 0 ]]; then
    echo "  skip  $Name (needs root)"
    return
  fi
  # Fast compression: these packages live for one check.
  dpkg-deb --root-owner-group -Zgzip -z1 -b "$Tree" "$Work/$Name.deb" >/dev/null
  if "$ROOT/scripts/package.sh" --check "$Work/$Name.deb" >"$Log" 2>&1; then
    echo "  FAIL  $Name: package.sh passed it"
    Failures=$((Failures + 1))
  elif ! grep -qF -- "$Expected" "$Log"; then
    echo "  FAIL  $Name: package.sh failed, but not with '$Expected':"
    grep 'package: FAIL' "$Log" | sed 's/^/          /'
    Failures=$((Failures + 1))
  else
    echo "  ok    $Name: $(grep -m1 -F -- "$Expected" "$Log" | sed 's/^package: //')"
  fi
}
fresh() { # a new copy of the good package's tree in $Tree
  Tree=$Work/tree
  rm -rf "$Tree"
  dpkg-deb -R "$Good" "$Tree"
}

echo "check-mutations: $Good"
if "$ROOT/scripts/package.sh" --check "$Good" >"$Work/good.log" 2>&1; then
  echo "  ok    the good package passes"
else
  echo "  FAIL  the good package does not pass:"
  grep 'package: FAIL' "$Work/good.log" | sed 's/^/          /'
  Failures=$((Failures + 1))
fi

fresh
mv "$Tree/$LibDir/libweft.so" "$Tree/usr/lib/libweft.so"
echo /usr/lib/libweft.so >"$Tree/etc/OpenCL/vendors/weft.icd"
check lib-in-usr-lib "not in the multiarch directory"

fresh
echo /usr/lib/libweft.so >"$Tree/etc/OpenCL/vendors/weft.icd"
check icd-names-another-file "weft.icd names '/usr/lib/libweft.so'"

fresh
sed -i /weft.icd/d "$Tree/DEBIAN/conffiles"
check icd-not-a-conffile "weft.icd is not a conffile"

fresh
rm "$Tree/DEBIAN/triggers"
check no-ldconfig-trigger "no ldconfig trigger"

fresh
mkdir -p "$Tree/usr/local/share"
mv "$Tree/usr/share/weft" "$Tree/usr/local/share/weft"
check machines-elsewhere "does not look for machine models in /usr/local/share"

fresh
rm "$Tree/usr/share/doc/weft/copyright"
check no-copyright "no /usr/share/doc/weft/copyright"

fresh
rm "$Tree/usr/share/man/man1/weftcc.1.gz"
check no-manual-page "no /usr/share/man/man1/weftcc.1.gz"

fresh
sed -i 's/^Depends: libsleef3, /Depends: /' "$Tree/DEBIAN/control"
check sleef-not-in-depends "libsleef3, which Depends does not name"

fresh
rm "$Tree/usr/bin/weftcc"
check no-weftcc "no weftcc in the package"

fresh
printf '#!/bin/sh\nset -e\nexit 1\n' >"$Tree/DEBIAN/postinst"
chmod 755 "$Tree/DEBIAN/postinst"
check postinst-fails "could not install the package" root

fresh
printf '#!/bin/sh\nset -e\n[ "$1" != purge ] || exit 1\n' >"$Tree/DEBIAN/postrm"
chmod 755 "$Tree/DEBIAN/postrm"
check postrm-fails-on-purge "could not purge the package" root

if [[ $Failures -ne 0 ]]; then
  echo "check-mutations: $Failures case(s) not as expected" >&2
  exit 1
fi
echo "check-mutations: every damaged package was refused"
