#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Fuzz one target for a while, from its committed corpus: the test of
# suite 'fuzz' that test/fuzz/meson.build makes of each fuzz_<name>.
#
#   run_fuzzer.sh FUZZER CORPUS_DIR WORK_DIR SECONDS [LIBFUZZER_FLAG...]
#
# New inputs go to WORK_DIR/corpus (the committed corpus is only read),
# a finding to WORK_DIR/crash-*, leak-*, timeout-* (libFuzzer's names).
# Exit status: libFuzzer's, non-zero on a finding (a crash, a leak, a
# sanitizer report, a model mismatch, an input running past 10 s); the
# statistics (-print_final_stats=1) end the output.

set -euo pipefail

usage() {
	sed -n '5,13s/^# \{0,1\}//p' "$0"
}

if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
	usage
	exit 0
fi
if [ $# -lt 4 ]; then
	usage >&2
	exit 2
fi
# Absolute: the fuzzer runs in WORK_DIR.
fuzzer=$(realpath "$1") corpus=$(realpath "$2") work=$3 seconds=$4
shift 4

mkdir -p "$work/corpus"
cd "$work"
# -error_exitcode, -timeout_exitcode: libFuzzer's own (77, 70) would be
# read as "skipped" (77) by meson: a finding must fail the test.
# -close_fd_mask=3: the targets' own output (a refused option's message,
# millions of times) would cost more than the runs; libFuzzer and the
# targets' findings (fuzz_env.c) keep a copy of stderr for their reports.
# -detect_leaks: LeakSanitizer stops the process's threads with ptrace,
# which containers often forbid; fuzz_env.c's checks of DPDK's heap, which
# LeakSanitizer does not see, run either way.
exec "$fuzzer" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
	-error_exitcode=1 -timeout_exitcode=1 \
	-close_fd_mask=3 -artifact_prefix="$work/" \
	-detect_leaks="${SWTIM_FUZZ_DETECT_LEAKS:-1}" "$@" \
	"$work/corpus" "$corpus"
