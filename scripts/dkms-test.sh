#!/bin/bash
# DKMS: add the sources as /usr/src/mlx5x-VERSION, then build and install
# for the first kernel of KVERS (scripts/kernels.sh: Debian 12's own), or
# with --all for every kernel whose headers are installed, check modinfo
# of each installed module, and remove it all again.  The build stages
# build the module for each kernel of KVERS already; what this adds is
# DKMS's own path (dkms.conf, the source tree it copies, the install),
# which one kernel shows.  Usage: dkms-test.sh [--all]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kernels.sh
. "$ROOT/scripts/kernels.sh"
hdrs=("/usr/src/linux-headers-${KVERS%% *}")
[[ ${1:-} == --all ]] && hdrs=(/usr/src/linux-headers-*-amd64)
VER=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$ROOT/dkms.conf")
SRC=/usr/src/mlx5x-$VER

cleanup() {
	dkms remove "mlx5x/$VER" --all >/dev/null 2>&1 || true
	rm -rf "$SRC"
}
trap cleanup EXIT
cleanup

mkdir -p "$SRC"
cp -a "$ROOT/dkms.conf" "$ROOT/Kbuild" "$ROOT/drivers" "$ROOT/include" "$SRC/"
dkms add "mlx5x/$VER"
n=0
for hdr in "${hdrs[@]}"; do
	k=${hdr#/usr/src/linux-headers-}
	[[ -e $hdr/Makefile ]] || continue
	dkms build "mlx5x/$VER" -k "$k" >/dev/null 2>&1 ||
		{ cat "/var/lib/dkms/mlx5x/$VER/build/make.log"; exit 1; }
	dkms install "mlx5x/$VER" -k "$k" --force >/dev/null 2>&1
	ko=$(find "/lib/modules/$k/updates/dkms" -name 'mlx5x.ko*' | head -n 1)
	[[ -n $ko ]] || { echo "dkms: no module installed for $k"; exit 1; }
	vm=$(modinfo -F vermagic "$ko")
	[[ $vm == "$k "* ]] || { echo "dkms: $ko has vermagic '$vm'"; exit 1; }
	echo "dkms: mlx5x/$VER built and installed for $k ($ko)"
	n=$((n + 1))
done
((n > 0)) || { echo "dkms: no kernel headers installed"; exit 1; }
dkms status mlx5x
echo "dkms: ok for $n kernels"
