#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors

"""The figures of doc/performance.md, as SVG drawn by gnuplot, from the
benchmarks' JSON reports that doc/figures/measure.sh gathers.

  doc/figures/make_figures.py [--data DIR] [--out DIR]

DIR (default: doc/figures/data, beside this script) holds:

  bench-*.json  swtim-bench --json reports; a cell that several hold is
                their median (test/bench/bench_table.py --median)
  compare/      a compare.sh output folder (CASE-ADAPTER-rN.json)
  power/        a power.sh output folder (LOAD-SLEEP.json)

and the figures go to --out (default: doc/figures):

  cycles-random.svg, cycles-equal.svg  cycles per timer against the timers
                outstanding, per fast path, DPDK's adapter and both swtim
                drivers; random and equal timeouts
  producers.svg cycles per timer against producer lcores (only when the
                bench reports have the multi-producer cases)
  lateness.svg  the distribution of expiry lateness, both adapters, each
                case of the compare run (round 1)
  power.svg     service lcore CPU and lateness p99 against max_sleep_us,
                one line per load

A figure whose reports are missing is left out with a message, and the
exit status is 1. Needs gnuplot (Debian: DOC_PACKAGES of
scripts/lib.sh) and Python's standard library.
"""

import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# No __pycache__ of bench_table in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "bench"))
import bench_table  # noqa: E402  (merge and size_str, said once there)

# One colour and point type per implementation, in every figure.
STYLE = {
    "dpdk": ("DPDK's adapter", "#c0392b", 7),
    "skiplist": ("swtim skiplist", "#e67e22", 5),
    "wheel": ("swtim wheel", "#2471a3", 9),
    "floor": ("memory floor", "#7f8c8d", 1),
    "swtim": ("swtim (wheel)", "#2471a3", 9),
}

TIMER_CASES = [
    ("arm", "arm, one timer a call"),
    ("arm_burst", "arm_burst, 32 a call"),
    ("arm_tmo_tick_burst", "arm_tmo_tick_burst, 32 a call"),
    ("cancel", "cancel, one a call"),
    ("cancel_burst", "cancel_burst, 32 a call"),
    ("expiry", "expiry, its event enqueue included"),
]

MP_CASES = [
    ("mp_arm", "arm, one a call"),
    ("mp_arm_burst", "arm, 32 a call"),
    ("mp_cancel", "cancel, one a call"),
    ("mp_cancel_burst", "cancel, 32 a call"),
    ("mp_cross_cancel", "cancel another lcore's, one a call"),
    ("mp_cross_cancel_burst", "cancel another lcore's, 32 a call"),
]

LOADS = ["idle", "low", "high", "bursty"]
LOAD_COLOURS = ["#7f8c8d", "#27ae60", "#c0392b", "#8e44ad"]


def q(text):
    """TEXT as a gnuplot string: double quotes, where \\n is a new line."""
    return '"%s"' % text.replace('"', '\\"')


class Plot:
    """A gnuplot script under construction: data blocks, then commands."""

    def __init__(self):
        self.blocks = []
        self.lines = []

    def block(self, rows):
        """A data block of ROWS (tuples of numbers); its name."""
        name = "$d%d" % len(self.blocks)
        text = "\n".join(" ".join("%.6g" % v for v in row) for row in rows)
        self.blocks.append("%s << EOD\n%s\nEOD" % (name, text))
        return name

    def __call__(self, line):
        self.lines.append(line)

    def plot(self, plots):
        """End a panel with PLOTS, or with an empty plot if it has none."""
        self("plot " + ", ".join(plots) if plots else "plot NaN notitle")

    def cycles_panel(self, title, xlabel, series):
        """A panel of cycles per timer on a log scale, a line for each
        (implementation, rows of (x, cycles)) of SERIES that has rows."""
        plots, values = [], []
        for impl, rows in series:
            if rows:
                values += [v for _, v in rows]
                plots.append("%s using 1:2 with linespoints %s" % (
                    self.block(rows), line_style(impl)))
        self(log_yrange(values))
        self("set title %s" % q(title))
        self("set xlabel %s" % q(xlabel))
        self("set ylabel 'cycles per timer'")
        self.plot(plots)

    def render(self, path, width, height):
        if path.endswith(".png"):
            terminal = "pngcairo size %d,%d font 'sans,9' noenhanced" % (
                width, height)
        else:
            terminal = ("svg size %d,%d font 'sans,11' noenhanced "
                        "background '#ffffff'" % (width, height))
        script = "\n".join(self.blocks + [
            "set terminal " + terminal,
            "set output '%s'" % path.replace("'", "''"),
            # Small files: no minor tics, nor tics on the top and right
            # borders (each tic mark is an element of its own in SVG).
            "set border 3",
            "set xtics nomirror",
            "set ytics nomirror",
            "set mxtics 1",
            "set mytics 1",
        ] + self.lines + ["unset multiplot", "unset output"]) + "\n"
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
        if path.endswith(".svg"):
            svg_drop_empty_groups(path)


