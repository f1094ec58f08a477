#!/bin/bash
# Install the Debian packages mlx5x needs. Idempotent: on a machine that has
# them all it prints one line and touches nothing.
# KVER selects the kernel headers (default 6.1.0-56-amd64).
set -euo pipefail

KVER=${KVER:-6.1.0-56-amd64}
PKGS=(
	build-essential kmod cpio busybox-static qemu-system-x86 sparse
	linux-source-6.1 "linux-headers-$KVER"
	rdma-core ibverbs-providers ibverbs-utils libibverbs-dev python3-pyverbs
	iproute2 pkg-config
	xz-utils zstd # unpacking kernels and modules in scripts/vm
)

start=$EPOCHREALTIME
missing=()
for p in "${PKGS[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]})); then
	echo "setup-deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
awk -v n="${#PKGS[@]}" -v m="${#missing[@]}" -v a="$start" -v b="$EPOCHREALTIME" \
	'BEGIN { printf "setup-deps: %d packages ok (%d installed now), %.1fs\n", n, m, b - a }'
