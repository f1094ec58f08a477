#!/bin/bash
# In the guest: UD as RoCE v2 across a veth pair (issue 24).  The near
# end (wn0) stays in the initial namespace, the far end (wf0) is in a
# namespace of its own; a simulated device is on the far end, and on the
# near end first rxe (which, in 6.1, serves the initial namespace only),
# then a second simulated device.  ibv_ud_pingpong runs across the pair,
# each way (the server on one end, the client on the other; their TCP
# exchange crosses the same veth), on the port's RoCE v2 link-local GID
# (its MAC is the GID's: no address resolution across namespaces), and
# with 1, 3, 1024 and 4096-byte messages (the veth's MTU is 4500), and
# udaddy (rdma_cm over UD: address and route resolution, SIDR REQ/REP
# MADs between the ports' QP1s, then datagrams) each way.
# tshark captures wn0; every UDP 4791 frame must decode as InfiniBand
# (RoCE v2) and carry a correct ICRC (roce-icrc.py: Debian's tshark shows
# the ICRC but does not check it).  Prints each device's fw/datapath
# roce line.  Usage: guest-roce-wire.sh [ITERATIONS]
# Last line: "roce-wire: N passed, N failed".
set -uo pipefail

iters=${1:-50}
dir=$(mktemp -d)
pass=0 fail=0

. "$(dirname "$0")/veth-pair.sh"

veth_pair_up || exit 1

# pingpong NAME SRV_NS SRV_DEV CLI_NS CLI_DEV CLI_TARGET [SIZE]
pingpong() {
	local name=$1 sns=$2 sdev=$3 cns=$4 cdev=$5 target=$6 size=${7:-1024}
	local sg cg port=$((18515 + pass + fail)) srv rc=0
	sg=$(v2ll "$sdev") && cg=$(v2ll "$cdev") ||
		{ notok "$name: no RoCE v2 link-local GID"; return; }
	timeout 30 $(nsx "$sns") ibv_ud_pingpong -d "$sdev" -g "$sg" \
		-p $port -n "$iters" -s "$size" >"$dir/srv.log" 2>&1 &
	srv=$!
	listening "$sns" $port
	timeout 30 $(nsx "$cns") ibv_ud_pingpong -d "$cdev" -g "$cg" \
		-p $port -n "$iters" -s "$size" "$target" \
		>"$dir/cli.log" 2>&1 || rc=1
	wait $srv || rc=1
	sed 's/^/#   /' "$dir/srv.log" "$dir/cli.log" | grep -v '^#   *$'
	if ((rc == 0)) && grep -q "$iters iters" "$dir/cli.log"; then
		ok "$name"
	else
		notok "$name"
	fi
}

# udaddy NAME SRV_NS SRV_IP CLI_NS: rdma_cm's UD test, its address and
# route resolution and SIDR REQ/REP (CM MADs, QP1 to QP1) across the
# pair, then datagrams each way
udaddy() {
	local name=$1 sns=$2 sip=$3 cns=$4 srv rc=0
	timeout 30 $(nsx "$sns") /usr/bin/udaddy -b "$sip" -C 10 \
		>"$dir/srv.log" 2>&1 &
	srv=$!
	sleep 2	# rdma_cm's listen: no socket to wait for
	timeout 30 $(nsx "$cns") /usr/bin/udaddy -s "$sip" -C 10 \
		>"$dir/cli.log" 2>&1 || rc=1
	wait $srv || rc=1
	sed 's/^/#   /' "$dir/srv.log" "$dir/cli.log"
	if ((rc == 0)); then ok "$name"; else notok "$name"; fi
}

# the capture: every frame on wn0, written as pcap
tshark -q -i wn0 -F pcap -w "$dir/wire.pcap" -f 'udp port 4791' \
	>"$dir/tshark.log" 2>&1 &
cap=$!
sleep 3

