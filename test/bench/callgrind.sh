#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Instructions per operation of every swtim-bench case, under callgrind.
#
#   test/bench/callgrind.sh BUILD_DIR [swtim-bench options]
#
# Runs BUILD_DIR/test/bench/swtim-bench --deterministic (fixed seed, sizes
# 1k,4k, one measured loop, step 256; options given here are added) under
# valgrind --tool=callgrind --collect-atstart=no. The bench switches
# collection on only around its timed regions (not the warm-up loops) and
# dumps one profile per case, labelled "impl:case:dist:size ops=N"; this
# script prints, per case, the instructions counted (Ir), the operations
# and Ir per operation, with the ratio to DPDK's adapter (or rte_mempool)
# for the same case. The profiles stay in $CALLGRIND_DIR (default
# BUILD_DIR/callgrind-swtim-bench) for callgrind_annotate.
#
# Counts are repeatable to within a few instructions per operation: the
# seed and sizes are fixed and everything runs on one thread; but the
# expiry cases vary, by up to a quarter between runs, as the number of
# service calls and of cascades depends on how many adapter ticks elapse
# while valgrind runs the arms.

set -eu

if [ $# -lt 1 ] || [ ! -x "$1/test/bench/swtim-bench" ]; then
	echo "usage: $0 BUILD_DIR [swtim-bench options]" >&2
	exit 2
fi
exe=$1/test/bench/swtim-bench
dir=${CALLGRIND_DIR:-$1/callgrind-swtim-bench}
shift

mkdir -p "$dir"
rm -f "$dir"/callgrind.out.*
valgrind --tool=callgrind --collect-atstart=no \
	--callgrind-out-file="$dir/callgrind.out.%p" \
	"$exe" -- --deterministic --quiet "$@" > "$dir/swtim-bench.log" 2>&1 || {
	rc=$?
	tail -20 "$dir/swtim-bench.log" >&2
	echo "$0: swtim-bench under callgrind failed ($rc)" >&2
	exit "$rc"
}

# One dump per case: callgrind.out.PID.1, .2, ... in the bench's order
# (sorted on the number after the last dot: the path may hold dots too).
ls "$dir"/callgrind.out.*.* | awk -F. '{ print $NF "\t" $0 }' | sort -n |
	cut -f2- | xargs awk '
/^desc: Trigger: Client Request: / {
	sub(/^desc: Trigger: Client Request: /, "")
	label = $1
	ops = $2
	sub(/^ops=/, "", ops)
	next
}
/^totals: / {
	if (label == "")
		next
	split(label, f, ":")
	ir = $2
	per = ops > 0 ? ir / ops : 0
	key = f[2] ":" f[3] ":" f[4]
	ref = ""
	# floor is no implementation: no ratio.
	if (f[1] == "dpdk" || f[1] == "mempool")
		refper[key] = per
	else if (f[1] != "floor" && key in refper && refper[key] > 0)
		ref = sprintf("%.2f", per / refper[key])
	printf "%-40s %12d Ir %9d ops %9.1f Ir/op %s\n", label, ir, ops, per,
		ref == "" ? "" : "ratio " ref
	label = ""
}
'
