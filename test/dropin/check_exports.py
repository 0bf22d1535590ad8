#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
"""libswtim_dropin exports DPDK's timer adapter calls at DPDK's versions,
and nothing else.

    test/dropin/check_exports.py LIBSWTIM_DROPIN.so LIBRTE_EVENTDEV.so

Every rte_event_timer_* function librte_eventdev exports (the adapter's
control calls, and rte_event_timer_remaining_ticks_get from 23.03 on)
must be exported by libswtim_dropin at the same version (else an application
linked against librte_eventdev would not bind to it), and libswtim_dropin
must export no other symbol.
"""

import subprocess
import sys


def exported(lib):
    out = subprocess.run(["objdump", "-T", lib], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        # Defined functions: "... DF .text size VERSION name".
        if len(f) >= 7 and "DF" in f and "*UND*" not in f:
            syms[f[-1]] = f[-2].strip("()")
    return syms


def main():
    dropin, eventdev = exported(sys.argv[1]), exported(sys.argv[2])
    wanted = {n: v for n, v in eventdev.items()
              if n.startswith("rte_event_timer_")}
    bad = 0
    if not wanted:
        print("librte_eventdev exports no rte_event_timer_* call")
        bad += 1
    for name, ver in sorted(wanted.items()):
        got = dropin.get(name)
        if got != ver:
            print(f"{name}: librte_eventdev {ver}, libswtim_dropin {got}")
            bad += 1
    for name in sorted(set(dropin) - set(wanted)):
        print(f"{name}@{dropin[name]}: exported but not DPDK's")
        bad += 1
    print(f"{len(wanted)} calls checked, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
