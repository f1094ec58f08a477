#!/bin/bash
# In the guest: mlx5x beside mlx5_core and mlx5_ib where no ConnectX is
# present.  mlx5x loads (pulling in mlx5_core, whose symbols it links
# against), finds no function and attaches nothing, still serves simulated
# devices, unloads cleanly, and leaves mlx5_ib as it was, in both load
# orders.  Last line: "hw: N passed, N failed, N skipped".
set -uo pipefail

pass=0 fail=0

check() {	# NAME COMMAND...: one case, the command's output as diagnostics
	local name=$1 rc
	shift
	"$@" 2>&1 | sed 's/^/# /'
	rc=${PIPESTATUS[0]}
	if ((rc == 0)); then
		echo "ok - $name"
		pass=$((pass + 1))
	else
		echo "not ok - $name (rc $rc)"
		fail=$((fail + 1))
	fi
}

loaded() {	# MODULE...
	local m
	for m; do
		[[ -d /sys/module/$m/sections ]] || { echo "$m not loaded"; return 1; }
	done
}

not_loaded() {	# MODULE
	! [[ -d /sys/module/$1/sections ]] || { echo "$1 still loaded"; return 1; }
}

names() {	# DIR [GLOB]: the entries of a directory, on one line
	local d
	for d in "$1"/${2:-*}; do
		[[ -e $d ]] && printf '%s ' "${d##*/}"
	done
}

# mlx5_ib as mlx5x must leave it: loaded, its auxiliary driver registered,
# nothing of mlx5x holding it
mlx5_ib_state() {
	echo "refcnt $(cat /sys/module/mlx5_ib/refcnt)" \
		"holders $(names /sys/module/mlx5_ib/holders)" \
		"drivers $(names /sys/bus/auxiliary/drivers 'mlx5_ib.*')"
}

depends_on_core() {
	modinfo -F depends mlx5x | tr ',' '\n' | grep -qx mlx5_core ||
		{ modinfo mlx5x; return 1; }
}

no_mlx5x_device() {	# no ConnectX here: no IB device at all
	local devs
	devs=$(names /sys/class/infiniband)
	[[ -z $devs ]] || { echo "unexpected IB devices: $devs"; return 1; }
}

anchor_registered() {
	ls /sys/bus/auxiliary/drivers
	[[ -d /sys/bus/auxiliary/drivers/mlx5x.bus_anchor ]]
}

anchor_gone() {
	! [[ -e /sys/bus/auxiliary/drivers/mlx5x.bus_anchor ]]
}

sim_device() {
	ip link show hw0 >/dev/null 2>&1 ||
		{ ip link add hw0 type dummy && ip link set hw0 up; } || return 1
	rdma link add mlx5x_0 type mlx5x netdev hw0 || return 1
	ibv_devinfo -d mlx5x_0 | grep -E 'hca_id|vendor_part_id|state' ||
		return 1
	rdma link delete mlx5x_0
}

# the mlx5_core calls of the backend's device memory and CQ events: the
# module imports them and the loaded mlx5_core exports each
HW_SYMS="mlx5_cmd_do mlx5_create_cq mlx5_core_destroy_cq
	mlx5_dm_sw_icm_alloc mlx5_dm_sw_icm_dealloc mlx5_eq_notifier_register"
symbols_resolve() {
	local ko sym imports
	ko=$(modinfo -n mlx5x) || return 1
	imports=$(modprobe --dump-modversions "$ko" | awk '{ print $2 }')
	for sym in $HW_SYMS; do
		grep -qx "$sym" <<<"$imports" ||
			{ echo "mlx5x does not import $sym"; return 1; }
		grep -qE " $sym\s+\[mlx5_core\]$" /proc/kallsyms ||
			{ echo "$sym not in mlx5_core"; return 1; }
	done
}

# every operation of the hw backend wired (debugfs mlx5x/hw_backend)
hw_ops_wired() {
	local f=/sys/kernel/debug/mlx5x/hw_backend op
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	cat "$f" || return 1
	for op in exec uar_pfn memic_pfn icm_alloc icm_free comp_vectors \
		comp_eqn cq_events release; do
		grep -qx "$op 1" "$f" || { echo "$op not wired"; return 1; }
	done
	# BAR pages are mapped write-combining, as mlx5_ib maps them
	grep -qx "memic_cached 0" "$f" && grep -qx "uar_cached 0" "$f"
}

unload() {
	rmmod mlx5x
}

no_errors() {
	! dmesg | grep -v 'module verification failed' |
		grep -E 'mlx5x.*(not attached|fail|error)|mlx5_ib.*(fail|error)'
}

modprobe dummy || exit 1
check "depends on mlx5_core" depends_on_core

echo "# mlx5_core, mlx5_ib, then mlx5x"
check "modprobe mlx5_core mlx5_ib" modprobe -a mlx5_core mlx5_ib
check "mlx5_core and mlx5_ib loaded" loaded mlx5_core mlx5_ib
before=$(mlx5_ib_state)
echo "# mlx5_ib: $before"
check "modprobe mlx5x" modprobe mlx5x
check "mlx5x loaded" loaded mlx5x
check "auxiliary bus watched" anchor_registered
check "no function: no mlx5x device" no_mlx5x_device
check "mlx5_core symbols of the backend resolve" symbols_resolve
check "hw backend operations wired" hw_ops_wired
check "simulated device beside mlx5_ib" sim_device
check "mlx5_ib undisturbed with mlx5x loaded" \
	test "$(mlx5_ib_state)" = "$before"
check "rmmod mlx5x" unload
check "mlx5x unloaded" not_loaded mlx5x
check "bus anchor gone" anchor_gone
check "mlx5_core and mlx5_ib still loaded" loaded mlx5_core mlx5_ib
check "mlx5_ib undisturbed after unload" test "$(mlx5_ib_state)" = "$before"

echo "# mlx5x first (it pulls in mlx5_core), then mlx5_ib, then unload all"
check "rmmod mlx5_ib mlx5_core" rmmod mlx5_ib mlx5_core
check "modprobe mlx5x alone" modprobe mlx5x
check "mlx5_core pulled in" loaded mlx5_core mlx5x
check "modprobe mlx5_ib after mlx5x" modprobe mlx5_ib
check "mlx5_ib loaded beside mlx5x" loaded mlx5_ib
check "mlx5_ib unaffected by mlx5x" test "$(mlx5_ib_state)" = "$before"
check "rmmod mlx5_ib with mlx5x loaded" rmmod mlx5_ib
check "mlx5x still serves the model" sim_device
check "rmmod mlx5x again" unload
check "rmmod mlx5_core after mlx5x" rmmod mlx5_core
check "no mlx5x or mlx5_ib errors in dmesg" no_errors

echo "hw: $pass passed, $fail failed, 0 skipped"
((fail == 0))
