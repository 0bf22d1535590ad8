#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# The per-release figures of doc/performance.md ("Other DPDK releases"):
# swtim against the adapter of the DPDK that pkg-config finds, in the
# same runs. Run natively for Debian 12's 22.11, and in the matrix's
# chroots for the others (scripts/matrix.sh --bench). See --help.

set -uo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	cat <<EOF
Usage: $0 [--rounds N] OUT

Builds the release build (build-release/) and writes into OUT:
  dpdk.txt           the DPDK release, the compiler, the machine
  timers-K.json      swtim-bench --cases=timers: single and burst arm,
                     cancel and expiry, 64k and 1M timers outstanding,
                     equal and random timeouts, the wheel against DPDK's
                     adapter, round K
  mp-K.json          swtim-bench --cases=mp: 1 and 2 producers arming
                     and cancelling at once, 1M outstanding, round K
  compare-K/         app/test-eventdev/compare.sh --quick, round K
  arm_latency.txt    test/dropin/arm_latency.sh: the release's own
                     dpdk-test-eventdev, unchanged, with DPDK's adapter
                     and with libswtim_dropin preloaded, N rounds
  table.txt          bench_table.py --median of the rounds' JSON

Options:
  --rounds N  rounds (default 3); the benches run one after the other,
              swtim and DPDK's adapter in the same process each time
  -h, --help  this text

About 4 minutes a round on 2 CPUs. Run it on an otherwise idle machine:
the ratios between the two adapters of one run are what it tells.
EOF
}

main() {
	local rounds=3 out k bench tev

	while [ $# -gt 0 ]; do
		case $1 in
		--rounds) rounds=$2; shift ;;
		--rounds=*) rounds=${1#*=} ;;
		-h|--help) usage; exit 0 ;;
		-*) err "unknown option $1 (see --help)"; exit 2 ;;
		*) break ;;
		esac
		shift
	done
	if [ $# -ne 1 ]; then
		err "want OUT (see --help)"
		exit 2
	fi
	out=$1
	mkdir -p "$out" || exit 1
	out=$(cd "$out" && pwd)
	ensure_packages "${BUILD_PACKAGES[@]}" || exit 1
	build_release >"$out/build.log" 2>&1 || {
		err "release build failed; see $out/build.log"
		exit 1
	}
	bench=$BUILD_RELEASE/test/bench/swtim-bench
	tev=$BUILD_RELEASE/app/test-eventdev/swtim-test-eventdev
	{
		echo "DPDK $(pkg-config --modversion libdpdk)"
		gcc --version | head -n 1
		grep -m1 "model name" /proc/cpuinfo
		echo "CPUs: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
		echo "swtim $(git -C "$SWTIM_ROOT" describe --always --dirty \
			2>/dev/null || echo "(no git)")"
	} >"$out/dpdk.txt"
	cat "$out/dpdk.txt"
	for ((k = 1; k <= rounds; k++)); do
		log "round $k of $rounds"
		"$bench" -- --sizes=64k,1M --drivers=wheel --dists=equal,random \
			--cases=timers --quiet --json="$out/timers-$k.json" ||
			err "swtim-bench timers, round $k, failed"
		"$bench" -- --cases=mp --producers=1,2 --sizes=1M \
			--drivers=wheel --dists=equal --quiet \
			--json="$out/mp-$k.json" ||
			err "swtim-bench mp, round $k, failed"
		"$SWTIM_ROOT/app/test-eventdev/compare.sh" --quick -b "$tev" \
			-o "$out/compare-$k" >"$out/compare-$k.txt" 2>&1 ||
			err "compare.sh, round $k, failed"
		tail -n 12 "$out/compare-$k.txt"
	done
	log "dpdk-test-eventdev's arm latency, $rounds rounds"
	"$SWTIM_ROOT/test/dropin/arm_latency.sh" -r "$rounds" \
		-l "$BUILD_RELEASE/lib/dropin/libswtim_dropin.so" \
		>"$out/arm_latency.txt" 2>&1 ||
		err "arm_latency.sh failed; see $out/arm_latency.txt"
	tail -n 4 "$out/arm_latency.txt"
	python3 "$SWTIM_ROOT/test/bench/bench_table.py" --median \
		"$out"/timers-*.json "$out"/mp-*.json | tee "$out/table.txt"
}

main "$@"