rxe=0
if [[ ${MLX5X_WIRE_RXE:-1} != 0 ]] && modprobe rdma_rxe 2>/dev/null &&
   rdma link add rxe_wn type rxe netdev wn0; then
	rxe=1
	sleep 1
	pingpong "ud rxe (near, server) <- sim (far, client)" \
		- rxe_wn wfar mlx5x_wf 192.168.77.1
	pingpong "ud sim (far, server) <- rxe (near, client)" \
		wfar mlx5x_wf - rxe_wn 192.168.77.2
	pingpong "ud sim <- rxe, 1 byte" \
		wfar mlx5x_wf - rxe_wn 192.168.77.2 1
	pingpong "ud rxe <- sim, 4096 bytes" \
		- rxe_wn wfar mlx5x_wf 192.168.77.1 4096
	udaddy "udaddy rxe (near, server) <- sim (far, client)" \
		- 192.168.77.1 wfar
	udaddy "udaddy sim (far, server) <- rxe (near, client)" \
		wfar 192.168.77.2 -
	rdma link delete rxe_wn
else
	echo "# rxe: not in this kernel (or MLX5X_WIRE_RXE=0); sim-sim only"
fi
rdma link add mlx5x_wn type mlx5x netdev wn0 || exit 1
sleep 1
pingpong "ud sim (near, server) <- sim (far, client)" \
	- mlx5x_wn wfar mlx5x_wf 192.168.77.1
pingpong "ud sim (far, server) <- sim (near, client)" \
	wfar mlx5x_wf - mlx5x_wn 192.168.77.2
pingpong "ud sim <- sim, 3 bytes (pad)" \
	wfar mlx5x_wf - mlx5x_wn 192.168.77.2 3
pingpong "ud sim <- sim, 4096 bytes" \
	wfar mlx5x_wf - mlx5x_wn 192.168.77.2 4096
udaddy "udaddy sim (near, server) <- sim (far, client)" \
	- 192.168.77.1 wfar
udaddy "udaddy sim (far, server) <- sim (near, client)" \
	wfar 192.168.77.2 -
sleep 1
kill $cap; wait $cap

n=$(tshark -r "$dir/wire.pcap" -Y 'udp.dstport == 4791' 2>/dev/null | wc -l)
ib=$(tshark -r "$dir/wire.pcap" -Y 'infiniband.bth.opcode == 100 || infiniband.bth.opcode == 101' 2>/dev/null | wc -l)
echo "# capture: $n UDP 4791 frames, $ib decoded as RoCE UD SEND"
tshark -r "$dir/wire.pcap" -c 2 -V -Y infiniband 2>/dev/null |
	sed -n '/^Internet Protocol\|^User Datagram\|^InfiniBand/,$p' |
	head -40 | sed 's/^/#   /'
if ((n > 0 && n == ib)); then
	ok "tshark decodes every UDP 4791 frame as RoCE"
else
	notok "tshark decodes every UDP 4791 frame as RoCE"
fi
# rdma_cm's SIDR REQ and REP (CM class 0x07, attributes 0x17, 0x18)
req=$(tshark -r "$dir/wire.pcap" -Y 'infiniband.bth.destqp == 1 && infiniband.mad.mgmtclass == 0x07 && infiniband.mad.attributeid == 0x0017' 2>/dev/null | wc -l)
rep=$(tshark -r "$dir/wire.pcap" -Y 'infiniband.bth.destqp == 1 && infiniband.mad.mgmtclass == 0x07 && infiniband.mad.attributeid == 0x0018' 2>/dev/null | wc -l)
echo "# capture: $req SIDR REQ, $rep SIDR REP to QP1"
if ((req > 0 && rep > 0)); then
	ok "CM MADs cross the wire, QP1 to QP1"
else
	notok "CM MADs cross the wire, QP1 to QP1"
fi
icrc_ok "$dir/wire.pcap"
veth_pair_down roce-wire
rm -rf "$dir"
((fail == 0))
