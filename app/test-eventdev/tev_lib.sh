# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Shell functions shared by compare.sh, power.sh and scaling.sh.
# Source it; it defines functions only.

# tev_find_bin ROOT: print the newest swtim-test-eventdev under
# ROOT/build*/ that is not instrumented (ASan/UBSan builds measure the
# sanitizers), or nothing.
tev_find_bin() {
	local b

	for b in $(ls -t "$1"/build*/app/test-eventdev/swtim-test-eventdev \
			2>/dev/null); do
		if ! ldd "$b" 2>/dev/null | grep -q -e libasan -e libubsan; then
			echo "$b"
			return 0
		fi
	done
}
