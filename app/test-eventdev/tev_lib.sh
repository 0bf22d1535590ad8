# shellcheck shell=bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Shell functions shared by compare.sh, lateness.sh, power.sh and
# scaling.sh.
# Source it; it defines functions only.

# tev_dir: the folder of this file, where tev_report.py lies too: the
# repository's app/test-eventdev/ or wherever the scripts were copied.
# Inside a function, BASH_SOURCE[0] is the file that defined it.
tev_dir() (
	cd "$(dirname "${BASH_SOURCE[0]}")" && pwd
)

# tev_report TABLE OPTION...: print a script's table (tev_report.py).
tev_report() {
	python3 "$(tev_dir)/tev_report.py" "$@"
}

# tev_find_bin ROOT: print the newest swtim-test-eventdev under
# ROOT/build*/ that is not instrumented (ASan/UBSan builds measure the
# sanitizers), or nothing.
tev_find_bin() {
	local b

	# Newest first: only ls sorts by time. Build folder names here have
	# no spaces (build, build-release, build-asan, ...).
	# shellcheck disable=SC2045
	for b in $(ls -t "$1"/build*/app/test-eventdev/swtim-test-eventdev \
			2>/dev/null); do
		if ! ldd "$b" 2>/dev/null | grep -q -e libasan -e libubsan; then
			echo "$b"
			return 0
		fi
	done
}

# tev_require_bin ROOT BIN SCRIPT: print BIN, or if empty the newest
# swtim-test-eventdev under ROOT; exit 2 with a message if there is none.
tev_require_bin() {
	local bin=$2

	[ -n "$bin" ] || bin=$(tev_find_bin "$1")
	if [ -z "$bin" ] || [ ! -x "$bin" ]; then
		echo "$3: no swtim-test-eventdev found; build it or give --bin" >&2
		exit 2
	fi
	echo "$bin"
}

# tev_cpus: the first two CPUs this script may run on, "A B" (A twice on
# a machine with one).
tev_cpus() {
	python3 -c 'import os
c = sorted(os.sched_getaffinity(0))[:2]
print(c[0], c[-1])'
}

# tev_solo_service_eal: EAL arguments giving service lcore 3 a CPU of its
# own (B) and lcores 0 (main), 1 and 2 the other (A).
tev_solo_service_eal() {
	local a b

	read -r a b < <(tev_cpus)
	echo "--no-huge -m 1024 --no-shconf --no-pci --vdev=event_dsw0" \
		"--lcores=0@$a,1@$a,2@$a,3@$b -S 3"
}

# tev_out_dir DIR NAME: print DIR, created, or a new /tmp/swtim-NAME.*.
tev_out_dir() {
	local out=$1

	[ -n "$out" ] || out=$(mktemp -d "/tmp/swtim-$2.XXXXXX") || exit 1
	mkdir -p "$out" || exit 1
	echo "$out"
}

# tev_run SECONDS LOG CMD...: run CMD, its output appended to LOG, killed
# after SECONDS (TERM, then KILL 10 s later); return its status. timeout
# runs CMD in a process group of its own, where Ctrl-C on the terminal
# does not reach it: a SIGINT or SIGTERM to the script stops the run and
# then the script (status 130) instead of going on to the next run.
tev_run() {
	local seconds=$1 log=$2 child rc

	shift 2
	timeout --signal=TERM --kill-after=10 "$seconds" "$@" >> "$log" 2>&1 &
	child=$!
	# shellcheck disable=SC2064
	trap "kill -TERM $child 2>/dev/null; wait $child; echo '$0: interrupted' >&2; exit 130" INT TERM
	wait "$child"
	rc=$?
	trap - INT TERM
	return "$rc"
}

# tev_need_value OPTION ARGC: exit 2 with a message when OPTION, which
# takes a value, came last (ARGC: the number of arguments left, itself
# included).
tev_need_value() {
	if [ "$2" -lt 2 ]; then
		echo "$0: option '$1' needs a value" >&2
		exit 2
	fi
}

# tev_need_number OPTION VALUE [0]: exit 2 with a message unless VALUE
# is a positive integer (or 0, given a third argument 0).
tev_need_number() {
	case "$2" in
	''|*[!0-9]*)
		echo "$0: $1: want a positive integer, not '$2'" >&2
		exit 2 ;;
	0)
		if [ "${3:-}" != 0 ]; then
			echo "$0: $1: want a positive integer, not 0" >&2
			exit 2
		fi ;;
	esac
}

# tev_need_numbers OPTION LIST [0]: tev_need_number for every word of
# LIST (ticks, rates, sleeps).
tev_need_numbers() {
	local v

	[ -n "$2" ] || { echo "$0: $1: empty list" >&2; exit 2; }
	for v in $2; do
		tev_need_number "$1" "$v" "${3:-}"
	done
}
