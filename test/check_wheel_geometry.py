#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
"""design.md's wheel geometry is what the code computes.

    test/check_wheel_geometry.py WHEEL_GEOMETRY DESIGN_MD MESON_OPTIONS

WHEEL_GEOMETRY is test/wheel_geometry.c built at the geometry design.md
describes: meson's default wheel_level_bits, whatever this build was
configured with (test/meson.build builds it so, and this checks that the
default in MESON_OPTIONS is what it was built at). Its output is held
against the two tables of design.md's section "Levels": the geometry
(levels, slots, bytes, grain) and the level table (slots, spans and
ranges in grains, and in time at the tick of each column). A figure
rounded in the text must be the computed one rounded to the digits shown.
Fails, naming every figure that differs, so that design.md cannot drift
from whl_private.h again.
"""

import re
import subprocess
import sys

# Years of 365.25 days, as the table counts them.
UNIT_US = {
    "us": 1,
    "ms": 1e3,
    "s": 1e6,
    "minutes": 60e6,
    "hours": 3600e6,
    "days": 86400e6,
    "years": 365.25 * 86400e6,
    "million years": 365.25 * 86400e6 * 1e6,
}

errors = []


def fail(msg):
    errors.append(msg)


def run_geometry(exe):
    out = subprocess.run([exe], check=True, capture_output=True,
                         text=True).stdout
    geo, levels = {}, []
    for line in out.splitlines():
        f = line.split()
        if f[0] == "level":
            levels.append({f[i]: int(f[i + 1]) for i in range(2, len(f), 2)})
        else:
            geo[f[0]] = int(f[1])
    return geo, levels


def default_level_bits(options):
    text = open(options).read()
    m = re.search(r"option\('wheel_level_bits'[^)]*?value:\s*(\d+)", text,
                  re.S)
    if not m:
        sys.exit("no wheel_level_bits option in " + options)
    return int(m.group(1))


def section(design, title):
    text = open(design).read()
    m = re.search(r"^### " + re.escape(title) + r"\n(.*?)(?=^#)", text,
                  re.S | re.M)
    if not m:
        sys.exit("no section '%s' in %s" % (title, design))
    return m.group(1)


def tables(text):
    """Each markdown table: its header cells and rows of cells."""
    found, rows = [], None
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if rows is None:
                rows = [cells]
            elif not re.fullmatch(r"[-:| ]+", line):
                rows.append(cells)
        elif rows is not None:
            found.append((rows[0], rows[1:]))
            rows = None
    return found


def number(s):
    return float(s.replace(",", ""))


def rounds_to(shown, value):
    """Whether the text's figure `shown` is value rounded as shown."""
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    return abs(number(shown) - value) <= 0.5 * 10 ** -decimals * 1.0001


def power_of_two(cell, what):
    """A count written 1, 256, 2^16 or 2^8 = 256: its log2."""
    m = re.fullmatch(r"2\^(\d+)(?: = ([\d,]+))?", cell)
    if m:
        if m.group(2) and number(m.group(2)) != 2 ** int(m.group(1)):
            fail("%s: %s is not 2^%s" % (what, m.group(2), m.group(1)))
        return int(m.group(1))
    n = int(number(cell))
    if n & (n - 1):
        fail("%s: %s is not a power of two" % (what, cell))
    return n.bit_length() - 1


def check_time(cell, us, what):
    m = re.fullmatch(r"([\d.,]+) (" + "|".join(UNIT_US) + ")", cell)
    if not m:
        fail("%s: cannot read '%s'" % (what, cell))
    elif not rounds_to(m.group(1), us / UNIT_US[m.group(2)]):
        fail("%s: '%s', the code gives %.4g %s" %
             (what, cell, us / UNIT_US[m.group(2)], m.group(2)))


def check_figure(cell, value, what):
    """The first number of cell is value; '(x KiB)', '(x MiB)' and
    '(x MiB of blocks)' after it are value / 2^10, 2^20 rounded."""
    m = re.match(r"([\d,]+)", cell)
    if not m or number(m.group(1)) != value:
        fail("%s: '%s', the code gives %d" % (what, cell, value))
    for shown, unit in re.findall(r"\(([\d.]+) (KiB|MiB)", cell):
        scaled = value / (1024 if unit == "KiB" else 1024 * 1024)
        if not rounds_to(shown, scaled):
            fail("%s: %s %s, the code gives %.4g %s" %
                 (what, shown, unit, scaled, unit))


