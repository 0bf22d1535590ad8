# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
# shellcheck shell=bash
#
# Helpers shared by scripts/run.sh and scripts/test.sh. Source it; do not
# run it. Every function returns non-zero on failure instead of exiting, so
# that test.sh can count failures and carry on.
#
# Environment knobs:
#   SWTIM_EAL_ARGS   EAL arguments for the example, replacing the defaults
#                    from default_eal_args (split on whitespace)
#   SWTIM_PREFIX     install prefix (default: <repo>/install)
#   SWTIM_FUZZ_SECONDS  how long test.sh fuzzes each target (default 60)

SWTIM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# tev_cpus, the CPU pick that the benchmark scripts use too.
# shellcheck source=app/test-eventdev/tev_lib.sh
. "$SWTIM_ROOT/app/test-eventdev/tev_lib.sh"
BUILD_RELEASE=$SWTIM_ROOT/build-release
BUILD_ASAN=$SWTIM_ROOT/build-asan
BUILD_FUZZ=$SWTIM_ROOT/build-fuzz
BUILD_DOCS=$SWTIM_ROOT/build-docs
PREFIX=${SWTIM_PREFIX:-$SWTIM_ROOT/install}
EXAMPLE_DIR=$SWTIM_ROOT/examples/arm_one
EXAMPLE_BIN=$EXAMPLE_DIR/build/arm_one
EXAMPLE_TIMEOUT_S=120

# What building, installing and running swtim needs on Debian 12: the
# one list of the packages; README.md and the other scripts point here.
# gcc does not pull in the C library headers without its recommends.
# shellcheck disable=SC2034
# dpdk-dev brings DPDK's own dpdk-test and dpdk-test-eventdev, which the
# dropin suites run with libswtim_dropin preloaded.
BUILD_PACKAGES=(libdpdk-dev meson ninja-build pkg-config gcc libc6-dev make
		python3 dpdk-dev)
# ASan and UBSan runtimes for gcc 12 (gcc-12 depends on them already;
# listed so that a missing one is installed rather than a link failing).
# shellcheck disable=SC2034
SANITIZER_PACKAGES=(libasan8 libubsan1)
# clang 14 and its runtimes (libFuzzer, ASan, UBSan) for the fuzz build
# (test/fuzz/README.md).
# shellcheck disable=SC2034
FUZZ_PACKAGES=(clang-14 libclang-rt-14-dev)
# The API reference (doxygen, -Ddocs=true) and the figures of
# doc/performance.md (gnuplot, doc/figures/make_figures.py).
# shellcheck disable=SC2034
DOC_PACKAGES=(doxygen gnuplot-nox)

# Set by install_release.
PC_DIR=
LIB_DIR=

# log MESSAGE: a step, with the time of day, so that a long run's log
# (CI's) says where its time went.
log() {
	printf '==> %s %s\n' "$(date +%T)" "$*"
}

err() {
	printf 'error: %s\n' "$*" >&2
}

# ensure_packages PKG...: install, with apt, the packages that dpkg does
# not list as installed. Does nothing (and needs no network) when all are.
ensure_packages() {
	local missing=() p sudo=

	for p in "$@"; do
		if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" \
			2>/dev/null)" != installed ]; then
			missing+=("$p")
		fi
	done
	[ ${#missing[@]} -eq 0 ] && return 0

	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null 2>&1; then
			sudo=sudo
		else
			err "missing packages: ${missing[*]}; run as root or install them"
			return 1
		fi
	fi
	log "installing missing packages: ${missing[*]}"
	$sudo apt-get update || { err "apt-get update failed"; return 1; }
	$sudo env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y --no-install-recommends "${missing[@]}" ||
		{ err "apt-get install ${missing[*]} failed"; return 1; }
}

# meson_setup DIR OPTION...: configure DIR, or reconfigure it with these
# options if it is already a build directory.
meson_setup() {
	local dir=$1

	shift
	if [ -f "$dir/meson-private/coredata.dat" ]; then
		meson setup --reconfigure "$dir" "$SWTIM_ROOT" "$@"
	else
		rm -rf "$dir"
		meson setup "$dir" "$SWTIM_ROOT" "$@"
	fi
}

# Hugepages for the multi-process tests (suite mp, test/test_mp.c):
# DPDK's secondary processes share the primary's memory through them.
# HUGEPAGES_MIN 2 MB pages free are enough for one primary at a time (the
# suite runs them one after the other) with room for a parallel run.
HUGEPAGES_MIN=512
HUGEPAGES_DIR=/dev/hugepages

# hugepages_setup: make sure HUGEPAGES_MIN hugepages are free and a
# hugetlbfs is mounted, reserving and mounting them as root if not. Fails
# saying why when that cannot be done: the mp suite would fail anyway.
hugepages_setup() {
	local free total sudo=

	free=$(awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo)
	total=$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)
	if [ "${free:-0}" -ge "$HUGEPAGES_MIN" ] &&
	    grep -q ' hugetlbfs ' /proc/mounts; then
		return 0
	fi
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null 2>&1; then
			sudo=sudo
		else
			err "multi-process tests need $HUGEPAGES_MIN free" \
				"hugepages and a hugetlbfs mount; run as root"
			return 1
		fi
	fi
	if [ "${free:-0}" -lt "$HUGEPAGES_MIN" ]; then
		log "reserving $HUGEPAGES_MIN more hugepages"
		echo $((total + HUGEPAGES_MIN - ${free:-0})) |
			$sudo tee /proc/sys/vm/nr_hugepages >/dev/null ||
			{ err "cannot reserve hugepages"; return 1; }
	fi
	if ! grep -q ' hugetlbfs ' /proc/mounts; then
		log "mounting hugetlbfs on $HUGEPAGES_DIR"
		if ! $sudo mkdir -p "$HUGEPAGES_DIR" ||
		    ! $sudo mount -t hugetlbfs nodev "$HUGEPAGES_DIR"; then
			err "cannot mount hugetlbfs on $HUGEPAGES_DIR"
			return 1
		fi
	fi
	free=$(awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo)
	if [ "${free:-0}" -lt "$HUGEPAGES_MIN" ]; then
		err "only ${free:-0} hugepages free after reserving" \
			"(want $HUGEPAGES_MIN): not enough memory?"
		return 1
	fi
}

