#!/bin/bash
# In the guest: the fault sweep.  For every case of every selftest program,
# for KIND in fw (the K-th firmware command fails: the model's
# fw/fail_nth) and slab (the K-th slab allocation of the case's system
# calls fails: failslab through /proc/thread-self/fail-nth; debug kernel
# only), run the case alone with the fault armed for K = 1, 2, ... until
# the case ends before reaching K.  After each run: the process ended by
# itself (no signal, no timeout), the model holds no user object and
# exactly the objects it held before, the kernel log has no new report.
# At the end kmemleak must be quiet.
# Usage: guest-faults.sh [--kinds "fw slab"] [--stride S] [--max-k N]
#	[--budget SECS] [PROGRAM...]
# Default programs: every one but mlx5x_remove, which takes the device
# away as its subject.  --stride S: K = 1, 1+S, ... (default 1: every K);
# --max-k N: at most N points per case and kind (default 0: no cap);
# --sparse: every K up to 16, then steps growing with K (K/8), so long
# cases cost O(log) runs (CI); --budget SECS: stop after SECS, reporting
# what was covered (0: none).
# Last line: "faults: N passed, N failed, 0 skipped" over fault points.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/vm/guest-debug-lib.sh
. "$ROOT/scripts/vm/guest-debug-lib.sh"
SRC=$ROOT/tools/testing/selftests/drivers/infiniband/mlx5x
BIN=${SELFTESTS_BIN:-$ROOT/build/selftests}
KINDS="fw slab" STRIDE=1 MAXK=0 BUDGET=0 SPARSE=0
while (($#)); do
	case $1 in
	--kinds) KINDS=$2; shift 2 ;;
	--stride) STRIDE=$2; shift 2 ;;
	--max-k) MAXK=$2; shift 2 ;;
	--budget) BUDGET=$2; shift 2 ;;
	--sparse) SPARSE=1; shift ;;
	*) break ;;
	esac
done
TESTS=$(sed -n '/^TEST_GEN_PROGS :=/,/[^\\]$/p' "$SRC/Makefile" |
	sed 's/^TEST_GEN_PROGS :=//; s/\\//g; s/\bmlx5x_remove\b//')
(($#)) && TESTS=$*

dev_up || { echo "faults: no device"; exit 1; }
debug_prepare
if ! have_failslab; then
	echo "# no failslab/fail-nth in this kernel: fw faults only"
	KINDS=${KINDS//slab/}
fi
dev=$MLX5X_DEV
base=$(fw_total_objects "$dev")
bad0=$(klog_bad)
pass=0 fail=0 runs=0
declare -A hit=()
t0=$SECONDS
out=$(mktemp)

over_budget() { ((BUDGET > 0 && SECONDS - t0 >= BUDGET)); }

# one PROG CASE KIND K: prints nothing, sets $verdict to hit/miss/bad
one() {
	local rc now
	MLX5X_ONLY=$2 MLX5X_FAULT=$3:$4 timeout 120 "$BIN/$1" >"$out" 2>&1
	rc=$?
	runs=$((runs + 1))
	verdict=$(sed -n "s/^# fault $3 $4 \([a-z]*\) $2\$/\1/p" "$out")
	[[ -d $DBG/mlx5x/$dev ]] || dev_up "$dev" "$MLX5X_NETDEV" >/dev/null 2>&1
	now=$(fw_total_objects "$dev")
	if ((rc > 4)) || [[ $verdict != hit && $verdict != miss ]] ||
	   (($(fw_user_objects "$dev") != 0 || now != base)) ||
	   (($(klog_bad) != bad0)); then
		echo "not ok - $1 $2 $3:$4 (rc $rc, fault ${verdict:-?}, objects $now, before $base)"
		sed 's/^/#   /' "$out" | tail -n 30
		awk 'NR > 1 && $3 != 0' "$DBG/mlx5x/$dev/fw/objects" | sed 's/^/#   left: /'
		dmesg | grep -E "$BAD_KLOG" | tail -n 5 | sed 's/^/#   /'
		bad0=$(klog_bad)
		base=$now
		verdict=bad
	fi
}

for t in $TESTS; do
	cases=$(MLX5X_ONLY=/ "$BIN/$t" 2>/dev/null |
		sed -n 's/^ok [0-9]* \([^ ]*\) # SKIP not selected$/\1/p')
	for c in $cases; do
		for kind in $KINDS; do
			k=1 n=0
			while ! over_budget; do
				one "$t" "$c" "$kind" "$k"
				case $verdict in
				miss) break ;;
				hit) pass=$((pass + 1)) ;;
				bad) fail=$((fail + 1)) ;;
				esac
				# a run that said nothing of its fault cannot be swept further
				case $verdict in
				bad) grep -q '^# fault ' "$out" || break ;;
				esac
				n=$((n + 1))
				((MAXK > 0 && n >= MAXK)) && break
				if ((SPARSE && k >= 16)); then
					k=$((k + k / 8))
				else
					k=$((k + STRIDE))
				fi
			done
			hit[$kind]=$((${hit[$kind]:-0} + n))
			echo "# $t $c $kind: $n fault points"
		done
		over_budget && break
	done
	over_budget && { echo "# budget of ${BUDGET}s spent, sweep stopped at $t"; break; }
done
rm -f "$out"
summary=""
for kind in $KINDS; do summary+=" $kind ${hit[$kind]:-0}"; done
echo "# fault points:$summary; $runs runs in $((SECONDS - t0))s"
if ! kmemleak_check; then
	echo "not ok - kmemleak"
	fail=$((fail + 1))
fi
echo "faults: $pass passed, $fail failed, 0 skipped"
((fail == 0))
