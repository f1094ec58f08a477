#!/bin/bash
# In the guest: the kselftest programs on a simulated device as they run on
# hardware, the model's debugfs not looked at (MLX5X_NO_MODEL=1): each case
# that needs the model must skip, none may fail for its absence.
# Usage: guest-selftests-nomodel.sh [PROGRAM...] (default: every program).
# Last line: guest-selftests.sh's "selftests: N passed, N failed, N skipped".
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SRC=$ROOT/tools/testing/selftests/drivers/infiniband/mlx5x
# shellcheck disable=SC2046 # the list is words
(($#)) || set -- $(sed -n '/^TEST_GEN_PROGS :=/,/[^\\]$/p' "$SRC/Makefile" |
	sed 's/^TEST_GEN_PROGS :=//; s/\\//g')
export MLX5X_NO_MODEL=1
exec "$ROOT/scripts/vm/guest-selftests.sh" "$@"
