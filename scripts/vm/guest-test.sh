#!/bin/bash
# In the guest: the kselftests with the runner's own checks (two devices,
# netdev removal, rmmod under load), and again as on hardware
# (MLX5X_NO_MODEL), the RDMA programs users run (guest-programs.sh,
# beside rxe), then rdma-core's suite on a fresh
# device (its required tests; its whole suite beside rxe's, which it
# must pass and outdo, unless MLX5X_WHOLE_SUITE=0), then removal; the
# model must be left empty.
# Prints "total: N passed, N failed, N skipped" over test cases: each TAP
# case of the programs, each runner check, each required rdma-core test,
# and after each part "# took N s".
# The environment trims it (guest-debug.sh, for the debug kernel's time):
#   MLX5X_NO_MODEL_RUN=0   no second kselftest run without the model
#   MLX5X_WHOLE_SUITE=0    no rdma-core whole suite; =alone: on mlx5x
#                          only, not beside rxe (counts reported)
#   MLX5X_SUITE_PICK=I/N   of the whole suite, only the modules I, I+N, ...
#                          (guest-pyverbs.sh)
#   MLX5X_WIRE_PICK=I/N    of the wire's two parts (RoCE v2 with UD and
#                          rdma_cm; RC, UC, VLANs and raw frames) the
#                          part I when I < 2
#   MLX5X_WIRE_ITERS="N B" the wire scripts' iterations (pingpongs, then
#                          perftest's bandwidth programs) for their own
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
pass=0 fail=0 skip=0
log=$(mktemp)

tally() {	# P F S
	pass=$((pass + $1)) fail=$((fail + $2)) skip=$((skip + $3))
}

# took: the time of the part that ends here
t_part=$SECONDS
took() {
	echo "# took $((SECONDS - t_part)) s"
	t_part=$SECONDS
}

# tally_selftests RC: the cases and programs of a guest-selftests*.sh log
tally_selftests() {
	local s progs
	tally "$(grep -cE '^ok [0-9]+ ' "$log")" \
		"$(grep -cE '^not ok [0-9]+ ' "$log")" 0
	s=$(grep -cE '^ok [0-9]+ .*# SKIP' "$log")
	tally $((-s)) 0 "$s"
	progs=$(grep -c '^# selftest ' "$log")
	tally $(($(grep -cE '^ok - ' "$log") - progs)) \
		"$(grep -cE '^not ok - ' "$log")" 0
	if (($1 != 0)) && ! grep -qE '^not ok' "$log"; then
		echo "not ok - selftests runner (rc $1)"
		tally 0 1 0
	fi
}

"$ROOT/scripts/vm/guest-selftests.sh" >"$log" 2>&1
rc=$?
cat "$log"
tally_selftests "$rc"
took

# as on hardware: what needs the model skips, nothing fails for its absence
if [[ ${MLX5X_NO_MODEL_RUN:-1} != 0 ]]; then
	echo "# the kselftests with MLX5X_NO_MODEL=1"
	"$ROOT/scripts/vm/guest-selftests-nomodel.sh" >"$log" 2>&1
	rc=$?
	sed 's/^\(\(not \)\{0,1\}ok - \)/\1no model: /' "$log"
	tally_selftests "$rc"
	took
else
	echo "# the kselftests with MLX5X_NO_MODEL=1: not run (MLX5X_NO_MODEL_RUN=0)"
fi

echo "# the RDMA programs users run, beside rxe (guest-programs.sh)"
"$ROOT/scripts/vm/guest-programs.sh" >"$log" 2>&1
rc=$?
cat "$log"
tally "$(grep -cE '^ok - [^#]*$' "$log")" "$(grep -cE '^not ok - ' "$log")" \
	"$(grep -cE '^ok - .*# SKIP' "$log")"
((rc == 0)) || grep -q '^not ok' "$log" || { echo "not ok - programs (rc $rc)"; tally 0 1 0; }
took

