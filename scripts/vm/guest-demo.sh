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
# the device moves data: an RC ping-pong and an RDMA WRITE bandwidth,
# server and client on the device over 127.0.0.1, its RoCE v2 GID
ip link set lo up
# listening PORT: wait (10 s at most) until the server listens on it
listening() {
	for _ in $(seq 100); do
		ss -Hltn "sport = :$1" | grep -q . && return
		sleep 0.1
	done
}
for gid in 0 1 2 3 4 5 6 7; do
	p=/sys/class/infiniband/mlx5x_0/ports/1
	[[ $(cat "$p/gid_attrs/types/$gid") == "RoCE v2" &&
	   $(cat "$p/gids/$gid") == 0000:0000:0000:0000:0000:ffff:* ]] && break
done
ibv_rc_pingpong -d mlx5x_0 -g "$gid" -n 100 -p 18515 &
listening 18515
ibv_rc_pingpong -d mlx5x_0 -g "$gid" -n 100 -p 18515 127.0.0.1
wait
if command -v ib_write_bw >/dev/null; then
	ib_write_bw -d mlx5x_0 -x "$gid" -s 65536 -n 200 -p 18516 &
	listening 18516
	ib_write_bw -d mlx5x_0 -x "$gid" -s 65536 -n 200 -p 18516 127.0.0.1
	wait
fi
# rdma_cm: a connection through the device's QP1 (ib_cm's MADs)
if command -v rping >/dev/null; then
	modprobe rdma_ucm
	rping -s -a 192.168.77.1 -C 3 &
	for _ in $(seq 100); do
		rdma resource show cm_id | grep -q 'state LISTEN' && break
		sleep 0.1
	done
	rping -c -a 192.168.77.1 -C 3 -v
	wait
fi
head -n 1 /sys/kernel/debug/mlx5x/mlx5x_0/fw/datapath
cat /sys/kernel/debug/mlx5x/mlx5x_0/fw/stats
rdma link delete mlx5x_0
rmmod mlx5x
