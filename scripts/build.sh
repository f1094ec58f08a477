#!/bin/bash
# Build mlx5x.ko (W=1) and the selftests; any compiler warning fails.
# make rebuilds only what changed.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
make -C "$ROOT" module >"$log" 2>&1 || { cat "$log"; exit 1; }
mkdir -p "$ROOT/build/selftests"
make -C "$ROOT/tools/testing/selftests/drivers/infiniband/mlx5x" \
	OUTPUT="$ROOT/build/selftests" >>"$log" 2>&1 || { cat "$log"; exit 1; }
make -C "$ROOT/userspace/examples" OUTPUT="$ROOT/build" \
	>>"$log" 2>&1 || { cat "$log"; exit 1; }
if grep -E 'warning:|error:' "$log"; then
	echo "build: warnings above"
	exit 1
fi
echo "build: mlx5x.ko, selftests and examples built, no warnings"
