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
#                  [-p PRODUCER] [-V LABEL:VAR=VALUE]...
#
# -p runs one producer type only (timerdev: one timer a call;
# timerdev_burst). Each -V adds an adapter to every round: swtim through
# the same LIBRARY with VAR=VALUE in its environment, printed as LABEL
# (for a library built with an experiment that a variable selects, such
# as test/dropin/arm_floor.patch).
#
# For a machine whose CPUs other work shares, so that the producer's timed
# arm calls include less of that work: -N runs dpdk-test-eventdev at that
# niceness, -F gives its producer thread (rte-worker-1, alone on its CPU)
# SCHED_FIFO once it runs (both need root; the kernel's real-time
# throttling still leaves the CPU's other work 5%).
#
# Prints one line per run (round, producer type, adapter, the average arm
# latency upstream prints, in us, and the load average), then the median
# of each producer type and adapter and its share of DPDK's.

set -uo pipefail

rounds=5
nb_timers=100000
lib=build/lib/dropin/libswtim_dropin.so
niceness=0
fifo=false
producers="timerdev_burst timerdev"
variants=()

usage() {
	sed -n '4,28p' "$0" | sed 's/^# \{0,1\}//'
	exit "${1:-0}"
}

while getopts "r:n:l:N:Fp:V:h" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	n) nb_timers=$OPTARG ;;
	l) lib=$OPTARG ;;
	N) niceness=$OPTARG ;;
	F) fifo=true ;;
	p) producers=$OPTARG ;;
	V) variants+=("$OPTARG") ;;
	h) usage 0 ;;
	*) usage 1 ;;
	esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || {
	echo "-r: a number of rounds, 1 or more, not $rounds" >&2
	usage 1
}
for prod in $producers; do
	case $prod in
	timerdev | timerdev_burst) ;;
	*) echo "-p: timerdev or timerdev_burst, not $prod" >&2; usage 1 ;;
	esac
done
seen=" dpdk swtim "
for v in "${variants[@]}"; do
	[[ $v =~ ^[A-Za-z0-9_]+:[A-Za-z_][A-Za-z0-9_]*=.*$ ]] || {
		echo "-V: LABEL:VAR=VALUE, not $v" >&2
		usage 1
	}
	# Results are kept by label: one taken twice would mix two runs.
	[[ $seen == *" ${v%%:*} "* ]] && {
		echo "-V: label ${v%%:*} is taken" >&2
		usage 1
	}
	seen+="${v%%:*} "
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
	local prod=$1 adapter=$2 preload=$lib envs=()

	[ "$adapter" = dpdk ] && preload=
	[ -n "${variant_env[$adapter]:-}" ] && envs=("${variant_env[$adapter]}")
	env "${envs[@]}" LD_PRELOAD="$preload" timeout -k 10 300 nice -n "$niceness" "$prog" \
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

# The adapters of a round: DPDK's, swtim, and each -V's label.
declare -A variant_env
adapters=(dpdk swtim)
for v in "${variants[@]}"; do
	adapters+=("${v%%:*}")
	variant_env[${v%%:*}]=${v#*:}
done

for round in $(seq 1 "$rounds"); do
	for prod in $producers; do
		# Who goes first alternates too: odd rounds in order, even
		# rounds in reverse.
		order=("${adapters[@]}")
		if [ $((round % 2)) -eq 0 ]; then
			order=()
			for ((i = ${#adapters[@]} - 1; i >= 0; i--)); do
				order+=("${adapters[i]}")
			done
		fi
		for adapter in "${order[@]}"; do
			run "$prod" "$adapter"
		done
	done
done

python3 - "$results" "$producers" "${adapters[@]}" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    prod, adapter, us = line.split()
    runs.setdefault((prod, adapter), []).append(float(us))
adapters = [a for a in sys.argv[3:] if a != "dpdk"]
print("\nmedians of %d rounds (us per timer):" % len(runs[next(iter(runs))]))
for prod in sys.argv[2].split():
    d = statistics.median(runs[(prod, "dpdk")])
    line = "  %-16s dpdk %.3f" % (prod, d)
    for a in adapters:
        s = statistics.median(runs[(prod, a)])
        share = "%.3f" % (s / d) if d else "n/a"
        line += "  %s %.3f  %s/dpdk %s" % (a, s, a, share)
    print(line)
EOF