def check_geometry_table(header, rows, geo):
    m = re.search(r"`WHL_LEVEL_BITS` = (\d+)", header[0])
    if not m or int(m.group(1)) != geo["level_bits"]:
        fail("geometry table: its header '%s' does not name "
             "`WHL_LEVEL_BITS` = %d" % (header[0], geo["level_bits"]))
    # The wheels are RTE_MAX_LCORE, DPDK's build's: the adapter's figures
    # are checked for the number the table states, which only a note
    # compares with this DPDK's.
    wheels = geo["wheels"]
    for cells in rows:
        if "`SWTIM_LANES_MAX`" in cells[0]:
            wheels = int(number(cells[1].split()[0]))
            if wheels != geo["wheels"]:
                print("note: design.md counts %d wheels an adapter, this "
                      "DPDK's RTE_MAX_LCORE is %d" % (wheels, geo["wheels"]))
    blocks = wheels * geo["levels"] * geo["slots"]
    expect = {
        "`WHL_LEVELS`": geo["levels"],
        "`WHL_SLOTS`": geo["slots"],
        "`sizeof(struct whl_wheel)`": geo["wheel_bytes"],
        "`whl_wheel.stack`": geo["stack_bytes"],
        "`SWTIM_LANES_MAX`": wheels,
        "bytes of an adapter's wheels": wheels * geo["wheel_bytes"],
        "`WHL_BLOCK_ENTRIES`": geo["block_entries"],
        "bytes of a slot block and its head": geo["block_bytes"],
        "slots of an adapter's wheels": blocks,
        "`SWTIM_GRAIN_SHIFT_MAX`": 2 ** geo["grain_shift_max"],
        "`SWTIM_GRAIN_MIN_BITS`": geo["grain_min_bits"],
    }
    seen = set()
    for cells in rows:
        key = next((k for k in expect if k in cells[0]), None)
        if key is None:
            fail("geometry table: no check for row '%s'" % cells[0])
            continue
        seen.add(key)
        if key == "slots of an adapter's wheels":
            # The partial blocks they may hold, in MiB.
            check_figure(cells[1].split("(")[0], blocks, cells[0])
            m = re.search(r"\(([\d.]+) MiB", cells[1])
            if not m or not rounds_to(m.group(1), blocks *
                                      geo["block_bytes"] / 2 ** 20):
                fail("%s: '%s', the code gives %.4g MiB of blocks" %
                     (cells[0], cells[1],
                      blocks * geo["block_bytes"] / 2 ** 20))
        elif key == "`SWTIM_GRAIN_MIN_BITS`":
            m = re.match(r"2\^(\d+)", cells[1])
            if not m or int(m.group(1)) != expect[key]:
                fail("%s: '%s', the code gives 2^%d" %
                     (cells[0], cells[1], expect[key]))
        else:
            check_figure(cells[1], expect[key], cells[0])
    for key in expect.keys() - seen:
        fail("geometry table: no row for %s" % key)


def check_level_table(header, rows, geo, levels):
    ticks = []
    for i, h in enumerate(header):
        m = re.match(r"(\d+) us tick: (slot|range)", h)
        if m:
            ticks.append((i, int(m.group(1)), m.group(2)))
    if len(rows) != geo["levels"]:
        fail("level table: %d levels, the code has %d" %
             (len(rows), geo["levels"]))
    for cells, lv in zip(rows, levels):
        what = "level %s" % cells[0]
        if int(cells[0]) != lv["level"]:
            fail(what + ": out of order")
        if int(number(cells[1])) != lv["slots"]:
            fail("%s: %s slots, the code has %d" %
                 (what, cells[1], lv["slots"]))
        span = power_of_two(cells[2], what + " span")
        rng = power_of_two(cells[3], what + " range")
        if span != lv["span_log2"]:
            fail("%s: a slot spans 2^%d grains, the code 2^%d" %
                 (what, span, lv["span_log2"]))
        if rng != lv["range_log2"]:
            fail("%s: range 2^%d grains, the code 2^%d" %
                 (what, rng, lv["range_log2"]))
        for i, tick_us, col in ticks:
            log2 = lv["span_log2"] if col == "slot" else lv["range_log2"]
            check_time(cells[i], tick_us * 2 ** log2,
                       "%s, %d us tick, %s" % (what, tick_us, col))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    exe, design, options = sys.argv[1:]
    geo, levels = run_geometry(exe)
    for i, lv in enumerate(levels):
        lv["level"] = i
    bits = default_level_bits(options)
    if geo["level_bits"] != bits:
        fail("%s was built at %d bits a level, meson's default is %d: "
             "build it at the default (test/meson.build) and describe "
             "that in design.md" %
             (exe, geo["level_bits"], bits))
    found = tables(section(design, "Levels"))
    geometry = [t for t in found if "WHL_LEVEL_BITS" in t[0][0]]
    level_table = [t for t in found if t[0][0] == "level"]
    if len(geometry) != 1 or len(level_table) != 1:
        sys.exit("design.md, 'Levels': expected one geometry table and "
                 "one level table, found %d and %d" %
                 (len(geometry), len(level_table)))
    check_geometry_table(*geometry[0], geo)
    check_level_table(*level_table[0], geo, levels)
    for e in errors:
        print(e)
    if errors:
        print("design.md, 'Levels': %d checks failed against the code at "
              "WHL_LEVEL_BITS = %d" % (len(errors), geo["level_bits"]))
        return 1
    print("design.md's wheel geometry (WHL_LEVEL_BITS = %d, the default) "
          "is the code's: %d levels of %d slots, %d bytes a wheel" %
          (geo["level_bits"], geo["levels"], geo["slots"],
           geo["wheel_bytes"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
