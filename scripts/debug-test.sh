#!/bin/bash
# The reliability tests, each in its own VM: the whole kselftest suite and
# rdma-core's on the debug kernel (guest-debug.sh), the fault sweep
# (guest-faults.sh), the fuzzer (guest-fuzz.sh) and the concurrency test
# (guest-stress.sh).  The debug kernel (scripts/debug-kernel.sh: KASAN,
# kmemleak, lockdep, failslab, KCOV) is used when it is built; mlx5x is
# built against it with KCOV_INSTRUMENT=y.
#
# Usage: debug-test.sh [--long] [--cached-only] [--stock]
#   (default)      CI budget: the whole kselftest suite, rdma-core's
#                  required tests and half of its whole suite's modules,
#                  one of the wire tests' two parts (where the kernel
#                  has network namespaces: the debug kernel has none),
#                  a sparse fault sweep of a ninth of the programs within
#                  300 s, 60 s of fuzzing, 40 s per stress phase.  The
#                  half and the ninth rotate with the commit count (or
#                  MLX5X_ROTATE=R), so consecutive commits cover them all
#   --long         every fault point of every case (one VM per CPU, each
#                  a shard of the cases), 1800 s of fuzzing, 120 s per
#                  phase
#   --cached-only  never build the debug kernel: when it is not in the
#                  cache, say so and run the sweep, fuzzer and stress test
#                  on Debian's stock kernel (no sanitizers, no failslab:
#                  firmware faults only, no KCOV)
#   --stock        Debian's stock kernel regardless
# Output: build/logs/reliability.log (and each VM's logs, rel-*); on
# stdout the figures and the last line "reliability: N passed, N failed,
# N skipped".
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
STOCK=6.1.0-56-amd64
long=0 cached=() stock=0
for a in "$@"; do
	case $a in
	--long) long=1 ;;
	--cached-only) cached=(--cached-only) ;;
	--stock) stock=1 ;;
	*) sed -n '2,22s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
mkdir -p build/logs
out=build/logs/reliability.log
: >"$out"

kver=$STOCK debug=0
if ((!stock)); then
	rc=0
	kver=$(scripts/debug-kernel.sh --kver "${cached[@]}") || rc=$?
	if ((rc == 3)); then
		echo "debug-test: NOTE: the debug kernel is not in the cache;" \
			"'make debug-kernel' builds it. Running on the stock kernel $STOCK:" \
			"no KASAN/kmemleak/lockdep, firmware faults only, no KCOV."
		kver=$STOCK
	elif ((rc)); then
		exit "$rc"
	else
		debug=1
	fi
fi
if ((debug)); then
	kdir=$(readlink -f "build/kernels/$kver")/../obj
	KDIR=$(realpath "$kdir") KMAKE_ARGS=KCOV_INSTRUMENT=y scripts/build.sh "$kver"
else
	scripts/get-kernel.sh "$kver"
	scripts/build.sh "$kver"
fi

# the rotation: which share of the programs the sweep takes in depth,
# and which half of rdma-core's modules the suite runs
rot=${MLX5X_ROTATE:-$(git rev-list --count HEAD 2>/dev/null || date +%j)}
rot=$((10#$rot))
suite=(--rotate "$rot")
if ((long)); then
	suite=()
	fuzz=(-p 4 -T 2 -t 1800 -n 1000000000) stress=120
else
	faults=(--sparse --budget 300 --pick "$((rot % 9))/9")
	fuzz=(-p 3 -t 60 -n 2000000) stress=40
	echo "debug-test: rotation $rot (MLX5X_ROTATE): rdma-core's modules" \
		"$((rot % 2))/2, the wire's part $(((rot + 1) % 2))/2," \
		"the fault sweep's programs ${faults[4]}"
fi
fail=0
# why NAME: what a failed VM said of its failure, from its two logs (the
# CI output is all a reader of a CI run has)
why() {
	{
		grep -aE '^not ok|FINDING|^fuzz: |^#   |^run.sh: ' \
			"build/logs/rel-$1-test.log"
		grep -aE -A12 '(BUG|WARNING|INFO|UBSAN|kmemleak):|Oops|Call Trace' \
			"build/logs/rel-$1-kernel.log"
	} 2>/dev/null | head -n 60 | sed "s/^/debug-test: $1: /"
}
# NAME TIMEOUT SCRIPT ARGS...: nonzero when the VM failed, which also
# sets fail (in this shell; a caller in the background has only the status)
vm() {
	local name=$1 timeout=$2 rc=0 from
	shift 2
	from=$(($(wc -l <"$out") + 1))
	VM_NAME="rel-$name" scripts/vm/run.sh --kver "$kver" \
		--ko "build/obj/$kver/mlx5x.ko" --mem 3072 --timeout "$timeout" \
		"$@" >>"$out" 2>&1 || {
		echo "debug-test: $name FAILED (build/logs/rel-$name-*.log)"
		why "$name"
		fail=1 rc=1
	}
	# a boot that hung (and was tried again), and how the VM ended
	tail -n "+$from" "$out" | grep -aE '^run.sh: (BOOT HANG|the guest hung)' |
		sed 's/^/debug-test: /'
	grep -aE '^run.sh: ' "$out" | tail -n 1 | sed 's/^/debug-test: /'
	return "$rc"
}
if ((debug)); then
	vm suite 5400 scripts/vm/guest-debug.sh "${suite[@]}" || true
fi
if ((long)); then
	# the points shared out among VMs that run side by side
	n=$(nproc) pids=()
	for ((i = 0; i < n; i++)); do
		vm "faults$i" 86400 scripts/vm/guest-faults.sh --shard "$i/$n" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || fail=1
	done
else
	vm faults 1500 scripts/vm/guest-faults.sh "${faults[@]}" || true
fi
vm fuzz $((long ? 2400 : 600)) scripts/vm/guest-fuzz.sh "${fuzz[@]}" || true
# the fuzzer's coverage of the UMR, signature and crypto data path
if ((debug)); then
	scripts/vm/fuzz-cover.py "build/obj/$kver/mlx5x.ko" \
		build/logs/rel-fuzz-test.log 'umr|sig|crypto|mkey_xlate|psv' \
		>>"$out" 2>&1 || true
fi
vm stress $((long ? 900 : 600)) scripts/vm/guest-stress.sh "$stress" || true

grep -aE '^# (fault points|reached|KCOV coverage|cover |kmemleak)|^fuzz: [0-9]+ calls' "$out" |
	sed 's/^/debug-test: /'
awk '/^(total|faults|fuzz|stress): [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ {
	p += $2; f += $4; s += $6 }
     END { printf "reliability: %d passed, %d failed, %d skipped\n", p, f, s }' "$out"
exit "$fail"
