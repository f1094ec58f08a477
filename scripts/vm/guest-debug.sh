#!/bin/bash
# In the guest, on the debug kernel: the kselftest suite and rdma-core's
# (guest-test.sh), then kmemleak.  Reports of KASAN, lockdep and WARN
# land in the kernel log, which run.sh checks.
# Usage: guest-debug.sh [--required] [--rotate R]
# The debug kernel's time goes where it finds bugs: every kselftest and
# every required rdma-core test, the programs users run and the wire
# tests on mlx5x; not the second kselftest run without the model (it
# tests skip logic, on the stock kernels), not rxe's runs beside mlx5x
# (they are for comparison), and not rxe as the wire's far end: 6.1's
# rxe reads a packet its responder may have freed (rxe_resp_queue_pkt(),
# a use-after-free KASAN reports under traffic from any peer), which is
# not mlx5x's to find; the wire tests run sim <-> sim there.
#   --required  of rdma-core's whole suite nothing (under KASAN it takes
#               a quarter hour)
#   --rotate R  of it only half the modules (R % 2), and of the wire
#               tests one part of two (R % 2 the other way round): the
#               caller turns R from run to run
# Last lines: guest-test.sh's "total: ..." and "# kmemleak: N suspected leaks".
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/vm/guest-debug-lib.sh
. "$ROOT/scripts/vm/guest-debug-lib.sh"
export MLX5X_NO_MODEL_RUN=0 MLX5X_PROGRAMS_RXE=0 MLX5X_WHOLE_SUITE=alone
export MLX5X_WIRE_RXE=0
# every program of the wire, with few iterations: under KASAN and TCG a
# perftest of 100 64 KiB messages takes minutes, and finds no more
export MLX5X_WIRE_ITERS="5 20"
while (($#)); do
	case $1 in
	--required) MLX5X_WHOLE_SUITE=0; shift ;;
	--rotate)
		export MLX5X_SUITE_PICK=$(($2 % 2))/2
		export MLX5X_WIRE_PICK=$((($2 + 1) % 2))/2
		shift 2 ;;
	*) echo "guest-debug.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
debug_prepare
"$ROOT/scripts/vm/guest-test.sh"
rc=$?
kmemleak_check || rc=1
exit "$rc"
