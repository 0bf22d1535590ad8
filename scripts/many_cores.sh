#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# The checks that need a core for each polling lcore, in one run for a
# machine lent for a few minutes (the 16-core device machine): the
# multi-producer bench from 1 to 14 producers (issue 16) and DPDK's
# autotest with a CPU for each of its polling lcores (issue 15).
# Run from a checkout, with a bundle of its release build packed on the
# development machine (scripts/bundle.sh); see --help.

set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
	cat <<EOF
Usage: $0 [option...] BUNDLE OUT

With BUNDLE (scripts/bundle.sh) sourced, writes into OUT (created):
  machine.txt      lscpu, the kernel, the CPUs this process may use
  mp.txt, mp.json  swtim-bench --cases=mp: 1M timers outstanding,
                   wheel and skiplist against DPDK's adapter,
                   for each producer count that has a CPU of its own
  autotest-K.txt   dpdk-test's event_timer_adapter_test, unchanged, with
  autotest-K.log   libswtim_dropin preloaded and no case excused
                   (test/dropin/dpdk_tools.sh), in the layout "own"
                   (test/dropin/autotest_lib.sh): four CPUs a run, the
                   runs at once on CPUs apart; the 4th run, where there
                   are 16 CPUs, serves the adapters with DPDK's own
                   implementation (SWTIM_DPDK_ADAPTER=all)
  summary.txt      a line a check, as printed at the end

Options:
  --producers=LIST  producer counts (default 1,2,4,8,14; counts above
                    the CPUs available are left out, saying so)
  --runs=N          autotest runs at once (default: the CPUs over 4, at
                    most 4; at least 1); with fewer than 4 CPUs a run,
                    every run takes the split layout on the first two
  --dists=LIST      the bench's timeout distributions (default equal)
  --bench-s=S       time limit of the bench (default 180)
  --skip-bench, --skip-autotest
  --help

Each step has a time limit, so that OUT holds what was measured when a
lent machine's time runs out: the bench S seconds, the autotest 330.
EOF
}

producers=1,2,4,8,14
runs=""
bench_s=180
dists=equal
do_bench=true
do_autotest=true
while [ $# -gt 0 ]; do
	case $1 in
	--producers=*) producers=${1#*=} ;;
	--runs=*) runs=${1#*=} ;;
	--bench-s=*) bench_s=${1#*=} ;;
	--dists=*) dists=${1#*=} ;;
	--skip-bench) do_bench=false ;;
	--skip-autotest) do_autotest=false ;;
	-h|--help) usage; exit 0 ;;
	-*) echo "$0: unknown option $1; see --help" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
if [ $# != 2 ]; then
	echo "$0: want BUNDLE and OUT; see --help" >&2
	exit 2
fi
bundle=$(cd "$1" && pwd) || exit 2
out=$2
[ -f "$bundle/env.sh" ] || { echo "$0: $bundle has no env.sh" >&2; exit 2; }
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
# shellcheck disable=SC1091
. "$bundle/env.sh" || exit 1

# Every CPU we may run on.
# shellcheck source=app/test-eventdev/tev_lib.sh
. "$root/app/test-eventdev/tev_lib.sh"
read -r -a cpus < <(tev_cpus all)
ncpu=${#cpus[@]}
summary=$out/summary.txt
: >"$summary"

note() {
	echo "$*" | tee -a "$summary"
}

{
	date -u
	uname -a
	echo "CPUs we may use ($ncpu): ${cpus[*]}"
	lscpu 2>/dev/null
} >"$out/machine.txt"
note "machine: $ncpu CPUs, $(uname -r)"

# The bench's EAL arguments (swtim-bench --help): the main lcore 0 and
# the producers 2..P on a CPU each, the service lcore 1, which never
# runs, beside lcore 2.
bench_eal() {
	local p=$1 i lcores

	lcores="0@${cpus[0]},1@${cpus[1 % ncpu]}"
	for ((i = 2; i <= p; i++)); do
		lcores="$lcores,$i@${cpus[(i - 1) % ncpu]}"
	done
	# shellcheck disable=SC2086 # SWTIM_BUNDLE_EAL is words
	echo --no-huge -m 2048 --no-shconf --no-pci --no-telemetry \
		--file-prefix="many_cores_bench_$$" $SWTIM_BUNDLE_EAL \
		--vdev=event_dsw0 --lcores "$lcores" -s 0x2 \
		--log-level=lib.eal:error
}

if $do_bench; then
	keep=""
	most=1
	IFS=, read -r -a counts <<<"$producers"
	for p in "${counts[@]}"; do
		if [ "$p" -gt "$ncpu" ]; then
			note "bench: $p producers left out: $ncpu CPUs"
			continue
		fi
		keep="$keep${keep:+,}$p"
		[ "$p" -gt "$most" ] && most=$p
	done
	[ "$most" -lt 2 ] && most=2
	if [ -n "$keep" ]; then
		read -r -a eal < <(bench_eal "$most")
		echo "bench: producers $keep, EAL ${eal[*]}" >"$out/mp.txt"
		timeout -k 10 "$bench_s" "$bundle/bin/swtim-bench" "${eal[@]}" \
			-- --cases=mp --producers="$keep" --sizes=1M \
			--drivers=wheel,skiplist --dists="$dists" \
			--json="$out/mp.json" >>"$out/mp.txt" 2>&1
		rc=$?
		note "bench: producers $keep, exit status $rc" \
			"($(grep -c "Per elem" "$out/mp.txt") cases measured)"
	fi
fi

if $do_autotest; then
	if [ -z "$runs" ]; then
		runs=$((ncpu / 4))
		[ "$runs" -gt 4 ] && runs=4
		[ "$runs" -lt 1 ] && runs=1
	fi
	pids=()
	for ((k = 1; k <= runs; k++)); do
		base=$(((k - 1) * 4))
		set=""
		for ((i = 0; i < 4; i++)); do
			set="$set${set:+,}${cpus[(base + i) % ncpu]}"
		done
		# Too few CPUs (a try on the development machine): the split
		# layout of test/dropin/README.md, main with 1-3, the two
		# services together.
		[ $((runs * 4)) -le "$ncpu" ] ||
			set="${cpus[0]},${cpus[0]},${cpus[1 % ncpu]},${cpus[1 % ncpu]}"
		expect=swtim
		[ "$k" = 4 ] && expect=dpdk
		(
			[ "$expect" = dpdk ] && export SWTIM_DPDK_ADAPTER=all
			PATH=$bundle/bin:$PATH DROPIN_AUTOTEST_LAYOUT=own \
				DROPIN_AUTOTEST_CPUS=$set \
				DROPIN_EAL_ARGS=$SWTIM_BUNDLE_EAL \
				DROPIN_LOG=$out/autotest-$k.log \
				timeout -k 10 330 "$root/test/dropin/dpdk_tools.sh" \
				autotest "$bundle/swtim/libswtim_dropin.so" \
				"$expect" "" >"$out/autotest-$k.txt" 2>&1
			echo "rc=$?" >>"$out/autotest-$k.txt"
		) &
		pids+=($!)
		echo "autotest run $k ($expect) on CPUs $set started"
	done
	wait "${pids[@]}"
	for ((k = 1; k <= runs; k++)); do
		f=$out/autotest-$k.txt
		note "autotest run $k: $(grep -m1 "^lcores" "$f");" \
			"$(grep -E "Tests (Passed|Failed)" "$f" | tr -s ' ' |
			tr '\n' ' ')$(grep -E "^(PASS|FAIL)" "$f" | tr '\n' ' ')"
	done
fi
