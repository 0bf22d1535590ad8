#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Build and test swtim. Run from anywhere, as root on a fresh Debian 12
# machine (missing packages are installed with apt):
#
#   1. release build with -Dwerror=true and every meson test suite (the
#      multi-process suite, mp, on hugepages that hugepages_setup in
#      scripts/lib.sh reserves);
#   2. ASan+UBSan debug build with -Dwerror=true and every meson test suite;
#   3. install the release build (its programs must start without
#      LD_LIBRARY_PATH), build examples/arm_one against the installed
#      library and run it, and once with a bad option;
#   4. pack the benchmark bundle (scripts/bundle.sh) and run from it;
#   5. build the API reference (-Ddocs=true: a doxygen warning fails it)
#      and install it; draw the figures of doc/performance.md again from
#      their committed reports;
#   6. a minute of the soak (scripts/soak.sh) with each driver, from the
#      release build;
#   7. clang fuzz build, and each libFuzzer target (test/fuzz) fuzzed for
#      60 s (SWTIM_FUZZ_SECONDS) from its committed corpus: a finding (a
#      crash, a leak, a sanitizer report, a model mismatch, a hang) is a
#      failed test;
#   8. the release matrix (scripts/matrix.sh): the same checkout against
#      DPDK 24.11 and 25.11, each in a chroot of the Debian release that
#      ships it, running there what --leg runs (below);
#   9. the Debian packages (scripts/packages.sh --check) of Debian 12 and
#      13: built (in 13's chroot of step 8 for 13), lintian, and installed
#      and used in a clean chroot of the release.
#
#   scripts/test.sh [--no-matrix]   all of the above (--no-matrix: 1-7,
#                                   and 9 for Debian 12 only)
#   scripts/test.sh --leg           what a leg of the matrix runs against
#                                   whatever DPDK pkg-config finds: step 1
#                                   (the drop-in autotest in the issue's
#                                   lcore layout only) and step 3
#
# Keeps going after a failure, exits non-zero if anything failed, and
# prints as its very last line "N passed, M failed": meson's OK and
# expected-fail counts as passed; fail, unexpected-pass and timeout as
# failed; the example, the bundle and each soak run as one more test. A build that fails counts as one
# failed test.

set -uo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PASSED=0
FAILED=0

pass() {
	PASSED=$((PASSED + $1))
}

fail() {
	FAILED=$((FAILED + $1))
}

# meson_test DIR [MESON_TEST_OPTION...]: run every test in DIR and add
# meson's summary counts to PASSED and FAILED.
meson_test() {
	local dir=$1 out rc ok xfail bad upass tmo

	shift
	out=$dir/meson-logs/swtim-test-output.txt
	log "meson test in ${dir#"$SWTIM_ROOT"/}"
	meson test -C "$dir" --print-errorlogs "$@" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}

	# Summary lines, e.g. "Ok:                 12"; the last ones win.
	read -r ok xfail bad upass tmo < <(
		sed 's/\x1b\[[0-9;]*m//g' "$out" | awk '
			/^Ok:/			{ ok = $2 }
			/^Expected Fail:/	{ xfail = $3 }
			/^Fail:/		{ bad = $2 }
			/^Unexpected Pass:/	{ upass = $3 }
			/^Timeout:/		{ tmo = $2 }
			END { print ok + 0, xfail + 0, bad + 0, upass + 0, tmo + 0 }')
	pass $((ok + xfail))
	fail $((bad + upass + tmo))
	if [ "$rc" -ne 0 ] && [ $((bad + upass + tmo)) -eq 0 ]; then
		# No failing test counted (no summary: the build or meson
		# itself failed): count the run as one failure.
		err "meson test in $dir failed (exit status $rc)"
		fail 1
	fi
	return "$rc"
}

release_tests() {
	if ! build_release; then
		err "release build failed"
		fail 1
		return 1
	fi
	meson_test "$BUILD_RELEASE"
}

sanitizer_tests() {
	if ! build_asan; then
		err "ASan+UBSan build failed"
		fail 1
		return 1
	fi
	# Leak checking is off: EAL keeps memory until exit, and LeakSanitizer
	# needs ptrace, which containers often forbid.
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1:abort_on_error=1:print_summary=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1:print_summary=1} \
		meson_test "$BUILD_ASAN" --timeout-multiplier 3
}

example_test() {
	log "example against the installed library"
	# shellcheck disable=SC2119
	if install_release && build_example && run_example &&
	    example_bad_option; then
		pass 1
	else
		err "example test failed"
		fail 1
		return 1
	fi
}

