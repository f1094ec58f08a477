#!/bin/bash
# Install the Debian packages mlx5x needs. Idempotent: on a machine that has
# them all it prints one line and touches nothing.
# KVERS (scripts/kernels.sh) selects the kernel headers.  The second kernel
# comes from bookworm-backports, Debian's own suite: its source is added
# when missing.
set -euo pipefail

# shellcheck source=scripts/kernels.sh
. "$(dirname "$0")/kernels.sh"
BACKPORTS=/etc/apt/sources.list.d/mlx5x-bookworm-backports.sources
PKGS=(
	build-essential kmod cpio busybox-static qemu-system-x86 sparse rsync dkms
	linux-source-6.1
	rdma-core ibverbs-providers ibverbs-utils libibverbs-dev python3-pyverbs
	python3-scapy # rdma-core's DEVX tests build their packets with it
	librdmacm-dev rdmacm-utils perftest iputils-ping # rdma_cm: selftest, tools
	iproute2 pkg-config python3-sphinx
	tshark # decodes RoCE v2 on the wire (scripts/vm/guest-roce-wire.sh)
	flex bison bc libelf-dev libssl-dev # the KUnit kernel
	xz-utils zstd # unpacking kernels and modules in scripts/vm
)

for k in $KVERS; do
	PKGS+=("linux-headers-$k")
done

start=$EPOCHREALTIME
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	cat >"$BACKPORTS" <<-EOS
		Types: deb
		URIs: http://deb.debian.org/debian
		Suites: bookworm-backports
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOS
	need_update=1
fi
missing=()
for p in "${PKGS[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]})) || [[ -v need_update ]]; then
	echo "setup-deps: apt-get update; missing: ${missing[*]:-none}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
fi
if ((${#missing[@]})); then
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
awk -v n="${#PKGS[@]}" -v m="${#missing[@]}" -v a="$start" -v b="$EPOCHREALTIME" \
	'BEGIN { printf "setup-deps: %d packages ok (%d installed now), %.1fs\n", n, m, b - a }'
