#!/bin/bash
# Sourced by the guest scripts that run ibverbs-utils' and perftest's
# programs: one figure from what a pair of them printed.
#
# perftest_figure KIND CLIENT_LOG [SERVER_LOG]: KIND pingpong (the
# client's us/iter), bw (the BW average, MB/s) or lat (the typical
# latency, us).  perftest turns its cycle counts into time with a CPU
# frequency it samples against gettimeofday() when it starts; under TCG
# a sample taken while the guest's vCPU was descheduled has come out
# wrong, and a bandwidth test whose data all moved then printed an
# average of 0.00.  Such a client figure is no measurement: the server's
# own (ib_send_bw's receiver measures the same transfer) is given
# instead, and a line on standard error says so; with none, no figure.
perftest_figure() {
	local kind=$1 cli=$2 srv=${3:-} f
	local bw='/^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+/ { print $4 }'

	case $kind in
	pingpong)
		awk '/usec\/iter/ { print $(NF - 1) " us/iter" }' "$cli" ;;
	lat)
		awk '/^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+/ { print $5 " us" }' "$cli" ;;
	bw)
		f=$(awk "$bw" "$cli" 2>/dev/null)
		[[ -n $f ]] || return 0
		if awk "BEGIN { exit !($f > 0) }"; then
			echo "$f MB/s"
			return
		fi
		f=
		[[ -n $srv && -r $srv ]] && f=$(awk "$bw" "$srv")
		if [[ -n $f ]] && awk "BEGIN { exit !($f > 0) }"; then
			echo "# the client printed 0.00 MB/s (its clock sample); the server's figure instead" >&2
			echo "$f MB/s"
		else
			echo "# perftest printed 0.00 MB/s on both sides: no figure" >&2
		fi
		;;
	esac
}
