#!/bin/bash
# In the guest: load mlx5x, create a simulated device over a dummy netdev,
# show it, and run the libmlx5 example on it.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
set -x
modprobe dummy
ip link add d0 type dummy
ip link set d0 up
ip addr add 192.168.77.1/24 dev d0
modprobe mlx5x
rdma link add mlx5x_0 type mlx5x netdev d0
rdma link show
ibv_devices
ibv_devinfo -d mlx5x_0
"$ROOT/build/mlx5x_hello" mlx5x_0
cat /sys/kernel/debug/mlx5x/mlx5x_0/fw/stats
rdma link delete mlx5x_0
rmmod mlx5x
