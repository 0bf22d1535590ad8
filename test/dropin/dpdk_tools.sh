#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# DPDK's own programs, unchanged (Debian's dpdk-dev), with libswtim_dropin
# preloaded:
#
#   dpdk_tools.sh autotest PRELOAD EXPECT [EXCUSED]
#       dpdk-test's event_timer_adapter_test: every case of the suite
#       runs (30 on 22.11, 31 from 23.03) and every one must succeed,
#       but that a case named in EXCUSED
#       (comma-separated NAME=LINE[/LINE...][@CASE]) may fail, only at
#       those assertion lines of its own and, with @CASE, only in a run
#       where CASE failed too; test/dropin/README.md has the evidence
#       for each. DROPIN_AUTOTEST_LAYOUT (shared, the default, split
#       or own: autotest_lib.sh) places the test's lcores on the CPUs,
#       the first two we may run on, or those DROPIN_AUTOTEST_CPUS
#       lists (comma-separated; own takes four).
#   dpdk_tools.sh eventdev PRELOAD EXPECT [dpdk-test-eventdev option...]
#       dpdk-test-eventdev's perf_queue timer test: "Result: Success".
#
# PRELOAD is the LD_PRELOAD value; EXPECT is swtim or dpdk, who must have
# served the adapters, read from swtim's debug log lines. A missing
# program is a failure, not a skip. DROPIN_EAL_ARGS, split into words,
# goes into both programs' EAL arguments (a bundle's -d drivers:
# scripts/bundle.sh); DROPIN_LOG names a file to keep the program's whole
# output in.

set -uo pipefail

here=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=test/dropin/autotest_lib.sh
. "$here/autotest_lib.sh"
# The scripts' CPU pick (tev_cpus): in the checkout, or beside this file
# where scripts/packages.sh copies both into a chroot.
if [ -f "$here/tev_lib.sh" ]; then
	# shellcheck source=app/test-eventdev/tev_lib.sh
	. "$here/tev_lib.sh"
else
	# shellcheck source=app/test-eventdev/tev_lib.sh
	. "$here/../../app/test-eventdev/tev_lib.sh"
fi

mode=${1:?mode}
preload=${2?preload}
expect=${3:?expect}
shift 3

die() {
	echo "FAIL: $*" >&2
	exit 1
}

# The first two CPUs we may run on (c0 twice if that is all there is),
# and the same as an EAL CPU set.
read -r c0 c1 < <(tev_cpus)
cpus=$(tev_cpu_list)

read -r -a eal_extra <<<"${DROPIN_EAL_ARGS:-}"

if [ -n "${DROPIN_LOG:-}" ]; then
	log=$DROPIN_LOG
	: >"$log" || die "cannot write $log"
else
	log=$(mktemp)
	trap 'rm -f "$log"' EXIT
fi

# Whether the log says swtim (or DPDK) served every adapter created.
check_server() {
	local sw dp

	read -r sw dp < <(servers_of "$log")
	echo "adapters created: $sw by swtim, $dp by DPDK"
	case $expect in
	swtim) [ "$sw" -gt 0 ] && [ "$dp" -eq 0 ] ||
		die "expected swtim to serve every adapter" ;;
	dpdk) [ "$dp" -gt 0 ] && [ "$sw" -eq 0 ] ||
		die "expected DPDK to serve every adapter" ;;
	*) die "EXPECT must be swtim or dpdk, not $expect" ;;
	esac
}

