#!/bin/bash
# Every test of mlx5x, from a fresh Debian 12 machine: install what is
# missing, build, check, then boot Debian's stock kernel in QEMU and run
# the kselftests and rdma-core's own suite against a simulated device.
# The last line counts test cases: "total: N passed, N failed, N skipped".
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/stage.sh
. scripts/stage.sh
KVER=${KVER:-6.1.0-56-amd64}
export KVER
t0=$EPOCHREALTIME

stage setup scripts/setup-deps.sh
stage kernel scripts/get-kernel.sh "$KVER"
stage build scripts/build.sh
stage check make -s check
mkdir -p build/logs
stage vm scripts/vm/run.sh --kver "$KVER" --ko mlx5x.ko --timeout 1800 \
	scripts/vm/guest-test.sh | tee build/logs/test-summary.log
awk -v a="$t0" -v b="$EPOCHREALTIME" \
	'BEGIN { printf "=== all stages ok in %.1fs\n", b - a }'
grep -E '^total: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' \
	build/logs/test-summary.log | tail -n 1
