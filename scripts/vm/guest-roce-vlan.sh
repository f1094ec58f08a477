#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: RoCE on a VLAN and RoCE v1 across a veth pair (issue 24).
# The pair of veth-pair.sh (wn0 here, wf0 in namespace wfar with the
# simulated device mlx5x_wf), and VLAN 77 over each end (wn0.77, wf0.77,
# 192.168.78.0/24): ib_core gives each port GIDs of the VLAN devices,
# on VLAN 77.  The far VLAN device is made after the far simulated
# device (its wire follows it), the near one before the near simulated
# device (its wire finds it).  Each program runs on a link-local GID (its
# MAC is the GID's: no address resolution across namespaces):
#   VLAN: ibv_rc_pingpong and ibv_ud_pingpong sim<->sim, and
#   ibv_rc_pingpong rxe (near) <-> sim (far), on the RoCE v2 GIDs of the
#   VLAN devices (each pingpong sends both ways); rping (rdma_cm) sim<->sim
#   to the near VLAN address;
#   v1: ibv_rc_pingpong and ibv_ud_pingpong sim<->sim on the ports'
#   "IB/RoCE v1" GIDs of the untagged ends;
#   a RoCE v2 datagram (roce-inject.py, from the far namespace) to the
#   near port's VLAN address (192.168.78.1): untagged it is not the
#   port's RoCE (fw/datapath's roce rx does not move; the host's stack
#   gets it), tagged with VLAN 77 it is;
#   the far namespace deleted with its devices on: the devices go.
# tshark captures wn0: frames on VLAN 77 decode as InfiniBand
# ('vlan.id == 77 && infiniband'), RoCE v1 ones too ('eth.type ==
# 0x8915 && infiniband'), no RoCE v2 frame but the injected one is
# untagged, and every ICRC is right (roce-icrc.py).
# Usage: guest-roce-vlan.sh [ITERATIONS]
# Last line: "roce-vlan: N passed, N failed".
set -uo pipefail

iters=${1:-10}
dir=$(mktemp -d)
pass=0 fail=0
port=18700
vid=77
nip=192.168.77.1 fip=192.168.77.2

. "$(dirname "$0")/veth-pair.sh"

veth_pair_up || exit 1
tshark -q -i wn0 -F pcap -w "$dir/wire.pcap" >"$dir/tshark.log" 2>&1 &
cap=$!
# tshark starts slowly in a new guest: the first traffic went uncaptured
for ((t = 0; t < 300; t++)); do
	grep -q '^Capturing on' "$dir/tshark.log" && break
	sleep 0.1
done
modprobe 8021q
ip -n wfar link add link wf0 name wf0.$vid type vlan id $vid &&
	ip -n wfar addr add 192.168.78.2/24 dev wf0.$vid &&
	ip -n wfar link set wf0.$vid up || exit 1
ip link add link wn0 name wn0.$vid type vlan id $vid &&
	ip addr add 192.168.78.1/24 dev wn0.$vid &&
	ip link set wn0.$vid up || exit 1

# gidx DEV NDEV TYPE: the index of the port's link-local GID of type
# TYPE ("RoCE v2", "IB/RoCE v1") on netdev NDEV, waiting (5 s at most)
gidx() {
	local p=/sys/class/infiniband/$1/ports/1 i t
	for ((t = 0; t < 50; t++)); do
		for ((i = 0; i < 32; i++)); do
			[[ $(cat "$p/gid_attrs/types/$i" 2>/dev/null) == "$3" &&
			   $(cat "$p/gid_attrs/ndevs/$i" 2>/dev/null) == "$2" &&
			   $(cat "$p/gids/$i" 2>/dev/null) == fe80:* ]] &&
				{ echo "$i"; return; }
		done
		sleep 0.1
	done
	return 1
}

# pp NAME SRV_NS SRV_DEV SRV_GID CLI_NS CLI_DEV CLI_GID TARGET PROG ARGS...
pp() {
	local name=$1 sns=$2 sdev=$3 sg=$4 cns=$5 cdev=$6 cg=$7 target=$8
	local prog=$9 srv rc=0
	shift 9
	port=$((port + 1))
	if [[ -z $sg || -z $cg ]]; then
		notok "$name: no GID ($sdev '$sg', $cdev '$cg')"
		return
	fi
	timeout 30 $(nsx "$sns") "$prog" -d "$sdev" -g "$sg" -p $port \
		-n "$iters" "$@" >"$dir/srv.log" 2>&1 &
	srv=$!
	listening "$sns" $port
	timeout 30 $(nsx "$cns") "$prog" -d "$cdev" -g "$cg" -p $port \
		-n "$iters" "$@" "$target" >"$dir/cli.log" 2>&1 || rc=1
	wait $srv || rc=1
	if ((rc == 0)) && grep -q "$iters iters" "$dir/cli.log"; then
		ok "$name (at $SECONDS s)"
	else
		sed 's/^/#   /' "$dir/srv.log" "$dir/cli.log" | tail -n 16
		notok "$name"
	fi
}

# roce_rx DEV: fw/datapath's count of RoCE frames the port took
roce_rx() {
	awk '$1 == "roce" { for (i = 2; i < NF; i++)
		if ($i == "rx") { print $(i + 1); exit } }' \
		/sys/kernel/debug/mlx5x/$1/fw/datapath
}