# bundle_run DIR: in a subshell with DIR/env.sh sourced, a short run of
# the bundle's swtim-test-eventdev on the first two CPUs we may use.
bundle_run() {
	local c0 c1 why

	read -r c0 c1 < <(tev_cpus)
	(
		# shellcheck disable=SC1091
		. "$1/env.sh" || exit 1
		why=$(tev_bin_problem "$1/bin/swtim-test-eventdev")
		if [ -n "$why" ]; then
			err "cannot run the bundle's swtim-test-eventdev: $why"
			exit 1
		fi
		# shellcheck disable=SC2086
		timeout -k 10 60 "$1/bin/swtim-test-eventdev" --no-huge -m 512 \
			--no-shconf --no-pci $SWTIM_BUNDLE_EAL \
			--file-prefix "swtim_bundle_$$" --vdev=event_dsw0 \
			"--lcores=0@$c0,(1-3)@($c0,$c1)" -S 3 -- --plcores=1 \
			--wlcores=2 --prod_type_timerdev_burst \
			--nb_timers=20000 --verbose=0
	)
}

# bundle_many_cores DIR: scripts/many_cores.sh's bench from the bundle,
# one and two producers, so that a lent machine's few minutes are not
# where a broken script shows: every case measured (3 adapters, 6 cases,
# 2 counts), exit status 0.
bundle_many_cores() {
	local out=$1/many_cores

	"$SWTIM_ROOT/scripts/many_cores.sh" --skip-autotest --producers=1,2 \
		"$1" "$out" >/dev/null || return 1
	grep -q "^bench: producers 1,2, exit status 0 (36 cases measured)" \
		"$out/summary.txt" || {
		err "many_cores.sh: $(cat "$out/summary.txt")"
		return 1
	}
}

# The benchmark bundle (scripts/bundle.sh) of the release build: packed,
# its swtim-test-eventdev arming and expiring timers from it, and
# many_cores.sh's bench. (This machine has DPDK, so the bundle's DPDK
# copies are not what runs here; its libswtim and env.sh are.)
bundle_test() {
	local dir=$BUILD_RELEASE/bundle

	log "benchmark bundle"
	rm -rf "$dir"
	if "$SWTIM_ROOT/scripts/bundle.sh" "$dir" && bundle_run "$dir" &&
		bundle_many_cores "$dir"; then
		pass 1
	else
		err "benchmark bundle test failed"
		fail 1
		return 1
	fi
}

# docs_test: the API reference, built (any doxygen warning fails it) and
# installed; and the figures of doc/performance.md drawn again from their
# committed reports (doc/figures/make_figures.py, gnuplot), into
# build-docs/figures: every figure there must come out.
docs_test() {
	if build_docs && install_docs "$BUILD_DOCS/destdir"; then
		pass 1
	else
		err "API reference test failed"
		fail 1
	fi
	log "figures of doc/performance.md from doc/figures/data"
	if python3 "$SWTIM_ROOT/doc/figures/make_figures.py" \
			--out "$BUILD_DOCS/figures"; then
		pass 1
	else
		err "figures test failed"
		fail 1
	fi
}

# soak_test: a minute of swtim-soak with each driver, each run one test.
# The skiplist driver arms 35,000 to 100,000 timers a second on two busy
# CPUs, so a peak of 4.2M would take it most of a minute: its minute peaks at
# 500,000 (doc/reliability.md; the long runs peak at 4.2M with both
# drivers, the skiplist with --peak-hold 240).
soak_test() {
	local d peak bin=$BUILD_RELEASE/test/soak/swtim-soak

	for d in wheel skiplist; do
		peak=4200000
		[ "$d" = skiplist ] && peak=500000
		if "$SWTIM_ROOT/scripts/soak.sh" --minutes 1 --driver "$d" \
				--bin "$bin" -- --peak "$peak" --progress 20; then
			pass 1
		else
			err "soak with $d failed"
			fail 1
		fi
	done
}

# The fuzzers, one at a time, each for SWTIM_FUZZ_SECONDS; a finding
# fails its test and leaves the input under build-fuzz/test/fuzz/fuzz-*/.
fuzz_tests() {
	if ! build_fuzz; then
		err "clang fuzz build failed"
		fail 1
		return 1
	fi
	meson_test "$BUILD_FUZZ" --suite fuzz
}

