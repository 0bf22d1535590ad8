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
  -b, --bin PATH        swtim-test-eventdev (default: the newest one not
                        built with sanitizers under build*/ of this
                        repository)
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
  -o, --out DIR         keep the JSON reports and logs there (default: a
                        new directory under /tmp)
      --timeout S       give up on a run after S seconds (default 60)
  -h, --help            this text

Default layout, for a machine with 2 CPUs (A and B, the first two this
script may use): the service lcore (3) alone on B, busy-polling; the
producer (1, paced: it sleeps between timers), the worker (2,
busy-polling) and the main lcore (0, asleep) on A. Nothing sleeps but the
producer and the main lcore.

With the defaults: 8 runs a round of about 3 s, about 75 s for 3 rounds.
EOF
}

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=app/test-eventdev/tev_lib.sh
. "$here/tev_lib.sh"
bin=""
rounds=3
ticks="10000 100000"
rates="9973 99991"
duration=2
expiry=2000000
eal=""
out=""
run_timeout=60

while [ $# -gt 0 ]; do
	case "$1" in
	-b|--bin) tev_need_value "$1" $#; bin=$2; shift ;;
	-r|--rounds) tev_need_value "$1" $#; rounds=$2; shift ;;
	-t|--ticks) tev_need_value "$1" $#; ticks=$2; shift ;;
	--rates) tev_need_value "$1" $#; rates=$2; shift ;;
	-d|--duration) tev_need_value "$1" $#; duration=$2; shift ;;
	--expiry-ns) tev_need_value "$1" $#; expiry=$2; shift ;;
	--eal) tev_need_value "$1" $#; eal=$2; shift ;;
	-o|--out) tev_need_value "$1" $#; out=$2; shift ;;
	--timeout) tev_need_value "$1" $#; run_timeout=$2; shift ;;
	-h|--help) usage; exit 0 ;;
	*) echo "$0: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
	shift
done

tev_need_number --duration "$duration"
tev_need_number --expiry-ns "$expiry"
tev_need_number --timeout "$run_timeout"
tev_need_numbers --ticks "$ticks"
tev_need_numbers --rates "$rates"

case "$rounds" in
''|*[!0-9]*|0) echo "$0: --rounds: a positive number" >&2; exit 2 ;;
esac

bin=$(tev_require_bin "$root" "$bin" "$0") || exit 2

[ -n "$eal" ] || eal=$(tev_solo_service_eal)

out=$(tev_out_dir "$out" lateness) || exit 1

echo "swtim-test-eventdev: $bin"
echo "EAL: $eal"
echo "ticks (ns): $ticks; rates (timers/s): $rates; timeout $expiry ns;" \
	"$rounds round(s) of $duration s runs"
echo "reports: $out"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

failed=0
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
				echo "$cmd" > "$base.log"
				rm -f "$base.json"
				# shellcheck disable=SC2086
				tev_run "$run_timeout" "$base.log" $cmd
				rc=$?
				printf 'round %d tick %7s ns %7s/s %-5s rc=%d\n' \
					"$r" "$t" "$q" "$ad" "$rc"
				[ "$rc" != 0 ] && failed=$((failed + 1))
			done
		done
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# shellcheck disable=SC2086
tev_report lateness --out "$out" --rounds "$rounds" --ticks $ticks \
	--rates $rates
table_rc=$?
if [ "$failed" != 0 ] || [ "$table_rc" != 0 ]; then
	exit 1
fi
exit 0
