#!/bin/bash
# In the guest: concurrency.  Several processes of several threads each
# create and destroy objects on one device through every method, RC
# traffic included (mlx5x_fuzz -r), while the device is deleted and
# re-added with "rdma link delete", then while the module is unloaded and
# reloaded; every 2 s or so one of the processes is killed, whatever it
# is doing, and another takes its place (-k).
# Checks: every delete, unload and reload finishes within 60 s (no
# deadlock), no worker dies but those killed, no user object is left in
# the model, the kernel log has no report (lockdep included), kmemleak is
# quiet.
# Usage: guest-stress.sh [SECONDS per phase, default 30]
# Last line: "stress: N passed, N failed, 0 skipped".
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/vm/guest-debug-lib.sh
. "$ROOT/scripts/vm/guest-debug-lib.sh"
BIN=${SELFTESTS_BIN:-$ROOT/build/selftests}
SECS=${1:-30}
pass=0 fail=0
result() { if (($2)); then echo "not ok - $1"; fail=$((fail + 1)); else echo "ok - $1"; pass=$((pass + 1)); fi; }

dev_up || { echo "stress: no device"; exit 1; }
debug_prepare
bad0=$(klog_bad)
dev=$MLX5X_DEV nd=$MLX5X_NETDEV

# phase NAME REMOVE RESTORE: fuzzers for SECS while REMOVE; RESTORE
# runs again and again
phase() {
	local name=$1 remove=$2 restore=$3 pid end n=0 ok=0 rc
	"$BIN/mlx5x_fuzz" -r -k 2000 -p 3 -T 4 -t "$SECS" -n 100000000 >/tmp/stress.log 2>&1 &
	pid=$!
	end=$((SECONDS + SECS - 5))
	sleep 2
	while ((SECONDS < end)); do
		timeout 60 bash -c "$remove" >/tmp/remove.log 2>&1 || { echo "# $name: '$remove' failed or hung"; sed 's/^/#   /' /tmp/remove.log | tail -n 5; ok=1; break; }
		sleep 0.$((RANDOM % 10))
		timeout 60 bash -c "$restore" >/dev/null 2>&1 || { echo "# $name: '$restore' failed or hung"; ok=1; break; }
		n=$((n + 1))
		echo "# $name: round $n"
		sleep 0.$((RANDOM % 10))
	done
	# a watchdog: what every task waits on, if the fuzzers outlive their time
	( sleep $((SECS + 90)); echo "# $name: fuzzers still running:";
	  for p in /proc/[0-9]*/task/[0-9]*; do
		st=$(awk '/^State:/ { print $2 }' "$p/status" 2>/dev/null)
		[[ $st == [DR] ]] || grep -qE 'mlx5x_fuzz|rdma' "$p/comm" 2>/dev/null || continue
		echo "# $(cat "$p/comm") ${p#/proc/} $st: $(tr '\n' ' ' <"$p/stack" 2>/dev/null | cut -c1-300)"
	  done ) &
	dog=$!
	wait "$pid"
	rc=$?
	kill "$dog" 2>/dev/null
	sed 's/^/# /' /tmp/stress.log
	echo "# $name: $n rounds"
	result "$name: removals and restores finished" "$ok"
	result "$name: no worker died" "$rc"
	dev_up "$dev" "$nd" >/dev/null 2>&1
	fw_settle "$dev"
	(($(fw_user_objects "$dev") == 0))
	result "$name: no user object left" $?
	(($(klog_bad) == bad0))
	result "$name: kernel log has no report" $?
	bad0=$(klog_bad)
}

phase link_delete "rdma link delete $dev" "rdma link add $dev type mlx5x netdev $nd"
# An open DEVX async command or event FD holds the module (their fops
# are its own), so rmmod alone waits until the fuzzers exit: the link goes
# first, its contexts see EIO and close, and the module is unloaded while
# they still run.  A racing open may hold the module for an instant:
# rmmod retries.
phase rmmod "rdma link delete $dev; for i in \$(seq 50); do rmmod mlx5x && exit 0; sleep 0.2; done; lsmod | grep mlx5x; exit 1" "modprobe mlx5x && rdma link add $dev type mlx5x netdev $nd"
kmemleak_check
result "kmemleak quiet" $?
echo "stress: $pass passed, $fail failed, 0 skipped"
((fail == 0))
