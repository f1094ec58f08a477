#!/bin/bash
# In the guest: RC and UC as RoCE v2 across a veth pair (issue 24 item 4,
# issue 22 item 3).  The near end (wn0) stays in the initial namespace,
# the far end (wf0) is in a namespace of its own (wfar) with a simulated
# device on it; on the near end first rxe (which, in 6.1, serves the
# initial namespace only), then a second simulated device.  Each program
# runs across the pair, each way (the server on one end, the client on
# the other; their TCP exchange crosses the same veth), on the port's
# RoCE v2 link-local GID (its MAC is the GID's: no address resolution
# across namespaces):
#   ibv_rc_pingpong (1, 4096 and 20000 bytes; path MTU 1024 and 4096),
#   ibv_uc_pingpong, ibv_srq_pingpong, rping (rdma_cm: address and route
#   resolution, the CM's REQ/REP/RTU between the ports' QP1s, then RC
#   SENDs, READs and WRITEs of -S bytes), perftest's ib_send_bw,
#   ib_write_bw, ib_read_bw, ib_atomic_bw and ib_send_lat.
# tshark captures wn0; every UDP 4791 frame must decode as InfiniBand
# (RoCE v2) with a correct ICRC (roce-icrc.py: Debian's tshark shows the
# ICRC but does not check it), and the trace must hold the RC and UC
# opcodes the programs send: SEND FIRST/MIDDLE/LAST (the 20000-byte
# pingpong at path MTU 1024), ACK, RDMA WRITE, READ REQUEST and
# RESPONSE, the atomics and their ATOMIC ACKNOWLEDGE, UC SEND.
# Figures: perftest sim<->sim beside rxe<->rxe where a pair of rxe
# devices across the namespaces can be made, else beside rxe (near)
# <-> sim (far).
# Usage: guest-rc-wire.sh [ITERATIONS [BW_ITERATIONS [PATTERN]]]: with
# PATTERN (an extended regular expression), only the programs whose test
# name matches it run, and the trace checks are reported but not tests.
# Last line: "rc-wire: N passed, N failed".
set -uo pipefail

iters=${1:-20}
bwiters=${2:-100}
only=${3:-}
nip=192.168.77.1 fip=192.168.77.2
dir=$(mktemp -d)
pass=0 fail=0
port=18600
declare -A fig

. "$(dirname "$0")/veth-pair.sh"
. "$(dirname "$0")/perftest-figure.sh"
# verdict STATUS NAME: a trace check, a test unless a PATTERN chose
# programs (then what it would say, as a comment)
verdict() {
	if [[ -n $only ]]; then
		echo "# $( (($1 == 0)) && echo ok || echo 'not ok') (no test: PATTERN) - $2"
	elif (($1 == 0)); then
		ok "$2"
	else
		notok "$2"
	fi
}

veth_pair_up || exit 1

# figure KIND: what the pair's output says (perftest-figure.sh)
figure() {
	perftest_figure "$1" "$dir/cli.log" "$dir/srv.log"
}

