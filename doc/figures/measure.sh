#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Gather the JSON reports that doc/figures/make_figures.py draws the
# figures of doc/performance.md from: short runs of swtim-bench,
# compare.sh and power.sh, niced, into doc/figures/data. See
# doc/figures/README.md.

set -u

usage() {
	cat <<EOF
Usage: $0 [options] [PART...]

Runs the benchmarks behind the figures and writes their reports, compacted
(one line each), to the data folder; each part's printed table goes beside
them as PART.txt. Every run is under nice -n 10. PARTs (default: all of
them, about 16 minutes on 2 quiet CPUs):

  bench     swtim-bench, sizes 1k to 1M (about 4 min) and 4M on its own
            with 3 loops (about 9 min, most of it DPDK's expiry):
            bench-1k-1M.json, bench-4M.json
  mp        swtim-bench --cases=mp --producers=1,2 at 1M (under a minute):
            bench-mp.json
  compare   compare.sh, one round of burst-16k and burst-1m-spread (about
            a minute): compare/
  power     power.sh with its defaults (about 70 s): power/

Options:
  -b, --build DIR   the build folder (default: build), a release build
                    with the tests (swtim-bench) and the app
  -o, --out DIR     the data folder (default: doc/figures/data); a part's
                    earlier reports there are replaced
  -h, --help        this text
EOF
}

root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build
data=$root/doc/figures/data
parts=""

while [ $# -gt 0 ]; do
	case "$1" in
	-b|--build)
		[ $# -ge 2 ] || { echo "$0: $1 needs a value" >&2; exit 2; }
		build=$2; shift ;;
	-o|--out)
		[ $# -ge 2 ] || { echo "$0: $1 needs a value" >&2; exit 2; }
		data=$2; shift ;;
	-h|--help) usage; exit 0 ;;
	bench|mp|compare|power) parts="$parts $1" ;;
	*) echo "$0: unknown option or part '$1'; see --help" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$parts" ] || parts="bench mp compare power"

# shellcheck source=app/test-eventdev/tev_lib.sh
. "$root/app/test-eventdev/tev_lib.sh"
bench=$build/test/bench/swtim-bench
app=$build/app/test-eventdev/swtim-test-eventdev
for b in "$bench" "$app"; do
	why=$(tev_bin_problem "$b")
	if [ -n "$why" ]; then
		echo "$0: cannot run $b: $why" >&2
		exit 2
	fi
done
mkdir -p "$data" || exit 1

# compact FILE...: rewrite each JSON report there is on one line (the
# figures' inputs are committed: whitespace is most of a pretty-printed
# report).
compact() {
	python3 - "$@" <<'EOF'
import json
import os
import sys

for path in sys.argv[1:]:
    if not os.path.exists(path):
        continue  # a run that failed: said above
    with open(path) as f:
        report = json.load(f)
    with open(path, "w") as f:
        json.dump(report, f, separators=(",", ":"))
        f.write("\n")
EOF
}

# run PART CMD...: CMD under nice, its output in PART.txt; status counted.
failed=0
run() {
	local part=$1

	shift
	echo "== $part: $*"
	if ! nice -n 10 "$@" > "$data/$part.txt" 2>&1; then
		echo "$0: $part failed; see $data/$part.txt" >&2
		failed=$((failed + 1))
	fi
}

for part in $parts; do
	case "$part" in
	bench)
		run bench-1k-1M "$bench" -- --quiet --cases=timers,floor \
			--sizes=1k,4k,16k,64k,256k,1M \
			--json="$data/bench-1k-1M.json"
		run bench-4M "$bench" -- --quiet --cases=timers,floor \
			--sizes=4M --loops=3 --json="$data/bench-4M.json"
		compact "$data"/bench-1k-1M.json "$data"/bench-4M.json ;;
	mp)
		run bench-mp "$bench" -- --quiet --cases=mp --producers=1,2 \
			--sizes=1M --dists=equal --json="$data/bench-mp.json"
		compact "$data/bench-mp.json" ;;
	compare|power)
		rm -rf "${data:?}/$part"
		if [ "$part" = compare ]; then
			run compare "$root/app/test-eventdev/compare.sh" -b "$app" \
				-r 1 -c burst-16k,burst-1m-spread -o "$data/compare"
		else
			run power "$root/app/test-eventdev/power.sh" -b "$app" \
				-o "$data/power"
		fi
		# The reports only: the logs hold command lines and EAL chatter.
		rm -f "$data/$part"/*.log
		compact "$data/$part"/*.json ;;
	esac
done
[ "$failed" = 0 ]
