#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
#   case0.sh swtim|dpdk LCORES [N]
#
# Runs dpdk-test's event_timer_adapter_test with libswtim_dropin preloaded
# (build/ of the current directory) under the EAL lcore mapping LCORES,
# N times (default 5), each until its case 0, test_timer_state, reports;
# prints that case's result, its failed assertion line, who served the
# adapters and what case 0's adapter did in its life (swtim's log line at
# its free: expiries, events enqueued, ticks). "dpdk" hands every adapter
# to DPDK's own implementation (SWTIM_DPDK_ADAPTER=all). The evidence it
# gave is in README.md.

set -uo pipefail

# shellcheck source=test/dropin/autotest_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/autotest_lib.sh"

case ${1:-} in
swtim) who_env=() ;;
dpdk) who_env=(SWTIM_DPDK_ADAPTER=all) ;;
*) echo "usage: $0 swtim|dpdk LCORES [N]" >&2; exit 2 ;;
esac
who=$1
lcores=${2:?usage: $0 swtim|dpdk LCORES [N]}
n=${3:-5}
preload=$PWD/build/lib/dropin/libswtim_dropin.so
[ -e "$preload" ] || { echo "no $preload: build first" >&2; exit 1; }
autotest_args "case0_$$" "$lcores"

for _ in $(seq "$n"); do
	log=$(mktemp)
	# Line-buffered stdout, so that the case's result line reaches the log
	# before the run is cut short.
	env "${who_env[@]}" DPDK_TEST=event_timer_adapter_test \
		LD_PRELOAD="$preload" stdbuf -oL \
		timeout 60 dpdk-test "${AUTOTEST_ARGS[@]}" \
		</dev/null >"$log" 2>&1 &
	pid=$!
	for _ in $(seq 300); do
		grep -q "TestCase \[ *0\]" "$log" && break
		sleep 0.1
	done
	# SIGTERM, which timeout passes on: a SIGKILL would end timeout alone
	# and leave dpdk-test polling, loading the CPUs of the runs after it.
	kill -TERM "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	if pgrep -f -- "--file-prefix=case0_$$" >/dev/null; then
		echo "dpdk-test outlived its run" >&2
		exit 1
	fi
	read -r sw dp < <(servers_of "$log")
	echo "$who $lcores:" \
		"$(grep -o 'TestCase \[ *0\] : [a-z_]* [a-z]*' "$log")" \
		"$(grep -o 'line [0-9]* failed' "$log" | head -1);" \
		"adapters: $sw by swtim, $dp by DPDK;" \
		"$(grep -o 'freed: .*' "$log" | head -1)"
	rm -f "$log"
done
