#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Power: what sleeping when idle saves and what it costs. Runs
# swtim-test-eventdev with the adapter's service and the worker sleeping
# up to N us when idle (--swtim-args=max_sleep_us=N --max-sleep-us=N), for
# several N and several offered loads, and prints a table shaped like
# testpmd's --max-sleep-us one: rows = loads, a group of columns per max
# sleep. See doc/performance.md, "Power: sleeping service".

set -u

usage() {
	cat <<EOF
Usage: $0 [options]

For each load (rows) and each max sleep N (column groups), one run of
swtim-test-eventdev --load=LOAD --max-sleep-us=N --swtim-args=max_sleep_us=N
(wheel driver, event_dsw, one producer, one worker, one service lcore),
then a table of: the service lcore's and the worker's CPU time from the OS
over wall time (and the share of time they were runnable, i.e. wanted a
CPU), expiry lateness avg/p99/max and lost timers.

Options:
$(tev_usage_bin)
  -s, --sleeps LIST     max sleeps in us (default "0 100 500 1000")
  -l, --loads LIST      loads (default "idle low high bursty")
  -d, --duration S      seconds of each timed load (default 3)
      --expiry-ns NS    timeout of every timer (default 1000000: 1 ms)
      --low-rate N      timers/s of the low load (default 2000)
      --high-rate N     timers/s of the high load (default 1000000; 0:
                        as fast as the producer can)
      --burst N         timers per burst of the bursty load (default 50000)
      --period-ms MS    from one burst to the next (default 500)
      --eal "ARGS"      EAL arguments replacing the default 2-CPU layout
                        (no --file-prefix); lcore 1 must be the producer,
                        2 the worker, and one service lcore given
$(tev_usage_common "$default_timeout")

Default layout, for a machine with 2 CPUs (A and B, the first two this
script may use): the service lcore (3) alone on B; the producer (1), the
worker (2) and the main lcore (0, asleep) on A. The service's figures are
then its own; the producer is paced (it sleeps between timers) in every
load, so the worker has A nearly to itself.

16 runs of about 4 s each with the defaults: about 70 s.
EOF
}

# shellcheck source=app/test-eventdev/tev_lib.sh
. "$(dirname "$0")/tev_lib.sh"
# -b, --eal and -o (tev_option), --timeout (tev_prepare).
bin="" eal="" out="" default_timeout=60
sleeps="0 100 500 1000"
loads="idle low high bursty"
duration=3
expiry=1000000
low_rate=2000
high_rate=1000000
burst=50000
period=500

while [ $# -gt 0 ]; do
	case "$1" in
	-s|--sleeps) tev_need_value "$1" $#; sleeps=$2; shift ;;
	-l|--loads) tev_need_value "$1" $#; loads=$2; shift ;;
	-d|--duration) tev_need_value "$1" $#; duration=$2; shift ;;
	--expiry-ns) tev_need_value "$1" $#; expiry=$2; shift ;;
	--low-rate) tev_need_value "$1" $#; low_rate=$2; shift ;;
	--high-rate) tev_need_value "$1" $#; high_rate=$2; shift ;;
	--burst) tev_need_value "$1" $#; burst=$2; shift ;;
	--period-ms) tev_need_value "$1" $#; period=$2; shift ;;
	*) tev_option "$@"; shift ;;
	esac
	shift
done

tev_need_number --duration "$duration"
tev_need_number --expiry-ns "$expiry"
tev_need_number --low-rate "$low_rate"
tev_need_number --high-rate "$high_rate" 0
tev_need_numbers --sleeps "$sleeps" 0
tev_need_number --burst "$burst"
tev_need_number --period-ms "$period"

for l in $loads; do
	case "$l" in
	idle|low|high|bursty) ;;
	*) echo "$0: unknown load '$l'" >&2; exit 2 ;;
	esac
done

tev_prepare power "$default_timeout"

[ -n "$eal" ] || eal=$(tev_solo_service_eal)

# The timers' maximum timeout: room above the timeout.
max_tmo=$((expiry * 10))
# The bursty load needs a pool that holds a burst; the others fit in it.
pool=$((burst > 65536 ? burst + 16384 : 65536))

load_args() {
	case "$1" in
	idle) echo "--load=idle" ;;
	low) echo "--load=low --load-rate=$low_rate" ;;
	high)
		if [ "$high_rate" = 0 ]; then
			echo "--load=high"
		else
			echo "--load=high --load-rate=$high_rate"
		fi
		;;
	bursty) echo "--load=bursty --burst-timers=$burst --burst-period-ms=$period" ;;
	esac
}

echo "swtim-test-eventdev: $bin"
echo "EAL: $eal"
echo "loads: $loads; max sleeps (us): $sleeps; $duration s each"
echo "reports: $out"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

for l in $loads; do
	for s in $sleeps; do
		base="$out/$l-$s"
		cmd="$bin $eal --file-prefix=swtim-pw-$$ -- --test=perf_queue"
		cmd="$cmd --plcores=1 --wlcores=2 --stlist=a"
		cmd="$cmd --prod_type_timerdev_burst --swtim-driver=wheel"
		cmd="$cmd --pool_sz=$pool --expiry_nsec=$expiry"
		cmd="$cmd --max_tmo_nsec=$max_tmo --duration-s=$duration"
		cmd="$cmd $(load_args "$l") --max-sleep-us=$s"
		cmd="$cmd --swtim-args=max_sleep_us=$s --verbose=0"
		cmd="$cmd --json=$base.json"
		# shellcheck disable=SC2086
		tev_run_case "$(printf '%-7s max sleep %5s us:' "$l" "$s")" \
			"$base" $cmd
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# shellcheck disable=SC2086
tev_report power --out "$out" --loads $loads --sleeps $sleeps
tev_exit $?
