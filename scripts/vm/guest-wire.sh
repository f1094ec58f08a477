#!/bin/bash
# In the guest: raw_ethernet_bw (perftest) across a veth pair, one
# simulated device on each end, the far end in a network namespace of its
# own (issue 24: the netdev is the port's wire).  The client, in the far
# namespace, sends to the server's MAC; its frames leave the far device
# through the veth and enter the near one's steering, where the server's
# flow takes them.  perftest's TCP sync crosses the same veth, as frames
# no flow takes, to the kernels.  Prints each side's report and each
# device's fw/datapath.  Usage: guest-wire.sh [SECONDS]
set -uo pipefail

secs=${1:-5}
near=02:77:00:00:00:01 far=02:77:00:00:00:02

ip link set lo up
modprobe veth || exit 1
modprobe mlx5x || exit 1
ip netns add wfar || exit 1
ip link add wn0 address $near type veth peer name wf0 address $far \
	netns wfar || exit 1
ip addr add 192.168.77.1/24 dev wn0 && ip link set wn0 up || exit 1
ip -n wfar addr add 192.168.77.2/24 dev wf0 || exit 1
ip -n wfar link set wf0 up && ip -n wfar link set lo up || exit 1
rdma link add mlx5x_wn type mlx5x netdev wn0 || exit 1
ip netns exec wfar rdma link add mlx5x_wf type mlx5x netdev wf0 || exit 1

rc=0
# -F: perftest falls back from its sampled clock ("Correlation
# coefficient r^2 < 0.9" on a loaded TCG host) to /proc/cpuinfo, whose
# vCPUs may say different MHz; without -F it then refuses to report
# ("Can't produce a report") and fails, the packets all moved
for sz in 64 1024; do
	timeout 120 raw_ethernet_bw -d mlx5x_wn -B $near -E $far --server \
		-F -D "$secs" -s $sz >/tmp/wire-srv.log 2>&1 &
	srv=$!
	sleep 2
	timeout 120 ip netns exec wfar raw_ethernet_bw -d mlx5x_wf -B $far \
		-E $near --client -F -D "$secs" -s $sz 192.168.77.1 \
		>/tmp/wire-cli.log 2>&1 || rc=1
	wait $srv || rc=1
	echo "# raw_ethernet_bw $sz bytes, server (near):"
	grep -A1 '#bytes' /tmp/wire-srv.log | sed 's/^/# /'
	echo "# raw_ethernet_bw $sz bytes, client (far):"
	grep -A1 '#bytes' /tmp/wire-cli.log | sed 's/^/# /'
	# a side without its report: all it said
	for f in /tmp/wire-srv.log /tmp/wire-cli.log; do
		grep -qE '^ *[0-9]+ +[0-9]+ ' "$f" ||
			sed "s|^|# ${f#/tmp/}: |" "$f" | tail -n 30
	done
done
for d in mlx5x_wn mlx5x_wf; do
	echo "# $d:"
	sed 's/^/#   /' /sys/kernel/debug/mlx5x/$d/fw/datapath | head -2
done
rdma link delete mlx5x_wn; ip netns exec wfar rdma link delete mlx5x_wf
ip link del wn0; ip netns del wfar
echo "wire: raw_ethernet_bw $([ $rc = 0 ] && echo passed || echo failed)"
exit $rc
