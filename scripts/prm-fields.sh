#!/bin/bash
# Regenerate the selftests' PRM field table (mlx5x_prm.h) from Debian 12's
# 6.1 <linux/mlx5/mlx5_ifc.h>, the oldest kernel mlx5x supports: the
# selftests then build anywhere without kernel headers.
# Usage: prm-fields.sh [--check]; --check only compares (exit 1: stale).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
ST=$ROOT/tools/testing/selftests/drivers/infiniband/mlx5x
IFC=$(ls -d /usr/src/linux-headers-6.1.*-common 2>/dev/null | sort -V | tail -n1)
IFC=$IFC/include/linux/mlx5/mlx5_ifc.h
[[ -f $IFC ]] || { echo "prm-fields: no 6.1 mlx5_ifc.h in /usr/src" >&2; exit 2; }

if [[ ${1:-} == --check ]]; then
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	/usr/bin/python3 "$ROOT/scripts/gen-prm-fields.py" "$IFC" \
		"$ST/prm_fields.list" "$tmp"
	cmp -s "$tmp" "$ST/mlx5x_prm.h"
else
	/usr/bin/python3 "$ROOT/scripts/gen-prm-fields.py" "$IFC" \
		"$ST/prm_fields.list" "$ST/mlx5x_prm.h"
fi