def svg_drop_empty_groups(path):
    """gnuplot's SVG opens and closes a group for every change of style,
    most of them with nothing inside: a third of the file. Drop those."""
    with open(path) as f:
        svg = f.read()
    while True:
        shorter = re.sub(r"<g [^>]*>\s*</g>\s*", "", svg)
        if shorter == svg:
            break
        svg = shorter
    with open(path, "w") as f:
        f.write(svg)


def log_yrange(values):
    """A log y range over VALUES with room above them for the key."""
    values = [v for v in values if v and v > 0]
    if not values:
        return "set yrange [*:*]"
    low = 10 ** math.floor(math.log10(min(values)))
    return "set yrange [%g:%g]" % (low, max(values) * 8)


def line_style(impl):
    label, colour, point = STYLE[impl]
    dash = " dt 2" if impl == "floor" else ""
    return "title %s lc rgb '%s' pt %d ps 0.7 lw 1.5%s" % (
        q(label), colour, point, dash)


def bench_reports(data):
    paths = sorted(glob.glob(os.path.join(data, "bench-*.json")))
    if not paths:
        return None, None
    results, hz = bench_table.merge(paths, "median")
    return results, hz


def ghz(hz):
    rates = sorted(h for h in hz if h)
    return ", TSC %.2f GHz" % (rates[0] / 1e9) if rates else ""


def cycles_figure(results, hz, dist, path):
    single = {k[:4]: r for k, r in results.items()
              if k[4] == 0 and k[1] == dist}
    sizes = sorted({k[3] for k in single})
    if not sizes:
        return False
    p = Plot()
    p("set multiplot layout 2,3 title %s" % q(
        "Cycles per timer against timers outstanding, %s timeouts "
        "(swtim-bench, one lcore%s; lower is better)" % (dist, ghz(hz))))
    p("set logscale xy")
    p("set grid xtics ytics lc rgb '#dddddd'")
    p("set xtics (%s)" % ", ".join("'%s' %d" % (bench_table.size_str(n), n)
                                   for n in sizes))
    p("set xrange [%g:%g]" % (sizes[0] / 1.5, sizes[-1] * 1.5))
    p("set format y '%g'")
    p("set key top left box opaque")
    for case, title in TIMER_CASES:
        p.cycles_panel(title, "timers outstanding", [
            (impl, [(n, single[(case, dist, impl, n)]["cycles"])
                    for n in sizes if (case, dist, impl, n) in single])
            for impl in ("dpdk", "skiplist", "wheel", "floor")])
    p.render(path, 1260, 760)
    return True


def producers_figure(results, path):
    mp = {k: r for k, r in results.items() if k[4] > 0}
    counts = sorted({k[4] for k in mp})
    if not mp:
        return False
    shared = sorted({k[4] for k, r in mp.items() if r.get("cpus_shared")})
    sizes = sorted({k[3] for k in mp})
    p = Plot()
    p("set multiplot layout 2,3 title %s" % q(
        "Cycles per timer against producer lcores arming into one adapter, "
        "%s outstanding (swtim-bench --cases=mp; the median producer; lower "
        "is better)%s" % (
            "/".join(bench_table.size_str(n) for n in sizes),
            "\\nproducers shared CPUs at %s" % ",".join(map(str, shared))
            if shared else "")))
    p("set logscale y")
    p("set grid ytics lc rgb '#dddddd'")
    p("set xtics (%s)" % ", ".join("'%d' %d" % (c, c) for c in counts))
    p("set xrange [%g:%g]" % (counts[0] - 0.3, counts[-1] + 0.3))
    p("set format y '%g'")
    p("set key top left box opaque")
    for case, title in MP_CASES:
        p.cycles_panel(title, "producer lcores", [
            (impl, [(k[4], r["cycles"]) for k, r in sorted(mp.items())
                    if k[0] == case and k[2] == impl])
            for impl in ("dpdk", "skiplist", "wheel")])
    p.render(path, 1260, 760)
    return True


def ccdf(buckets):
    """(lateness us, share of expiries at least that late) per bucket."""
    total = sum(c for _, c in buckets)
    rows, left = [], total
    for low, count in sorted(buckets):
        if low > 0:
            rows.append((low, left / total))
        left -= count
    return rows


