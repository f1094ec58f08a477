#!/bin/bash
# In the guest: rdma-core's own test suite (Debian's python3-pyverbs)
# against a simulated device.
# Usage: guest-pyverbs.sh DEV [TESTS...]
#        guest-pyverbs.sh --beside REF DEV
# With TESTS, every test named must pass (skips count as failures);
# without, the whole suite runs and its counts are reported.  With
# --beside, the whole suite runs on DEV and on REF (rxe, in the same
# guest), and DEV must pass every test REF passes, but the known gaps
# that scripts/vm/pyverbs-gaps lists with their reasons, and more tests
# than REF ("# beside REF: N pass on both, ..." then a TAP line each).
# MLX5X_SUITE_PICK=I/N: of the whole suite only the modules I, I+N, ...
# of the sorted list (the debug kernel's share of it in one run).
set -uo pipefail
GAPS=$(cd "$(dirname "$0")" && pwd)/pyverbs-gaps
ref=
if [[ ${1:-} == --beside ]]; then
	ref=$2
	shift 2
fi
dev=$1 on=$1
shift
work=$(mktemp -d)
cp -r /usr/share/doc/rdma-core/tests "$work/tests"
gunzip -f "$work"/tests/*.gz
# rdma-core's CQ poll timeout (10 s) stays: a busy host delays a
# completion past a shorter one, and only a failing test waits it out
cd "$work" || exit 1
log=$work/log
# randrange() of floats in tests/test_device.py warns on Python 3.11;
# a warning splits its "... ok" line, which the counts below read
run() {
	PYTHONWARNINGS=ignore::DeprecationWarning timeout 900 \
		/usr/bin/python3 -X faulthandler tests/run_tests.py \
		--dev "$on" -v "$@" >>"$log" 2>&1
}
# outcomes: "ID ok|skipped|FAIL|ERROR" a test, from $log, sorted.
# unittest names a test, "name (tests.module.Class.name)", then gives its
# outcome after " ... " on that line, or on the next after its
# docstring's first line; what a test prints to stdout can come between
# (a child process flushing its copy of the buffer), and the outcome is
# then alone on a later line.
outcomes() {
	awk 'function out(r) { print id, r; id = ""; pend = 0 }
	     /^test[A-Za-z0-9_]* \(tests\.[A-Za-z0-9_.]+\)/ {
		id = $2; gsub(/^\(tests\.|\)$/, "", id); pend = 0
	     }
	     id == "" { next }
	     / \.\.\. (ok|FAIL|ERROR)$| \.\.\. skipped/ {
		r = $0; sub(/.* \.\.\. /, "", r); sub(/ .*/, "", r)
		out(r); next
	     }
	     / \.\.\. / { pend = 1; next }
	     pend && /^(ok|FAIL|ERROR)$/ { out($0); next }
	     pend && /^skipped / { out("skipped") }' "$log" | sort -u -k1,1
}
count() {
	local o
	o=$(outcomes)
	ok=$(grep -c ' ok$' <<<"$o")
	skip=$(grep -c ' skipped$' <<<"$o")
	fail=$(grep -c ' FAIL$' <<<"$o")
	err=$(grep -c ' ERROR$' <<<"$o")
}
: >"$log"
if (($#)); then
	run "$@"
	rc=$?
	count
	grep -E '\.\.\. ' "$log" | sed 's/^/# /'
	grep -E '^(FAIL|ERROR):' -A12 "$log" | sed 's/^/# /'
	echo "# pyverbs required: $ok ok, $skip skipped, $fail failed, $err errors"
	((rc == 0 && skip == 0 && fail == 0 && err == 0 && ok > 0))
	exit
fi

# suite DEV: the whole suite on DEV into $log, module by module in
# unittest's (sorted) order.  When Python dies by a signal (pyverbs'
# error paths can, as above), say so, and go on with the modules it did
# not reach.
suite() {
	local mods=() crashed=() rest=() f m rc last
	local pick=${MLX5X_SUITE_PICK:-0/1} i=0
	for f in tests/test_*.py; do
		f=${f#tests/}
		((i++ % ${pick#*/} == ${pick%/*})) && mods+=("${f%.py}")
	done
	[[ $pick == 0/1 ]] || echo "# the suite's modules $pick: ${mods[*]}"
	on=$1
	: >"$log"
	while ((${#mods[@]})); do
		run "${mods[@]}"
		rc=$?
		((rc > 128 && rc != 137)) || break
		last=$(grep -oE '\(tests\.test_[a-z0-9_]+\.' "$log" | tail -n 1 |
			sed 's/^(tests\.//; s/\.$//')
		[[ -n $last ]] || break
		crashed+=("$last (signal $((rc - 128)))")
		grep -E 'Fatal Python error' -A3 "$log" | tail -n 4 | sed 's/^/# /'
		rest=()
		for m in "${mods[@]}"; do
			[[ $m > $last ]] && rest+=("$m")
		done
		mods=("${rest[@]}")
	done
	count
	grep -E '^(FAIL|ERROR):' "$log" | sed 's/^/# /'
	tail -n 3 "$log" | sed 's/^/# /'
	((${#crashed[@]})) && echo "# pyverbs died in: ${crashed[*]}; the modules after it ran in a new process"
	echo "# pyverbs suite on $1: $((ok + skip + fail + err)) tests: $ok ok, $skip skipped, $fail failed, $err errors"
}

export LC_ALL=C	# the glob's order and > below: unittest's sorted()
suite "$dev"
[[ -n $ref ]] || exit 0
outcomes >"$work/dev"
suite "$ref"
outcomes >"$work/ref"
# both: ID, its outcome on REF, on DEV ("none" where it did not run)
join -a 1 -e none -o 0,1.2,2.2 "$work/ref" "$work/dev" >"$work/both"
join -a 1 -e none -o 0,1.2,2.2 "$work/dev" "$work/ref" |
	awk '$2 == "ok" && $3 != "ok" { print $1 }' >"$work/new"
# lost: passed on REF, not on DEV; a known gap (pyverbs-gaps) says why
awk '$2 == "ok" && $3 != "ok" { print $1, $3 }' "$work/both" >"$work/lost"
grep -vE '^(#|$)' "$GAPS" | sort -k1,1 >"$work/gaps"
join -v 1 "$work/lost" "$work/gaps" >"$work/unknown"
dev_ok=$(awk '$2 == "ok"' "$work/dev" | wc -l)
ref_ok=$(awk '$2 == "ok"' "$work/ref" | wc -l)
echo "# beside $ref: $(awk '$2 == "ok" && $3 == "ok"' "$work/both" | wc -l) pass on both, $(wc -l <"$work/new") on $dev alone, $(wc -l <"$work/lost") on $ref alone ($(wc -l <"$work/unknown") of them not known gaps)"
sed "s/^/# passes on $dev, not on $ref: /" "$work/new"
join "$work/lost" "$work/gaps" | sed "s/^/# known gap, passes on $ref only: /"
sed "s/^/# passes on $ref, not on $dev: /" "$work/unknown"
awk '$3 == "ok" { print $1 }' "$work/both" | join - "$work/gaps" |
	sed "s/^/# gap closed (remove it from pyverbs-gaps): /"
not=
[[ -s $work/unknown ]] && not="not "
echo "${not}ok - pyverbs beside $ref: $dev passes every test $ref passes but the known gaps"
not=
((dev_ok > ref_ok)) || not="not "
echo "${not}ok - pyverbs beside $ref: more pass on $dev ($dev_ok) than on $ref ($ref_ok)"
