#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Run swtim-soak (test/soak/) with EAL options for a small machine: no
# hugepages, 2 GiB of memory (the 4.2M timers of a peak), event_dsw, six
# lcores over the first two CPUs we may use (main and the first service
# lcore pinned apart, the rest floating).
#
#   scripts/soak.sh [--minutes N] [--driver wheel|skiplist|all]
#                   [--seed S] [--bin PATH] [-- SOAK_OPTION...]
#
# --driver all (the default) runs each driver in turn. The exit status is
# non-zero if any run failed; each run's last line is its verdict (see
# swtim-soak --help). Long runs belong under nice: the soak keeps both
# CPUs busy.

set -uo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
	sed -n '5,16s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

minutes=1
driver=all
seed=
bin=
extra=()
while [ $# -gt 0 ]; do
	case $1 in
	--minutes) minutes=$2; shift 2 ;;
	--driver) driver=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--bin) bin=$2; shift 2 ;;
	--help|-h) usage; exit 0 ;;
	--) shift; extra=("$@"); break ;;
	*) echo "$0: unknown option '$1'; see --help" >&2; exit 2 ;;
	esac
done

if [ -z "$bin" ]; then
	for b in "$BUILD_RELEASE" "$SWTIM_ROOT/build"; do
		if [ -x "$b/test/soak/swtim-soak" ]; then
			bin=$b/test/soak/swtim-soak
			break
		fi
	done
fi
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
	err "no swtim-soak: build first (ninja -C build-release) or give --bin"
	exit 1
fi
case $driver in
all) drivers=(wheel skiplist) ;;
wheel|skiplist) drivers=("$driver") ;;
*) echo "$0: unknown driver '$driver'; see --help" >&2; exit 2 ;;
esac
[ -n "$seed" ] || seed=$(( (RANDOM << 30) ^ (RANDOM << 15) ^ RANDOM ))

read -r c0 c1 < <(tev_cpus)
# Past the soak's own end: its drain (the last timers fall due, then
# may be up to SOAK_LOST_BOUND_MS late) and a margin.
limit=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 + 900 }')
failed=0
for d in "${drivers[@]}"; do
	log "soak: $d, $minutes minutes, seed $seed"
	timeout -k 10 "$limit" "$bin" --no-huge -m 2048 --no-shconf --no-pci \
		--file-prefix "swtim_soak_$$_$d" --vdev=event_dsw0 \
		--log-level=lib.eal:error --no-telemetry \
		--lcores "0@$c0,1@$c1,(2-5)@($c0,$c1)" -- \
		--minutes "$minutes" --driver "$d" --seed "$seed" \
		"${extra[@]}"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		err "soak with $d failed (exit status $rc)"
		failed=$((failed + 1))
	fi
done
[ "$failed" -eq 0 ]
