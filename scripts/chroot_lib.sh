# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
# shellcheck shell=bash
#
# Debian release chroots, shared by scripts/matrix.sh (the release
# matrix) and scripts/packages.sh (the Debian packages): which suite
# ships which DPDK, making a chroot of it with debootstrap and keeping
# it, running a command in it, copying the checkout into it. Source it
# after scripts/lib.sh (log, err, ensure_packages, SWTIM_ROOT); it
# defines functions and the variables below only.
#
# Environment: SWTIM_CHROOT_CACHE (where the chroots are kept, default
# /var/cache/swtim/chroots), SWTIM_DEBIAN_MIRROR (default this
# machine's Debian mirror).

# DPDK release -> the Debian suite that ships it, and the debootstrap
# script that makes that suite. Bookworm's debootstrap has no script for
# forky; sid's makes it (forky is Debian's testing). 22.11 is Debian 12,
# this machine's own release: the matrix runs on it directly, and only
# the packages' clean-install check makes a chroot of it.
# shellcheck disable=SC2034 # read by the scripts sourcing this
declare -A CHROOT_SUITE=([22.11]=bookworm [24.11]=trixie [25.11]=forky)
declare -A CHROOT_SCRIPT=([22.11]=bookworm [24.11]=trixie [25.11]=sid)

CHROOT_CACHE=${SWTIM_CHROOT_CACHE:-/var/cache/swtim/chroots}

# The Debian mirror this machine uses, for the chroots to use too.
chroot_mirror() {
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

# chroot_make RELEASE DIR PACKAGE...: debootstrap DIR (minbase) with the
# suite that ships DPDK RELEASE and install PACKAGEs there, unless DIR
# holds a finished chroot made with the same package list.
chroot_make() {
	local rel=$1 dir=$2 suite=${CHROOT_SUITE[$1]} script mirror stamp

	shift 2
	stamp="$suite: $*"
	if [ -f "$dir/.swtim-chroot" ] &&
	    [ "$(cat "$dir/.swtim-chroot")" = "$stamp" ]; then
		return 0
	fi
	ensure_packages debootstrap || return 1
	script=/usr/share/debootstrap/scripts/${CHROOT_SCRIPT[$rel]}
	mirror=$(chroot_mirror)
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
	if ! chroot_run "$dir" sh -c 'apt-get update -q &&
		DEBIAN_FRONTEND=noninteractive apt-get install -q -y \
			--no-install-recommends "$@"' sh "$@" \
			>"$dir.apt.log" 2>&1; then
		err "installing packages in the $suite chroot failed; see $dir.apt.log"
		tail -n 5 "$dir.apt.log" >&2
		return 1
	fi
	chroot_run "$dir" apt-get clean
	echo "$stamp" >"$dir/.swtim-chroot"
	log "$suite chroot ready: DPDK $(chroot_run "$dir" sh -c \
		'pkg-config --modversion libdpdk 2>/dev/null || echo "not installed"')"
}

# copy_checkout DIR [SUBDIR]: the checkout's files, as a clone would have
# them plus what is not committed yet, into DIR/SUBDIR (default src).
copy_checkout() {
	local to=$1/${2:-src}

	rm -rf "$to"
	mkdir -p "$to" || return 1
	git -C "$SWTIM_ROOT" ls-files -z --cached --others --exclude-standard |
		(cd "$SWTIM_ROOT" && tar --null -T - -cf -) |
		tar -xf - -C "$to"
}