# build_release: optimised build with warnings as errors, tests included,
# installing under $PREFIX.
build_release() {
	log "release build in ${BUILD_RELEASE#"$SWTIM_ROOT"/}"
	# Every option the build depends on, also over a folder configured
	# otherwise before (--reconfigure keeps what is not given).
	meson_setup "$BUILD_RELEASE" --buildtype=release -Dwerror=true \
		-Dtests=true -Dwheel_level_bits=8 -Db_sanitize=none \
		-Db_lundef=true --prefix="$PREFIX" || return 1
	ninja -C "$BUILD_RELEASE" || return 1
}

# build_asan: debug build with AddressSanitizer and UBSan.
build_asan() {
	log "ASan+UBSan build in ${BUILD_ASAN#"$SWTIM_ROOT"/}"
	meson_setup "$BUILD_ASAN" --buildtype=debug -Dwerror=true \
		-Dtests=true -Dwheel_level_bits=8 \
		-Db_sanitize=address,undefined -Db_lundef=false || return 1
	ninja -C "$BUILD_ASAN" || return 1
}

# build_fuzz: clang build of the libFuzzer targets (test/fuzz), every
# object instrumented, ASan and UBSan on; each fuzzes for fuzz_seconds
# in meson test suite 'fuzz'. No unit tests: the gcc builds run those.
build_fuzz() {
	log "clang fuzz build in ${BUILD_FUZZ#"$SWTIM_ROOT"/}"
	CC=clang-14 meson_setup "$BUILD_FUZZ" --buildtype=debugoptimized \
		-Dwerror=true -Dtests=false -Dfuzz=true \
		-Dfuzz_seconds="${SWTIM_FUZZ_SECONDS:-60}" \
		-Dwheel_level_bits=8 -Db_sanitize=address,undefined \
		-Db_lundef=false || return 1
	ninja -C "$BUILD_FUZZ" || return 1
}

# build_docs: the API reference alone (-Ddocs=true, no tests): doxygen
# fails on any warning. Builds only the reference, not the library.
build_docs() {
	log "API reference in ${BUILD_DOCS#"$SWTIM_ROOT"/}"
	meson_setup "$BUILD_DOCS" --buildtype=release -Dwerror=true \
		-Dtests=false -Ddocs=true || return 1
	ninja -C "$BUILD_DOCS" doc/api/api || return 1
}

# install_docs DESTDIR: install what build_docs made under DESTDIR
# (meson's install tag doc: the reference only) and check that its
# index page is there, under <datadir>/doc/swtim/api.
install_docs() {
	local index

	rm -rf "$1"
	DESTDIR=$1 meson install -C "$BUILD_DOCS" --tags doc --no-rebuild \
		--quiet || return 1
	index=$(find "$1" -path '*/doc/swtim/api/index.html' -print -quit)
	if [ -z "$index" ]; then
		err "no doc/swtim/api/index.html under $1 after meson install"
		return 1
	fi
	log "API reference installed: ${index#"$1"}"
}

