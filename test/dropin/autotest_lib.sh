# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
# shellcheck shell=bash
#
# Sourced by dpdk_tools.sh and case0.sh: how both start dpdk-test's
# event_timer_adapter_test, and how both read from swtim's debug log who
# served the adapters, so that the gate and the case 0 runs of
# README.md run the same command.

# autotest_args PREFIX LCORES: the EAL arguments, into AUTOTEST_ARGS.
# Lcore 1 a service lcore (-s 0x2); EAL's debug level prints the test's
# failed assertions.
autotest_args() {
	# shellcheck disable=SC2034 # read by the scripts sourcing this
	AUTOTEST_ARGS=(--no-huge -m 1024 --no-pci --no-shconf
		--file-prefix="$1" --lcores="$2" -s 0x2
		--log-level=swtim:debug --log-level=lib.eal:debug)
}

# servers_of LOG: "S D", the adapters created by swtim and by DPDK's own
# implementation (libswtim_dropin's create log lines).
servers_of() {
	echo "$(grep -c "dropin_create(): adapter .*: swtim driver" "$1")" \
		"$(grep -c "dropin_create(): adapter .*: DPDK's own" "$1")"
}
