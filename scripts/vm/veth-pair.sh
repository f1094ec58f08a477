# Sourced by the guest scripts that cross a veth pair with RoCE
# (guest-roce-wire.sh, guest-rc-wire.sh): the pair, and what they share.
# The near end (wn0, 192.168.77.1) stays in the initial namespace, the
# far end (wf0, 192.168.77.2) is in a namespace of its own (wfar) with
# a simulated device (mlx5x_wf) on it; both ends have a 4500-byte MTU
# (the port's active MTU, and the largest UD message, is 4096).
# The sourcing script keeps the tally in pass and fail.

near=02:77:00:00:00:01 far=02:77:00:00:00:02

ok() { echo "ok - $1"; pass=$((pass + 1)); }
notok() { echo "not ok - $1"; fail=$((fail + 1)); }

# veth_pair_up: the pair, its addresses and the far end's device; the
# modules rdma_cm (rping, udaddy) and rxe need
veth_pair_up() {
	ip link set lo up
	modprobe veth && modprobe mlx5x || return 1
	modprobe rdma_ucm	# rdma_cm's character device
	modprobe crc32_generic 2>/dev/null	# rxe's ICRC
	ip netns add wfar || return 1
	ip link add wn0 address $near mtu 4500 type veth peer name wf0 \
		address $far mtu 4500 netns wfar || return 1
	ip addr add 192.168.77.1/24 dev wn0 && ip link set wn0 up || return 1
	ip -n wfar addr add 192.168.77.2/24 dev wf0 || return 1
	ip -n wfar link set wf0 up && ip -n wfar link set lo up || return 1
	ip netns exec wfar rdma link add mlx5x_wf type mlx5x netdev wf0
}

# v2ll DEV: the index of the port's RoCE v2 link-local (fe80::) GID
# (its MAC is the GID's: no address resolution across namespaces),
# waiting (5 s at most) for it
v2ll() {
	local p=/sys/class/infiniband/$1/ports/1 i t
	for ((t = 0; t < 50; t++)); do
		for ((i = 0; i < 16; i++)); do
			[[ $(cat "$p/gid_attrs/types/$i" 2>/dev/null) == "RoCE v2" &&
			   $(cat "$p/gids/$i") == fe80:* ]] &&
				{ echo "$i"; return; }
		done
		sleep 0.1
	done
	return 1
}

# nsx NS: the prefix that runs a command in network namespace NS
# ("-": this one)
nsx() { [[ $1 == - ]] || echo "ip netns exec $1"; }

# listening NS PORT: wait (10 s at most) until a server in NS listens
# on TCP PORT
listening() {
	local i
	for ((i = 0; i < 100; i++)); do
		$(nsx "$1") ss -Hltn "sport = :$2" | grep -q . && return
		sleep 0.1
	done
}

# rping_pair NAME SRV_NS SRV_IP CLI_NS SIZE: a test: rdma_cm's RC ping
# across the pair, 10 validated pings of SIZE bytes (logs in $dir)
rping_pair() {
	local name=$1 sns=$2 sip=$3 cns=$4 size=$5 srv rc=0
	timeout 30 $(nsx "$sns") /usr/bin/rping -s -a "$sip" -C 10 \
		-S "$size" >"$dir/srv.log" 2>&1 &
	srv=$!
	sleep 2	# rdma_cm's listen: no socket to wait for
	timeout 30 $(nsx "$cns") /usr/bin/rping -c -a "$sip" -C 10 \
		-S "$size" -V >"$dir/cli.log" 2>&1 || rc=1
	wait $srv || rc=1
	if ((rc == 0)); then
		ok "$name"
	else
		sed 's/^/#   /' "$dir/srv.log" "$dir/cli.log" | tail -n 16
		notok "$name"
	fi
}

# icrc_ok PCAP: a test: every RoCE frame of PCAP has a right ICRC
icrc_ok() {
	if python3 "$(dirname "${BASH_SOURCE[0]}")/roce-icrc.py" "$1"; then
		ok "every RoCE frame's ICRC is right"
	else
		notok "every RoCE frame's ICRC is right"
	fi
}

# veth_pair_down NAME: each device's fw/datapath roce line; the devices,
# the pair and the namespace deleted; the tally, "NAME: N passed, N failed"
veth_pair_down() {
	local d f
	for d in mlx5x_wn mlx5x_wf; do
		f=/sys/kernel/debug/mlx5x/$d/fw/datapath
		[[ -e $f ]] && echo "# $d: $(grep '^roce' "$f")"
	done
	# (what a test deleted already is not there to delete)
	rdma link delete mlx5x_wn 2>/dev/null
	ip netns exec wfar rdma link delete mlx5x_wf 2>/dev/null
	ip link del wn0 2>/dev/null; ip netns del wfar 2>/dev/null
	echo "$1: $pass passed, $fail failed"
}
