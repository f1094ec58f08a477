#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests of the mlx5x command.
#   test-cli.sh MLX5X            on a fake debugfs tree: every command, its
#                                table and JSON output, the knobs it writes,
#                                bad input
#   test-cli.sh --live MLX5X HOLD DEV
#                                on a live simulated device (in the VM, as
#                                root): HOLD is the selftests' hold_ctx,
#                                which keeps a DEVX context with a PD and a
#                                UAR open
# TAP output; exit 1 if a case failed.
set -uo pipefail

n=0 failed=0
ok() {	# NAME COND-STATUS
	n=$((n + 1))
	if (($2 == 0)); then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		failed=$((failed + 1))
	fi
}
json() { /usr/bin/python3 -c "import json,sys; d=json.load(sys.stdin); $1"; }

fake() {
	local cli=$1 out
	T=$(mktemp -d)
	t=$T
	trap 'rm -rf "$T"' EXIT
	mkdir -p "$t/mlx5x_0/fw"
	printf 'uid pid comm\n2 4242 app one\n0 77 ibv_devinfo\n3 99 "odd"\n' \
		>"$t/mlx5x_0/contexts"
	printf 'type id uid users\nuctx 0x2 0 0\npd 0x1 2 1\nmkey 0x10 2 0\npd 0x2 3 0\neq 0x1 0 0\numem 0x5 9 0\n' \
		>"$t/mlx5x_0/fw/objects"
	printf 'commands 120\nfailed 3\nobjects 6\n' >"$t/mlx5x_0/fw/stats"
	echo 0 >"$t/mlx5x_0/fw/fail_next"
	echo -1 >"$t/mlx5x_0/fw/fail_opcode"
	export MLX5X_DEBUGFS=$t

	out=$("$cli" devices --json)
	echo "$out" | json 'assert d == {"devices": ["mlx5x_0"]}'
	ok devices_json $?

	out=$("$cli" contexts)
	echo "$out" | grep -q '^2 *4242 *app one *2$' &&
		echo "$out" | grep -q '^- *77 *ibv_devinfo' &&
		echo "$out" | grep -q '^3 *99 *"odd" *1$'
	ok contexts_table $?

	out=$("$cli" --json contexts)
	echo "$out" | json '
c = {x["pid"]: x for x in d["contexts"]}
assert d["device"] == "mlx5x_0" and len(c) == 3
assert c[4242] == {"uid": 2, "pid": 4242, "comm": "app one", "devx": True, "objects": 2}
assert c[77]["devx"] is False and c[77]["objects"] == 0
assert c[99]["comm"] == "\"odd\""'
	ok contexts_json $?

	out=$("$cli" objects)
	# grouped by owner, the kernel first, a uid without context named so
	echo "$out" | grep -n '^uid' | tr '\n' ' ' |
		grep -q '^[0-9]*:uid 0 (kernel) [0-9]*:uid 2 (pid 4242, app one) [0-9]*:uid 3 (pid 99, "odd") [0-9]*:uid 9 (no open context) $'
	ok objects_grouped $?
	echo "$out" | grep -q '^  mkey *0x10 *0$' && echo "$out" | grep -q '^  pd *0x1 *1$'
	ok objects_rows $?

	out=$("$cli" objects --uid 2 --json)
	echo "$out" | json '
o = d["objects"]
assert [(x["type"], x["id"], x["users"], x["pid"]) for x in o] == [("mkey", 16, 0, 4242), ("pd", 1, 1, 4242)]'
	ok objects_filter_uid $?

	out=$("$cli" --json objects --type pd)
	echo "$out" | json 'assert [x["uid"] for x in d["objects"]] == [2, 3]'
	ok objects_filter_type $?

	out=$("$cli" objects --uid 7)
	[[ $out == "no objects" ]]
	ok objects_none $?

	out=$("$cli" stats --json)
	echo "$out" | json 'assert d == {"device": "mlx5x_0", "commands": 120, "failed": 3, "objects": 6}'
	ok stats_json $?

	"$cli" fault next 5 && [[ $(cat "$t/mlx5x_0/fw/fail_next") == 5 ]] &&
		"$cli" fault opcode 0x800 &&
		[[ $(cat "$t/mlx5x_0/fw/fail_opcode") == 2048 ]]
	ok fault_writes $?
	echo 5 >"$t/mlx5x_0/fw/fail_next"
	echo 2048 >"$t/mlx5x_0/fw/fail_opcode"
	out=$("$cli" fault --json)
	echo "$out" | json 'assert d == {"fail_next": 5, "fail_opcode": 2048}'
	ok fault_show_json $?
	"$cli" fault clear && [[ $(cat "$t/mlx5x_0/fw/fail_next") == 0 ]] &&
		[[ $(cat "$t/mlx5x_0/fw/fail_opcode") == -1 ]]
	ok fault_clear $?

	# bad input: usage (2) or error (1), never a crash
	local rc bad=0
	for args in "classify" "classify up 00" "classify rx 0g" \
		    "classify rx 020" "classify tx 00 0" "classify rdma 00" \
		    "" "frobnicate" "fault next" "fault next -1" \
		    "fault next 12x" "fault opcode 0x10000" "objects --uid 70000" \
		    "stats extra" "-d nosuch stats"; do
		# shellcheck disable=SC2086
		"$cli" $args >/dev/null 2>&1
		rc=$?
		((rc == 1 || rc == 2)) || { echo "# '$args' exit $rc"; bad=1; }
	done
	ok bad_input $bad

	mkdir "$t/mlx5x_1"
	"$cli" stats >/dev/null 2>&1
	[[ $? == 1 ]] && "$cli" -d mlx5x_0 stats >/dev/null
	ok two_devices_need_d $?
}

