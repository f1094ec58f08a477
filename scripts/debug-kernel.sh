#!/bin/bash
# The debug kernel: Debian's linux-source-6.1 configured by
# scripts/debug-kernel/config (KASAN, kmemleak, lockdep, failslab,
# KCOV, the RDMA core as modules) and laid out like an unpacked Debian
# kernel (boot/vmlinuz-KVER, boot/vmlinux-KVER, lib/modules/KVER) so that
# scripts/vm/run.sh --kver KVER boots it.
#
# Built once per (config, source tarball, compiler) in a cache outside
# the repository, $MLX5X_DEBUG_KERNEL_CACHE (default
# /var/cache/mlx5x/debug-kernel), so fresh clones on the same machine
# (CI) find it; build/kernels/KVER links to it.  The build runs under
# nice -n 19.  A lock serialises concurrent runs.
#
# Usage: debug-kernel.sh [--cached-only] [--kver]
#   --cached-only  exit 3 instead of building when the cache misses
#   --kver         print only the kernel release (builds if needed)
# Last line otherwise: "debug-kernel: KVER in DIR".  The build tree for
# out-of-tree modules is DIR/obj (make -C DIR/obj M=...).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TARBALL=/usr/src/linux-source-6.1.tar.xz
FRAGMENT=$ROOT/scripts/debug-kernel/config
CACHE=${MLX5X_DEBUG_KERNEL_CACHE:-/var/cache/mlx5x/debug-kernel}
JOBS=${JOBS:-$(nproc)}
cached_only=0 print_kver=0
for a in "$@"; do
	case $a in
	--cached-only) cached_only=1 ;;
	--kver) print_kver=1 ;;
	*) sed -n '2,18s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
say() { ((print_kver)) || echo "debug-kernel: $*"; }
die() { echo "debug-kernel: $*" >&2; exit 1; }

key=$( { cat "$FRAGMENT"; stat -c '%s %Y' "$TARBALL"; gcc --version | head -n 1; } |
	sha256sum | cut -c1-16)
D=$CACHE/$key
mkdir -p "$CACHE"
# one lock per configuration: building one never holds up the use of
# another that is already built
exec 9>"$CACHE/.lock-$key"
if ! flock -n 9; then
	((cached_only)) && { echo "debug-kernel: cache busy (being built)" >&2; exit 3; }
	say "waiting for another build of the debug kernel"
	flock 9
fi

link() {
	local kver
	kver=$(cat "$D/.done")
	# caches built before the vmlinux moved to boot/
	if [[ -e $D/root/vmlinux ]]; then
		mv "$D/root/vmlinux" "$D/root/boot/vmlinux-$kver"
	fi
	mkdir -p "$ROOT/build/kernels"
	ln -sfn "$D/root" "$ROOT/build/kernels/$kver"
	if ((print_kver)); then echo "$kver"; else say "$kver in $D"; fi
}
if [[ -f $D/.done ]]; then
	link
	exit 0
fi
((cached_only)) && { echo "debug-kernel: not cached ($D)" >&2; exit 3; }

t0=$EPOCHREALTIME
mkdir -p "$D"
log=$D/build.log
: >"$log"
if [[ ! -f $D/src/.unpacked ]]; then
	rm -rf "$D/src"
	mkdir -p "$D/src"
	tar -xJf "$TARBALL" -C "$D/src" --strip-components=1
	touch "$D/src/.unpacked"
	say "unpacked the source"
fi
mkdir -p "$D/obj"
KMAKE=(nice -n 19 make -C "$D/src" O="$D/obj" ARCH=x86_64)
KCONFIG_ALLCONFIG=$FRAGMENT "${KMAKE[@]}" allnoconfig >>"$log" 2>&1 ||
	{ tail -n 30 "$log"; die "allnoconfig failed"; }
# Every line of the fragment must have survived Kconfig's dependencies.
missing=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) grep -qxF "$line" "$D/obj/.config" || { echo "debug-kernel: lost: $line" >&2; missing=1; } ;;
	'# CONFIG_'*' is not set') grep -qxF "$line" "$D/obj/.config" || { echo "debug-kernel: lost: $line" >&2; missing=1; } ;;
	esac
done <"$FRAGMENT"
((missing == 0)) || die "the config lost the lines above"
say "building (log $log; nice -n 19, -j$JOBS)"
"${KMAKE[@]}" -j"$JOBS" bzImage vmlinux modules >>"$log" 2>&1 ||
	{ tail -n 40 "$log"; die "build failed ($log)"; }
kver=$("${KMAKE[@]}" -s kernelrelease)
rm -rf "$D/root"
mkdir -p "$D/root/boot"
"${KMAKE[@]}" INSTALL_MOD_PATH="$D/root" modules_install >>"$log" 2>&1 ||
	die "modules_install failed"
rm -f "$D/root/lib/modules/$kver/build" "$D/root/lib/modules/$kver/source"
cp "$D/obj/arch/x86/boot/bzImage" "$D/root/boot/vmlinuz-$kver"
# vmlinux for symbols only, in boot/: scripts/vm/run.sh boots a top-level
# vmlinux by its PVH entry, which this KASAN kernel never leaves (QEMU
# exits at once); the bzImage boots.
cp "$D/obj/vmlinux" "$D/root/boot/vmlinux-$kver"
depmod -b "$D/root" "$kver"
touch "$D/root/.unpacked" # what scripts/get-kernel.sh looks for
echo "$kver" >"$D/.done"
built=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "built in %.0f s", b - a }')
echo "$built" >>"$log"
say "$built"
link
