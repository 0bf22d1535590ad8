#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Build swtim (release), install it under ./install, check that an
# application builds and runs against the installed library
# (examples/arm_one), then run the benchmark: swtim-test-eventdev with
# swtim and with DPDK's own adapter, side by side (compare.sh --quick).
# Run from anywhere, as root on a fresh Debian 12 machine (missing
# packages are installed with apt).
#
#   ./scripts/run.sh [COMPARE_OPTION...]   e.g. ./scripts/run.sh --rounds 3
#
# Options go to app/test-eventdev/compare.sh (see its --help).
# SWTIM_EAL_ARGS replaces the example's EAL arguments.

set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The workload that run.sh demonstrates: an application built against the
# installed library with pkg-config only, then the benchmark.
workload() {
	build_example
	run_example
	run_benchmark "$@"
}

main() {
	local a

	# The options are compare.sh's: answer --help before building.
	for a in "$@"; do
		case "$a" in
		-h|--help)
			exec "$SWTIM_ROOT/app/test-eventdev/compare.sh" --help ;;
		esac
	done
	cd "$SWTIM_ROOT"
	ensure_packages "${BUILD_PACKAGES[@]}"
	build_release
	install_release
	workload "$@"
	log "done"
}

main "$@"