fv=$(gidx mlx5x_wf wf0.$vid "RoCE v2")
if modprobe rdma_rxe 2>/dev/null &&
   rdma link add rxe_wn type rxe netdev wn0; then
	rv=$(gidx rxe_wn wn0.$vid "RoCE v2")
	pp "vlan rc_pingpong rxe<->sim" - rxe_wn "$rv" wfar mlx5x_wf "$fv" \
		$nip ibv_rc_pingpong -s 4096 -m 1024
	rdma link delete rxe_wn
else
	echo "# rxe: not in this kernel; sim-sim only"
fi
rdma link add mlx5x_wn type mlx5x netdev wn0 || exit 1
nv=$(gidx mlx5x_wn wn0.$vid "RoCE v2")
echo "# VLAN $vid GIDs: mlx5x_wn $nv, mlx5x_wf $fv"
pp "vlan rc_pingpong sim<->sim" - mlx5x_wn "$nv" wfar mlx5x_wf "$fv" \
	$nip ibv_rc_pingpong -s 4096 -m 1024
pp "vlan ud_pingpong sim<->sim" - mlx5x_wn "$nv" wfar mlx5x_wf "$fv" \
	$nip ibv_ud_pingpong -s 1024
# rdma_cm over the VLAN: the far client resolves 192.168.78.1 by ARP on
# wf0.77, the CM picks each port's GID of its VLAN device, and every
# packet of the connection and its pings goes tagged
rping_pair "vlan rping sim<->sim (rdma_cm)" - 192.168.78.1 wfar 4000
n1=$(gidx mlx5x_wn wn0 "IB/RoCE v1") f1=$(gidx mlx5x_wf wf0 "IB/RoCE v1")
echo "# RoCE v1 GIDs: mlx5x_wn $n1, mlx5x_wf $f1"
pp "v1 rc_pingpong sim<->sim" - mlx5x_wn "$n1" wfar mlx5x_wf "$f1" \
	$nip ibv_rc_pingpong -s 4096 -m 1024
pp "v1 ud_pingpong sim<->sim" wfar mlx5x_wf "$f1" - mlx5x_wn "$n1" \
	$fip ibv_ud_pingpong -s 1024

# a datagram to the near port's VLAN address, untagged then tagged
inject() {
	ip netns exec wfar python3 "$(dirname "$0")/roce-inject.py" wf0 \
		$near 192.168.78.2 192.168.78.1 "$1"
	sleep 0.5
}
r0=$(roce_rx mlx5x_wn)
inject -
r1=$(roce_rx mlx5x_wn)
inject $vid
r2=$(roce_rx mlx5x_wn)
echo "# mlx5x_wn roce rx: $r0, untagged $r1, VLAN $vid $r2"
[[ -n $r0 && $r1 == "$r0" ]]
if (($? == 0)); then ok "untagged to a VLAN address: not the port's RoCE"
else notok "untagged to a VLAN address: not the port's RoCE"; fi
[[ -n $r1 && $r2 == $((r1 + 1)) ]]
if (($? == 0)); then ok "tagged to a VLAN address: the port's RoCE"
else notok "tagged to a VLAN address: the port's RoCE"; fi
sleep 1
kill $cap; wait $cap

# the trace, read once: a line a frame (tab-separated: its VLAN ID,
# Ethertype, BTH opcode where tshark decodes InfiniBand, UDP destination
# port, IPv4 destination, ICMP type)
tshark -r "$dir/wire.pcap" -T fields -e vlan.id -e eth.type \
	-e infiniband.bth.opcode -e udp.dstport -e ip.dst -e icmp.type \
	>"$dir/trace" 2>/dev/null
count() { awk -F'\t' "$1" "$dir/trace" | wc -l; }
c=$(count "\$1 == $vid && \$3 != \"\"")
echo "# capture: $c RoCE frames on VLAN $vid"
if ((c >= 4 * iters)); then ok "tshark decodes VLAN $vid frames as RoCE"
else notok "tshark decodes VLAN $vid frames as RoCE"; fi
c=$(count '$2 == "0x8915" && $3 != ""')
echo "# capture: $c RoCE v1 frames"
if ((c >= 4 * iters)); then ok "tshark decodes RoCE v1 frames"
else notok "tshark decodes RoCE v1 frames"; fi
# RoCE v2 here is all on the VLAN but the injected untagged datagram
# (seen twice: as it came, and as the port gave it to the host's stack;
# the stack's ICMP port unreachable quotes it)
c=$(count '$1 == "" && $4 == "4791" && $5 != "192.168.78.1" && $6 == ""')
echo "# capture: $c other untagged RoCE v2 frames"
if ((c == 0)); then ok "no RoCE v2 of the VLAN's GIDs leaves untagged"
else notok "no RoCE v2 of the VLAN's GIDs leaves untagged"; fi
icrc_ok "$dir/wire.pcap"
for d in mlx5x_wn mlx5x_wf; do
	echo "# $d: $(grep '^roce' /sys/kernel/debug/mlx5x/$d/fw/datapath)"
done
# the far namespace deleted under its device and its VLAN device: the
# pair goes, and with it both devices (no hang on the namespace's
# teardown)
ip netns del wfar
for ((t = 0; t < 100; t++)); do
	[[ -e /sys/class/infiniband/mlx5x_wf ]] || break
	sleep 0.1
done
if [[ ! -e /sys/class/infiniband/mlx5x_wf ]]; then
	ok "the far namespace deleted: its device goes"
else
	notok "the far namespace deleted: its device goes"
fi
echo "# roce-vlan: $SECONDS s"
veth_pair_down roce-vlan
rm -rf "$dir"
((fail == 0))
