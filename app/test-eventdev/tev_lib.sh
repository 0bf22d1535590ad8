# shellcheck shell=bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Shell functions shared by compare.sh, lateness.sh, power.sh and
# scaling.sh.
# Source it; it defines functions only.

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