def lateness_figure(data, path):
    folder = os.path.join(data, "compare")
    reports = {}
    for f in sorted(glob.glob(os.path.join(folder, "*-r1.json"))):
        m = re.match(r"(.*)-(dpdk|swtim)-r1\.json$", os.path.basename(f))
        if m:
            with open(f) as fh:
                reports.setdefault(m.group(1), {})[m.group(2)] = json.load(fh)
    cases = sorted(c for c, r in reports.items() if len(r) == 2)
    if not cases:
        return False
    p = Plot()
    p("set multiplot layout 1,%d title %s" % (len(cases), q(
        "Expiry lateness: share of expiries later than x (compare.sh, "
        "round 1; deadline to the worker's dequeue; lower and further left "
        "is better)")))
    p("set logscale xy")
    p("set grid xtics ytics lc rgb '#dddddd'")
    p("set format x '%g'")
    p("set format y '%g'")
    p("set key bottom left box opaque")
    p("set xlabel 'lateness (us)'")
    p("set ylabel 'share of expiries later'")
    for case in cases:
        plots = []
        ymin, xs = 1.0, []
        for adapter in ("dpdk", "swtim"):
            r = reports[case][adapter]
            rows = ccdf(r["lateness_us"]["buckets"])
            if not rows:
                continue
            ymin = min(ymin, min(y for _, y in rows))
            xs += [x for x, _ in rows]
            impl = adapter
            label, colour, _ = STYLE[impl]
            plots.append("%s using 1:2 with steps title %s lc rgb '%s' "
                         "lw 2" % (p.block(rows), q("%s, p99 %.0f us%s" % (
                             label, r["lateness_us"]["p99"],
                             "" if r["result"] == "pass" else ", FAILED")),
                             colour))
        tick_us = reports[case]["swtim"]["config"].get(
            "timer_tick_nsec_in_force", 0) / 1000.0
        xmin = min(xs + [tick_us or 1.0]) / 2
        xmax = max(xs + [1.0]) * 2
        if tick_us > 0:
            p("set arrow 1 from %g,graph 0 to %g,graph 1 nohead dt 3 "
              "lc rgb '#555555'" % (tick_us, tick_us))
            p("set label 1 'one tick' at %g,graph 0.05 offset 0.5,0" % tick_us)
        p("set xrange [%g:%g]" % (xmin, xmax))
        p("set yrange [%g:1.5]" % (ymin / 2))
        p("set title %s" % q("%s (%s timers)" % (
            case, reports[case]["swtim"]["config"].get("nb_timers", "?"))))
        p.plot(plots)
        p("unset arrow 1")
        p("unset label 1")
    p.render(path, 620 * len(cases), 520)
    return True


def power_figure(data, path):
    folder = os.path.join(data, "power")
    runs = {}
    for f in glob.glob(os.path.join(folder, "*.json")):
        m = re.match(r"([a-z]+)-(\d+)\.json$", os.path.basename(f))
        if m:
            with open(f) as fh:
                runs[(m.group(1), int(m.group(2)))] = json.load(fh)
    if not runs:
        return False
    sleeps = sorted({s for _, s in runs})
    p = Plot()
    p("set multiplot layout 1,2 title %s" % q(
        "What sleeping when idle saves and costs (power.sh: wheel driver, "
        "its service and the worker sleeping up to max_sleep_us)"))
    p("set grid xtics ytics lc rgb '#dddddd'")
    p("set xtics (%s)" % ", ".join("'%d' %d" % (s, s) for s in sleeps))
    p("set xrange [%g:%g]" % (-0.05 * sleeps[-1], 1.05 * sleeps[-1]))
    p("set xlabel 'max_sleep_us'")
    p("set key top right box opaque")
    panels = [
        ("service lcore CPU (% of one CPU, from the OS)",
         lambda r: 100.0 * sum(s["cpu_share"] or 0
                               for s in r["service_lcores"]), False),
        ("expiry lateness p99 (us)",
         lambda r: r["lateness_us"]["p99"] if r["lateness_us"]["count"]
         else None, True),
    ]
    for title, value, log in panels:
        plots = []
        for load, colour in zip(LOADS, LOAD_COLOURS):
            rows = [(s, value(runs[(load, s)])) for s in sleeps
                    if (load, s) in runs and runs[(load, s)]["result"] == "pass"]
            rows = [r for r in rows if r[1] is not None]
            if rows:
                plots.append("%s using 1:2 with linespoints title %s "
                             "lc rgb '%s' pt 7 ps 0.7 lw 1.5" % (
                                 p.block(rows), q(load + " load"), colour))
        p("set logscale y" if log else "unset logscale y")
        p("set format y '%g'")
        p("set yrange [*:*]" if log else "set yrange [0:*]")
        p("set title %s" % q(title))
        p("set ylabel %s" % q(title))
        p.plot(plots)
    p.render(path, 1200, 480)
    return True


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.path.join(HERE, "data"))
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--png", action="store_true",
                    help="PNG instead of SVG, to look at them quickly")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    def out(name):
        if args.png:
            name = name.replace(".svg", ".png")
        return os.path.join(args.out, name)

    missing = []
    results, hz = bench_reports(args.data)
    if results is None:
        missing.append("cycles-*.svg, producers.svg: no bench-*.json")
    else:
        for dist in ("random", "equal"):
            if not cycles_figure(results, hz, dist,
                                 out("cycles-%s.svg" % dist)):
                missing.append("cycles-%s.svg: no %s timeouts in the "
                               "bench reports" % (dist, dist))
        if not producers_figure(results, out("producers.svg")):
            print("producers.svg left out: no multi-producer cases in the "
                  "bench reports")
    if not lateness_figure(args.data, out("lateness.svg")):
        missing.append("lateness.svg: no compare/*-dpdk-r1.json with its "
                       "swtim twin")
    if not power_figure(args.data, out("power.svg")):
        missing.append("power.svg: no power/LOAD-SLEEP.json")
    for m in missing:
        print("left out: " + m, file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
