#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
# case0.sh WHO LCORES [N]: run dpdk-test's event_timer_adapter_test until its
# case 0 (test_timer_state) reports, N times; print the results.
who=$1 lcores=$2 n=${3:-5}
pre=$PWD/build/lib/dropin/libswtim_dropin.so
for i in $(seq $n); do
	log=$(mktemp)
	if [ "$who" = dpdk ]; then env=SWTIM_DPDK_ADAPTER=all; else env=X=1; fi
	env $env DPDK_TEST=event_timer_adapter_test LD_PRELOAD=$pre \
	timeout 60 dpdk-test --no-huge -m 1024 --no-pci --no-shconf \
	 --file-prefix=case0_$$ --lcores="$lcores" -s 0x2 --log-level=swtim:debug \
	 --log-level=lib.eal:debug </dev/null >$log 2>&1 &
	pid=$!
	for t in $(seq 300); do grep -q "TestCase \[ *0\]" $log && break; sleep 0.1; done
	kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
	echo "$who $lcores: $(grep -o 'TestCase \[ *0\] : [a-z_]* [a-z]*' $log) $(grep -o 'line [0-9]* failed' $log | head -1) served: $(grep -c "swtim driver" $log) swtim, $(grep -c "DPDK's own" $log) dpdk"
	rm -f $log
done
