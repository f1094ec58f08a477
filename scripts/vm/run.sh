#!/bin/bash
# Boot Debian's stock kernel in QEMU (TCG) and run SCRIPT [ARGS] with bash in
# the guest, chrooted into the host's root (9p, read-only), cwd the repo root.
# Usage: run.sh [--kver KVER] [--ko PATH]... [--timeout SECS] [--mem MB] SCRIPT [ARGS]
# Env: VM_APPEND extra kernel parameters; VM_NAME log name (default SCRIPT's).
# Logs: build/logs/NAME-kernel.log (ttyS0), build/logs/NAME-test.log (ttyS1,
# also on stdout). Exit: the script's status; 124 on timeout, 125 if the guest
# died without one; 126 if it hung in boot twice (a boot that does not
# reach the script in VM_BOOT_TIMEOUT s, default 240, is tried once more,
# as is one whose kernel dies before the script starts);
# nonzero if the kernel log shows an oops, WARN, BUG, ...
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
KVER=${KVER:-6.1.0-56-amd64}
TIMEOUT=600 MEM=2048 KOS=()
usage() { sed -n '3,11s/^# \{0,1\}//p' "$0" >&2; exit 2; }
while (($#)); do
	case $1 in
	--kver) KVER=$2; shift 2 ;;
	--ko) KOS+=("$(realpath -e "$2")"); shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--mem) MEM=$2; shift 2 ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
