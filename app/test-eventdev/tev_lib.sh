# shellcheck shell=bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Shell functions shared by compare.sh, lateness.sh, power.sh and
# scaling.sh, and the CPU pick (tev_cpus, tev_cpu_list) that every other
# script takes from here too. Source it; it defines functions and their two variables
# only: tev_timeout (--timeout) and tev_failed (the count of failed
# runs).
#
# They also set the script's variables of the options every script has
# (bin, eal, out), so that no script passes them at every call, and call
# the script's usage (its --help).

# tev_dir: the folder of this file, where tev_report.py lies too: the
# repository's app/test-eventdev/ or wherever the scripts were copied
# (scripts/bundle.sh). Inside a function, BASH_SOURCE[0] is the file that
# defined it.
tev_dir() (
	cd "$(dirname "${BASH_SOURCE[0]}")" && pwd
)

# tev_report TABLE OPTION...: print a script's table (tev_report.py).
tev_report() {
	python3 "$(tev_dir)/tev_report.py" "$@"
}

# tev_find_bin: print the newest swtim-test-eventdev under build*/ of the
# repository this file is in, or under bin/ of the bundle it is in
# (scripts/bundle.sh), that is not instrumented (ASan/UBSan builds
# measure the sanitizers); else the one in PATH, for these scripts
# installed (meson install, Debian's swtim-tools) under
# <datadir>/swtim/test-eventdev, away from any build; or nothing.
tev_find_bin() {
	local root b

	root=$(cd "$(tev_dir)/../.." && pwd) || return 0
	# Newest first: only ls sorts by time. Build folder names here have
	# no spaces (build, build-release, build-asan, ...).
	# shellcheck disable=SC2045
	for b in $(ls -t "$root"/build*/app/test-eventdev/swtim-test-eventdev \
			"$root"/bin/swtim-test-eventdev 2>/dev/null); do
		if ! ldd "$b" 2>/dev/null | grep -q -e libasan -e libubsan; then
			echo "$b"
			return 0
		fi
	done
	command -v swtim-test-eventdev || true
}

# tev_bin_problem PROGRAM: print why PROGRAM cannot run, or nothing when
# it can: no such file, not an executable file, or what it printed when
# its --help failed (the loader's words for a missing library, with the
# libraries ldd cannot find). For every script that runs a program, so
# that a run that cannot start says why rather than only its exit status.
tev_bin_problem() {
	local out missing

	if [ ! -e "$1" ]; then
		echo "no such file"
	elif [ ! -f "$1" ] || [ ! -x "$1" ]; then
		echo "not an executable file"
	elif ! out=$("$1" -- --help 2>&1 >/dev/null); then
		echo "its --help fails: $(echo "${out:-no message}" | head -3)"
		missing=$(ldd "$1" 2>/dev/null |
			awk '/not found/ { printf "%s ", $1 }')
		if [ -n "$missing" ]; then
			echo "  libraries not found: $missing(point" \
				"LD_LIBRARY_PATH at their folder, or install" \
				"with meson, which sets a run path)"
		fi
	fi
}

# tev_prepare NAME TIMEOUT: check the options every script has and fill
# in their defaults: tev_timeout, TIMEOUT seconds; bin, the newest
# build's (exit 2 if there is none, or if it cannot start, saying why);
# out, a new /tmp/swtim-NAME.* (created either way).
tev_timeout=""
tev_prepare() {
	local why

	[ -n "$tev_timeout" ] || tev_timeout=$2
	tev_need_number --timeout "$tev_timeout"
	[ -n "$bin" ] || bin=$(tev_find_bin)
	if [ -z "$bin" ]; then
		echo "$0: no swtim-test-eventdev under build*/ nor in PATH;" \
			"build it or give --bin" >&2
		exit 2
	fi
	why=$(tev_bin_problem "$bin")
	if [ -n "$why" ]; then
		echo "$0: cannot run $bin: $why" >&2
		exit 2
	fi
	[ -n "$out" ] || out=$(mktemp -d "/tmp/swtim-$1.XXXXXX") || exit 1
	mkdir -p "$out" || exit 1
}

