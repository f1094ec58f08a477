#!/bin/bash
# Unpack (not install) Debian's kernel image into build/kernels/$KVER and
# depmod it, for booting in QEMU. Usage: get-kernel.sh [KVER]
# KPKG overrides the package name (default linux-image-$KVER).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
KVER=${1:-${KVER:-6.1.0-56-amd64}}
KPKG=${KPKG:-linux-image-$KVER}
DEST=$ROOT/build/kernels/$KVER
STAMP=$DEST/.unpacked

[[ -e $STAMP ]] && exit 0

# bzImage -> ELF vmlinux. QEMU boots an ELF with a PVH entry note directly,
# skipping the bzImage decompressor, which takes ~4 s under TCG.
extract_vmlinux() {
	local fmt magic tool off
	for fmt in '\xfd7zXZ\x00:xz' '\x28\xb5\x2f\xfd:zstd' '\x1f\x8b\x08:gzip'; do
		magic=${fmt%:*} tool=${fmt##*:}
		while read -r off; do
			tail -c +$((off + 1)) "$1" | "$tool" -dcq >"$2" 2>/dev/null || true
			# Note type 0x12 is XEN_ELFNOTE_PHYS32_ENTRY, the PVH entry point.
			readelf -n "$2" 2>/dev/null | grep -q 'note type: (0x00000012)' && return 0
		done < <(LC_ALL=C grep -obUaP "$magic" "$1" | cut -d: -f1)
	done
	rm -f "$2"
	return 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "get-kernel: downloading $KPKG"
(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$KPKG")

rm -rf "$DEST"
mkdir -p "$DEST"
dpkg -x "$tmp"/*.deb "$DEST"
# Newer packages ship /usr/lib/modules; depmod -b looks in lib/modules.
if [[ ! -d $DEST/lib/modules && -d $DEST/usr/lib/modules ]]; then
	ln -s usr/lib "$DEST/lib"
fi
[[ -e $DEST/boot/vmlinuz-$KVER ]] || { echo "get-kernel: no boot/vmlinuz-$KVER in $KPKG" >&2; exit 1; }
depmod -b "$DEST" "$KVER"
extract_vmlinux "$DEST/boot/vmlinuz-$KVER" "$DEST/vmlinux" ||
	echo "get-kernel: no PVH vmlinux in the bzImage; booting it the slow way" >&2
touch "$STAMP"
echo "get-kernel: $KVER unpacked in ${DEST#"$ROOT"/}"
