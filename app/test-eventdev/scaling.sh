#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Scaling with service lcores: expiry throughput of swtim's adapter with
# its service mapped to 1, 2 and 4 service lcores
# (--adapter-service-lcores=all), several producers each arming into its
# own wheel, burst arming, one timeout for all timers (expiries in large
# batches). See doc/performance.md, "Scaling with service lcores".

set -u

usage() {
	cat <<EOF
Usage: $0 [options]

For each series and each service lcore list (EAL -S), --rounds runs of
swtim-test-eventdev with the adapter's service mapped to every service
lcore, alternating the order from round to round; then, per series, a
table of medians: expiry events per second dequeued by the workers,
service CPU time from the OS, expiries per second of service CPU,
lateness, and lost/duplicate/early.

Series:
  full   the producers arm as fast as they can (--load=high), workers and
         service poll without sleeping: the most the adapter delivers
  paced  each producer arms --paced-rate timers/s, the workers and the
         service sleep up to --paced-sleep-us when idle: what splitting
         costs at a load one service lcore sustains

Options:
$(tev_usage_bin)
  -S, --svc "L1 L2 .."  EAL -S lists, one per row (default "7 7-8 7-10":
                        1, 2 and 4 service lcores)
      --eal "ARGS"      EAL arguments without -S and --file-prefix
                        (default: the 2-CPU layout below)
      --plcores LIST    producer lcores (default 1-4)
      --wlcores LIST    worker lcores (default 5-6)
  -r, --rounds N        runs per row (default 3)
  -d, --duration S      seconds of arming per run (default 3)
      --tick-ns NS      adapter tick (default 100000)
      --expiry-ns NS    timeout of every timer (default 1000000)
      --pool N          timer objects, the most outstanding (default 65536)
      --series LIST     series to run (default "full paced")
      --paced-rate N    timers/s of each producer in the paced series
                        (default 250000)
      --paced-sleep-us N  max sleep of the workers and the service in the
                        paced series (default 50)
      --no-dpdk         no DPDK adapter baseline (one service lcore) row
      --one-port        swtim's adapter enqueues through one event port
                        (default: as many ports as service lcores,
                        --adapter-ports)
      --table-only      run nothing: print the tables of the reports that
                        an earlier run with the same options left in -o DIR
$(tev_usage_common "$default_timeout")

Default layout, for a machine with 2 CPUs (A and B): the main lcore on A,
lcores 1-10 floating over A and B: producers 1-4, workers 5-6, service
lcores 7-10. Up to 10 polling threads share 2 CPUs: the figures show
correctness and the overhead of splitting the service, not scaling. On a
server with 16 cores, one lcore per core, 7 workers (3 are the limit
from 2 service lcores up):

  $0 --eal "-l 0-15 --vdev=event_dsw0" --plcores 1-4 --wlcores 5-11 \\
      --svc "12 12-13 12-15" --pool 262144 --series full

2 series x (3 rows + the DPDK row) x 3 rounds, 3 to 6 s each: about 2
minutes on 2 CPUs.
EOF
}

# shellcheck source=app/test-eventdev/tev_lib.sh
. "$(dirname "$0")/tev_lib.sh"
# -b, --eal and -o (tev_option), --timeout (tev_prepare).
bin="" eal="" out="" default_timeout=60
svc_lists="7 7-8 7-10"
plcores=1-4
wlcores=5-6
rounds=3
duration=3
tick=100000
expiry=1000000
pool=65536
series="full paced"
paced_rate=250000
paced_sleep=50
dpdk=1
one_port=0
table_only=0

while [ $# -gt 0 ]; do
	case "$1" in
	-S|--svc) tev_need_value "$1" $#; svc_lists=$2; shift ;;
	--plcores) tev_need_value "$1" $#; plcores=$2; shift ;;
	--wlcores) tev_need_value "$1" $#; wlcores=$2; shift ;;
	-r|--rounds) tev_need_value "$1" $#; rounds=$2; shift ;;
	-d|--duration) tev_need_value "$1" $#; duration=$2; shift ;;
	--tick-ns) tev_need_value "$1" $#; tick=$2; shift ;;
	--expiry-ns) tev_need_value "$1" $#; expiry=$2; shift ;;
	--pool) tev_need_value "$1" $#; pool=$2; shift ;;
	--series) tev_need_value "$1" $#; series=$2; shift ;;
	--paced-rate) tev_need_value "$1" $#; paced_rate=$2; shift ;;
	--paced-sleep-us) tev_need_value "$1" $#; paced_sleep=$2; shift ;;
	--no-dpdk) dpdk=0 ;;
	--one-port) one_port=1 ;;
	--table-only) table_only=1 ;;
	*) tev_option "$@"; shift ;;
	esac
	shift
