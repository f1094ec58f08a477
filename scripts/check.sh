#!/bin/bash
# sparse (C=2, every file checked) and checkpatch (from Debian's
# linux-source-6.1) over the module, the selftests and the shim.
# Usage: check.sh KDIR.  Exits nonzero on any finding.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
KDIR=$1
TOOLS=$ROOT/build/tools
CP=$TOOLS/scripts/checkpatch.pl
fail=0

if [[ ! -x $CP ]]; then
	mkdir -p "$TOOLS"
	tarball=$(ls /usr/src/linux-source-6.1.tar.xz)
	tar -xJf "$tarball" -C "$TOOLS" --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Debian's headers of a kernel: sparse over the module as build.sh built
# it (built first if it is not), whose objects are up to date, so C=2
# runs the checker on every file and compiles nothing again; any other
# tree: a build of its own in the source directory
kver=${KDIR%/}
kver=${kver##*/linux-headers-}
if [[ $kver != "${KDIR%/}" ]]; then
	"$ROOT/scripts/build.sh" "$kver" >"$log" 2>&1 || fail=1
	make -s -C "$KDIR" M="$ROOT/build/obj/$kver" C=2 W=1 modules \
		>>"$log" 2>&1 || fail=1
else
	make -s -C "$KDIR" M="$ROOT" C=2 W=1 modules >"$log" 2>&1 || fail=1
fi
if grep -E 'warning:|error:' "$log"; then
	echo "check: sparse/compiler findings above"
	fail=1
fi

mapfile -t files < <(cd "$ROOT" && git ls-files --cached --others \
	--exclude-standard -- '*.c' '*.h' | grep -v '^build/')
if ! (cd "$ROOT" && "$CP" --no-tree -q --show-types \
	--ignore FILE_PATH_CHANGES -f "${files[@]}"); then
	echo "check: checkpatch findings above"
	fail=1
fi
# the selftests' PRM field table is what 6.1's mlx5_ifc.h says
if ! "$ROOT/scripts/prm-fields.sh" --check; then
	echo "check: the selftests' mlx5x_prm.h is stale: make prm-fields"
	fail=1
fi

((fail == 0)) && echo "check: sparse and checkpatch clean (${#files[@]} files)"
exit $fail
