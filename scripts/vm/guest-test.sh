#!/bin/bash
# In the guest: create simulated devices, run every kselftest program and
# rdma-core's suite, remove everything, and check the model is empty.
# Prints "total: N passed, N failed, N skipped" over test cases.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SELFTESTS=$ROOT/build/selftests
pass=0 fail=0 skip=0

count_tap() {
	local log=$1 p f s
	p=$(grep -cE '^ok [0-9]+' "$log" | head -n1)
	s=$(grep -cE '^ok [0-9]+ .*# SKIP' "$log" | head -n1)
	f=$(grep -cE '^not ok [0-9]+' "$log" | head -n1)
	pass=$((pass + p - s)) skip=$((skip + s)) fail=$((fail + f))
}

result() {	# name rc: one line per program, TAP-like
	if (($2 == 0)); then
		echo "ok - $1"
	elif (($2 == 4)); then
		echo "ok - $1 # SKIP"
	else
		echo "not ok - $1 (rc $2)"
	fi
}

modprobe dummy
for nd in d0 d1; do
	ip link add "$nd" type dummy
	ip link set "$nd" up
done
ip addr add 192.168.77.1/24 dev d0
modprobe mlx5x
rdma link add mlx5x_0 type mlx5x netdev d0
export MLX5X_DEV=mlx5x_0 MLX5X_NETDEV=d0 MLX5X_NETDEV2=d1
ibv_devinfo -d mlx5x_0

log=$(mktemp)
for t in "$SELFTESTS"/mlx5x_*; do
	[[ -x $t && ! -d $t ]] || continue
	echo "# selftest $(basename "$t")"
	timeout 300 "$t" >"$log" 2>&1
	rc=$?
	cat "$log"
	count_tap "$log"
	if ! grep -qE '^(not )?ok [0-9]+' "$log" && ((rc != 0 && rc != 4)); then
		fail=$((fail + 1))	# died before reporting anything
	fi
	result "$(basename "$t")" "$rc"
done

echo "# rdma-core tests that must pass on the simulated device"
"$ROOT/scripts/vm/guest-pyverbs.sh" mlx5x_0 test_pd test_device.DeviceTest \
	test_mlx5_query_port test_mlx5_uar >"$log" 2>&1
rc=$?
cat "$log"
p=$(grep -cE '^# .*\.\.\. ok$' "$log")
s=$(grep -cE '^# .*\.\.\. skipped' "$log")
f=$(grep -cE '^# .*\.\.\. (FAIL|ERROR)$' "$log")
pass=$((pass + p)) skip=$((skip + s)) fail=$((fail + f))
result pyverbs-required "$rc"
((rc == 0)) || fail=$((fail + 1))

echo "# rdma-core's whole suite (counts reported, not gated)"
"$ROOT/scripts/vm/guest-pyverbs.sh" mlx5x_0

rdma link delete mlx5x_0
if rdma link show | grep -q mlx5x; then
	echo "not ok - devices left after delete"
	fail=$((fail + 1))
fi
rmmod mlx5x || { echo "not ok - rmmod mlx5x"; fail=$((fail + 1)); }
rm -f "$log"
echo "total: $pass passed, $fail failed, $skip skipped"
((fail == 0))