# install_release: install the release build into a fresh $PREFIX and set
# PC_DIR (where libswtim.pc is) and LIB_DIR (where libswtim.so is). meson
# picks the libdir (lib/x86_64-linux-gnu on Debian), so look for them.
install_release() {
	local pc

	log "installing into ${PREFIX}"
	# Start from nothing, but only in a folder these scripts made: the
	# default, or one holding the mark an earlier install left.
	if [ -e "$PREFIX" ] && [ "$PREFIX" != "$SWTIM_ROOT/install" ] &&
	    [ ! -f "$PREFIX/.swtim-install" ]; then
		err "$PREFIX exists and is not an install of these scripts;" \
			"remove it yourself or choose another SWTIM_PREFIX"
		return 1
	fi
	rm -rf "$PREFIX"
	meson install -C "$BUILD_RELEASE" --quiet || return 1
	touch "$PREFIX/.swtim-install"
	pc=$(find "$PREFIX" -name libswtim.pc -path '*/pkgconfig/*' \
		-print -quit)
	if [ -z "$pc" ]; then
		err "no libswtim.pc under $PREFIX after meson install"
		return 1
	fi
	PC_DIR=$(dirname "$pc")
	LIB_DIR=$(PKG_CONFIG_PATH=$PC_DIR pkg-config --variable=libdir \
		libswtim) || return 1
	if [ ! -e "$LIB_DIR/libswtim.so" ]; then
		err "libswtim.pc names libdir $LIB_DIR, which has no libswtim.so"
		return 1
	fi
	check_installed_programs
}

# check_installed_programs: every program installed under $PREFIX/bin
# starts without LD_LIBRARY_PATH (its run path finds libswtim): its
# --help exits 0.
check_installed_programs() {
	local p out

	for p in "$PREFIX"/bin/*; do
		if ! out=$(env -u LD_LIBRARY_PATH "$p" --help 2>&1 >/dev/null); then
			err "installed ${p#"$PREFIX"/} does not start without" \
				"LD_LIBRARY_PATH: ${out:-(no message)}"
			return 1
		fi
	done
}

# build_example: build examples/arm_one against the installed library, the
# way an application would (pkg-config only).
build_example() {
	if [ -z "$PC_DIR" ]; then
		err "build_example: install_release has not run"
		return 1
	fi
	log "building examples/arm_one against ${PC_DIR}"
	make -C "$EXAMPLE_DIR" -B PKG_CONFIG_PATH="$PC_DIR" || return 1
}

# default_eal_args: print, one per line, EAL arguments for a small machine:
# no hugepages, no PCI scan, no shared config, a private file prefix, an
# event_dsw device, the main lcore 0 and service lcore 1 on the first two
# CPUs this process may run on (the same CPU twice on a one-CPU machine).
default_eal_args() {
	local cpus c0 c1

	cpus=$(tev_cpus) || return 1
	read -r c0 c1 <<<"$cpus"
	printf '%s\n' --no-huge -m 512 --no-shconf --no-pci \
		--file-prefix "swtim_example_$$" --vdev=event_dsw0 \
		--lcores "0@$c0,1@$c1" -s 0x2
}

# run_example [APP_OPTION...]: run the example built by build_example with
# the library installed by install_release.
run_example() {
	local eal=() rc=0 why

	if [ -n "${SWTIM_EAL_ARGS:-}" ]; then
		read -r -a eal <<<"$SWTIM_EAL_ARGS"
	else
		mapfile -t eal < <(default_eal_args)
		if [ ${#eal[@]} -eq 0 ]; then
			err "cannot work out EAL arguments"
			return 1
		fi
	fi
	why=$(LD_LIBRARY_PATH="$LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		tev_bin_problem "$EXAMPLE_BIN")
	if [ -n "$why" ]; then
		err "cannot run ${EXAMPLE_BIN#"$SWTIM_ROOT"/}: $why"
		return 1
	fi
	log "running: LD_LIBRARY_PATH=$LIB_DIR ${EXAMPLE_BIN#"$SWTIM_ROOT"/} ${eal[*]} -- $*"
	LD_LIBRARY_PATH="$LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		timeout -k 10 "$EXAMPLE_TIMEOUT_S" \
		"$EXAMPLE_BIN" "${eal[@]}" -- "$@" || rc=$?
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		err "arm_one did not finish within ${EXAMPLE_TIMEOUT_S} s"
	elif [ "$rc" -ne 0 ]; then
		err "arm_one failed with exit status $rc"
	fi
	return "$rc"
}

# example_bad_option: the example refuses a bad option with the one line
# that says why and a pointer to --help, not its usage text
# (test/check_bad_option.py).
example_bad_option() {
	local eal=()

	mapfile -t eal < <(default_eal_args)
	log "running the example with a bad option (--ticks 0)"
	LD_LIBRARY_PATH="$LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		python3 "$SWTIM_ROOT/test/check_bad_option.py" --expect-rc 1 \
		--names=--ticks -- "$EXAMPLE_BIN" "${eal[@]}" -- --ticks 0
}

# run_benchmark [COMPARE_OPTION...]: the side-by-side benchmark of swtim and
# DPDK's own adapter with the installed swtim-test-eventdev, in its quick
# form (one round, small timer counts: well under a minute on 2 CPUs).
run_benchmark() {
	local bin="$PREFIX/bin/swtim-test-eventdev"

	if [ ! -e "$bin" ]; then
		err "no $bin: install_release has not run"
		return 1
	fi
	log "running: app/test-eventdev/compare.sh --quick -b ${bin#"$SWTIM_ROOT"/} $*"
	LD_LIBRARY_PATH="$LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		"$SWTIM_ROOT/app/test-eventdev/compare.sh" --quick -b "$bin" "$@"
}