case $mode in
autotest)
	prog=$(command -v dpdk-test) ||
		die "dpdk-test not found (Debian: apt-get install dpdk-dev)"
	# name=LINE[/LINE...][@CASE], comma-separated.
	excused=",${1:-},"
	# Seven lcores: main, three for the multicore cases, event_sw's and
	# the adapter's service lcores (the test adds them), and -s 0x2.
	layout_cpus=("$c0" "$c1")
	[ -z "${DROPIN_AUTOTEST_CPUS:-}" ] ||
		IFS=, read -r -a layout_cpus <<<"$DROPIN_AUTOTEST_CPUS"
	lcores=$(autotest_lcores "${DROPIN_AUTOTEST_LAYOUT:-shared}" \
		"${layout_cpus[@]}") ||
		die "bad DROPIN_AUTOTEST_LAYOUT or DROPIN_AUTOTEST_CPUS"
	echo "lcores $lcores; SWTIM_DRIVER_ARGS=${SWTIM_DRIVER_ARGS:-}"
	autotest_args "dropin_autotest_$$" "$lcores" "${eal_extra[@]}"
	DPDK_TEST=event_timer_adapter_test LD_PRELOAD=$preload \
		timeout -k 10 900 "$prog" "${AUTOTEST_ARGS[@]}" \
		</dev/null >"$log" 2>&1
	rc=$?
	grep -E "TestCase|Test assert|Tests (Total|Passed|Failed|Skipped)|freed:" \
		"$log"
	check_server
	# Every case of the release's suite ran (30 in 22.11, 31 from 23.03,
	# which added test_timer_ticks_remaining): as many as the suite's own
	# summary counts, which it prints only once it got to the end.
	total=$(grep -c "TestCase \[" "$log")
	suite_total=$(sed -n 's/.*Tests Total *: *\([0-9]*\).*/\1/p' "$log")
	[ -n "$suite_total" ] && [ "$total" -eq "$suite_total" ] ||
		die "$total cases ran, the suite has ${suite_total:-?}" \
			"(dpdk-test exit status $rc)"
	echo "$total cases"
	failed=","
	bad=0
	while read -r name result; do
		[ "$result" = succeeded ] && continue
		failed="$failed$name,"
		rule=${excused#*,"$name"=}
		if [ "$rule" = "$excused" ]; then
			echo "FAILED: $name $result"
			bad=$((bad + 1))
			continue
		fi
		# Excused (test/dropin/README.md says why): only at the lines
		# named, and, with @CASE, only after CASE failed in this run.
		rule=${rule%%,*}
		lines="/${rule%@*}/"
		after=
		[[ $rule == *@* ]] && after=${rule#*@}
		asserts=$(sed -n "s/.*Test assert $name line \([0-9]*\) failed.*/\1/p" \
			"$log" | sort -u)
		ok=true
		[ -n "$asserts" ] || ok=false
		for line in $asserts; do
			[[ $lines == *"/$line/"* ]] || ok=false
		done
		[ -z "$after" ] || [[ $failed == *",$after,"* ]] || ok=false
		if $ok; then
			echo "excused: $name failed at line(s)" $asserts \
				"${after:+after $after failed}"
		else
			echo "FAILED: $name $result (assertion lines:" $asserts \
				"; excused only for $rule)"
			bad=$((bad + 1))
		fi
	done < <(sed -n 's/.*TestCase \[ *[0-9]*\] : \([a-z_]*\) \([a-z]*\).*/\1 \2/p' \
		"$log")
	[ "$bad" -eq 0 ] || die "$bad case(s) failed"
	echo "PASS"
	;;
eventdev)
	prog=$(command -v dpdk-test-eventdev) ||
		die "dpdk-test-eventdev not found (Debian: apt-get install dpdk-dev)"
	LD_PRELOAD=$preload timeout -k 10 300 "$prog" --no-huge -m 512 \
		--no-shconf --no-pci --file-prefix="dropin_tev_$$" \
		"${eal_extra[@]}" --vdev=event_dsw0 "--lcores=0@($cpus),(1-3)@($cpus)" -S 3 \
		--log-level=swtim:debug -- --test=perf_queue --plcores=1 \
		--wlcores=2 --stlist=a --nb_timers=100000 --expiry_nsec=20000 \
		--max_tmo_nsec=1000000 "$@" </dev/null >"$log" 2>&1
	rc=$?
	grep -E "Result|swtim: |Error" "$log"
	check_server
	grep -q "Result: .*Success" "$log" ||
		die "no \"Result: Success\" (exit status $rc); last lines: $(tail -5 "$log")"
	[ "$rc" -eq 0 ] || die "exit status $rc"
	echo "PASS"
	;;
*)
	die "unknown mode $mode"
	;;
esac