live() {
	local cli=$1 hold=$2 dev=$3 pid uid out rc
	"$hold" 600 >/tmp/cli-hold.log 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		grep -q '^held' /tmp/cli-hold.log && break
		sleep 0.1
	done
	out=$("$cli" -d "$dev" --json contexts)
	uid=$(echo "$out" | json "print([c['uid'] for c in d['contexts'] if c['pid'] == $pid][0])")
	echo "$out" | json "
c = [c for c in d['contexts'] if c['pid'] == $pid][0]
assert c['devx'] and c['objects'] >= 2 and c['comm'].startswith('hold_ctx'), c"
	ok live_contexts $?

	out=$("$cli" -d "$dev" --json objects --uid "$uid")
	echo "$out" | json "
t = sorted(set(o['type'] for o in d['objects']))
assert 'pd' in t and 'uar' in t and all(o['pid'] == $pid for o in d['objects']), d"
	ok live_objects $?
	"$cli" -d "$dev" objects | grep -q "^uid $uid (pid $pid, hold_ctx)"
	ok live_objects_table $?

	# an injected failure reaches the next command, and the counters show it
	local before after
	before=$("$cli" -d "$dev" --json stats | json 'print(d["failed"])')
	"$cli" -d "$dev" fault next 1
	ibv_devinfo -d "$dev" >/dev/null 2>&1
	after=$("$cli" -d "$dev" --json stats | json 'print(d["failed"])')
	out=$("$cli" -d "$dev" --json fault)
	((after == before + 1)) && echo "$out" | json 'assert d["fail_next"] == 0'
	ok live_fault_next $?
	"$cli" -d "$dev" fault opcode 0x800
	[[ $("$cli" -d "$dev" --json fault | json 'print(d["fail_opcode"])') == 2048 ]]
	rc=$?
	"$cli" -d "$dev" fault clear
	ok live_fault_opcode $rc

	# a packet through the kernel's steering: the table and the JSON
	local pkt=02000000000102000000000208004500002800004000400600000a0000010a0000023039005000000000000000005002ffff00000000
	out=$("$cli" -d "$dev" classify rx "$pkt")
	echo "$out" | grep -q '^0 *packet *dir=rx port=1 len=' &&
		echo "$out" | grep -Eq '^[0-9]+ +verdict +to=default$'
	ok live_classify_table $?
	out=$("$cli" -d "$dev" --json classify tx "$pkt")
	echo "$out" | json '
s = d["steps"]
assert s[0]["step"] == "packet" and s[0]["dir"] == "tx"
assert s[1]["step"] == "table" and s[1]["type"] == "tx" and s[1]["uid"] == "0"
assert s[-1] == {"step": "verdict", "to": "wire"}, s[-1]'
	ok live_classify_json $?
	! "$cli" -d "$dev" classify rx 0011 2>/dev/null
	ok live_classify_short_refused $?
	# the RDMA domains: the kernel's chains, on to the transport, the wire
	out=$("$cli" -d "$dev" classify rdma_rx "$pkt")
	echo "$out" | grep -Eq '^[0-9]+ +table +id=0x[0-9a-f]+ type=rdma_rx ' &&
		echo "$out" | grep -Eq '^[0-9]+ +verdict +to=roce$'
	ok live_classify_rdma_rx $?
	out=$("$cli" -d "$dev" classify rdma_tx "$pkt")
	echo "$out" | grep -Eq '^[0-9]+ +table +id=0x[0-9a-f]+ type=rdma_tx ' &&
		echo "$out" | grep -Eq '^[0-9]+ +verdict +to=wire$'
	ok live_classify_rdma_tx $?

	# what ib_core tracks of the process shows in the rdma tool
	rdma resource show pd dev "$dev" | grep -q "pid $pid "
	ok rdma_resource_pd $?
	rdma resource show ctx dev "$dev" | grep -q "pid $pid "
	ok rdma_resource_ctx $?

	kill "$pid"
	wait "$pid" 2>/dev/null
	"$cli" -d "$dev" --json contexts | json "assert not [c for c in d['contexts'] if c['pid'] == $pid]"
	ok live_context_gone $?
	[[ $("$cli" -d "$dev" --json objects --uid "$uid" | json 'print(len(d["objects"]))') == 0 ]]
	ok live_objects_gone $?
}

echo "TAP version 13"
if [[ ${1:-} == --live ]]; then
	live "$2" "$3" "$4"
else
	fake "$1"
fi
echo "1..$n"
echo "cli: $((n - failed)) passed, $failed failed, 0 skipped"
((failed == 0))
