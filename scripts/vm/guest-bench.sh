#!/bin/bash
# In the guest: the benchmarks on a simulated device: DEVX latency, then
# MEMIC copy bandwidth, mlx5dv flow rule insertion and classification,
# and a simple command's latency while another context loads the data path.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
modprobe dummy
ip link add d0 type dummy
ip link set d0 up
# the flow bench holds 100k rules and more in one context
modprobe mlx5x max_flows=262144
rdma link add mlx5x_0 type mlx5x netdev d0
"$ROOT/build/mlx5x_bench" mlx5x_0 "${1:-20000}"
"$ROOT/build/mlx5x_dm_bench" mlx5x_0 65536 2000
"$ROOT/build/mlx5x_flow_bench" mlx5x_0 1000 100000
mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
"$ROOT/build/mlx5x_dp_bench" mlx5x_0 "${DP_QPS:-512}" 2000
rdma link delete mlx5x_0

# The programs users run (perftest, the ping-pongs) on a simulated device
# and on rxe in this VM, each figure beside the other and their ratio in
# mlx5x's favour: bandwidth over rxe's, time under rxe's (memcpy's
# bandwidth in this guest is mlx5x_dm_bench's, above).
echo "# programs beside rxe (${PROG_ITERS:-1000} iterations each)"
"$ROOT/scripts/vm/guest-programs.sh" "${PROG_ITERS:-1000}" >/tmp/programs.log 2>&1 || true
grep -E '^(not )?ok' /tmp/programs.log || true
awk 'BEGIN { print "# program            mlx5x               rxe                 in mlx5x'"'"'s favour (>1: better)" }
/^# figure/ {
	name = $3; a = $5; b = $(NF - 1); unit = $6
	if (a + 0 <= 0 || b + 0 <= 0) { printf "%-18s mlx5x %s rxe %s\n", name, a, b; next }
	printf "%-18s %10.2f %-8s %10.2f %-8s %8.2f\n", name, a, unit, b, unit,
		unit == "MB/s" ? a / b : b / a
}' /tmp/programs.log
rmmod mlx5x
