# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
# shellcheck shell=bash
#
# Sourced by dpdk_tools.sh and case0.sh: how both start dpdk-test's
# event_timer_adapter_test, and how both read from swtim's debug log who
# served the adapters, so that the gate and the case 0 runs of
# README.md run the same command.

# autotest_args PREFIX LCORES [EAL_ARG...]: the EAL arguments, into
# AUTOTEST_ARGS. Lcore 1 a service lcore (-s 0x2); EAL's debug level
# prints the test's failed assertions. EAL_ARGs go before --lcores (a
# bundle's -d drivers, say: scripts/bundle.sh).
autotest_args() {
	local prefix=$1 lcores=$2

	shift 2
	# shellcheck disable=SC2034 # read by the scripts sourcing this
	AUTOTEST_ARGS=(--no-huge -m 1024 --no-pci --no-shconf
		--file-prefix="$prefix" "$@" --lcores="$lcores" -s 0x2
		--log-level=swtim:debug --log-level=lib.eal:debug)
}

# autotest_lcores LAYOUT C0 C1 [C2 C3]: the --lcores value of a layout
# of the test's seven lcores (main 0, the multicore cases' 1-3,
# event_sw's service 4, the adapter's 5, and 6, which -s 0x2 names) on
# CPUs C0, C1 (and C2, C3):
#   shared  lcores 0 and 1 on a CPU each, 2-6 floating over both (the
#           issue's command line);
#   split   the main lcore and 1-3 on C0, both service lcores on C1, so
#           that the main lcore's polling never waits for a service;
#   own     each of the three lcores that busy poll (0, 4, 5) on a CPU
#           of its own, C0, C2 and C3, and 1-3 and 6, which arm in turn
#           or wait, on C1: what test_timer_state needs (README.md).
autotest_lcores() {
	case $1 in
	own)
		if [ -z "${4:-}" ] || [ -z "${5:-}" ]; then
			echo "autotest_lcores: layout own takes four CPUs" >&2
			return 1
		fi
		echo "0@$2,(1-3)@$3,6@$3,4@$4,5@$5" ;;
	shared)
		if [ "$2" = "$3" ]; then
			echo "0@$2,1@$3,(2-6)@$2"
		else
			echo "0@$2,1@$3,(2-6)@($2,$3)"
		fi ;;
	split) echo "0@$2,(1-3)@$2,(4-5)@$3,6@$2" ;;
	*) echo "autotest_lcores: layout must be shared, split or own, not $1" >&2
		return 1 ;;
	esac
}

# servers_of LOG: "S D", the adapters created by swtim and by DPDK's own
# implementation (libswtim_dropin's create log lines).
servers_of() {
	echo "$(grep -c "dropin_create(): adapter .*: swtim driver" "$1")" \
		"$(grep -c "dropin_create(): adapter .*: DPDK's own" "$1")"
}
