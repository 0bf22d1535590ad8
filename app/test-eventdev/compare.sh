#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Side-by-side benchmark: swtim-test-eventdev with --adapter=dpdk and
# --adapter=swtim on the same configurations, alternating which goes
# first, for several rounds; then one table of medians and swtim/DPDK
# ratios. See doc/performance.md.

set -u

usage() {
	cat <<EOF
Usage: $0 [options]

Runs every case with DPDK's software event timer adapter and with swtim,
alternating, --rounds times, and prints a table of medians.

Cases: non-burst and burst arming; 16k and 1M outstanding timers; with and
without timeout spread (8 cases), and burst-1m-dense: a million timers
armed in bursts, due 2 s plus 0-100 ms after their arm, so that they fall
due faster than an adapter delivers them (9 cases, 18 runs per round).

Options:
$(tev_usage_bin)
  -r, --rounds N        rounds (default 3)
  -q, --quick           1 round, a quarter of the timers, and only the
                        cases nonburst-16k, burst-16k and burst-1m-dense
                        unless --cases says otherwise: under a minute on
                        2 CPUs (burst-1m, whose rounds range over 10x for
                        both adapters on 2 shared CPUs, says little in one
                        round)
  -c, --cases LIST      comma-separated subset of: nonburst-16k,
                        nonburst-16k-spread, burst-16k, burst-16k-spread,
                        nonburst-1m, nonburst-1m-spread, burst-1m,
                        burst-1m-spread, burst-1m-dense (default: all)
  -d, --dev NAME        event device: event_dsw0 (default) or event_sw0
      --eal "ARGS"      EAL arguments replacing the default 2-CPU layout
                        (no --file-prefix: the script adds one per run);
                        for servers, e.g. "-l 0-9 -S 9 --vdev=event_dsw0"
      --plcores LIST    producer lcores (default 1)
      --wlcores LIST    worker lcores (default 2)
  -m, --mem MB          EAL memory for the default layout (default 2048)
      --scale F         multiply every case's timer count by F
      --swtim-driver N  swtim driver (default: the library's)
      --swtim-args A    swtim driver options
$(tev_usage_common "$default_timeout")

Default layout, for a 2-CPU machine without hugepages: lcore 0 (main,
sleeps) on the first CPU; producer (1), worker (2) and service lcore (3)
floating over the first two CPUs this script may use; --no-huge -m 2048.
With event_sw, a fourth lcore runs the device's scheduler service.
EOF
}

# shellcheck source=app/test-eventdev/tev_lib.sh
. "$(dirname "$0")/tev_lib.sh"
# -b, --eal and -o (tev_option), --timeout (tev_prepare).
bin="" eal="" out="" default_timeout=300
rounds=3
quick=0
cases_sel=""
dev=event_dsw0
plcores=1
wlcores=2
mem=2048
scale=1
swtim_driver=""
swtim_args=""

while [ $# -gt 0 ]; do
	case "$1" in
	-r|--rounds) tev_need_value "$1" $#; rounds=$2; shift ;;
	-q|--quick) quick=1 ;;
	-c|--cases) tev_need_value "$1" $#; cases_sel=$2; shift ;;
	-d|--dev) tev_need_value "$1" $#; dev=$2; shift ;;
	--plcores) tev_need_value "$1" $#; plcores=$2; shift ;;
	--wlcores) tev_need_value "$1" $#; wlcores=$2; shift ;;
	-m|--mem) tev_need_value "$1" $#; mem=$2; shift ;;
	--scale) tev_need_value "$1" $#; scale=$2; shift ;;
	--swtim-driver) tev_need_value "$1" $#; swtim_driver=$2; shift ;;
	--swtim-args) tev_need_value "$1" $#; swtim_args=$2; shift ;;
	*) tev_option "$@"; shift ;;
	esac
	shift
done

tev_need_number --mem "$mem"
tev_need_number --rounds "$rounds"
if [ "$quick" = 1 ]; then
	rounds=1
	scale=$(python3 -c "print($scale * 0.25)")
	[ -z "$cases_sel" ] && cases_sel=nonburst-16k,burst-16k,burst-1m-dense
fi

tev_prepare compare "$default_timeout"

