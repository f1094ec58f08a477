#!/bin/bash
# Sourced by the top-level scripts: run named stages, print each one's wall
# time, stop at the first failure.
# shellcheck shell=bash

stage() {
	local name=$1 t0=$EPOCHREALTIME rc=0
	shift
	echo "=== stage $name: $*"
	"$@" || rc=$?
	awk -v n="$name" -v a="$t0" -v b="$EPOCHREALTIME" -v rc="$rc" \
		'BEGIN { printf "=== stage %s: %s in %.1fs\n", n, rc ? "FAILED (rc " rc ")" : "ok", b - a }'
	return "$rc"
}

# setup, kernel and build stages for one kernel: what precedes a VM run.
prepare_kernel() {
	local kver=$1
	KVERS=$kver stage setup scripts/setup-deps.sh
	stage kernel scripts/get-kernel.sh "$kver"
	stage build scripts/build.sh "$kver"
}
