#!/bin/bash
# Every test of mlx5x, from a fresh Debian 12 machine: install what is
# missing, build, check, build (or find cached) the debug kernel from
# Debian's linux-source-6.1 (KUnit, KASAN, kmemleak, lockdep, failslab,
# KCOV: scripts/debug-kernel.sh), the firmware model's KUnit suites on
# it, the docs, DKMS, then for each kernel (Debian 12's 6.1 and the
# backports 6.12) boot Debian's stock kernel in QEMU and run the
# kselftests and rdma-core's own suite against a simulated device, and
# mlx5x beside mlx5_core and mlx5_ib with no ConnectX present; last, the
# reliability tests on the debug kernel (scripts/debug-test.sh).
# The last line counts test cases: "total: N passed, N failed, N skipped".
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/stage.sh
. scripts/stage.sh
# shellcheck source=scripts/kernels.sh
. scripts/kernels.sh
t0=$EPOCHREALTIME
mkdir -p build/logs
summary=build/logs/test-summary.log
: >"$summary"

stage setup scripts/setup-deps.sh
for k in $KVERS; do
	stage "kernel-$k" scripts/get-kernel.sh "$k"
	stage "build-$k" scripts/build.sh "$k"
done
stage check scripts/check.sh "/usr/src/linux-headers-${KVERS%% *}"
stage debug-kernel scripts/debug-kernel.sh
stage kunit scripts/kunit.sh | tee build/logs/kunit-summary.log
stage docs scripts/docs.sh
stage cli make -s -C userspace/cli OUTPUT="$ROOT/build" check | tee -a "$summary"
stage dkms scripts/dkms-test.sh
for k in $KVERS; do
	VM_NAME="test-$k" stage "vm-$k" scripts/vm/run.sh --kver "$k" \
		--ko "build/obj/$k/mlx5x.ko" --timeout 1800 \
		scripts/vm/guest-test.sh | tee -a "$summary"
	VM_NAME="hw-$k" stage "hw-$k" scripts/vm/run.sh --kver "$k" \
		--ko "build/obj/$k/mlx5x.ko" scripts/vm/guest-hw.sh |
		tee -a "$summary"
done
stage reliability scripts/debug-test.sh | tee -a "$summary"
awk -v a="$t0" -v b="$EPOCHREALTIME" \
	'BEGIN { printf "=== all stages ok in %.1fs\n", b - a }'
grep -E '^kunit: [0-9]+ passed' build/logs/kunit-summary.log >>"$summary" || true
awk '/^(total|kunit|cli|hw|reliability): [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ {
	p += $2; f += $4; s += $6 }
     END { printf "total: %d passed, %d failed, %d skipped\n", p, f, s }' \
	"$summary"
