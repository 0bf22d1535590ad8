#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# The Debian packages of debian/, built for each supported DPDK release
# (Debian 12 on this machine, the others in scripts/matrix.sh's release
# chroots) and, with --check, installed and used in a clean chroot of
# that release the way a user would. See --help.

set -uo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=scripts/chroot_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/chroot_lib.sh"

PKG_RELEASES=(22.11 24.11 25.11)
# The Debian release number of each, for the packages' version suffix.
declare -A PKG_DEBIAN=([22.11]=12 [24.11]=13 [25.11]=14)
# This machine's release: its packages are built here, not in a chroot.
HOST_RELEASE=22.11
OUT=$SWTIM_ROOT/build-packages
# What the clean chroot holds before the packages: a user's compiler and
# pkg-config, for examples/arm_one (gcc pulls in no C library headers
# without its recommends). The rest is what apt pulls in.
CLEAN_PACKAGES=(gcc libc6-dev make pkg-config)
# The release's package with its dpdk-test-eventdev (dpdk-dev on all
# three), installed after swtim's for the drop-in check.
declare -A DPDK_TOOLS_PACKAGE=([22.11]=dpdk-dev [24.11]=dpdk-dev
	[25.11]=dpdk-dev)
# apt in a chroot that another run (scripts/matrix.sh's) may be using:
# wait for its lock rather than fail.
APT_OPTS="-q -y -o DPkg::Lock::Timeout=600"
# In the check's throw-away overlay, dpkg need not fsync what it
# unpacks (some 300 packages): the same files, in less time.
CHECK_APT_OPTS="$APT_OPTS -o Dpkg::Options::=--force-unsafe-io"

PASSED=0
FAILED=0
# When the step being timed began (bash's SECONDS): each PASS and FAIL
# line says how long its step took, for CI's time budget.
STEP_START=$SECONDS

