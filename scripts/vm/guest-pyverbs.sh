#!/bin/bash
# In the guest: rdma-core's own test suite (Debian's python3-pyverbs)
# against a simulated device.  Usage: guest-pyverbs.sh DEV [TESTS...]
# With TESTS, every test named must pass (skips count as failures);
# without, the whole suite runs and its counts are reported.
set -uo pipefail

dev=$1
shift
work=$(mktemp -d)
cp -r /usr/share/doc/rdma-core/tests "$work/tests"
gunzip -f "$work"/tests/*.gz
# traffic the model does not carry yet fails once its CQ poll times out,
# so the wait is cut from 10 s to 1 s to keep the suite short
sed -i 's/^POLL_CQ_TIMEOUT = 10 /POLL_CQ_TIMEOUT = 1 /' "$work/tests/utils.py"
# pyverbs 44 hands libibverbs its ParentDomainContext as a bare pointer
# and keeps no reference to it.  When this test's SRQ is refused (the
# device has no SRQs yet), the half-built resources die attribute by
# attribute: the context first, then the parent domain, which destroys
# its CQ, whose buffer libmlx5 frees through pyverbs' pd_free() on the
# freed context: SIGSEGV.  Any refusal after the CQ does the same on a
# ConnectX (Documentation/design.rst, "rdma-core's own suite").  Until
# the device serves SRQs, skip it, saying why.
sed -i '/^    def test_mem_align_srq_excq_rc_traffic(self):/i\
    @unittest.skip("pyverbs 44: use after free of the ParentDomainContext once the SRQ is refused (mlx5x: no SRQs yet)")' \
	"$work/tests/test_parent_domain.py"
cd "$work" || exit 1
log=$work/log
# randrange() of floats in tests/test_device.py warns on Python 3.11;
# a warning splits its "... ok" line, which the counts below read
run() {
	PYTHONWARNINGS=ignore::DeprecationWarning timeout 900 \
		/usr/bin/python3 -X faulthandler tests/run_tests.py \
		--dev "$dev" -v "$@" >>"$log" 2>&1
}
count() {
	ok=$(grep -cE '\.\.\. ok$' "$log")
	skip=$(grep -cE '\.\.\. skipped' "$log")
	fail=$(grep -cE '\.\.\. FAIL$' "$log")
	err=$(grep -cE '\.\.\. ERROR$' "$log")
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

# The whole suite, module by module in unittest's (sorted) order.  When
# Python dies by a signal (pyverbs' error paths can, as above), say so,
# and go on with the modules it did not reach.
export LC_ALL=C	# the glob's order and > below: unittest's sorted()
mods=()
for f in tests/test_*.py; do
	f=${f#tests/}
	mods+=("${f%.py}")
done
crashed=()
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
echo "# pyverbs suite: $((ok + skip + fail + err)) tests: $ok ok, $skip skipped, $fail failed, $err errors"
exit 0