# attempt KIND SRV_NS SRV_DEV CLI_NS CLI_DEV TARGET PROG ARGS...: the
# server PROG on SRV_DEV in SRV_NS, the client on CLI_DEV in CLI_NS
# reaching it at TARGET; status 0 when both ended well in time
attempt() {
	local kind=$1 sns=$2 sdev=$3 cns=$4 cdev=$5 target=$6 prog=$7
	local gflag=-x sg cg srv crc src
	shift 7
	[[ $prog == ibv_* ]] && gflag=-g
	port=$((port + 1))
	sg=$(v2ll "$sdev") && cg=$(v2ll "$cdev") ||
		{ echo "no RoCE v2 link-local GID" >"$dir/cli.log"; return 1; }
	timeout 30 $(nsx "$sns") "$prog" -d "$sdev" "$gflag" "$sg" \
		-p $port "$@" >"$dir/srv.log" 2>&1 &
	srv=$!
	listening "$sns" $port
	timeout 30 $(nsx "$cns") "$prog" -d "$cdev" "$gflag" "$cg" \
		-p $port "$@" "$target" >"$dir/cli.log" 2>&1
	crc=$?
	wait $srv
	src=$?
	if ((crc == 0 && src == 0)) && { [[ $kind != pingpong ]] ||
	   grep -q ' iters in ' "$dir/cli.log"; }; then
		return 0
	fi
	# the end of each side's output, and its status (124: killed at
	# the time bound)
	echo "# the server ($src) said:"
	grep -v '^ *$' "$dir/srv.log" | tail -n 8 | sed 's/^/#   /'
	grep -i 'fail\|err\|couldn\|unable\|not ' "$dir/srv.log" |
		head -n 4 | sed 's/^/#   ! /'
	echo "# the client ($crc) said:"
	grep -v '^ *$' "$dir/cli.log" | tail -n 8 | sed 's/^/#   /'
	grep -i 'fail\|err\|couldn\|unable\|not ' "$dir/cli.log" |
		head -n 4 | sed 's/^/#   ! /'
	return 1
}

# run NAME KIND SRV_NS SRV_DEV CLI_NS CLI_DEV TARGET PROG ARGS...: a
# test of attempt(); its figure in fig[NAME].  perftest gets a second
# try after a first that said what went wrong, as in guest-programs.sh:
# its closing TCP exchange has failed once in a while after the data
# had all moved ("Couldn't read remote address")
run() {
	local name=$1 kind=$2 rc
	shift 2
	[[ -z $only || $name =~ $only ]] || return 0
	attempt "$kind" "$@"
	rc=$?
	if ((rc)) && [[ $kind != pingpong ]]; then
		echo "# $name: a second try"
		attempt "$kind" "$@"
		rc=$?
	fi
	if ((rc == 0)); then
		fig[$name]=$(figure "$kind")
		ok "$name${fig[$name]:+ (${fig[$name]})}"
		fig[$name]=${fig[$name]:-"no figure"}
	else
		fig[$name]=failed
		notok "$name"
	fi
	return $rc
}

# rping NAME SRV_NS SRV_IP CLI_NS SIZE: rping_pair, if NAME is chosen
rping() {
	[[ -z $only || $1 =~ $only ]] || return 0
	rping_pair "$@"
}

# programs TAG A_NS A_DEV A_IP B_NS B_DEV B_IP: every program with its
# server on A and its client on B, then the pingpongs and rping the
# other way; the perftest figures under "TAG PROGRAM"
programs() {
	local t=$1 ans=$2 adev=$3 aip=$4 bns=$5 bdev=$6 bip=$7 s m
	for m in 1024 4096; do
		for s in 1 4096 20000; do
			run "rc_pingpong $t, $s bytes, mtu $m" pingpong \
				"$ans" "$adev" "$bns" "$bdev" "$aip" \
				ibv_rc_pingpong -n "$iters" -s $s -m $m
		done
	done
	run "rc_pingpong $t reversed, 20000 bytes, mtu 1024" pingpong \
		"$bns" "$bdev" "$ans" "$adev" "$bip" \
		ibv_rc_pingpong -n "$iters" -s 20000 -m 1024
	run "uc_pingpong $t, 20000 bytes, mtu 1024" pingpong \
		"$ans" "$adev" "$bns" "$bdev" "$aip" \
		ibv_uc_pingpong -n "$iters" -s 20000 -m 1024
	run "uc_pingpong $t reversed, 512 bytes" pingpong \
		"$bns" "$bdev" "$ans" "$adev" "$bip" \
		ibv_uc_pingpong -n "$iters" -s 512 -m 1024
	run "srq_pingpong $t" pingpong "$ans" "$adev" "$bns" "$bdev" "$aip" \
		ibv_srq_pingpong -n "$iters" -s 4096 -m 1024
	run "srq_pingpong $t reversed" pingpong \
		"$bns" "$bdev" "$ans" "$adev" "$bip" \
		ibv_srq_pingpong -n "$iters" -s 4096 -m 1024
	rping "rping $t, 100 bytes" "$ans" "$aip" "$bns" 100
	rping "rping $t, 16384 bytes" "$ans" "$aip" "$bns" 16384
	rping "rping $t reversed, 5000 bytes" "$bns" "$bip" "$ans" 5000
	perf "$t" "$ans" "$adev" "$bns" "$bdev" "$aip"
}

