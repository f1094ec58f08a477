#!/bin/bash
# KUnit tests of the firmware model (drivers/infiniband/hw/mlx5x/sim).
#
#   1. find, or build, the debug kernel (scripts/debug-kernel.sh: Debian's
#      linux-source-6.1 with KUnit, KASAN, kmemleak, lockdep), cached
#      outside the repository; the reliability tests boot the same kernel
#   2. build mlx5x_sim_kunit.ko (the model plus sim/kunit/*.c, no ib_core)
#      against it, in build/kunit/mod, W=1, no warnings allowed
#   3. boot it under QEMU (TCG) with a busybox initramfs that insmods the
#      module (KUnit runs its suites on load), rmmods it, has kmemleak
#      scan, and powers off
#   4. parse the console (build/logs/kunit.log) with the source's
#      kunit.py parse
#
# Exits nonzero on a failed or crashed case, if no case ran, or on any
# WARN, BUG, oops, KASAN, lockdep or kmemleak report in the log.  Ends
# with "kunit: N passed, N failed, N skipped".
# Environment: KUNIT_TIMEOUT (seconds for the boot, default 600);
# KUNIT_KMEMLEAK=0 skips kmemleak.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
KB=$ROOT/build/kunit
MOD=$KB/mod
LOGS=$ROOT/build/logs
LOG=$LOGS/kunit.log
MODNAME=mlx5x_sim_kunit
SIMDIR=drivers/infiniband/hw/mlx5x/sim
TIMEOUT=${KUNIT_TIMEOUT:-600}
KMEMLEAK=${KUNIT_KMEMLEAK:-1}
JOBS=$(nproc)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
# step_done NAME START [NOTE]: print how long the step took
step_done() {
	printf 'kunit: %-8s %6.1f s %s\n' "$1" "$(echo "$(now) - $2" | bc)" "${3:-}"
}
die() { echo "kunit: $*" >&2; exit 1; }

mkdir -p "$KB" "$LOGS"
total=$(now)

# 1. Kernel: the debug kernel, built once per config, source and compiler.
t=$(now)
kver=$("$ROOT/scripts/debug-kernel.sh" --kver) || die "no debug kernel"
DK=$(readlink -f "$ROOT/build/kernels/$kver/..")
OUT=$DK/obj
SRC=$DK/src
KUNIT_PY=$SRC/tools/testing/kunit/kunit.py
bzimage=$DK/root/boot/vmlinuz-$kver
grep -qx 'CONFIG_KUNIT=y' "$OUT/.config" || die "$kver has no KUnit"
step_done kernel "$t" "($kver)"

# 2. Test module, in its own folder: a copy of the model's sources (rsync
# keeps mtimes, so make rebuilds only what changed) and its own Kbuild.
t=$(now)
mkdir -p "$MOD/${SIMDIR%/sim}"
rsync -a --delete --include '*/' --include '*.c' --include '*.h' \
	--include '*.mk' --exclude '*' "$ROOT/$SIMDIR/" "$MOD/$SIMDIR/"
rsync -a "$ROOT/${SIMDIR%/sim}/prm.h" "$ROOT/${SIMDIR%/sim}/compat.h" \
	"$ROOT/${SIMDIR%/sim}/dm_prm.h" "$MOD/${SIMDIR%/sim}/"
rsync -a "$ROOT/scripts/kunit/Kbuild" "$MOD/Kbuild"
make -C "$OUT" M="$MOD" W=1 -j"$JOBS" modules >"$tmp/mod.log" 2>&1 || {
	cat "$tmp/mod.log"
	die "module build failed"
}
if grep -E 'warning:|error:' "$tmp/mod.log"; then
	die "module build: warnings above"
fi
ko=$MOD/$MODNAME.ko
[[ -f $ko ]] || die "no $ko"
step_done module "$t"

# 3. Initramfs: static busybox, the module, an /init that loads it.
# gen_init_cpio (from the kernel build) makes /dev/console without root.
t=$(now)
cat >"$tmp/init" <<'EOF'
#!/bin/busybox sh
bb=/bin/busybox
$bb mount -t proc proc /proc
$bb mount -t sysfs sys /sys
$bb mount -t debugfs debugfs /sys/kernel/debug
kml=/sys/kernel/debug/kmemleak
[ "$MLX5X_KMEMLEAK" = 0 ] && kml=/nonexistent
[ -e $kml ] && echo clear >$kml	# what boot left is not ours
echo "mlx5x-kunit: insmod"
$bb insmod /mlx5x_sim_kunit.ko
echo "mlx5x-kunit: insmod rc=$?"
$bb rmmod mlx5x_sim_kunit
echo "mlx5x-kunit: rmmod rc=$?"
if [ -e $kml ]; then
	# kmemleak reports objects older than 5 s, unreferenced in two scans
	$bb sleep 6
	echo scan >$kml
	echo scan >$kml
	$bb cat $kml
	echo "mlx5x-kunit: kmemleak scanned"
