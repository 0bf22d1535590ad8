#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Arm latency of Debian's dpdk-test-eventdev, unchanged, with DPDK's own
# adapter and with swtim through libswtim_dropin: the same command line
# with and without the preload, alternating, for both timer producer
# types. Not part of meson test (timings); doc/performance.md, "DPDK
# applications through the drop-in library", has the results.
#
#   arm_latency.sh [-r ROUNDS] [-n TIMERS] [-l LIBRARY] [-N NICE] [-F]
#
# For a machine whose CPUs other work shares, so that the producer's timed
# arm calls include less of that work: -N runs dpdk-test-eventdev at that
# niceness, -F gives its producer thread (rte-worker-1, alone on its CPU)
# SCHED_FIFO once it runs (both need root; the kernel's real-time
# throttling still leaves the CPU's other work 5%).
#
# Prints one line per run (round, producer type, adapter, the average arm
# latency upstream prints, in us, and the load average), then the median
# of each producer type and adapter and swtim's share of DPDK's.

set -uo pipefail

rounds=5
nb_timers=100000
lib=build/lib/dropin/libswtim_dropin.so
niceness=0
fifo=false

usage() {
	sed -n '4,22p' "$0" | sed 's/^# \{0,1\}//'
	exit "${1:-0}"
}

while getopts "r:n:l:N:Fh" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	n) nb_timers=$OPTARG ;;
	l) lib=$OPTARG ;;
	N) niceness=$OPTARG ;;
	F) fifo=true ;;
	h) usage 0 ;;
	*) usage 1 ;;
	esac
done

prog=$(command -v dpdk-test-eventdev) || {
	echo "dpdk-test-eventdev not found (Debian: apt-get install dpdk-dev)" >&2
	exit 1
}
[ -f "$lib" ] || { echo "no $lib: build first" >&2; exit 1; }
lib=$(realpath "$lib")

# The first two CPUs we may run on (c0 twice if that is all there is).
# shellcheck source=app/test-eventdev/tev_lib.sh
. "$(dirname "$0")/../../app/test-eventdev/tev_lib.sh"
read -r c0 c1 < <(tev_cpus)

results=$(mktemp)
log=$(mktemp)
trap 'rm -f "$results" "$log"' EXIT

# One run: producer on its own CPU, worker and service lcores on the
# other, so that what is timed is the producer's arm calls.
run() {
	local prod=$1 adapter=$2 preload=

	[ "$adapter" = swtim ] && preload=$lib
	LD_PRELOAD=$preload timeout -k 10 300 nice -n "$niceness" "$prog" \
		--no-huge -m 1024 \
		--no-shconf --no-pci --file-prefix="armlat_$$" \
		--vdev=event_dsw0 "--lcores=0@$c1,1@$c0,(2-3)@$c1" -S 3 \
		-- --test=perf_queue --plcores=1 --wlcores=2 --stlist=a \
		--nb_timers="$nb_timers" --expiry_nsec=20000 \
		--max_tmo_nsec=1000000 "--prod_type_$prod" \
		</dev/null >"$log" 2>&1 &
	local pid=$! rc us tid

	if $fifo; then
		for _ in $(seq 200); do
			tid=$(ps -L -o tid=,comm= -p "$(pgrep -P "$pid" -f \
				dpdk-test-eventdev | head -1)" 2>/dev/null |
				awk '$2 == "rte-worker-1" { print $1 }')
			[ -n "$tid" ] && break
			sleep 0.05
		done
		[ -n "$tid" ] && chrt -f -p 1 "$tid"
	fi
	wait "$pid"
	rc=$?

	us=$(sed -n 's/.*Average event timer arm latency = \([0-9.]*\) us.*/\1/p' \
		"$log" | head -1)
	if [ "$rc" -ne 0 ] || [ -z "$us" ] ||
	   ! grep -q "Result: .*Success" "$log"; then
		echo "run failed: $prod $adapter (exit status $rc):" >&2
		tail -5 "$log" >&2
		exit 1
	fi
	echo "$prod $adapter $us" >>"$results"
	printf "round %d  %-16s %-6s %8s us  load %s\n" "$round" "$prod" \
		"$adapter" "$us" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

for round in $(seq 1 "$rounds"); do
	for prod in timerdev_burst timerdev; do
		# Who goes first alternates too.
		if [ $((round % 2)) -eq 1 ]; then
			run "$prod" dpdk
			run "$prod" swtim
		else
			run "$prod" swtim
			run "$prod" dpdk
		fi
	done
done

python3 - "$results" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    prod, adapter, us = line.split()
    runs.setdefault((prod, adapter), []).append(float(us))
print("\nmedians of %d rounds (us per timer):" % len(runs[next(iter(runs))]))
for prod in ("timerdev_burst", "timerdev"):
    d = statistics.median(runs[(prod, "dpdk")])
    s = statistics.median(runs[(prod, "swtim")])
    share = "%.3f" % (s / d) if d else "n/a"
    print("  %-16s dpdk %.3f  swtim %.3f  swtim/dpdk %s" % (prod, d, s, share))
EOF
