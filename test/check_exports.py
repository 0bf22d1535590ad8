#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
"""A library of swtim's exports what it promises, and nothing else.

    test/check_exports.py api LIBSWTIM.so SWTIM_H VERSION_MAP
    test/check_exports.py dropin LIBSWTIM_DROPIN.so LIBRTE_EVENTDEV.so

api (meson test exports): every function swtim.h declares (not its
static inline ones) must be exported at version SWTIM_0.1, and nothing
else may be but the INTERNAL driver kit that version.map lists: a
function added to the header but not to the map would link in-tree (the
tests) and fail for applications.

dropin (meson test dropin/exports): every rte_event_timer_* function
librte_eventdev exports (the adapter's control calls, and
rte_event_timer_remaining_ticks_get from 23.03 on) must be exported by
libswtim_dropin at the same version (else an application linked against
librte_eventdev would not bind to it), and libswtim_dropin must export no
other function. The wanted set is read from librte_eventdev, not written
here, so that the check follows the DPDK release it is built against.

Both read the exports with objdump -T (exported(), below).
"""

import argparse
import re
import subprocess
import sys


def exported(lib):
    """The symbols LIB defines and exports: {name: (version, function)}.

    From objdump -T's lines "ADDRESS FLAGS KIND SECTION SIZE VERSION NAME",
    KIND DF for a function; a version objdump puts in parentheses (one
    that is not the symbol's default) is given without them. Undefined
    symbols (*UND*) are left out, and so are the versions themselves,
    which are *ABS* entries of their own name.
    """
    out = subprocess.run(["objdump", "-T", lib], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 7 and "*UND*" not in f and "*ABS*" not in f:
            syms[f[-1]] = (f[-2].strip("()"), "DF" in f)
    return syms


def declared(header):
    """The functions HEADER declares, not the static inline ones."""
    text = open(header).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    names = set()
    # A declaration: a return type, a swtim_ name, '(' ... ');' with no
    # body; static inline definitions are skipped.
    for m in re.finditer(r"(^|\n)([^\n;{}#]*?)\b(swtim_\w+)\s*\(([^;{}]*)\)\s*;",
                         text):
        if "static" in m.group(2) or "typedef" in m.group(2):
            continue
        names.add(m.group(3))
    return names


def internal(version_map):
    """The names version.map lists in its INTERNAL block."""
    text = open(version_map).read()
    block = text[text.index("INTERNAL"):]
    return set(re.findall(r"\b(swtim_\w+);", block))


def check_api(a):
    api, kit = declared(a.header), internal(a.version_map)
    syms = {n: v for n, (v, _) in exported(a.lib).items()
            if v in ("SWTIM_0.1", "INTERNAL")}
    bad = []
    for name in sorted(api):
        if syms.get(name) != "SWTIM_0.1":
            bad.append("%s: declared in swtim.h, exported as %s"
                       % (name, syms.get(name, "nothing")))
    for name, ver in sorted(syms.items()):
        if ver == "SWTIM_0.1" and name not in api:
            bad.append("%s: exported as API, not declared in swtim.h" % name)
        if ver == "INTERNAL" and name not in kit:
            bad.append("%s: exported as INTERNAL, not listed" % name)
    print("%d API functions, %d exported symbols" % (len(api), len(syms)))
    for b in bad:
        print("  " + b)
    return 1 if bad or not api else 0


def functions(lib):
    """The functions LIB exports: {name: version}."""
    return {n: v for n, (v, func) in exported(lib).items() if func}


def check_dropin(a):
    dropin, eventdev = functions(a.lib), functions(a.eventdev)
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("api", help="libswtim against swtim.h and version.map")
    p.add_argument("lib")
    p.add_argument("header")
    p.add_argument("version_map")
    p.set_defaults(check=check_api)
    p = sub.add_parser("dropin",
                       help="libswtim_dropin against librte_eventdev")
    p.add_argument("lib")
    p.add_argument("eventdev")
    p.set_defaults(check=check_dropin)
    a = ap.parse_args()
    return a.check(a)


if __name__ == "__main__":
    sys.exit(main())