fi
echo "mlx5x-kunit: done"
$bb poweroff -f
EOF
cat >"$tmp/cpio.list" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /bin 0755 0 0
file /bin/busybox /bin/busybox 0755 0 0
dir /proc 0755 0 0
dir /sys 0755 0 0
file /init $tmp/init 0755 0 0
file /$MODNAME.ko $ko 0644 0 0
EOF
if ! file -L /bin/busybox 2>/dev/null | grep -q 'statically linked'; then
	die "/bin/busybox is not the static busybox (apt-get install busybox-static)"
fi
"$OUT/usr/gen_init_cpio" "$tmp/cpio.list" | gzip -1 >"$KB/initramfs.cpio.gz"
step_done initrd "$t"

# 4. Boot.  TCG only (KVM hangs guests here); -no-reboot turns a panic
# (panic=-1) or a reboot into QEMU's exit.
t=$(now)
rc=0
append="console=ttyS0 printk.time=0 panic=-1 kunit.enable=1"
# a word without a dot on the command line lands in init's environment
[[ $KMEMLEAK == 0 ]] && append+=" kmemleak=off MLX5X_KMEMLEAK=0"
timeout "$TIMEOUT" qemu-system-x86_64 -nodefaults -m 1024 -smp 1 \
	-bios qboot.rom -kernel "$bzimage" -initrd "$KB/initramfs.cpio.gz" \
	-append "$append" \
	-no-reboot -nographic -serial stdio </dev/null >"$LOG" 2>&1 || rc=$?
tr -d '\r' <"$LOG" >"$tmp/log" && mv "$tmp/log" "$LOG"
step_done boot "$t"
fail=0
((rc == 124)) && { echo "kunit: QEMU timed out after ${TIMEOUT}s"; fail=1; }
((rc != 0 && rc != 124)) && { echo "kunit: QEMU exited with $rc"; fail=1; }
grep -q '^mlx5x-kunit: insmod rc=0$' "$LOG" ||
	{ echo "kunit: insmod of $MODNAME.ko failed"; fail=1; }
grep -q '^mlx5x-kunit: rmmod rc=0$' "$LOG" ||
	{ echo "kunit: rmmod of $MODNAME.ko failed"; fail=1; }
grep -q '^mlx5x-kunit: done$' "$LOG" ||
	{ echo "kunit: the guest's /init did not finish"; fail=1; }
if grep -nE 'WARNING:|BUG:|BUG |Oops|general protection fault|Kernel panic|Call Trace:|UBSAN:|kernel BUG|INFO: (possible|task)|unreferenced object' "$LOG"; then
	echo "kunit: kernel reported problems above (build/logs/kunit.log)"
	fail=1
fi

# 5. Parse.  The built-in executor prints its own empty plan ("1..0") at
# boot; the module's suites follow as top-level subtests.  Give the parser
# one plan covering every suite that started, so a suite that never
# finished is reported as crashed.
t=$(now)
nsuites=$(grep -c '^    # Subtest: ' "$LOG" || true)
{
	printf 'KTAP version 1\n1..%d\n' "$nsuites"
	sed -n '/^    KTAP version 1$/,$p' "$LOG"
} >"$tmp/ktap"
prc=0
python3 "$KUNIT_PY" parse "$tmp/ktap" >"$tmp/parse" 2>&1 || prc=$?
sed 's/^\[[0-9:]*\] //' "$tmp/parse"
# kunit.py shows a skip but not its reason
sed -n 's/^ *ok [0-9]* \([^ ]*\) # SKIP \(.*\)/kunit: skipped \1: \2/p' "$LOG"
step_done parse "$t"
((prc == 0)) || fail=1

summary=$(grep 'Testing complete\.' "$tmp/parse" | tail -n 1)
count() { sed -n "s/.*[ ,]$1: \([0-9]*\).*/\1/p" <<<"$summary" | head -n 1; }
passed=$(count passed); failed=$(count failed); crashed=$(count crashed)
skipped=$(count skipped); errors=$(count errors)
passed=${passed:-0}; skipped=${skipped:-0}
failed=$((${failed:-0} + ${crashed:-0}))
((${errors:-0} == 0)) || fail=1
((passed + failed > 0)) || { echo "kunit: no test ran"; fail=1; }
((failed == 0)) || fail=1

printf 'kunit: total    %6.1f s (%d suites)\n' "$(echo "$(now) - $total" | bc)" "$nsuites"
echo "kunit: $passed passed, $failed failed, $skipped skipped"
exit $fail
