#!/bin/bash
# In the guest: run every mlx5x kselftest program against a simulated
# device, then check two devices at once, a device going with its netdev,
# and rmmod while a process holds a context.  scripts/build.sh builds the
# programs into build/selftests (SELFTESTS_BIN overrides).
# Last line: "selftests: N passed, N failed, N skipped", over the programs
# and the runner's own checks; each program's TAP is printed as it runs.
# Usage: guest-selftests.sh [PROGRAM...]: only those programs, and none of
# the runner's checks (for iterating on a few tests).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SRC=$ROOT/tools/testing/selftests/drivers/infiniband/mlx5x
BIN=${SELFTESTS_BIN:-$ROOT/build/selftests}
TIMEOUT=$(sed -n 's/^timeout=//p' "$SRC/settings")
TESTS=$(sed -n '/^TEST_GEN_PROGS :=/,/[^\\]$/p' "$SRC/Makefile" |
	sed 's/^TEST_GEN_PROGS :=//; s/\\//g')
ONLY=$#
(($#)) && TESTS=$*
pass=0 fail=0 skip=0

result() {	# NAME RC
	case $2 in
	0) echo "ok - $1"; pass=$((pass + 1)) ;;
	4) echo "ok - $1 # SKIP"; skip=$((skip + 1)) ;;
	*) echo "not ok - $1 (rc $2)"; fail=$((fail + 1)) ;;
	esac
}

check() {	# NAME COMMAND...: a runner check, its output as diagnostics
	local name=$1 rc
	shift
	"$@" 2>&1 | sed 's/^/# /'
	rc=${PIPESTATUS[0]}
	result "$name" "$rc"
}

leaks() {
	dmesg | grep -c 'mlx5x_sim: LEAK'
}

modprobe dummy || exit 1
# a second run in the same guest (the pass as on hardware) finds the
# netdevs there already, the module and its device perhaps too
for nd in d0 d1; do
	ip link show "$nd" >/dev/null 2>&1 || ip link add "$nd" type dummy ||
		exit 1
	ip link set "$nd" up || exit 1
done
# an IPv4 address on the port's netdev and rdma_cm's user interface, for
# rdma_resolve_addr() and the like (mlx5x_cm)
ip addr replace 192.0.2.1/24 dev d0 || exit 1
modprobe rdma_ucm || exit 1
modprobe mlx5x || exit 1
rdma link show | grep -q '^link mlx5x_0/' ||
	rdma link add mlx5x_0 type mlx5x netdev d0 || exit 1
export MLX5X_DEV=mlx5x_0 MLX5X_NETDEV=d0

t0=$EPOCHREALTIME
for t in $TESTS; do
	echo "# selftest $t"
	s=$EPOCHREALTIME
	timeout "$TIMEOUT" "$BIN/$t"
	rc=$?
	awk -v a="$s" -v b="$EPOCHREALTIME" -v t="$t" \
		'BEGIN { printf "# %s took %.1fs\n", t, b - a }'
	result "$t" "$rc"
done
awk -v a="$t0" -v b="$EPOCHREALTIME" -v p="$pass" -v f="$fail" -v s="$skip" \
	'BEGIN { printf "# programs: %d passed, %d failed, %d skipped in %.1fs\n", p, f, s, b - a }'
if ((ONLY)); then
	echo "selftests: $pass passed, $fail failed, $skip skipped"
	((fail == 0))
	exit
fi

# A second device on another netdev works alongside the first; a netdev
# serves one device only.
second_device() {
	# a name taken, on a free netdev: ib_core refuses it (ENFILE), and
	# the half-made device goes cleanly
	if rdma link add mlx5x_0 type mlx5x netdev d1; then
		echo "a second mlx5x_0 was accepted"
		return 1
	fi
	rdma link add mlx5x_1 type mlx5x netdev d1 || return 1
	if rdma link add mlx5x_2 type mlx5x netdev d0; then
		echo "a second device on d0 was accepted"
		return 1
	fi
	rdma link show
	for d in mlx5x_0 mlx5x_1; do
		ibv_devinfo -d "$d" | grep -E 'hca_id|node_guid|state' || return 1
		ibv_devinfo -d "$d" | grep -q PORT_ACTIVE || return 1
	done
	# the same program on both devices at the same time
	MLX5X_DEV=mlx5x_0 MLX5X_NETDEV=d0 "$BIN/mlx5x_pd" >/tmp/pd0.log &
	p0=$!
	MLX5X_DEV=mlx5x_1 MLX5X_NETDEV=d1 "$BIN/mlx5x_pd" >/tmp/pd1.log &
	p1=$!
	wait $p0
	r0=$?
	wait $p1
	r1=$?
	grep -h '^# Totals' /tmp/pd0.log /tmp/pd1.log
	((r0 == 0 && r1 == 0)) || { cat /tmp/pd0.log /tmp/pd1.log; return 1; }
}
check second_device second_device

# Deleting a device's netdev removes the device.
netdev_unregister() {
	ip link del d1 || return 1
	for _ in $(seq 50); do
		rdma link show | grep -q mlx5x_1 || break
		sleep 0.1
	done
	rdma link show
	! rdma link show | grep -q mlx5x_1 &&
		[[ ! -e /sys/kernel/debug/mlx5x/mlx5x_1 ]]
}
check netdev_unregister netdev_unregister

# rmmod while a process holds a context with a PD and a mapped UAR: the
# module goes, the process sees DEVICE_FATAL, lets go and exits cleanly.
rmmod_under_load() {
	local pid rc before
	before=$(leaks)
	"$BIN/hold_ctx" 60 >/tmp/hold.log 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		grep -q '^held' /tmp/hold.log && break
		sleep 0.1
	done
	grep -q '^held' /tmp/hold.log || { cat /tmp/hold.log; return 1; }
	cat /sys/kernel/debug/mlx5x/mlx5x_0/fw/objects
	rmmod mlx5x || { kill "$pid"; return 1; }
	wait "$pid"
	rc=$?
	cat /tmp/hold.log
	echo "hold_ctx exit $rc"
	! lsmod | grep -q '^mlx5x ' && ((rc == 0)) &&
		[[ ! -e /sys/kernel/debug/mlx5x ]] && (($(leaks) == before))
}
check rmmod_under_load rmmod_under_load

# Nothing the driver logs as a failed command, nothing the model leaked.
kernel_log_clean() {
	! dmesg | grep -E 'mlx5x_sim: LEAK|mlx5x.*failed: status'
}
check kernel_log_clean kernel_log_clean

echo "selftests: $pass passed, $fail failed, $skip skipped"
((fail == 0))
