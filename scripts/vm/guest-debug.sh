#!/bin/bash
# In the guest, on the debug kernel: the whole kselftest suite and
# rdma-core's (guest-test.sh), then kmemleak.  Usage: [--required]  Reports of KASAN, lockdep
# and WARN land in the kernel log, which run.sh checks.
# Last lines: guest-test.sh's "total: ..." and "# kmemleak: N suspected leaks".
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/vm/guest-debug-lib.sh
. "$ROOT/scripts/vm/guest-debug-lib.sh"
# --required: of rdma-core's suite only the tests that must pass (CI's
# budget: the whole suite takes a quarter hour more under KASAN)
[[ ${1:-} == --required ]] && export MLX5X_WHOLE_SUITE=0
debug_prepare
"$ROOT/scripts/vm/guest-test.sh"
rc=$?
kmemleak_check || rc=1
exit "$rc"
