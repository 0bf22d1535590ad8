#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Build swtim (release), install it under ./install and run the demo
# workload against the installed library. Run from anywhere, as root on a
# fresh Debian 12 machine (missing packages are installed with apt).
#
#   ./scripts/run.sh [ARM_ONE_OPTION...]     e.g. ./scripts/run.sh --ticks 500
#
# Options are handed to examples/arm_one after its EAL arguments; see
# "./scripts/run.sh --help". SWTIM_EAL_ARGS replaces the EAL arguments.

set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The workload that run.sh demonstrates: build the arm_one example against
# the installed library and run it. This is the one function to change to
# run something else (a benchmark) instead.
workload() {
	build_example
	run_example "$@"
}

main() {
	cd "$SWTIM_ROOT"
	ensure_packages "${BUILD_PACKAGES[@]}"
	build_release
	install_release
	workload "$@"
	log "done"
}

main "$@"
