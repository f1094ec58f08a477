#!/bin/bash
# In the guest: the fault sweep.  For every case of every selftest program,
# for KIND in fw (the K-th firmware command fails: the model's
# fw/fail_nth) and slab (the K-th slab allocation of the case's system
# calls fails: failslab through /proc/thread-self/fail-nth; debug kernel
# only; kmemleak's own caches never fail: scripts/debug-kernel/cmdline),
# run the case with the fault armed for K = 1, 2, ... until the
# case ends before reaching K.  Each program sweeps its own cases in
# process (MLX5X_SWEEP, mlx5x_faults.c): a child per point, and after
# each the child ended by itself (no signal, no timeout), the model holds
# no user object and exactly the objects it held before, the kernel log
# has no new report.  At the end kmemleak must be quiet.
# Usage: guest-faults.sh [--kinds "fw slab"] [--max-k N] [--sparse]
#	[--shard I/N] [--pick I/N] [--count] [--budget SECS] [PROGRAM...]
# Default programs: every one but mlx5x_remove, which takes the device
# away as its subject.  The sweep lowers the event bounds (module
# parameters max_events_queued and max_event_subs) from 1024 to
# SWEPT_BOUND: overflow and subscription_limit loop up to them, and a
# point costs its case up to it (the tests read the bounds).
# --max-k N: no K above N (default 0: no cap);
# --sparse: every K up to 16, then steps growing with K (K/8), so long
# cases cost O(log) runs; --shard I/N: only the cases (parts of a case
# counted as cases) U of each program with U % N == I, each with all its
# K, so that N VMs share a full sweep (a case's allocations vary with the
# state of the kernel it runs on, so two VMs do not number them alike);
# --pick I/N: only the programs P of the list with P % N == I, so that a
# budget is spent in depth on a few, and N runs that rotate I cover all;
# --count: only count the points each
# case reaches (one run per case, both counters armed beyond reach: they
# count down) and time each kind's first point, to estimate the time
# every point takes; --budget SECS: stop after SECS, reporting what
# was covered (0: none); each program gets an equal share of what is
# left when it starts, so every program is reached.
# Last lines: "# fault points: fw N slab N; R runs in S s", "# reached:
# fw N slab N; all in ~S s" (the points the cases reach, swept or not,
# and the estimated time of every one in one VM) and "faults: N passed,
# N failed, 0 skipped" over fault points.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/vm/guest-debug-lib.sh
. "$ROOT/scripts/vm/guest-debug-lib.sh"
SRC=$ROOT/tools/testing/selftests/drivers/infiniband/mlx5x
BIN=${SELFTESTS_BIN:-$ROOT/build/selftests}
KINDS="fw slab" MAXK=0 BUDGET=0 SPARSE=0 SHARD='' COUNT=0 PICK=0/1
while (($#)); do
	case $1 in
	--kinds) KINDS=$2; shift 2 ;;
	--max-k) MAXK=$2; shift 2 ;;
	--budget) BUDGET=$2; shift 2 ;;
	--sparse) SPARSE=1; shift ;;
	--shard) SHARD=$2; shift 2 ;;
	--pick) PICK=$2; shift 2 ;;
	--count) COUNT=1; shift ;;
	*) break ;;
	esac
done
TESTS=$(sed -n '/^TEST_GEN_PROGS :=/,/[^\\]$/p' "$SRC/Makefile" |
	sed 's/^TEST_GEN_PROGS :=//; s/\\//g; s/\bmlx5x_remove\b//')
(($#)) && TESTS=$*
if [[ $PICK != 0/1 ]]; then
	i=0 picked=
	for t in $TESTS; do
		((i++ % ${PICK#*/} == ${PICK%/*})) && picked+=" $t"
	done
	TESTS=$picked
	echo "# programs $PICK:$TESTS"
fi

SWEPT_BOUND=64
PARAMS=/sys/module/mlx5x/parameters

dev_up || { echo "faults: no device"; exit 1; }
debug_prepare
for p in max_events_queued max_event_subs; do
	echo "$SWEPT_BOUND" >"$PARAMS/$p" || { echo "faults: no $p"; exit 1; }
done
if ! have_failslab; then
	echo "# no failslab/fail-nth in this kernel: fw faults only"
	KINDS=${KINDS//slab/}
fi
t0=$SECONDS
end=$(($(date +%s) + BUDGET))
left=$(wc -w <<<"$TESTS")
fw=0 slab=0 fail=0 runs=0 cut=0 rfw=0 rslab=0 all=0
out=$(mktemp)
for t in $TESTS; do
	until=0
	((BUDGET > 0)) && until=$(($(date +%s) + (end - $(date +%s)) / left))
	left=$((left - 1))
	[[ -d $DBG/mlx5x/$MLX5X_DEV ]] || dev_up "$MLX5X_DEV" "$MLX5X_NETDEV" >/dev/null 2>&1
	# as it goes: each case's points, and what went wrong with its
	# diagnostics.  The address space is laid out alike in every run
	# (setarch -R): where mappings fall decides some of the slab
	# allocations of page faults, which otherwise vary from run to run.
	MLX5X_SWEEP=$KINDS MLX5X_SWEEP_SPARSE=$SPARSE MLX5X_SWEEP_MAXK=$MAXK \
		MLX5X_SWEEP_UNTIL=$until MLX5X_SWEEP_BAD=$BAD_KLOG \
		MLX5X_SWEEP_SHARD=$SHARD MLX5X_SWEEP_COUNT=$COUNT \
		setarch "$(uname -m)" -R "$BIN/$t" 2>&1 | tee "$out" |
		sed -un "/^# sweep: /d; s/^# sweep /# $t /p; /^# not ok /p; /^#   /p"
	rc=${PIPESTATUS[0]}
	tot=$(sed -n 's/^# sweep: fw \([0-9]*\) slab \([0-9]*\) bad \([0-9]*\) runs \([0-9]*\)$/\1 \2 \3 \4/p' "$out")
	read -r f s b r <<<"$tot"
	if [[ -z ${r:-} ]] || ((rc != 0 && rc != 1 && rc != 4)); then
		echo "not ok - $t: the sweep did not finish (rc $rc)"
		tail -n 20 "$out" | sed 's/^/#   /'
		fail=$((fail + 1))
		f=0 s=0 b=0 r=0
	fi
	fw=$((fw + f)) slab=$((slab + s)) fail=$((fail + b)) runs=$((runs + r))
	read -r f s <<<"$(sed -n 's/^# sweep: reached fw \([0-9]*\) slab \([0-9]*\)$/\1 \2/p' "$out")"
	rfw=$((rfw + ${f:-0})) rslab=$((rslab + ${s:-0}))
	s=$(sed -n 's/^# sweep: all points in ~\([0-9]*\) s$/\1/p' "$out")
	all=$((all + ${s:-0}))
	if grep -q '^# sweep: budget spent$' "$out"; then
		echo "# $t: its share of the budget was spent"
		cut=$((cut + 1))
	fi
done
rm -f "$out"
echo "# fault points: fw $fw slab $slab; $runs runs in $((SECONDS - t0))s;" \
	"$cut programs cut short by the budget"
echo "# reached: fw $rfw slab $rslab; all in ~${all}s"
if ! kmemleak_check; then
	echo "not ok - kmemleak"
	fail=$((fail + 1))
fi
echo "faults: $((fw + slab - fail)) passed, $fail failed, 0 skipped"
((fail == 0))