done

tev_need_number --duration "$duration"
tev_need_number --tick-ns "$tick"
tev_need_number --expiry-ns "$expiry"
tev_need_number --pool "$pool"
tev_need_number --paced-rate "$paced_rate"
tev_need_number --paced-sleep-us "$paced_sleep" 0
tev_need_number --rounds "$rounds"
for s in $series; do
	case "$s" in
	full|paced) ;;
	*) echo "$0: unknown series '$s'" >&2; exit 2 ;;
	esac
done

if [ "$table_only" = 1 ] && [ -z "$out" ]; then
	echo "$0: --table-only needs -o DIR" >&2
	exit 2
fi
tev_prepare scaling "$default_timeout"

if [ -z "$eal" ]; then
	cpus=$(tev_cpu_list)
	first=${cpus%%[-,]*}
	eal="--no-huge -m 1024 --no-shconf --no-pci --vdev=event_dsw0"
	eal="$eal --lcores=0@$first,(1-10)@($cpus)"
fi

# The row names: number of service lcores in an -S list ("7", "7-10",
# "7,9-10").
nb_lcores() {
	local part n=0 IFS=,

	for part in $1; do
		n=$((n + ${part#*-} - ${part%-*} + 1))
	done
	echo "$n"
}

app="--test=perf_queue --plcores=$plcores --wlcores=$wlcores --stlist=a"
app="$app --prod_type_timerdev_burst --load=high --duration-s=$duration"
app="$app --timer_tick_nsec=$tick --expiry_nsec=$expiry"
app="$app --max_tmo_nsec=$((expiry * 10)) --pool_sz=$pool --verbose=0"

# Application options of a series and an adapter.
series_args() {
	if [ "$1" = paced ]; then
		echo "--load-rate=$paced_rate --max-sleep-us=$paced_sleep"
		[ "$2" = swtim ] && echo "--swtim-args=max_sleep_us=$paced_sleep"
	fi
}

rows=""
for l in $svc_lists; do
	rows="$rows swtim:$l"
done
[ "$dpdk" = 1 ] && rows="$rows dpdk:${svc_lists%% *}"
# The same rows for the table, each list replaced by its length.
table_rows=""
for row in $rows; do
	table_rows="$table_rows ${row%%:*}:$(nb_lcores "${row#*:}")"
done

if [ "$table_only" = 0 ]; then
echo "swtim-test-eventdev: $bin"
echo "EAL: $eal -S <list>"
echo "application: $app"
echo "series: $series; service lcore lists: $svc_lists; $rounds round(s)"
echo "paced series: --load-rate=$paced_rate per producer, max sleep $paced_sleep us"
echo "reports: $out"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# DPDK's adapter refuses more than one service lcore: show how.
msg=$("$bin" -- $app --adapter=dpdk --adapter-service-lcores=2 2>&1 |
	grep -m1 'adapter-service-lcores')
echo "DPDK adapter, --adapter-service-lcores=2: $msg"
echo

for r in $(seq 1 "$rounds"); do
	order=$rows
	# Every other round the other way round.
	if [ $((r % 2)) = 0 ]; then
		order=$(echo $rows | tr ' ' '\n' | tac | tr '\n' ' ')
	fi
	for se in $series; do
	for row in $order; do
		ad=${row%%:*}
		list=${row#*:}
		n=$(nb_lcores "$list")
		name="$se-$ad-$n-r$r"
		extra="--adapter=$ad $(series_args "$se" "$ad")"
		if [ "$ad" = swtim ]; then
			extra="$extra --swtim-driver=wheel --adapter-service-lcores=all"
			# A port per service lcore: runs on different wheels
			# enqueue in parallel (--one-port: all share one).
			[ "$one_port" = 1 ] || extra="$extra --adapter-ports=$n"
		fi
		cmd="$bin $eal -S $list --file-prefix=swtim-sc-$$ -- $app $extra --json=$out/$name.json"
		# shellcheck disable=SC2086
		tev_run_case --timed "$(printf 'round %d %-5s %-5s %d service lcore(s):' \
			"$r" "$se" "$ad" "$n")" "$out/$name" $cmd
	done
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
fi

table_rc=0
for se in $series; do
if [ "$se" = full ]; then
	echo "Series full: producers as fast as they can, nothing sleeps."
else
	echo "Series paced: $paced_rate timers/s per producer, workers and service sleep up to $paced_sleep us when idle."
fi
# shellcheck disable=SC2086
tev_report scaling --out "$out" --rounds "$rounds" --series "$se" \
	--rows $table_rows || table_rc=1
echo
done
tev_exit "$table_rc"
