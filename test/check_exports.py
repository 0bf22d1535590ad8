#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
"""The shared library exports exactly the API swtim.h declares.

    test/check_exports.py LIBSWTIM.so SWTIM_H VERSION_MAP

Every function swtim.h declares (not its static inline ones) must be
exported at version SWTIM_0.1, and nothing else may be but the INTERNAL
driver kit that version.map lists: a function added to the header but
not to the map would link in-tree (the tests) and fail for applications.
"""

import re
import subprocess
import sys


def declared(header):
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


def exported(lib):
    out = subprocess.run(["objdump", "-T", lib], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        # The versions themselves are *ABS* entries of their own name.
        if len(f) >= 7 and "*UND*" not in f and "*ABS*" not in f and \
                f[-2] in ("SWTIM_0.1", "INTERNAL"):
            syms[f[-1]] = f[-2]
    return syms


def internal(version_map):
    text = open(version_map).read()
    block = text[text.index("INTERNAL"):]
    return set(re.findall(r"\b(swtim_\w+);", block))


def main(lib, header, version_map):
    api, syms, kit = declared(header), exported(lib), internal(version_map)
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


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