(($#)) || usage
SCRIPT=$(realpath -e "$1")
shift
NAME=${VM_NAME:-$(basename "${SCRIPT%.*}")}
KDIR=$ROOT/build/kernels/$KVER
MODDIR=$KDIR/lib/modules/$KVER
KIMG=$KDIR/vmlinux # ELF with a PVH entry: boots ~4 s faster than the bzImage
INITRD=$ROOT/build/vm/initramfs-$KVER.cpio.gz
KLOG=$ROOT/build/logs/$NAME-kernel.log
TLOG=$ROOT/build/logs/$NAME-test.log
mkdir -p "$ROOT/build/vm" "$ROOT/build/logs"

"$ROOT/scripts/get-kernel.sh" "$KVER" >&2
"$ROOT/scripts/vm/mkinitramfs.sh" "$KVER" "$INITRD" >&2
[[ -e $KIMG ]] || KIMG=$KDIR/boot/vmlinuz-$KVER

# Modules under test go to updates/, which modprobe prefers over kernel/,
# in a module tree of this run's own: a hard-linked copy of the kernel's,
# so runs from several worktrees sharing build/kernels never see each
# other's modules.  depmod replaces its index files rather than writing
# into them, so the shared tree is left as it was.
RUNDIR=$(mktemp -d "$ROOT/build/vm/run.XXXXXX")
WRAP=$RUNDIR/$NAME.sh
trap 'rm -rf "$RUNDIR"' EXIT
MODBASE=$RUNDIR/mods
mkdir -p "$MODBASE/lib/modules"
cp -al "$MODDIR" "$MODBASE/lib/modules/$KVER"
rm -rf "$MODBASE/lib/modules/$KVER/updates"
if ((${#KOS[@]})); then
	mkdir "$MODBASE/lib/modules/$KVER/updates"
	cp "${KOS[@]}" "$MODBASE/lib/modules/$KVER/updates/"
fi
depmod -b "$MODBASE" "$KVER"
MODDIR=$MODBASE/lib/modules/$KVER

# The guest runs this wrapper, which carries SCRIPT's arguments.
{
	printf 'cd %q || exit 125\nexec /bin/bash' "$ROOT"
	printf ' %q' "$SCRIPT" "$@"
	echo
} >"$WRAP"

# the debug kernel's own parameters
APPEND=
[[ $KVER == *-mlx5x-debug ]] &&
	APPEND=$(grep -v '^#' "$ROOT/scripts/debug-kernel/cmdline" | tr '\n' ' ')

# boot SOCK PIDFILE: the watchdog of one boot.  A guest whose init has not
# started the script BOOT_TIMEOUT seconds after QEMU began is stuck before
# the module under test was ever loaded (a debug-kernel guest of CI's once
# stopped after "Run /init" for ten minutes): ask its kernel, through the
# keyboard's SysRq, for its blocked tasks and its CPUs' stacks, then stop it.
boot_watch() {
	local sock=$1 pidfile=$2 t=0
	while ((t < BOOT_TIMEOUT)); do
		sleep 2
		t=$((t + 2))
		grep -qa 'mlx5x-init: running' "$KLOG" 2>/dev/null && return
		[[ -e $pidfile ]] && ! kill -0 "$(cat "$pidfile")" 2>/dev/null && return
	done
	: >"$RUNDIR/boot-hang"
	python3 - "$sock" 2>/dev/null <<-'EOF' || true
	import socket, sys, time
	s = socket.socket(socket.AF_UNIX)
	s.connect(sys.argv[1])
	for key in ("alt-sysrq-w", "alt-sysrq-l"):
	    s.sendall(("sendkey %s\n" % key).encode())
	    time.sleep(5)
	EOF
	kill "$(cat "$pidfile")" 2>/dev/null || true
}

BOOT_TIMEOUT=${VM_BOOT_TIMEOUT:-240}
start=$EPOCHREALTIME
for attempt in 1 2; do
	rm -f "$RUNDIR/boot-hang" "$RUNDIR/qemu.pid"
	boot_watch "$RUNDIR/mon" "$RUNDIR/qemu.pid" &
	watch=$!
	set +e
	timeout --foreground -k 5 "$TIMEOUT" qemu-system-x86_64 -machine q35,accel=tcg -m "$MEM" -smp 2 \
		-nographic -no-reboot -pidfile "$RUNDIR/qemu.pid" \
		-monitor "unix:$RUNDIR/mon,server=on,wait=off" \
		-netdev hubport,id=nic0,hubid=0 \
		-device virtio-net-pci,netdev=nic0,romfile= \
		-kernel "$KIMG" -initrd "$INITRD" \
		-append "console=ttyS0 panic=-1 oops=panic sysrq_always_enabled mlx5x_vm.script=$WRAP mlx5x_vm.cwd=$ROOT mlx5x_vm.moddir=$MODDIR $APPEND${VM_APPEND:-}" \
		-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
		-serial "file:$KLOG" -serial stdio </dev/null | tee "$TLOG"
	qrc=${PIPESTATUS[0]}
	set -e
	kill "$watch" 2>/dev/null || true
	wait "$watch" 2>/dev/null || true
	grep -qa 'MLX5X-VM-EXIT=' "$TLOG" && break
	if [[ -e $RUNDIR/boot-hang ]]; then
		echo "run.sh: BOOT HANG: the guest did not start the script in" \
			"${BOOT_TIMEOUT}s (attempt $attempt); its kernel log's end:" >&2
		tail -n 80 "$KLOG" | sed 's/^/run.sh:   /' >&2
		cp "$KLOG" "${KLOG%.log}-hang$attempt.log"
	elif ((qrc != 124 && qrc != 137)) &&
	     ! grep -qa 'at uptime [0-9.]*s' "$KLOG"; then
		# the stock kernel died in its own boot, before the script
		# (and so before any module of ours) ran: under TCG, 6.12's
		# boot has taken an int3 oops in code being patched
		echo "run.sh: BOOT CRASH: the guest's kernel died before it" \
			"started the script (attempt $attempt); its kernel log's end:" >&2
		tail -n 80 "$KLOG" | sed 's/^/run.sh:   /' >&2
		cp "$KLOG" "${KLOG%.log}-crash$attempt.log"
	else
		break
	fi
done
wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')

marker=$(grep -ao 'MLX5X-VM-EXIT=[0-9]*' "$TLOG" | tail -n 1 || true)
if [[ -n $marker ]]; then
	rc=${marker#*=}
elif [[ -e $RUNDIR/boot-hang ]]; then
	echo "run.sh: the guest hung in boot twice" >&2
	rc=126
elif ((qrc == 124 || qrc == 137)); then
	echo "run.sh: timed out after ${TIMEOUT}s" >&2
	rc=124
else
	echo "run.sh: guest ended without an exit status (qemu rc $qrc)" >&2
	rc=125
fi

# Any of these in the kernel log fails the run, whatever the script said.
BAD='Oops|WARNING:|BUG:|Kernel panic|KASAN|UBSAN|kmemleak: .*suspected memory leak|general protection fault|Call Trace|mlx5x_sim: LEAK|DESTROY_UCTX .* failed|DEALLOC_.* failed'
# kmemleak's own line, where the guest's kmemleak_check (guest-debug-lib.sh)
# scanned and found only the known leaks of ib_core it names
if grep -qa 'mlx5x-vm: kmemleak: all [0-9]* known' "$KLOG"; then
	BAD=${BAD/'kmemleak: .*suspected memory leak|'/}
fi
if grep -qaE "$BAD" "$KLOG"; then
	echo "run.sh: FAIL: kernel log ${KLOG#"$ROOT"/} shows:" >&2
	grep -naE -B 5 -A 25 "$BAD" "$KLOG" | head -n 200 >&2
	((rc)) || rc=1
fi

up=$(grep -ao 'at uptime [0-9.]*s' "$KLOG" | head -n 1 || true)
echo "run.sh: $NAME rc=$rc, wall ${wall}s, script started ${up:-never} (guest)" >&2
exit "$rc"
