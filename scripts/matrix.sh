#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# The release matrix: this checkout built and tested against the DPDK of
# another Debian release, each in a chroot of that release made with
# Debian's own packages only (debootstrap), kept between runs outside the
# checkout. The table below is the one list of releases; README's
# "Supported DPDK releases" quotes it. See --help.

set -uo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# DPDK release -> the Debian suite that ships it, and the debootstrap
# script that makes that suite. Bookworm's debootstrap has no script for
# forky; sid's makes it (forky is Debian's testing). 22.11 is Debian 12
# itself: the machine the other legs run on.
declare -A MATRIX_SUITE=([24.11]=trixie [25.11]=forky)
declare -A MATRIX_SCRIPT=([24.11]=trixie [25.11]=sid)
MATRIX_RELEASES=(24.11 25.11)

CACHE=${SWTIM_CHROOT_CACHE:-/var/cache/swtim/chroots}
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

# The Debian mirror this machine uses, for the chroots to use too.
matrix_mirror() {
	local uri

	if [ -n "${SWTIM_DEBIAN_MIRROR:-}" ]; then
		echo "$SWTIM_DEBIAN_MIRROR"
		return
	fi
	uri=$(awk '/^URIs:/ && $2 ~ /debian\/?$/ { print $2; exit }' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $2 ~ /debian\/?$/ {
		print $2; exit }' /etc/apt/sources.list 2>/dev/null)
	echo "${uri:-http://deb.debian.org/debian}"
}

# chroot_run DIR COMMAND...: COMMAND as root inside DIR, in a mount
# namespace of its own with /proc, /sys and /dev (hugepages and shm
# included) from the host: the mounts end with the command, whatever
# happens to it.
chroot_run() {
	local dir=$1

	shift
	# shellcheck disable=SC2016 # expanded by the inner bash
	unshare --mount --propagation private -- bash -c '
		set -e
		dir=$1
		shift
		mount -t proc proc "$dir/proc"
		mount --rbind /sys "$dir/sys"
		mount --rbind /dev "$dir/dev"
		exec chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 CI="${CI:-}" \
			SWTIM_FUZZ_SECONDS="${SWTIM_FUZZ_SECONDS:-}" "$@"
	' chroot_run "$dir" "$@"
}

# The packages a chroot holds: what scripts/test.sh --leg needs.
matrix_packages() {
	echo "${BUILD_PACKAGES[*]}"
}

# chroot_make RELEASE DIR: debootstrap DIR and install the packages, unless
# DIR holds a finished chroot with the same package list.
chroot_make() {
	local rel=$1 dir=$2 suite=${MATRIX_SUITE[$1]} script mirror stamp

	stamp="$suite: $(matrix_packages)"
	if [ -f "$dir/.swtim-chroot" ] &&
	    [ "$(cat "$dir/.swtim-chroot")" = "$stamp" ]; then
		return 0
	fi
	ensure_packages debootstrap || return 1
	script=/usr/share/debootstrap/scripts/${MATRIX_SCRIPT[$rel]}
	mirror=$(matrix_mirror)
	log "making a $suite chroot (DPDK $rel) in $dir from $mirror"
	rm -rf "$dir"
	mkdir -p "$(dirname "$dir")" || return 1
	if ! debootstrap --variant=minbase "$suite" "$dir" "$mirror" \
			"$script" >"$dir.debootstrap.log" 2>&1; then
		err "debootstrap $suite failed; see $dir.debootstrap.log"
		tail -n 5 "$dir.debootstrap.log" >&2
		return 1
	fi
	# A testing suite's Release file may be older than its Valid-Until
	# when the mirror is a snapshot; the packages are what they are.
	echo 'Acquire::Check-Valid-Until "false";' \
		>"$dir/etc/apt/apt.conf.d/99swtim-no-valid-until"
	# shellcheck disable=SC2046 # the package names are words
	if ! chroot_run "$dir" sh -c 'apt-get update -q &&
		DEBIAN_FRONTEND=noninteractive apt-get install -q -y \
			--no-install-recommends "$@"' sh $(matrix_packages) \
			>"$dir.apt.log" 2>&1; then
		err "installing packages in the $suite chroot failed; see $dir.apt.log"
		tail -n 5 "$dir.apt.log" >&2
		return 1
	fi
	chroot_run "$dir" apt-get clean
	echo "$stamp" >"$dir/.swtim-chroot"
	log "$suite chroot ready: DPDK $(chroot_run "$dir" pkg-config \
		--modversion libdpdk)"
}

# copy_checkout DIR: the checkout's files, as a clone would have them
# plus what is not committed yet, into DIR/src.
copy_checkout() {
	rm -rf "$1/src"
	mkdir -p "$1/src" || return 1
	git -C "$SWTIM_ROOT" ls-files -z --cached --others --exclude-standard |
		(cd "$SWTIM_ROOT" && tar --null -T - -cf -) |
		tar -xf - -C "$1/src"
}

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
		if ! chroot_make "$rel" "$dir"; then
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