# leg_tests: a leg of the release matrix, in another release's chroot:
# every suite of the release build but the autotest's split layout (the
# same cases again, four minutes a leg that CI's time cannot spare), and
# the example against the installed library.
leg_tests() {
	if ! build_release; then
		err "release build failed"
		fail 1
		return 1
	fi
	meson_test "$BUILD_RELEASE" --no-suite dropin-autotest
	meson_test "$BUILD_RELEASE" autotest
	example_test
}

# The release matrix's chroots, made in the background (mostly network
# and disk) while the host's tests run; matrix_tests waits for it.
MATRIX_PREPARE_PID=
MATRIX_PREPARE_LOG=$SWTIM_ROOT/build-matrix/prepare.log

matrix_prepare() {
	local releases=("$@")

	log "making the release matrix's and the packages' chroots in the" \
		"background (${MATRIX_PREPARE_LOG#"$SWTIM_ROOT"/})"
	mkdir -p "$(dirname "$MATRIX_PREPARE_LOG")"
	{
		if [ ${#releases[@]} -gt 1 ]; then
			nice "$SWTIM_ROOT/scripts/matrix.sh" --prepare || exit 1
		fi
		nice "$SWTIM_ROOT/scripts/packages.sh" --prepare "${releases[@]}"
	} >"$MATRIX_PREPARE_LOG" 2>&1 &
	MATRIX_PREPARE_PID=$!
}

# summary_tests NAME COMMAND...: run a script that ends its output with
# "NAME: N passed, M failed" (kept in build-matrix/NAME.log) and add its
# counts to ours.
summary_tests() {
	local name=$1 out=$SWTIM_ROOT/build-matrix/$1.log line

	shift
	mkdir -p "$(dirname "$out")"
	"$@" 2>&1 | tee "$out"
	line=$(tail -n 1 "$out")
	if [[ $line =~ ^$name:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		pass "${BASH_REMATCH[1]}"
		fail "${BASH_REMATCH[2]}"
	else
		err "$name: no summary line (see ${out#"$SWTIM_ROOT"/})"
		fail 1
	fi
}

# matrix_tests: scripts/matrix.sh, its legs' counts added to ours.
matrix_tests() {
	if [ -n "$MATRIX_PREPARE_PID" ] && ! wait "$MATRIX_PREPARE_PID"; then
		err "making the chroots failed:"
		tail -n 20 "$MATRIX_PREPARE_LOG" >&2
	fi
	MATRIX_PREPARE_PID=
	summary_tests matrix "$SWTIM_ROOT/scripts/matrix.sh"
}

# packages_tests RELEASE...: scripts/packages.sh --check for those
# releases, its counts added to ours.
packages_tests() {
	if [ -n "$MATRIX_PREPARE_PID" ] && ! wait "$MATRIX_PREPARE_PID"; then
		err "making the chroots failed:"
		tail -n 20 "$MATRIX_PREPARE_LOG" >&2
	fi
	MATRIX_PREPARE_PID=
	summary_tests packages "$SWTIM_ROOT/scripts/packages.sh" --check "$@"
}

usage() {
	sed -n '5,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

main() {
	local leg=false matrix=true packages package_releases

	case ${1:-} in
	"") ;;
	--leg) leg=true ;;
	--no-matrix) matrix=false ;;
	-h|--help) usage; exit 0 ;;
	*) err "unknown option $1 (see --help)"; exit 2 ;;
	esac
	cd "$SWTIM_ROOT" || exit 1
	packages=("${BUILD_PACKAGES[@]}")
	$leg || packages+=("${SANITIZER_PACKAGES[@]}" "${DOC_PACKAGES[@]}" \
		"${FUZZ_PACKAGES[@]}")
	if ! ensure_packages "${packages[@]}"; then
		echo "0 passed, 1 failed"
		exit 1
	fi

	# The mp suite fails, saying why, without them: go on either way.
	hugepages_setup || true
	# The Debian releases whose packages are built and checked: 12 and
	# 13 (25.11's, which scripts/packages.sh also builds, are left to it:
	# CI's time).
	if $matrix; then
		package_releases=(22.11 24.11)
	else
		package_releases=(22.11)
	fi
	$leg || matrix_prepare "${package_releases[@]}"
	if $leg; then
		leg_tests
	else
		release_tests
		sanitizer_tests
		example_test
		bundle_test
		docs_test
		soak_test
		fuzz_tests
		$matrix && matrix_tests
		packages_tests "${package_releases[@]}"
	fi

	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
}

main "$@"