# perf TAG SRV_NS SRV_DEV CLI_NS CLI_DEV TARGET: perftest across the pair;
# -F: in the TCG guest perftest's check of the CPU's clock ("Correlation
# coefficient r^2 < 0.9") would refuse to report, and the client end 1
perf() {
	local t=$1
	shift
	run "$t ib_send_bw" bw "$@" ib_send_bw -F -s 65536 -n "$bwiters"
	run "$t ib_write_bw" bw "$@" ib_write_bw -F -s 65536 -n "$bwiters"
	# READs and atomics in flight: 16 on both sides (perftest's client
	# asks the server's number, 128 on rxe, of its own QP, and
	# mlx5_ib refuses more than the device's 16 at RTS)
	run "$t ib_read_bw" bw "$@" ib_read_bw -F -s 65536 -o 16 -n "$bwiters"
	run "$t ib_atomic_bw" bw "$@" ib_atomic_bw -F -o 16 -n "$bwiters"
	run "$t ib_atomic_bw cmp_swap" bw "$@" ib_atomic_bw -F -A CMP_AND_SWAP \
		-o 16 -n "$bwiters"
	run "$t ib_send_lat" lat "$@" ib_send_lat -F -n "$bwiters"
}

# the capture: every RoCE frame on wn0, written as pcap
tshark -q -i wn0 -F pcap -w "$dir/wire.pcap" -f 'udp port 4791' \
	>"$dir/tshark.log" 2>&1 &
cap=$!
sleep 3

rr=""
if [[ ${MLX5X_WIRE_RXE:-1} != 0 ]] && modprobe rdma_rxe 2>/dev/null &&
   rdma link add rxe_wn type rxe netdev wn0; then
	# no rxe <-> rxe: rxe in 6.1 serves the initial namespace only, and
	# in 6.12 a far rxe device's packets wait on a neighbour it never
	# resolves, and free its QP under them (a use-after-free in
	# rxe_skb_tx_dtor() once the neighbour times out)
	echo "# rxe <-> rxe across the namespaces cannot be made;" \
	     "rxe (near) <-> sim (far) stands in for it"
	programs rxe_sim - rxe_wn $nip wfar mlx5x_wf $fip
	programs sim_rxe wfar mlx5x_wf $fip - rxe_wn $nip
	rdma link delete rxe_wn
else
	echo "# rxe: not in this kernel (or MLX5X_WIRE_RXE=0); sim-sim only"
fi
rdma link add mlx5x_wn type mlx5x netdev wn0 || exit 1
sleep 1
programs sim_sim - mlx5x_wn $nip wfar mlx5x_wf $fip
sleep 1
kill $cap; wait $cap

# the trace, read once: a line a UDP 4791 frame (tab-separated: its
# BTH opcode, destination QP, PSN, AckReq and the frame's length; the
# BTH's fields empty where tshark did not decode it as InfiniBand)
tshark -r "$dir/wire.pcap" -Y 'udp.dstport == 4791' -T fields \
	-e infiniband.bth.opcode -e infiniband.bth.destqp \
	-e infiniband.bth.psn -e infiniband.bth.a -e frame.len \
	>"$dir/trace" 2>/dev/null
