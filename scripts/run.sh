#!/bin/bash
# The main job, from a fresh Debian 12 machine: install what is missing,
# build, boot Debian's stock kernel in QEMU, load mlx5x, create a simulated
# device with `rdma link add`, show it with ibv_devinfo and run a short
# libmlx5 example on it.  KVER picks the kernel (default Debian 12's).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/stage.sh
. scripts/stage.sh
KVER=${KVER:-6.1.0-56-amd64}

prepare_kernel "$KVER"
stage vm scripts/vm/run.sh --kver "$KVER" --ko "build/obj/$KVER/mlx5x.ko" \
	--timeout 600 scripts/vm/guest-demo.sh