if [ -z "$eal" ]; then
	cpus=$(tev_cpu_list)
	first=${cpus%%[-,]*}
	if [ "$dev" = event_sw0 ]; then
		# The device's scheduler gets a service lcore of its own:
		# DPDK's adapter and event_sw's scheduler on one service lcore
		# can hold each other up for minutes.
		eal="--no-huge -m $mem --no-shconf --no-pci --vdev=$dev"
		eal="$eal --lcores=0@$first,(1-4)@($cpus) -S 3-4"
	else
		eal="--no-huge -m $mem --no-shconf --no-pci --vdev=$dev"
		eal="$eal --lcores=0@$first,(1-3)@($cpus) -S 3"
	fi
fi

all_cases="nonburst-16k nonburst-16k-spread burst-16k burst-16k-spread"
all_cases="$all_cases nonburst-1m nonburst-1m-spread burst-1m burst-1m-spread"
all_cases="$all_cases burst-1m-dense"
if [ -n "$cases_sel" ]; then
	cases=$(echo "$cases_sel" | tr ',' ' ')
	for c in $cases; do
		case " $all_cases " in
		*" $c "*) ;;
		*) echo "$0: unknown case '$c'" >&2; exit 2 ;;
		esac
	done
else
	cases=$all_cases
fi

# Timers per producer: enough for a few seconds of steady state on a
# small machine once the pool is full.
count() {
	python3 -c "print(max(${2:-1000}, int($1 * $scale)))"
}

# Application options of a case.
case_args() {
	local c=$1 a="--test=perf_queue --plcores=$plcores --wlcores=$wlcores"

	a="$a --stlist=a --timer_tick_nsec=1000"
	case "$c" in
	nonburst-*) a="$a --prod_type_timerdev" ;;
	burst-*) a="$a --prod_type_timerdev_burst" ;;
	esac
	case "$c" in
	*-16k*)
		# dpdk-test-eventdev's defaults: 10 us timeouts, 16k pool.
		a="$a --pool_sz=16384 --expiry_nsec=10000 --max_tmo_nsec=100000"
		a="$a --nb_timers=$(count 2000000)"
		case "$c" in *-spread) a="$a --timeout-spread=90000" ;; esac
		;;
	*-1m-dense)
		# One pool's worth, armed as fast as the adapter takes it,
		# due within 100 ms of each other 2 s later: the expiries come
		# faster than any software adapter delivers them, so the
		# throughput is the adapter's, not the workload's.
		a="$a --pool_sz=1048576 --expiry_nsec=2000000000"
		a="$a --max_tmo_nsec=5000000000 --timeout-spread=100000000"
		a="$a --nb_timers=$(count 1000000 250000)"
		;;
	*-1m*)
		# 2 s timeouts: the pool of 1M fills even at a slow arm rate
		# and stays full; the offered load is then 1M per timeout.
		# At least 1.5M timers, so that some are armed on a full pool.
		a="$a --pool_sz=1048576 --expiry_nsec=2000000000"
		a="$a --max_tmo_nsec=5000000000"
		a="$a --nb_timers=$(count 2000000 1500000)"
		case "$c" in *-spread) a="$a --timeout-spread=2000000000" ;; esac
		;;
	esac
	echo "$a"
}

echo "swtim-test-eventdev: $bin"
echo "EAL: $eal"
echo "rounds: $rounds, cases: $cases"
echo "reports: $out"
echo

for r in $(seq 1 "$rounds"); do
	for c in $cases; do
		# Alternate which adapter goes first.
		if [ $((r % 2)) = 1 ]; then order="dpdk swtim"; else order="swtim dpdk"; fi
		for ad in $order; do
			base="$out/$c-$ad-r$r"
			extra=""
			if [ "$ad" = swtim ]; then
				[ -n "$swtim_driver" ] && extra="$extra --swtim-driver=$swtim_driver"
				[ -n "$swtim_args" ] && extra="$extra --swtim-args=$swtim_args"
			fi
			cmd="$bin $eal --file-prefix=swtim-cmp-$$ -- $(case_args "$c") --adapter=$ad --verbose=0 --json=$base.json$extra"
			# shellcheck disable=SC2086
			tev_run_case --timed \
				"$(printf 'round %d %-20s %-5s' "$r" "$c" "$ad")" \
				"$base" $cmd
		done
	done
done

echo
# shellcheck disable=SC2086
tev_report compare --out "$out" --rounds "$rounds" --cases $cases
tev_exit $?
