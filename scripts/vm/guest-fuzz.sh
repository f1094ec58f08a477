#!/bin/bash
# In the guest: the uverbs fuzzer (build/selftests/mlx5x_fuzz) against a
# simulated device, then the checks: no worker died, the model holds no
# user object, the kernel log has no report, kmemleak is quiet.  On a
# KCOV kernel with mlx5x built with KCOV_INSTRUMENT=y the coverage is
# given against the call sites instrumented in mlx5x.ko, and the PCs
# covered on one line ("# kcov-pcs OFFSET..."), which
# scripts/vm/fuzz-cover.py counts per source file on the host (in the
# guest it takes minutes).
# Usage: guest-fuzz.sh [FUZZER ARGS] (mlx5x_fuzz -p PROCS -t SECS -n CALLS -s SEED)
# Last line: "fuzz: N passed, N failed, 0 skipped" over the checks.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/vm/guest-debug-lib.sh
. "$ROOT/scripts/vm/guest-debug-lib.sh"
BIN=${SELFTESTS_BIN:-$ROOT/build/selftests}
pass=0 fail=0
result() { if (($2)); then echo "not ok - $1"; fail=$((fail + 1)); else echo "ok - $1"; pass=$((pass + 1)); fi; }

dev_up mlx5x_0 d0 || { echo "fuzz: no device"; exit 1; }
debug_prepare
bad0=$(klog_bad)
base=$(fw_total_objects "$MLX5X_DEV")
# crypto offload on (the profile's default is none), for the UMR ops'
# DEKs and crypto mkeys; the fuzzer moves it on when it may
echo plaintext >"$DBG/mlx5x/$MLX5X_DEV/fw/crypto" || true
log=$(mktemp) pcfile=$(mktemp)
MLX5X_FUZZ_PCS=$pcfile "$BIN/mlx5x_fuzz" "$@" | tee "$log"
result "fuzzer ran, no worker died" "${PIPESTATUS[0]}"
ko=$(modinfo -n mlx5x)
# the calls into KCOV are relocations in the module: count those of .text
sites=$(objdump -r -j .text "$ko" 2>/dev/null | grep -c '__sanitizer_cov_trace_pc')
pcs=$(sed -n 's/.*coverage \([0-9]*\) PCs$/\1/p' "$log")
if [[ -n $pcs ]] && ((sites > 0)); then
	awk -v p="$pcs" -v s="$sites" \
		'BEGIN { printf "# KCOV coverage: %d of %d call sites in mlx5x.ko (%.1f%%)\n", p, s, 100 * p / s }'
	[[ -s $pcfile ]] && echo "# kcov-pcs $(tr '\n' ' ' <"$pcfile")"
fi
fw_settle "$MLX5X_DEV"
left=$(fw_user_objects "$MLX5X_DEV")
now=$(fw_total_objects "$MLX5X_DEV")
((left == 0 && now == base))
result "the model holds no user object ($left left, $now objects, $base before)" $?
awk 'NR > 1 && $3 != 0 && $3 != 65535' "$DBG/mlx5x/$MLX5X_DEV/fw/objects" | head -n 20 | sed 's/^/#   /'
(($(klog_bad) == bad0))
result "kernel log has no report" $?
kmemleak_check
result "kmemleak quiet" $?
rm -f "$log" "$pcfile"
echo "fuzz: $pass passed, $fail failed, 0 skipped"
((fail == 0))
