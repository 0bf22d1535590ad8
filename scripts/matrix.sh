#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# The release matrix: this checkout built and tested against the DPDK of
# another Debian release, each in a chroot of that release made with
# Debian's own packages only (debootstrap), kept between runs outside the
# checkout. The releases are MATRIX_RELEASES below, their suites
# scripts/chroot_lib.sh's table, the one list of them; README's
# "Supported DPDK releases" quotes it. See --help.

set -uo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# shellcheck source=scripts/chroot_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/chroot_lib.sh"

# The releases of the matrix, each with the Debian suite that ships it
# (chroot_lib.sh's table): all of that table's but 22.11, Debian 12, the
# machine the other legs run on.
MATRIX_RELEASES=(24.11 25.11)
declare -A MATRIX_SUITE=()
for r in "${MATRIX_RELEASES[@]}"; do
	MATRIX_SUITE[$r]=${CHROOT_SUITE[$r]}
done

CACHE=$CHROOT_CACHE
# Each leg's whole output, for reading after the run.
MATRIX_LOGS=$SWTIM_ROOT/build-matrix

usage() {
	cat <<EOF
Usage: $0 [option...] [RELEASE...]

Builds this checkout against DPDK RELEASE (default: ${MATRIX_RELEASES[*]})
in a Debian chroot of the release that ships it, and runs there what
scripts/test.sh --leg runs: the release build with every meson test suite
(the drop-in's with that release's own dpdk-test-eventdev and
dpdk-test autotest), and examples/arm_one built through pkg-config
against the installed library. Prints each leg's output (kept in
build-matrix/<release>.log), its "N passed, M failed" and, last,
"matrix: N passed, M failed"; exits non-zero if any failed.

  RELEASE  Debian suite
$(for r in "${MATRIX_RELEASES[@]}"; do
	printf '  %-8s %s\n' "$r" "${MATRIX_SUITE[$r]}"
done)

A chroot is made once (debootstrap, then apt-get install of
scripts/lib.sh's BUILD_PACKAGES: a few minutes) and kept under
$CACHE/<suite> (SWTIM_CHROOT_CACHE). The checkout's tracked and
untracked, not ignored, files are copied into its /src afresh each run.
Runs as root: debootstrap, chroot and mounts need it.

Options:
  --shell        a shell in the (first) release's chroot instead of the
                 tests, the checkout copied into /src
  --bench OUT    instead of the tests, scripts/release_bench.sh in each
                 release's chroot, its results into OUT/<release>
                 (doc/performance.md, "Other DPDK releases"; run
                 scripts/release_bench.sh OUT/22.11 for Debian 12's)
  --refresh      make the chroots afresh
  --prepare      only make (or check) the chroots: what a run in the
                 background can do while the tests run on the host
  --list         print the releases and their suites, and exit
  -h, --help     this text

Environment: SWTIM_DEBIAN_MIRROR (default: this machine's Debian mirror,
else http://deb.debian.org/debian), SWTIM_CHROOT_CACHE.
EOF
}

# The packages a chroot holds: what scripts/test.sh --leg needs.
MATRIX_PACKAGES=("${BUILD_PACKAGES[@]}")

main() {
	local rel dir shell=false refresh=false line passed=0 failed=0
	local releases=() p f bench='' prepare=false

	while [ $# -gt 0 ]; do
		case $1 in
		--shell) shell=true ;;
		--refresh) refresh=true ;;
		--prepare) prepare=true ;;
		--bench)
			[ $# -ge 2 ] || { err "--bench wants a folder"; exit 2; }
			bench=$2
			shift ;;
		--list)
			for rel in "${MATRIX_RELEASES[@]}"; do
				echo "$rel ${MATRIX_SUITE[$rel]}"
			done
			exit 0 ;;
		-h|--help) usage; exit 0 ;;
		-*) err "unknown option $1 (see --help)"; exit 2 ;;
		*)
			if [ -z "${MATRIX_SUITE[$1]:-}" ]; then
				err "no release $1: one of ${MATRIX_RELEASES[*]}"
				exit 2
			fi
			releases+=("$1") ;;
		esac
		shift
	done
	[ ${#releases[@]} -gt 0 ] || releases=("${MATRIX_RELEASES[@]}")
	if [ "$(id -u)" -ne 0 ]; then
		err "the matrix needs root (debootstrap, chroot, mounts)"
		exit 2
	fi

	for rel in "${releases[@]}"; do
		dir=$CACHE/${MATRIX_SUITE[$rel]}
		$refresh && rm -rf "$dir"
		if ! chroot_make "$rel" "$dir" "${MATRIX_PACKAGES[@]}"; then
			echo "DPDK $rel: 0 passed, 1 failed"
			failed=$((failed + 1))
			continue
		fi
		$prepare && continue
		if ! copy_checkout "$dir"; then
			echo "DPDK $rel: 0 passed, 1 failed"
			failed=$((failed + 1))
			continue
		fi
		if $shell; then
			chroot_run "$dir" bash -c 'cd /src && exec bash -i'
			exit
		fi
		if [ -n "$bench" ]; then
			log "DPDK $rel (${MATRIX_SUITE[$rel]}): release_bench.sh"
			mkdir -p "$bench" && rm -rf "${bench:?}/$rel"
			if chroot_run "$dir" bash /src/scripts/release_bench.sh \
					/src/build-bench; then
				cp -r "$dir/src/build-bench" "$bench/$rel"
			else
				failed=$((failed + 1))
			fi
			continue
		fi
		log "DPDK $rel (${MATRIX_SUITE[$rel]}): scripts/test.sh --leg," \
			"its output kept in ${MATRIX_LOGS#"$SWTIM_ROOT"/}/$rel.log"
		mkdir -p "$MATRIX_LOGS"
		chroot_run "$dir" bash /src/scripts/test.sh --leg 2>&1 |
			tee "$MATRIX_LOGS/$rel.log"
		line=$(tail -n 1 "$MATRIX_LOGS/$rel.log")
		if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
			p=${BASH_REMATCH[1]}
			f=${BASH_REMATCH[2]}
		else
			err "DPDK $rel: no summary line from test.sh --leg"
			p=0
			f=1
		fi
		echo "DPDK $rel: $p passed, $f failed"
		passed=$((passed + p))
		failed=$((failed + f))
	done
	echo "matrix: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

main "$@"
