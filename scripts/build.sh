#!/bin/bash
# Build mlx5x.ko (W=1) for one kernel, plus the selftests and examples.
# Usage: build.sh [KVER].  The module is built in build/obj/KVER (a copy of
# the sources, so kernels do not share objects) and lands there as
# mlx5x.ko.  Any compiler warning fails; make rebuilds only what changed.
# Env: KDIR, the kernel build tree (default Debian's headers of KVER);
# KMAKE_ARGS, more make arguments for the module (KCOV_INSTRUMENT=y).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
KVER=${1:-${KVER:-6.1.0-56-amd64}}
KDIR=${KDIR:-/usr/src/linux-headers-$KVER}
OBJ=$ROOT/build/obj/$KVER
log=$(mktemp)
trap 'rm -f "$log"' EXIT

mkdir -p "$OBJ" "$ROOT/build/selftests"
rsync -a --delete --exclude '*.o' --exclude '*.ko' --exclude '.*.cmd' \
	--exclude '*.mod*' --exclude '*.order' --exclude 'Module.symvers' \
	--include 'Kbuild' --include 'drivers/***' --include 'include/***' \
	--exclude '*' "$ROOT/" "$OBJ/"
# rsync copies mtimes, so make sees only real changes
make -C "$KDIR" M="$OBJ" W=1 ${KMAKE_ARGS:-} modules >"$log" 2>&1 || { cat "$log"; exit 1; }
make -C "$ROOT/tools/testing/selftests/drivers/infiniband/mlx5x" \
	OUTPUT="$ROOT/build/selftests" \
	INSTALL_PATH="$ROOT/build/kselftest_install" install \
	>>"$log" 2>&1 || { cat "$log"; exit 1; }
for d in examples bench cli lib; do
	make -C "$ROOT/userspace/$d" OUTPUT="$ROOT/build" \
		>>"$log" 2>&1 || { cat "$log"; exit 1; }
done
if grep -E 'warning:|error:' "$log"; then
	echo "build: warnings above"
	exit 1
fi
echo "build: build/obj/$KVER/mlx5x.ko, selftests, examples, benchmarks, the mlx5x command and libmlx5x, no warnings"
