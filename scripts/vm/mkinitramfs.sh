#!/bin/bash
# Build the guest's tiny initramfs: static busybox, the 9p module chain of
# the unpacked kernel build/kernels/$KVER, and scripts/vm/init.
# Usage: mkinitramfs.sh KVER OUT.cpio.gz  (no-op when OUT is up to date)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
KVER=${1:?usage: mkinitramfs.sh KVER OUT.cpio.gz}
OUT=${2:?usage: mkinitramfs.sh KVER OUT.cpio.gz}
MODDIR=$ROOT/build/kernels/$KVER/lib/modules/$KVER
BUSYBOX=/bin/busybox # from busybox-static
# Load order for 9p; a name with no .ko is built in or gone in this kernel.
MODS=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci
	netfs fscache 9pnet 9pnet_virtio 9p)

[[ -d $MODDIR ]] || { echo "mkinitramfs: no $MODDIR (run get-kernel.sh)" >&2; exit 1; }

inputs=("$0" "$ROOT/scripts/vm/init" "$BUSYBOX")
for m in "${MODS[@]}"; do
	ko=$(find "$MODDIR/kernel" -name "$m.ko*" -print -quit)
	[[ -n $ko ]] && inputs+=("$ko")
done
if [[ -e $OUT && -z $(find "${inputs[@]}" -newer "$OUT") ]]; then
	exit 0
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,host,lib/modules}
cp "$BUSYBOX" "$stage/bin/busybox"
"$BUSYBOX" --list-full | grep -vx bin/busybox | while read -r applet; do
	mkdir -p "$stage/${applet%/*}"
	ln -sf /bin/busybox "$stage/$applet"
done
install -m 755 "$ROOT/scripts/vm/init" "$stage/init"
# The kernel opens /dev/console before /init; needs root (init copes without).
mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true

for ko in "${inputs[@]:3}"; do
	name=${ko##*/}
	name=${name%%.ko*}
	case $ko in
	*.ko.xz) xz -dc "$ko" ;;
	*.ko.zst) zstd -qdc "$ko" ;;
	*.ko.gz) gzip -dc "$ko" ;;
	*) cat "$ko" ;;
	esac >"$stage/lib/modules/$name.ko"
done
printf '%s\n' "${MODS[@]}" >"$stage/lib/modules/order"

mkdir -p "$(dirname "$OUT")"
(cd "$stage" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1) >"$OUT.$$"
mv "$OUT.$$" "$OUT"
echo "mkinitramfs: ${OUT#"$ROOT"/} ($(du -k "$OUT" | cut -f1) KiB)"