# tev_cpus [N]: the first N CPUs (default 2) this process may run on
# (its scheduler affinity, which a container's or taskset's limits
# narrow, so not CPUs 0 and 1 as such), in increasing order, on one line:
# "A B". With fewer than N the last one repeats, so that "read -r a b"
# always fills both (A twice on a machine with one); N=all gives every
# one. The one place that picks the scripts' CPUs: those here,
# scripts/*.sh, test/dropin's scripts, and check_json.py through
# tev_cpu_list. The C programs of test/ pick theirs by the same rule in
# test/swt_cpus.h.
tev_cpus() {
	python3 -c 'import os, sys
c = sorted(os.sched_getaffinity(0))
n = len(c) if sys.argv[1] == "all" else int(sys.argv[1])
c = c[:n]
print(*(c + c[-1:] * (n - len(c))))' "${1:-2}"
}

# tev_cpu_list: the same CPUs as an EAL CPU set: "A-B" when they are
# next to each other, else "A,B", or "A" alone.
tev_cpu_list() {
	local a b

	read -r a b < <(tev_cpus 2) || return 1
	if [ "$a" = "$b" ]; then
		echo "$a"
	elif [ "$b" = $((a + 1)) ]; then
		echo "$a-$b"
	else
		echo "$a,$b"
	fi
}

# tev_solo_service_eal: EAL arguments giving service lcore 3 a CPU of its
# own (B) and lcores 0 (main), 1 and 2 the other (A).
tev_solo_service_eal() {
	local a b

	read -r a b < <(tev_cpus 2)
	echo "--no-huge -m 1024 --no-shconf --no-pci --vdev=event_dsw0" \
		"--lcores=0@$a,1@$a,2@$a,3@$b -S 3"
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

# tev_run_case [--timed] LABEL BASE CMD...: run CMD (tev_run, for at
# most tev_timeout seconds) with its command line and output in
# BASE.log, BASE.json removed first, then print "LABEL rc=N" (and with
# --timed the seconds it took). A run that failed counts in tev_failed;
# one that could not start (exit status 126 or 127: the binary or a
# shared library it needs missing, say) has its reason printed, the
# loader's words.
tev_failed=0
tev_run_case() {
	local timed=0 label base start rc

	if [ "$1" = --timed ]; then
		timed=1
		shift
	fi
	label=$1 base=$2
	shift 2
	echo "$*" > "$base.log"
	rm -f "$base.json"
	start=$(date +%s.%N)
	tev_run "$tev_timeout" "$base.log" "$@"
	rc=$?
	if [ "$timed" = 1 ]; then
		printf '%s rc=%d %5.1f s\n' "$label" "$rc" \
			"$(python3 -c "print($(date +%s.%N) - $start)")"
	else
		printf '%s rc=%d\n' "$label" "$rc"
	fi
	[ "$rc" = 0 ] || tev_failed=$((tev_failed + 1))
	if [ "$rc" = 126 ] || [ "$rc" = 127 ]; then
		# The first line is the command line written above; then
		# timeout's or the loader's message.
		sed -n '2,4s/^/  could not start: /p' "$base.log"
	fi
}

# tev_exit TABLE_RC: the script's exit status: 1 if a run failed or the
# table found problems (TABLE_RC not 0), else 0.
tev_exit() {
	if [ "$tev_failed" != 0 ] || [ "$1" != 0 ]; then
		exit 1
	fi
	exit 0
}

# tev_usage_bin and tev_usage_common TIMEOUT: the --help lines of the
# options every script has (-b first; -o, --timeout, whose default is
# TIMEOUT, and -h last).
tev_usage_bin() {
	cat <<EOF
  -b, --bin PATH        swtim-test-eventdev (default: the newest one not
                        built with sanitizers under build*/ of this
                        repository; in a bundle, its bin/; else the
                        one in PATH)
EOF
}

tev_usage_common() {
	cat <<EOF
  -o, --out DIR         keep the JSON reports and logs there (default: a
                        new directory under /tmp)
      --timeout S       give up on a run after S seconds (default $1)
  -h, --help            this text
EOF
}

# tev_option OPTION [VALUE]: take OPTION if every script has it: -b,
# --eal, -o or --timeout into bin, eal, out or tev_timeout (those take a
# value: shift it too), -h (the script's usage, exit 0); else exit 2 with
# a message pointing to --help.
# eal is read by the script only.
# shellcheck disable=SC2034
tev_option() {
	case "$1" in
	-b|--bin) tev_need_value "$1" $#; bin=$2 ;;
	--eal) tev_need_value "$1" $#; eal=$2 ;;
	-o|--out) tev_need_value "$1" $#; out=$2 ;;
	--timeout) tev_need_value "$1" $#; tev_timeout=$2 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "$0: unknown option '$1'; see --help" >&2; exit 2 ;;
	esac
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