# wire_stage NAME TITLE: guest-NAME.sh, its ok and not ok lines tallied
wire_stage() {
	echo "# $2 (guest-$1.sh)"
	# shellcheck disable=SC2086 # the iterations: two words, or none
	"$ROOT/scripts/vm/guest-$1.sh" ${MLX5X_WIRE_ITERS:-} >"$log" 2>&1
	rc=$?
	cat "$log"
	tally "$(grep -cE '^ok - ' "$log")" "$(grep -cE '^not ok - ' "$log")" 0
	((rc == 0)) || grep -q '^not ok' "$log" ||
		{ echo "not ok - $1 (rc $rc)"; tally 0 1 0; }
	took
}

# the netdev as the wire: RoCE v2 (UD, rdma_cm's MADs, RC and UC; to
# rxe and to a second simulated device) and raw frames, across a veth
# pair whose far end is in a namespace of its own
wire_pick=${MLX5X_WIRE_PICK:-0/1}
# wire_part K: whether part K of the wire runs
wire_part() {
	((${wire_pick#*/} == 1 || ${wire_pick%/*} == $1))
}
if ! ip netns add mlx5x_probe 2>/dev/null; then
	echo "# the wire across a veth pair: not run, no network namespaces in this kernel"
elif ! wire_part 0; then
	ip netns del mlx5x_probe
	echo "# RoCE v2 across a veth pair: not run (MLX5X_WIRE_PICK=$wire_pick)"
else
	ip netns del mlx5x_probe
	wire_stage roce-wire "RoCE v2 across a veth pair"
fi
if ! wire_part 1 || ! ip netns add mlx5x_probe 2>/dev/null; then
	echo "# RC, UC, VLANs and raw frames across a veth pair: not run here"
else
	ip netns del mlx5x_probe
	wire_stage rc-wire "RC and UC as RoCE v2 across a veth pair"
	# (the debug kernel has no 802.1Q)
	if modprobe 8021q 2>/dev/null || [[ -d /proc/net/vlan ]]; then
		wire_stage roce-vlan "RoCE on a VLAN and RoCE v1 across a veth pair"
	else
		echo "# RoCE on a VLAN and RoCE v1: not run, no 802.1Q in this kernel"
	fi
	echo "# raw_ethernet_bw across a veth pair (guest-wire.sh)"
	if "$ROOT/scripts/vm/guest-wire.sh" >"$log" 2>&1; then
		echo "ok - raw_ethernet_bw across a veth pair"
		tally 1 0 0
	else
		cat "$log"
		echo "not ok - raw_ethernet_bw across a veth pair"
		tally 0 1 0
	fi
	took
fi

# The device from here on sits on the VM's NIC where the kernel drives
# it (virtio_net; the debug kernel has none): as a ConnectX's RDMA device
# and its netdev share a PCI function, the device's parent is the NIC's,
# and rdma-core's rdma_cm tests find their address through
# /sys/class/infiniband/mlx5x_0/device/net.  Elsewhere, a dummy netdev.
modprobe mlx5x
modprobe virtio_net 2>/dev/null
# (the runs above may leave theirs on d0)
rdma link delete mlx5x_0 2>/dev/null
port=
for n in /sys/class/net/*; do
	[[ -e $n/device/net ]] && { port=${n##*/}; break; }
done
if [[ -z $port ]]; then
	port=d0
	ip link show d0 >/dev/null 2>&1 || ip link add d0 type dummy
fi
ip link set "$port" up
ip addr add 192.168.77.1/24 dev "$port"
rdma link add mlx5x_0 type mlx5x netdev "$port"
ibv_devinfo -d mlx5x_0

echo "# the installed kselftests, run as kernel CI runs them"
if "$ROOT/build/kselftest_install/run_kselftest.sh" \
	-t drivers/infiniband/mlx5x:mlx5x_caps >"$log" 2>&1 &&
	grep -q '^ok 1 selftests: drivers/infiniband/mlx5x: mlx5x_caps$' "$log"; then
	echo "ok - run_kselftest"
	tally 1 0 0
else
	cat "$log"
	echo "not ok - run_kselftest"
	tally 0 1 0
fi

echo "# the mlx5x command on the live device"
"$ROOT/userspace/cli/test-cli.sh" --live "$ROOT/build/mlx5x" \
	"$ROOT/build/selftests/hold_ctx" mlx5x_0 >"$log" 2>&1
cat "$log"
tally "$(grep -cE '^ok [0-9]+ ' "$log")" "$(grep -cE '^not ok [0-9]+ ' "$log")" 0
grep -q '^cli: .* 0 failed' "$log" || { echo "not ok - cli live"; tally 0 1 0; }

echo "# the shim library: on the live device, then installed and used"
for t in "$ROOT/build/mlx5x_shim_test mlx5x_0" \
	"make -s -C $ROOT/userspace/lib OUTPUT=$ROOT/build check"; do
	$t >"$log" 2>&1
	cat "$log"
	tally "$(grep -cE '^ok [0-9]+ ' "$log")" \
		"$(grep -cE '^not ok [0-9]+ ' "$log")" 0
done
took

echo "# rdma-core tests that must pass on the simulated device"
# (with the model's crypto in the wrapped mode, for test_mlx5_crypto)
"$ROOT/scripts/vm/guest-crypto.sh" mlx5x_0 wrapped \
	"$ROOT/scripts/vm/guest-pyverbs.sh" mlx5x_0 test_pd test_device.DeviceTest \
	test_mlx5_query_port test_mlx5_uar test_device.DMTest \
	test_device.SharedDMTest test_mr.DeviceMemoryAPITest \
	test_mr.DeviceMemoryTest test_mlx5_dm_ops \
	test_cq.CQAPITest test_mlx5_crypto.Mlx5CryptoAPITest \
	test_flow test_mlx5_flow test_rss_traffic \
	test_qp.QPTest.test_query_raw_qp \
	test_qp.QPTest.test_query_rc_qp \
	test_mlx5_mkey.Mlx5MkeyTest.test_mkey_list \
	test_mlx5_mkey.Mlx5MkeyTest.test_mkey_list_new_api \
	test_mlx5_mkey.Mlx5MkeyTest.test_mkey_list_bad_flow \
	test_mlx5_mkey.Mlx5MkeyTest.test_mkey_remote_invalidate \
	test_mlx5_mkey.Mlx5MkeyTest.test_mkey_interleaved \
	test_mlx5_mkey.Mlx5MkeyTest.test_mkey_interleaved_new_api \
	test_mlx5_mkey.Mlx5MkeyTest.test_mkey_sig_crc \
	test_mlx5_mkey.Mlx5MkeyTest.test_mkey_sig_t10dif \
	test_mlx5_mkey.Mlx5MkeyTest.test_mkey_sig_err \
	test_mlx5_mkey.Mlx5MkeyTest.test_mkey_sig_pipelining_good \
	test_mlx5_mkey.Mlx5MkeyTest.test_mkey_sig_pipelining_bad \
	test_mlx5_dc.DCTest.test_dc_send test_mlx5_dc.DCTest.test_dc_rdma_write \
	test_mlx5_dc.DCTest.test_dc_ah_to_qp_mapping \
	test_mlx5_dc.DCTest.test_dc_rdma_write_stream \
	test_mlx5_dc.DCTest.test_dc_send_stream_bad_flow \
	test_mlx5_dc.DCTest.test_dc_send_stream_bad_flow_qp \
	test_mr.MRTest.test_mr_rereg_access \
	test_mr.MRTest.test_mr_rereg_access_bad_flow \
	test_mr.MRTest.test_mr_rereg_pd \
	test_mr.MRTest.test_mr_rereg_addr \
	test_mlx5_timestamp.TimeStampTest test_mlx5_timestamp.TimeAPITest \
	test_mlx5_rdmacm.ReservedQPTest test_mlx5_udp_sport \
	test_mlx5_cq \
	>"$log" 2>&1
rc=$?
# test_odp's tests and DC's ODP test: on-demand paging needs ib_core's
# (CONFIG_INFINIBAND_ON_DEMAND_PAGING)
if grep -q ' ib_umem_odp_map_dma_and_lock' /proc/kallsyms; then
	"$ROOT/scripts/vm/guest-pyverbs.sh" mlx5x_0 \
		test_odp.OdpTestCase.test_odp_rc_traffic \
		test_odp.OdpTestCase.test_odp_rc_rdma_read \
		test_odp.OdpTestCase.test_odp_rc_rdma_write \
		test_odp.OdpTestCase.test_odp_rc_atomic_cmp_and_swp \
		test_odp.OdpTestCase.test_odp_rc_atomic_fetch_and_add \
		test_odp.OdpTestCase.test_odp_rc_srq_traffic \
		test_odp.OdpTestCase.test_odp_xrc_traffic \
		test_odp.OdpTestCase.test_odp_ud_traffic \
		test_odp.OdpTestCase.test_odp_sync_prefetch_rc_traffic \
		test_odp.OdpTestCase.test_odp_async_prefetch_rc_traffic \
		test_odp.OdpTestCase.test_odp_prefetch_sync_no_page_fault_rc_traffic \
		test_odp.OdpTestCase.test_odp_prefetch_async_no_page_fault_rc_traffic \
		test_odp.OdpTestCase.test_odp_implicit_rc_traffic \
		test_odp.OdpTestCase.test_odp_implicit_sync_prefetch_rc_traffic \
		test_odp.OdpTestCase.test_odp_implicit_async_prefetch_rc_traffic \
		test_mlx5_dc.DCTest.test_odp_dc_traffic \
		>>"$log" 2>&1 || rc=1
else
	echo "# test_odp: not run, this kernel has no on-demand paging" >>"$log"
fi
# the tests on 2 MiB huge pages, made for them and given back: queues in
# huge pages, a parent domain's buffers in one, ODP regions of them
hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
if [[ -w $hp ]] && echo 16 >"$hp" && (($(cat "$hp") > 0)); then
	huge=(test_mlx5_huge_page
	      test_parent_domain.ParentDomainTrafficTest.test_huge_page_traffic)
	grep -q ' ib_umem_odp_map_dma_and_lock' /proc/kallsyms &&
		huge+=(test_odp.OdpTestCase.test_odp_rc_huge_traffic
		       test_odp.OdpTestCase.test_odp_rc_huge_user_addr_traffic)
	"$ROOT/scripts/vm/guest-pyverbs.sh" mlx5x_0 "${huge[@]}" \
		>>"$log" 2>&1 || rc=1
	echo 0 >"$hp"
else
	echo "# the huge page tests: not run, no 2 MiB huge pages" >>"$log"
fi
# test_mlx5_crypto's traffic: the model ciphers with the kernel's crypto
# API, which the debug kernel does not have (no /proc/crypto)
if [[ -e /proc/crypto ]]; then
	"$ROOT/scripts/vm/guest-crypto.sh" mlx5x_0 wrapped \
		"$ROOT/scripts/vm/guest-pyverbs.sh" mlx5x_0 \
		test_mlx5_crypto.Mlx5CryptoTrafficTest.test_mlx5_crypto_mkey_old_api \
		test_mlx5_crypto.Mlx5CryptoTrafficTest.test_mlx5_crypto_wrapped_dek \
		test_mlx5_crypto.Mlx5CryptoTrafficTest.test_mlx5_wrapped_dek_multi_block \
		>>"$log" 2>&1 || rc=1
	# the plaintext DEK's traffic, in the plaintext mode
	"$ROOT/scripts/vm/guest-crypto.sh" mlx5x_0 plaintext \
		"$ROOT/scripts/vm/guest-pyverbs.sh" mlx5x_0 \
		test_mlx5_crypto.Mlx5CryptoTrafficTest.test_mlx5_crypto_plaintext_dek \
		test_mlx5_crypto.Mlx5CryptoTrafficTest.test_mlx5_plaintext_dek_multi_block \
		>>"$log" 2>&1 || rc=1
else
	echo "# test_mlx5_crypto's traffic: not run, this kernel has no crypto API" >>"$log"
fi
# rdma_cm on the device's own address, and DEVX RC traffic to the MAC
# of its netdev: where it has a parent with a net/ (rdma-core finds the
# address and the MAC there; without, its DEVX test names MAC 0, which
# the model refuses at INIT2RTR)
if [[ -e /sys/class/infiniband/mlx5x_0/device/net ]]; then
	"$ROOT/scripts/vm/guest-pyverbs.sh" mlx5x_0 test_mlx5_devx \
		test_mlx5_rdmacm.Mlx5CMTestCase \
		test_rdmacm.CMTestCase.test_rdmacm_sync_traffic \
		test_rdmacm.CMTestCase.test_rdmacm_async_traffic \
		test_rdmacm.CMTestCase.test_rdmacm_async_read \
		test_rdmacm.CMTestCase.test_rdmacm_async_write \
		test_rdmacm.CMTestCase.test_rdmacm_async_reject_traffic \
		test_rdmacm.CMTestCase.test_rdmacm_async_traffic_external_qp \
		test_rdmacm.CMTestCase.test_rdmacm_async_udp_traffic \
		test_rdmacm.CMTestCase.test_rdmacm_async_multicast_traffic \
		test_rdmacm.CMTestCase.test_rdmacm_async_ex_multicast_traffic \
		test_rdmacm.CMTestCase.test_rdmacm_async_ex_leave_multicast_traffic \
		>>"$log" 2>&1 || rc=1
else
	echo "# test_rdmacm, test_mlx5_rdmacm's DC, test_mlx5_devx: not run, the device's netdev has no parent device" >>"$log"
fi
cat "$log"
tally "$(grep -cE '^# .*\.\.\. ok$' "$log")" \
	"$(grep -cE '^# .*\.\.\. (FAIL|ERROR)$' "$log")" \
	"$(grep -cE '^# .*\.\.\. skipped' "$log")"
if ((rc == 0)); then
	echo "ok - pyverbs-required"
else
	echo "not ok - pyverbs-required (rc $rc)"
	tally 0 1 0
fi
took

whole=${MLX5X_WHOLE_SUITE:-1}
if [[ $whole != 0 ]]; then
	# beside rxe on a second dummy netdev, where this kernel has it:
	# mlx5x must pass whatever rxe passes, and more
	modprobe crc32_generic 2>/dev/null
	if [[ $whole != alone ]] && modprobe rdma_rxe 2>/dev/null &&
	   ip link add r0 type dummy &&
	   ip link set r0 up && ip addr add 192.168.78.1/24 dev r0 &&
	   rdma link add rxe_0 type rxe netdev r0; then
		echo "# rdma-core's whole suite, on mlx5x_0 and on rxe_0"
		"$ROOT/scripts/vm/guest-pyverbs.sh" --beside rxe_0 mlx5x_0 >"$log" 2>&1
		cat "$log"
		tally "$(grep -cE '^ok - pyverbs beside' "$log")" \
			"$(grep -cE '^not ok - pyverbs beside' "$log")" 0
		grep -q '^ok - pyverbs beside' "$log" ||
			{ echo "not ok - pyverbs beside rxe (no verdict)"; tally 0 1 0; }
		rdma link delete rxe_0
		ip link del r0
	else
		echo "# rdma-core's whole suite (counts reported; not beside rxe)"
		"$ROOT/scripts/vm/guest-pyverbs.sh" mlx5x_0
	fi
	took
else
	echo "# rdma-core's whole suite: not run (MLX5X_WHOLE_SUITE=0)"
fi

rdma link delete mlx5x_0
if rdma link show | grep -q mlx5x; then
	echo "not ok - devices left after delete"
	tally 0 1 0
fi
rmmod mlx5x || { echo "not ok - rmmod mlx5x"; tally 0 1 0; }
rm -f "$log"
echo "total: $pass passed, $fail failed, $skip skipped"
((fail == 0))
