#!/bin/bash
# Sourced by the guest scripts of the reliability tests (guest-faults.sh,
# guest-fuzz.sh, guest-stress.sh, guest-debug.sh): bring up a device,
# ready the debug kernel's tools, and check it afterwards.
# shellcheck shell=bash

DBG=/sys/kernel/debug
KMEMLEAK=$DBG/kmemleak
SLABS=/sys/kernel/slab
BAD_KLOG='Oops|WARNING:|BUG:|KASAN|UBSAN|possible circular|possible recursive|inconsistent lock|suspected memory leak|general protection fault|Call Trace|mlx5x_sim: LEAK|hung_task|soft lockup'

# dev_up [DEV NETDEV]: dummy netdev with an IPv4 address (rdma_cm's:
# mlx5x_cm connects through it), rdma_ucm, module, device
dev_up() {
	local dev=${1:-mlx5x_0} nd=${2:-d0}
	modprobe dummy || return 1
	ip link show "$nd" >/dev/null 2>&1 ||
		{ ip link add "$nd" type dummy && ip link set "$nd" up &&
		  ip addr add 192.168.79.1/24 dev "$nd"; } || return 1
	modprobe rdma_ucm 2>/dev/null
	modprobe mlx5x || return 1
	rdma link show | grep -q "$dev" ||
		rdma link add "$dev" type mlx5x netdev "$nd" || return 1
	export MLX5X_DEV=$dev MLX5X_NETDEV=$nd
}

# debug_prepare: forget what boot left in kmemleak; let failslab fail
# sleeping allocations (fail-nth drives it), quietly, of every cache but
# kmemleak's own.
debug_prepare() {
	# no scans but kmemleak_check()'s, which judges what they find
	[[ -w $KMEMLEAK ]] && echo scan=off >"$KMEMLEAK" && echo clear >"$KMEMLEAK"
	if [[ -d $DBG/failslab ]]; then
		echo N >"$DBG/failslab/ignore-gfp-wait"
		echo 0 >"$DBG/failslab/verbose"
		echo 0 >"$DBG/failslab/probability"
		# only the caches the boot marked: all but kmemleak's own
		# (scripts/debug-kernel/cmdline)
		[[ $(cat "$SLABS/kmalloc-64/failslab" 2>/dev/null) == 1 &&
		   $(cat "$SLABS/kmemleak_object/failslab" 2>/dev/null) == 0 ]] &&
			echo Y >"$DBG/failslab/cache-filter"
	fi
	return 0
}

have_failslab() { [[ -w /proc/self/fail-nth && -d $DBG/failslab ]]; }

# kmemleak_split known|others: how many of kmemleak's findings are the
# known ones (below), or the others, whole
kmemleak_split() {
	awk -v want="$1" '
	function done() {
		if (r == "") return
		if (k) nk++; else if (want == "others") printf "%s", r
		r = ""
	}
	/^unreferenced object/ { done(); k = 0; fr = 0 }
	/\[<.*>\]/ && fr++ < 3 && /copy_process|prepare_creds|sys_setgroups|flow_resources_alloc/ { k = 1 }
	{ r = r $0 "\n" }
	END { done(); if (want == "known") print nk + 0 }' "$KMEMLEAK"
}

# kmemleak_check: scan (objects must be 5 s old) and print what it found;
# false if it found anything.  True when there is no kmemleak.
kmemleak_check() {
	[[ -w $KMEMLEAK ]] || { echo "# kmemleak: not in this kernel"; return 0; }
	sleep 6
	echo scan >"$KMEMLEAK"
	echo scan >"$KMEMLEAK"
	local n known
	n=$(grep -c '^unreferenced object' "$KMEMLEAK")
	# Known, not ours: 6.1's ib_core leaks the task reference restrack
	# took for a ucontext when the driver's alloc_ucontext fails on the
	# ioctl path (UVERBS_METHOD_GET_CONTEXT kfree()s the context without
	# rdma_restrack_put()); the fault tests make it fail on purpose.  What
	# leaks is that process's task_struct (copy_process), its creds
	# (prepare_creds) and the creds' supplementary groups (setgroups,
	# where the process set them), with no frame of any module.  mlx5x
	# takes no task or cred reference anywhere.  Second, 6.1's ib_uverbs
	# flow_resources_alloc() frees only ->counters when one of its two
	# arrays fails, so a failslab point there leaks ->collection.  An
	# object is known when one of the first three frames of its
	# allocation names one of those.
	known=$(kmemleak_split known)
	echo "# kmemleak: $n suspected leaks ($known ib_core's own, see guest-debug-lib.sh)"
	if ((n != known)); then
		kmemleak_split others | head -n 200 | sed 's/^/# /'
		return 1
	fi
	if ((n)); then
		head -n 12 "$KMEMLEAK" | sed 's/^/# /'
		# run.sh then lets the kernel's "suspected memory leaks" line by
		echo "mlx5x-vm: kmemleak: all $n known (ib_core)" >/dev/kmsg
	fi
	return 0
}

# klog_bad: how many lines of the kernel log are reports
klog_bad() { dmesg | grep -cE "$BAD_KLOG"; }

# fw_user_objects [DEV]: the model's objects owned by a user context (not
# the kernel's, uid 0, nor the ones it makes for any context to name,
# MLX5_SHARED_RESOURCE_UID)
fw_user_objects() {
	awk 'NR > 1 && $3 != 0 && $3 != 65535' "$DBG/mlx5x/${1:-$MLX5X_DEV}/fw/objects" | wc -l
}
# fw_settle [DEV]: wait (10 s at most) until no user context's object is
# left.  A process's objects go when its files are released, which may
# follow its exit: the last fput is deferred, and a DEVX command still in
# flight holds its file until it completes.  Says how long it waited.
fw_settle() {
	local i
	for ((i = 0; i < 100; i++)); do
		(($(fw_user_objects "$@") == 0)) && break
		sleep 0.1
	done
	((i)) && echo "# user objects gone after ${i}00 ms"
	return 0
}
# fw_total_objects [DEV]: the model's objects but the shared uid's, which
# the kernel makes once per anchored priority and keeps for the device's
# life (fs_anchor.c)
fw_total_objects() {
	awk 'NR > 1 && $3 != 65535' "$DBG/mlx5x/${1:-$MLX5X_DEV}/fw/objects" | wc -l
}
