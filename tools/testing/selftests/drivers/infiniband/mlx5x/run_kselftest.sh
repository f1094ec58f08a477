#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs the installed mlx5x kselftests the way kselftest's runner does:
# KTAP on stdout, one top-level result per program (its own TAP indented),
# each program under the timeout of `settings`.  A program with no mlx5x
# device exits 4 and is reported as skipped.
# Usage: run_kselftest.sh [-t COLLECTION:TEST]...
set -u

BASE=$(cd "$(dirname "$0")" && pwd)
COLLECTION=drivers/infiniband/mlx5x
mapfile -t all < "$BASE/kselftest-list.txt"
want=()
while getopts "t:" opt; do
	case $opt in
	t) want+=("$OPTARG") ;;
	*) echo "usage: $0 [-t $COLLECTION:TEST]..." >&2; exit 2 ;;
	esac
done
((${#want[@]})) || want=("${all[@]}")

timeout_s=$(sed -n 's/^timeout=//p' "$BASE/$COLLECTION/settings")
echo "TAP version 13"
echo "1..${#want[@]}"
n=0 fail=0
for entry in "${want[@]}"; do
	n=$((n + 1))
	t=${entry#*:}
	echo "# selftests: $COLLECTION: $t"
	(cd "$BASE/$COLLECTION" && timeout "${timeout_s:-300}" "./$t") 2>&1 |
		sed 's/^/# /'
	rc=${PIPESTATUS[0]}
	case $rc in
	0) echo "ok $n selftests: $COLLECTION: $t" ;;
	4) echo "ok $n selftests: $COLLECTION: $t # SKIP" ;;
	124) echo "not ok $n selftests: $COLLECTION: $t # TIMEOUT ${timeout_s}s"
	     fail=1 ;;
	*) echo "not ok $n selftests: $COLLECTION: $t # exit=$rc"; fail=1 ;;
	esac
done
exit $fail
