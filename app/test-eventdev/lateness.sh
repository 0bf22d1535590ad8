#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Expiry lateness: how late each expiry reaches the worker, against the
# adapter's tick, for swtim and DPDK's software adapter side by side, with
# the service lcore on a CPU of its own. See doc/performance.md,
# "Expiry lateness".

set -u

usage() {
	cat <<EOF
Usage: $0 [options]

For each tick and each offered rate, runs swtim-test-eventdev once with
DPDK's software adapter and once with swtim (which first alternates from
round to round), --rounds times, each a paced load (--load=low: timers
armed evenly, the producer sleeping between them) of timers with one
timeout, and prints a table of medians: lateness (deadline to dequeue by
the worker) p50 / p99 / p99.9 / max, p99 in ticks, and how far p99 lies
beyond one tick (the service's scan, the event device, the worker).

Options:
$(tev_usage_bin)
  -r, --rounds N        rounds (default 3)
  -t, --ticks LIST      adapter ticks in ns (default "10000 100000")
      --rates LIST      timers/s offered (default "9973 99991": rates
                        that a tick rate does not divide, so that arm
                        moments sweep over the tick; at exactly one timer
                        a tick every timer is armed at the same point of
                        its tick and the lateness is that one point)
  -d, --duration S      seconds of each run's load (default 2)
      --expiry-ns NS    timeout of every timer (default 2000000: 2 ms)
      --eal "ARGS"      EAL arguments replacing the default 2-CPU layout
                        (no --file-prefix); lcore 1 must be the producer,
                        2 the worker, and one service lcore given
$(tev_usage_common "$default_timeout")

Default layout, for a machine with 2 CPUs (A and B, the first two this
script may use): the service lcore (3) alone on B, busy-polling; the
producer (1, paced: it sleeps between timers), the worker (2,
busy-polling) and the main lcore (0, asleep) on A. Nothing sleeps but the
producer and the main lcore.

With the defaults: 8 runs a round of about 3 s, about 75 s for 3 rounds.
EOF
}

# shellcheck source=app/test-eventdev/tev_lib.sh
. "$(dirname "$0")/tev_lib.sh"
# -b, --eal and -o (tev_option), --timeout (tev_prepare).
bin="" eal="" out="" default_timeout=60
rounds=3
ticks="10000 100000"
rates="9973 99991"
duration=2
expiry=2000000

while [ $# -gt 0 ]; do
	case "$1" in
	-r|--rounds) tev_need_value "$1" $#; rounds=$2; shift ;;
	-t|--ticks) tev_need_value "$1" $#; ticks=$2; shift ;;
	--rates) tev_need_value "$1" $#; rates=$2; shift ;;
	-d|--duration) tev_need_value "$1" $#; duration=$2; shift ;;
	--expiry-ns) tev_need_value "$1" $#; expiry=$2; shift ;;
	*) tev_option "$@"; shift ;;
	esac
	shift
done

tev_need_number --duration "$duration"
tev_need_number --expiry-ns "$expiry"
tev_need_numbers --ticks "$ticks"
tev_need_numbers --rates "$rates"
tev_need_number --rounds "$rounds"
tev_prepare lateness "$default_timeout"

[ -n "$eal" ] || eal=$(tev_solo_service_eal)

echo "swtim-test-eventdev: $bin"
echo "EAL: $eal"
echo "ticks (ns): $ticks; rates (timers/s): $rates; timeout $expiry ns;" \
	"$rounds round(s) of $duration s runs"
echo "reports: $out"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) = 1 ]; then order="dpdk swtim"; else order="swtim dpdk"; fi
	for t in $ticks; do
		for q in $rates; do
			for ad in $order; do
				base="$out/t$t-q$q-$ad-r$r"
				cmd="$bin $eal --file-prefix=swtim-lt-$$ --"
				cmd="$cmd --test=perf_queue --plcores=1 --wlcores=2"
				cmd="$cmd --stlist=a --prod_type_timerdev_burst"
				cmd="$cmd --timer_tick_nsec=$t --expiry_nsec=$expiry"
				cmd="$cmd --max_tmo_nsec=$((expiry * 10))"
				cmd="$cmd --pool_sz=65536 --load=low --load-rate=$q"
				cmd="$cmd --duration-s=$duration --adapter=$ad"
				cmd="$cmd --verbose=0 --json=$base.json"
				# shellcheck disable=SC2086
				tev_run_case "$(printf 'round %d tick %7s ns %7s/s %-5s' \
					"$r" "$t" "$q" "$ad")" "$base" $cmd
			done
		done
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# shellcheck disable=SC2086
tev_report lateness --out "$out" --rounds "$rounds" --ticks $ticks \
	--rates $rates
tev_exit $?
