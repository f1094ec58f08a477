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
rmmod mlx5x
