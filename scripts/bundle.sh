#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
#
# Pack the benchmark binaries and scripts with the shared libraries and
# DPDK drivers they load into one folder, so that the benchmark scripts
# run on a machine without DPDK installed (a server lent for a scaling
# run, say).
# See doc/performance.md, "Results on a 16-core server".

set -eu

usage() {
	cat <<EOF
Usage: $0 [-b BUILD] OUT

Copies into OUT (created; must not exist):
  bin/   swtim-test-eventdev and swtim-bench from BUILD (default
         build-release: a release build with the tests and the app),
         and DPDK's own dpdk-test (Debian's dpdk-dev), for its
         event_timer_adapter_test with libswtim_dropin preloaded
  swtim/ libswtim and libswtim_dropin
  lib/   every other shared library they need but the C library
  pmds/  the DPDK drivers the scripts use: bus_vdev, mempool_ring,
         event_dsw, event_sw
  app/test-eventdev/  compare.sh, lateness.sh, power.sh, scaling.sh and
         what they load (tev_lib.sh, tev_report.py); there they take
         bin/swtim-test-eventdev when not given -b
  env.sh to source there: sets LD_LIBRARY_PATH and SWTIM_BUNDLE_EAL, the
         EAL arguments that load those drivers (-d each), for the --eal
         option of compare.sh, lateness.sh and scaling.sh; where the
         machine has this DPDK's own driver folder, only libswtim is
         taken from the bundle (EAL loads that folder by itself, and two
         copies of a driver would register twice), e.g.

  . OUT/env.sh
  OUT/app/test-eventdev/scaling.sh \\
      --eal "--no-huge -m 2048 --no-shconf --no-pci \$SWTIM_BUNDLE_EAL \\
             -l 0-15 --vdev=event_dsw0" \\
      --plcores 1-4 --wlcores 5-11 --svc "12 12-13 12-15" --pool 262144

The target needs the same CPU architecture and a C library at least as
new as this machine's. EAL loads no driver from under a world-writable
folder (/tmp): put OUT elsewhere. The drivers are loaded one by one with -d: EAL
loads from a -d folder only files named *.so or *.so.<ABI>.0, and a
driver loaded under two names registers twice.
EOF
}

build="build-release"
if [ "${1:-}" = --help ]; then
	usage
	exit 0
fi
while getopts "b:h" o; do
	case "$o" in
	b) build=$OPTARG ;;
	h) usage; exit 0 ;;
	*) echo "$0: see --help" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# != 1 ]; then
	echo "$0: want one argument, the folder to create; see --help" >&2
	exit 2
fi
out=$1
root=$(cd "$(dirname "$0")/.." && pwd)
case "$build" in /*) ;; *) build=$root/$build ;; esac
if [ -e "$out" ]; then
	echo "$0: $out exists" >&2
	exit 1
fi

app=$build/app/test-eventdev/swtim-test-eventdev
bench=$build/test/bench/swtim-bench
dropin=$build/lib/dropin/libswtim_dropin.so.0
for f in "$app" "$bench" "$build/libswtim.so.0" "$dropin"; do
	if [ ! -f "$f" ]; then
		echo "$0: no $f: build $build first (meson setup, ninja)" >&2
		exit 1
	fi
done
if ldd "$app" | grep -q -e libasan -e libubsan; then
	echo "$0: $app is instrumented; give a release build" >&2
	exit 1
fi
dpdk_test=$(command -v dpdk-test) || {
	echo "$0: no dpdk-test: apt-get install dpdk-dev" >&2
	exit 1
}
pmddirs=("$(pkg-config --variable=libdir libdpdk)"/dpdk/pmds-*)
pmddir=${pmddirs[0]}

mkdir -p "$out/bin" "$out/swtim" "$out/lib" "$out/pmds"
cp "$app" "$bench" "$dpdk_test" "$out/bin/"
# The scripts find tev_lib.sh and tev_report.py beside themselves.
mkdir -p "$out/app/test-eventdev"
for f in compare.sh lateness.sh power.sh scaling.sh tev_lib.sh \
		tev_report.py; do
	cp "$root/app/test-eventdev/$f" "$out/app/test-eventdev/"
done
cp -L "$build/libswtim.so.0" "$out/swtim/"
# The name LD_PRELOAD is given, as in the build (the soname's link).
cp -L "$dropin" "$out/swtim/libswtim_dropin.so"
drivers="bus_vdev mempool_ring event_dsw event_sw"
for d in $drivers; do
	pmd=("$pmddir"/librte_"$d".so.*)
	cp -L "${pmd[0]}" "$out/pmds/librte_$d.so"
done

# What the binaries and drivers load, but the C library itself (the
# target has its own, and it must match its dynamic loader). A driver
# stays in pmds/ only: found by soname through LD_LIBRARY_PATH as well,
# it is the same file that -d loaded.
for f in "$out"/bin/* "$out"/swtim/* "$out"/pmds/*; do
	LD_LIBRARY_PATH=$out/swtim ldd "$f"
done | awk '$3 ~ /^\// { print $1, $3 }' | sort -u |
while read -r name path; do
	case "$name" in
	libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*)
		continue ;;
	esac
	case "$path" in "$out"/*) continue ;; esac
	base=${name%%.so*}
	if [ -f "$out/pmds/$base.so" ]; then
		# Loaded by soname too: give it that name beside the -d one.
		ln -sf "$base.so" "$out/pmds/$name"
		continue
	fi
	cp -L "$path" "$out/lib/$name"
done

{
	echo "# Source this file: swtim's benchmark binaries with their libraries."
	echo "here=\$(cd \"\$(dirname \"\${BASH_SOURCE[0]}\")\" && pwd)"
	echo "# EAL loads the drivers of its own folder where that exists: a"
	echo "# second copy of them, loaded from here, would register twice."
	echo "if [ -d $pmddir ]; then"
	echo "	export LD_LIBRARY_PATH=\$here/swtim\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
	echo "	SWTIM_BUNDLE_EAL="
	echo "else"
	echo "	export LD_LIBRARY_PATH=\$here/swtim:\$here/lib:\$here/pmds\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
	printf '	SWTIM_BUNDLE_EAL="'
	for d in $drivers; do
		# $here is for env.sh to expand.
		# shellcheck disable=SC2016
		printf -- '-d $here/pmds/librte_%s.so ' "$d"
	done
	echo '"'
	echo "fi"
	echo "export SWTIM_BUNDLE_EAL"
} > "$out/env.sh"

# The packed programs start from the bundle, with its env.sh: a library
# left out would otherwise show only on the target, as exit status 127.
# shellcheck source=app/test-eventdev/tev_lib.sh
. "$root/app/test-eventdev/tev_lib.sh"
for p in "$out"/bin/swtim-*; do
	# shellcheck disable=SC1091
	why=$(. "$out/env.sh" && tev_bin_problem "$p")
	if [ -n "$why" ]; then
		echo "$0: the bundle's ${p#"$out"/} cannot run: $why" >&2
		exit 1
	fi
done
# dpdk-test has no --help that leaves EAL alone: ask the loader only.
for p in "$out"/bin/dpdk-test "$out"/swtim/*; do
	# shellcheck disable=SC1091
	missing=$(. "$out/env.sh" && ldd "$p" | awk '/not found/ { print $1 }')
	if [ -n "$missing" ]; then
		echo "$0: the bundle's ${p#"$out"/} lacks" $missing >&2
		exit 1
	fi
done
du -sh "$out"