usage() {
	cat <<EOF
Usage: $0 [option...] [RELEASE...]

Builds the Debian packages of this checkout (debian/: libswtim0,
libswtim-dev, libswtim-dropin0, libswtim-dropin-dev, swtim-tools,
swtim-doc, and their -dbgsym) with dpkg-buildpackage -b for each DPDK
RELEASE (default: ${PKG_RELEASES[*]}) and runs lintian on them; each
release's .deb files, build log and lintian report go to
build-packages/<release>/.

  RELEASE  Debian           built
$(for r in "${PKG_RELEASES[@]}"; do
	if [ "$r" = "$HOST_RELEASE" ]; then
		where="on this machine"
	else
		where="in scripts/matrix.sh's chroot, $CHROOT_CACHE/${CHROOT_SUITE[$r]}"
	fi
	printf '  %-8s %-2s %-13s %s\n' "$r" "${PKG_DEBIAN[$r]}" \
		"(${CHROOT_SUITE[$r]})" "$where"
done)

The version is debian/changelog's with +deb<N> appended (0.1.0+deb12),
so that each release's packages upgrade to the next release's.

With --check, each release's packages are then used as a user would, in
a clean chroot of that release (debootstrap --variant=minbase plus
${CLEAN_PACKAGES[*]}, kept under $CHROOT_CACHE/<suite>-clean;
each check starts from an unchanged copy of it, an overlay):
  install   apt-get install ./*.deb, librte-* coming from Debian
  example   examples/arm_one built with pkg-config --cflags --libs
            libswtim, and run
  static    arm_one linked with libswtim.a (--whole-archive), and run
  tools     swtim-test-eventdev --help, swtim-bench -- --help, the
            installed compare.sh --help, and a short swtim-test-eventdev
            run on event_dsw
  dropin    the release's own dpdk-test-eventdev (its dpdk-dev), with
            LD_PRELOAD=libswtim_dropin.so.0: "Result: Success", every
            adapter served by swtim (test/dropin/dpdk_tools.sh eventdev)
  purge     apt-get purge of the packages: none left installed or in
            config-files state, and no file dpkg -L listed left behind
Each of these, each build and each lintian run is one test. Prints each
release's "DPDK R: N passed, M failed" and, last, "packages: N passed,
M failed"; exits non-zero if any failed.

Runs as root: apt, debootstrap, chroot and mounts need it. Build
dependencies are installed with apt where missing (debian/control's,
plus dpkg-dev and lintian), on this machine and in the chroots.

Options:
  --check        build, then check as above
  --check-only   check the packages already in build-packages/<release>/
  --refresh      make the clean chroots afresh
  --prepare      only make (or check) the chroots, the build's and the
                 clean ones: what a run in the background can do while
                 other tests run (a few minutes each the first time)
  --list         print the releases and their suites, and exit
  -h, --help     this text

Environment: SWTIM_EAL_ARGS (the example's EAL arguments, as for
scripts/run.sh), SWTIM_CHROOT_CACHE, SWTIM_DEBIAN_MIRROR.
EOF
}

pass() {
	PASSED=$((PASSED + 1))
	log "PASS: $* [$((SECONDS - STEP_START)) s]"
	STEP_START=$SECONDS
}

fail() {
	FAILED=$((FAILED + 1))
	err "FAIL: $* [$((SECONDS - STEP_START)) s]"
	STEP_START=$SECONDS
}

# pkg_version_entry SRC RELEASE: a changelog entry on top of SRC's
# debian/changelog for RELEASE's build (version +deb<N>, that suite),
# with the maintainer of the entry below it and its date plus a second
# (lintian wants the newest entry newer), so that the same checkout
# gives the same packages.
pkg_version_entry() {
	local rel=$2 ch=$1/debian/changelog version maint date

	version=$(dpkg-parsechangelog -l "$ch" -S Version) || return 1
	maint=$(dpkg-parsechangelog -l "$ch" -S Maintainer) || return 1
	date=$(dpkg-parsechangelog -l "$ch" -S Timestamp) || return 1
	date=$(LC_ALL=C date -u -R -d "@$((date + 1))") || return 1
	{
		printf 'swtim (%s+deb%s) %s; urgency=medium\n\n' "$version" \
			"${PKG_DEBIAN[$rel]}" "${CHROOT_SUITE[$rel]}"
		printf '  * Built for Debian %s (DPDK %s) by scripts/packages.sh.\n\n' \
			"${PKG_DEBIAN[$rel]}" "$rel"
		printf ' -- %s  %s\n\n' "$maint" "$date"
		cat "$ch"
	} >"$ch.new" && mv "$ch.new" "$ch"
}

# in_root ROOT COMMAND...: COMMAND on this machine (ROOT empty) or in
# the chroot ROOT.
in_root() {
	local root=$1

	shift
	if [ -z "$root" ]; then
		env LANG=C.UTF-8 "$@"
	else
		chroot_run "$root" "$@"
	fi
}

# pkg_prepare RELEASE: the chroots RELEASE's build (but on this machine)
# and check need, made if missing; a failure to make one is a test
# failed.
pkg_prepare() {
	local rel=$1 suite=${CHROOT_SUITE[$1]}

	if [ "$rel" != "$HOST_RELEASE" ] &&
	    ! chroot_make "$rel" "$CHROOT_CACHE/$suite" "${BUILD_PACKAGES[@]}"; then
		fail "DPDK $rel: the $suite chroot"
	fi
	if ! chroot_make "$rel" "$CHROOT_CACHE/$suite-clean" \
			"${CLEAN_PACKAGES[@]}"; then
		fail "DPDK $rel: the $suite-clean chroot"
	fi
}

# pkg_build RELEASE: build RELEASE's packages into $OUT/RELEASE and run
# lintian on them: two tests.
pkg_build() {
	local rel=$1 root='' work seen out=$OUT/$1 rc

	rm -rf "$out"
	mkdir -p "$out" || { fail "DPDK $rel: build (cannot make $out)"; return 1; }
	if [ "$rel" = "$HOST_RELEASE" ]; then
		# shellcheck disable=SC1091 # the machine's, not ours
		if [ "$(. /etc/os-release && echo "${VERSION_CODENAME:-}")" != \
				"${CHROOT_SUITE[$rel]}" ]; then
			fail "DPDK $rel: build: this machine is not Debian" \
				"${PKG_DEBIAN[$rel]} (${CHROOT_SUITE[$rel]})"
			return 1
		fi
		ensure_packages dpkg-dev lintian || {
			fail "DPDK $rel: build (installing dpkg-dev, lintian)"
			return 1
		}
		work=$out/work
		seen=$work
	else
		root=$CHROOT_CACHE/${CHROOT_SUITE[$rel]}
		# The matrix's chroot, made as scripts/matrix.sh makes it.
		if ! chroot_make "$rel" "$root" "${BUILD_PACKAGES[@]}"; then
			fail "DPDK $rel: build (no ${CHROOT_SUITE[$rel]} chroot)"
			return 1
		fi
		# Not /src: a matrix run may be using the same chroot.
		work=$root/swtim-pkg
		seen=/swtim-pkg
	fi
	log "DPDK $rel: building the packages${root:+ in $root}"
	STEP_START=$SECONDS
	rm -rf "$work"
	if ! copy_checkout "$work" src || ! pkg_version_entry "$work/src" "$rel"; then
		fail "DPDK $rel: build (copying the checkout)"
		return 1
	fi
	# The build dependencies, with apt only when something is missing:
	# debian/control's (dpkg-checkbuilddeps) and the tools.
	# shellcheck disable=SC2016 # expanded by sh
	if ! in_root "$root" sh -c 'cd "$1/src" &&
		{ command -v lintian >/dev/null &&
		  dpkg-checkbuilddeps >/dev/null 2>&1 ||
		  { apt-get update -q &&
		    DEBIAN_FRONTEND=noninteractive apt-get install $2 \
			--no-install-recommends dpkg-dev lintian &&
		    DEBIAN_FRONTEND=noninteractive apt-get build-dep $2 \
			--no-install-recommends "$1/src"; }; }' \
			sh "$seen" "$APT_OPTS" >"$out/build-deps.log" 2>&1; then
		tail -n 5 "$out/build-deps.log" >&2
		fail "DPDK $rel: build (installing build dependencies; see $out/build-deps.log)"
		return 1
	fi
	# shellcheck disable=SC2016 # expanded by sh
	in_root "$root" sh -c 'cd "$1/src" &&
		nice dpkg-buildpackage -b -us -uc -J"$(nproc)"' sh "$seen" \
		>"$out/build.log" 2>&1
	rc=$?
	cp "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo "$out/" \
		2>/dev/null
	if [ "$rc" -ne 0 ]; then
		tail -n 20 "$out/build.log" >&2
		fail "DPDK $rel: build (dpkg-buildpackage exit status $rc; see $out/build.log)"
		rm -rf "$work"
		return 1
	fi
	pass "DPDK $rel: build ($(cd "$out" && echo *.deb))"
	# Errors and warnings fail; info and pedantic tags are reported.
	STEP_START=$SECONDS
	# shellcheck disable=SC2016 # expanded by sh
	in_root "$root" sh -c 'lintian --fail-on error,warning -I --pedantic \
		"$1"/*.changes' sh "$seen" >"$out/lintian.txt" 2>&1
	rc=$?
	rm -rf "$work"
	grep -v '^running with root privileges' "$out/lintian.txt" >&2
	if [ "$rc" -eq 0 ]; then
		pass "DPDK $rel: lintian ($(grep -c '^[IP]: ' "$out/lintian.txt") info/pedantic tags, no error or warning)"
	else
		fail "DPDK $rel: lintian (exit status $rc; see $out/lintian.txt)"
	fi
}

# The clean chroot's overlay, mounted while a check runs.
CHECK_RUN=

check_umount() {
	[ -n "$CHECK_RUN" ] || return 0
	umount "$CHECK_RUN/root/var/cache/apt/archives" 2>/dev/null
	umount "$CHECK_RUN/root" 2>/dev/null
	rm -rf "$CHECK_RUN"
	CHECK_RUN=
}

# check_mount CLEAN: a fresh overlay of the clean chroot CLEAN, its
# writes going to a folder of their own, at $CHECK_RUN/root. apt's
# downloads are kept in CLEAN.debs for the next check (the packages are
# the archive's, the system still starts clean).
check_mount() {
	local clean=$1

	CHECK_RUN=$(mktemp -d "$clean.run.XXXXXX") || return 1
	mkdir -p "$CHECK_RUN"/{upper,work,root} "$clean.debs/partial" ||
		return 1
	mount -t overlay overlay -o "lowerdir=$clean,upperdir=$CHECK_RUN/upper,workdir=$CHECK_RUN/work" \
		"$CHECK_RUN/root" || return 1
	mount --bind "$clean.debs" "$CHECK_RUN/root/var/cache/apt/archives"
}

# check_step NAME DEPENDS_OK RELEASE COMMAND...: run COMMAND in the
# check's chroot, its output in $OUT/RELEASE/check-NAME.log, as one test;
# not run, and failed, if DEPENDS_OK is false (an earlier step it needs
# failed).
check_step() {
	local name=$1 ok=$2 rel=$3 log=$OUT/$3/check-$1.log rc

	shift 3
	if [ "$ok" != true ]; then
		fail "DPDK $rel: $name (not run: the install failed)"
		return 1
	fi
	log "DPDK $rel: $name"
	STEP_START=$SECONDS
	chroot_run "$CHECK_RUN/root" "$@" >"$log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		pass "DPDK $rel: $name"
	else
		tail -n 15 "$log" >&2
		fail "DPDK $rel: $name (exit status $rc; see $log)"
	fi
	return "$rc"
}

# pkg_check RELEASE: the packages in $OUT/RELEASE used in a clean chroot
# of RELEASE (see --help): six tests.
pkg_check() {
	local rel=$1 out=$OUT/$1 clean debs=() pkgs=() f eal=() installed=true
	local r=/root c0 c1

	clean=$CHROOT_CACHE/${CHROOT_SUITE[$rel]}-clean
	for f in "$out"/*.deb; do
		[ -e "$f" ] && debs+=("$f")
	done
	if [ ${#debs[@]} -eq 0 ]; then
		err "no .deb under $out: build them first (without --check-only)"
		installed=false
	fi
	if $installed && ! chroot_make "$rel" "$clean" "${CLEAN_PACKAGES[@]}"; then
		installed=false
	fi
	if $installed && ! check_mount "$clean"; then
		err "cannot mount an overlay of $clean"
		installed=false
	fi
	if $installed; then
		mkdir -p "$CHECK_RUN/root$r/debs" "$CHECK_RUN/root$r/dropin"
		cp "${debs[@]}" "$CHECK_RUN/root$r/debs/"
		cp -r "$SWTIM_ROOT/examples/arm_one" "$CHECK_RUN/root$r/"
		rm -rf "$CHECK_RUN/root$r/arm_one/build"
		cp "$SWTIM_ROOT/test/dropin/dpdk_tools.sh" \
			"$SWTIM_ROOT/test/dropin/autotest_lib.sh" \
			"$SWTIM_ROOT/app/test-eventdev/tev_lib.sh" \
			"$CHECK_RUN/root$r/dropin/"
		for f in "${debs[@]}"; do
			pkgs+=("$(dpkg-deb -f "$f" Package)")
		done
	fi

	# shellcheck disable=SC2016 # expanded by sh
	check_step install "$installed" "$rel" sh -c 'cd /root &&
		apt-get update -q && DEBIAN_FRONTEND=noninteractive \
		apt-get install '"$CHECK_APT_OPTS"' ./debs/*.deb &&
		for p; do
			s=$(dpkg-query -W -f "\${db:Status-Status}" "$p") &&
			[ "$s" = installed ] ||
				{ echo "$p: not installed (${s:-unknown})"; exit 1; }
		done && dpkg -L "$@" >/root/files.txt' sh "${pkgs[@]}" ||
		installed=false

	if [ -n "${SWTIM_EAL_ARGS:-}" ]; then
		read -r -a eal <<<"$SWTIM_EAL_ARGS"
	else
		mapfile -t eal < <(default_eal_args)
	fi
	# shellcheck disable=SC2016 # expanded by sh
	check_step example "$installed" "$rel" sh -c 'make -C /root/arm_one &&
		ldd /root/arm_one/build/arm_one | grep "libswtim\.so\.0 => /" &&
		timeout -k 10 120 /root/arm_one/build/arm_one "$@"' sh "${eal[@]}"
	# The static library: every object kept, or no driver registers.
	# shellcheck disable=SC2016 # expanded by sh
	check_step static "$installed" "$rel" sh -c 'cd /root/arm_one &&
		cc -O2 main.c -o build/arm_one_static \
			$(pkg-config --cflags libswtim) \
			-Wl,--whole-archive -l:libswtim.a -Wl,--no-whole-archive \
			$(pkg-config --libs libdpdk) -pthread &&
		if ldd build/arm_one_static | grep libswtim; then
			echo "linked libswtim.so, not libswtim.a"; exit 1; fi &&
		timeout -k 10 120 build/arm_one_static "$@"' sh "${eal[@]}"
	# The installed programs and scripts start (from PATH, the scripts
	# finding the program there), and a short run on event_dsw, whose
	# driver DPDK loads as a plugin: lcores as scripts/test.sh's bundle
	# run has them, the service lcore 3 on either CPU.
	read -r c0 c1 < <(tev_cpus)
	# shellcheck disable=SC2016 # expanded by sh
	check_step tools "$installed" "$rel" sh -c '
		swtim-test-eventdev --help >/dev/null &&
		swtim-bench -- --help >/dev/null &&
		/usr/share/swtim/test-eventdev/compare.sh --help >/dev/null &&
		/usr/share/swtim/bench/bench_table.py --help >/dev/null &&
		timeout -k 10 120 swtim-test-eventdev "$@" -- \
			--plcores=1 --wlcores=2 --prod_type_timerdev_burst \
			--nb_timers=20000 --verbose=0' sh \
		--no-huge -m 512 --no-shconf --no-pci \
		--file-prefix "swtim_pkg_$$" --vdev=event_dsw0 \
		"--lcores=0@$c0,(1-3)@($c0,$c1)" -S 3
	# shellcheck disable=SC2016 # expanded by sh
	check_step dropin "$installed" "$rel" sh -c '
		DEBIAN_FRONTEND=noninteractive apt-get install '"$CHECK_APT_OPTS"' \
			--no-install-recommends "$1" &&
		bash /root/dropin/dpdk_tools.sh eventdev libswtim_dropin.so.0 swtim \
			--prod_type_timerdev_burst' \
		sh "${DPDK_TOOLS_PACKAGE[$rel]}"
	# shellcheck disable=SC2016 # expanded by sh
	check_step purge "$installed" "$rel" sh -c '
		DEBIAN_FRONTEND=noninteractive apt-get purge '"$CHECK_APT_OPTS"' "$@" &&
		left=0 &&
		for p; do
			s=$(dpkg-query -W -f "\${db:Status-Abbrev}" "$p" 2>/dev/null)
			case $s in
			""|un*|pn*) ;;
			*) echo "$p still known to dpkg: $s"; left=$((left + 1)) ;;
			esac
		done &&
		while read -r f; do
			[ "$f" = /. ] && continue
			[ -e "$f" ] || [ -L "$f" ] || continue
			# A folder another package still owns stays.
			if [ -d "$f" ] && [ ! -L "$f" ] &&
			    dpkg-query -S "$f" >/dev/null 2>&1; then
				continue
			fi
			echo "left behind: $f"
			left=$((left + 1))
		done </root/files.txt &&
		echo "$(wc -l </root/files.txt) paths checked, $left left" &&
		[ "$left" -eq 0 ]' sh "${pkgs[@]}"
	check_umount
}

main() {
	local rel releases=() build=true check=false refresh=false
	local p0 f0 prepare=false

	while [ $# -gt 0 ]; do
		case $1 in
		--check) check=true ;;
		--check-only) check=true; build=false ;;
		--refresh) refresh=true ;;
		--prepare) prepare=true ;;
		--list)
			for rel in "${PKG_RELEASES[@]}"; do
				echo "$rel ${CHROOT_SUITE[$rel]}"
			done
			exit 0 ;;
		-h|--help) usage; exit 0 ;;
		-*) err "unknown option $1 (see --help)"; exit 2 ;;
		*)
			if [[ " ${PKG_RELEASES[*]} " != *" $1 "* ]]; then
				err "no release $1: one of ${PKG_RELEASES[*]}"
				exit 2
			fi
			releases+=("$1") ;;
		esac
		shift
	done
	[ ${#releases[@]} -gt 0 ] || releases=("${PKG_RELEASES[@]}")
	if [ "$(id -u)" -ne 0 ]; then
		err "building and checking the packages needs root (apt," \
			"debootstrap, chroot, mounts)"
		echo "packages: 0 passed, 1 failed"
		exit 2
	fi
	# dpkg-parsechangelog and dpkg-deb, here whatever the release.
	if ! ensure_packages dpkg-dev; then
		echo "packages: 0 passed, 1 failed"
		exit 1
	fi
	trap check_umount EXIT
	trap 'exit 130' INT TERM

	for rel in "${releases[@]}"; do
		p0=$PASSED
		f0=$FAILED
		if $prepare; then
			$refresh && rm -rf "$CHROOT_CACHE/${CHROOT_SUITE[$rel]}-clean"
			pkg_prepare "$rel"
			continue
		fi
		$build && pkg_build "$rel"
		if $check; then
			$refresh && rm -rf "$CHROOT_CACHE/${CHROOT_SUITE[$rel]}-clean"
			pkg_check "$rel"
		fi
		echo "DPDK $rel: $((PASSED - p0)) passed, $((FAILED - f0)) failed"
	done
	echo "packages: $PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
}

main "$@"