n=$(wc -l <"$dir/trace")
ib=$(awk -F'\t' '$1 != ""' "$dir/trace" | wc -l)
echo "# capture: $n UDP 4791 frames, $ib decoded as InfiniBand (RoCE v2)"
((n > 0 && n == ib))
verdict $? "tshark decodes every UDP 4791 frame as InfiniBand"
# the opcodes (IBTA 9.2.3: RC 0x00.., UC 0x20..) the programs send
miss=""
for o in 0:"RC SEND FIRST" 1:"RC SEND MIDDLE" 2:"RC SEND LAST" \
	 4:"RC SEND ONLY" 6:"RC RDMA WRITE FIRST" 7:"RC RDMA WRITE MIDDLE" \
	 8:"RC RDMA WRITE LAST" 10:"RC RDMA WRITE ONLY" \
	 12:"RC RDMA READ REQUEST" 13:"RC RDMA READ RESPONSE FIRST" \
	 14:"RC RDMA READ RESPONSE MIDDLE" 15:"RC RDMA READ RESPONSE LAST" \
	 16:"RC RDMA READ RESPONSE ONLY" 17:"RC ACKNOWLEDGE" \
	 18:"RC ATOMIC ACKNOWLEDGE" 19:"RC CMP_SWAP" 20:"RC FETCH_ADD" \
	 32:"UC SEND FIRST" 33:"UC SEND MIDDLE" 34:"UC SEND LAST" \
	 36:"UC SEND ONLY"; do
	c=$(awk -F'\t' -v o="${o%%:*}" '$1 == o' "$dir/trace" | wc -l)
	printf '# capture: %6d %s\n' "$c" "${o#*:}"
	((c > 0)) || miss+=" ${o#*:},"
done
[[ -z $miss ]]
verdict $? "the trace holds every RC and UC opcode the programs send${miss:+ (missing:${miss%,})}"
# the 20000-byte pingpong at a path MTU of 1024: SEND FIRST, 18 MIDDLE
# and LAST (1024 bytes of payload each, 544 in the LAST; the frame adds
# 78: Ethernet, IPv6, UDP, BTH, ICRC) to one QP, one PSN each, AckReq
# on the LAST only
msgs=$(awk -F'\t' '$1 != "" && $1 <= 2 {
		a = ($4 == "1" || $4 == "True"); q = $2 }
	$1 == "" || $1 > 2 { next }
	$1 == 0 { st[q] = (!a && $5 == 1102) ? 1 : 0; psn[q] = $3; next }
	st[q] && $3 != (psn[q] + 1) % 16777216 { st[q] = 0; next }
	st[q] && $1 == 1 && !a && $5 == 1102 && st[q] <= 18 {
		st[q]++; psn[q] = $3; next }
	st[q] == 19 && $1 == 2 && a && $5 == 622 { n++ }
	{ st[q] = 0 }
	END { print n + 0 }' "$dir/trace")
echo "# capture: $msgs 20000-byte RC SENDs as FIRST, 18 MIDDLE, LAST"
((msgs >= iters))
verdict $? "a 20000-byte RC SEND at mtu 1024: FIRST, 18 MIDDLE, LAST"
tshark -r "$dir/wire.pcap" -Y 'infiniband.bth.opcode == 0' -c 1 -V \
	2>/dev/null | sed -n '/^InfiniBand/,$p' | head -30 | sed 's/^/#   /'
python3 scripts/vm/roce-icrc.py "$dir/wire.pcap"
verdict $? "every RoCE frame's ICRC is right"

# the figures: sim<->sim beside rxe<->rxe, or rxe (near) <-> sim (far)
ref=${rr:-rxe_sim}
for p in ib_send_bw ib_write_bw ib_read_bw ib_atomic_bw ib_send_lat; do
	printf '# figure %-13s sim<->sim %-14s %s %s\n' "$p" \
		"${fig[sim_sim $p]:-not run}" \
		"$([[ $ref == rr ]] && echo 'rxe<->rxe' || echo 'rxe(near)<->sim(far)')" \
		"${fig[$ref $p]:-not run}"
done
veth_pair_down rc-wire
rm -rf "$dir"
((fail == 0))
