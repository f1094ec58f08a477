#!/bin/bash
# The benchmarks, in a VM of one kernel (KVER; default Debian 12's): DEVX
# create+destroy latency beside the uverbs floor on the same device, and
# MEMIC copy bandwidth through the mapping beside plain memcpy, and the
# mlx5dv flow rule insertion rate at 1k and 100k rules and the cost of
# classifying a packet at 1 and 100k rules in one group and across 64, and
# the latency of a command of one context while another keeps 512 raw
# packet QPs sending (the data path's fairness).
# They print figures; nothing here passes or fails on a number.
# Usage: bench.sh [ITERATIONS]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/stage.sh
. scripts/stage.sh
KVER=${KVER:-6.1.0-56-amd64}

prepare_kernel "$KVER"
VM_NAME=bench stage vm scripts/vm/run.sh --kver "$KVER" \
	--ko "build/obj/$KVER/mlx5x.ko" --timeout 1200 \
	scripts/vm/guest-bench.sh "${1:-20000}"
