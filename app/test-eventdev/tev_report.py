#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors

"""Tables of the JSON reports that compare.sh, lateness.sh, power.sh and
scaling.sh leave in their output folder.

  tev_report.py compare  --out DIR --rounds N --cases CASE...
  tev_report.py lateness --out DIR --rounds N --ticks NS... --rates N...
  tev_report.py power    --out DIR --loads LOAD... --sleeps US...
  tev_report.py scaling  --out DIR --rounds N --series NAME
                         --rows ADAPTER:SERVICE_LCORES...

Prints the script's table of medians, then the runs that did not pass;
exits 1 when there were any. The reading of the reports, medians,
formatting, the table and the list of problems are shared here; each
subcommand keeps its own columns and checks. Python's standard library
only: the scripts run on servers that have nothing else.
"""

import argparse
import json
import os
import statistics
import sys


def read_run(path, label, problems):
    """The report at PATH, or None when there is none or it does not parse.

    A missing report and a run that did not pass go into PROBLEMS as
    "LABEL: why"; a report that did not pass is still returned, for the
    counts (lost, early) that some tables sum over every run.
    """
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError):
        problems.append("%s: no report" % label)
        return None
    if not passed(report):
        problems.append("%s: %s" % (label, report["failure"]))
    return report


def passed(report):
    return report is not None and report["result"] == "pass"


def median(values):
    """The median of the values that are there (not None, not NaN)."""
    present = [v for v in values if v is not None and v == v]
    return statistics.median(present) if present else None


def fmt(value, decimals=0):
    if value is None or value != value:
        return "-"
    return "%.*f" % (decimals, value)


def print_table(head, rows):
    """A markdown table, the form doc/performance.md quotes."""
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for row in rows:
        print("| " + " | ".join(str(cell) for cell in row) + " |")


def finish(problems, heading="Runs that did not pass:"):
    """List PROBLEMS under HEADING; the exit status: 1 if there are any."""
    if not problems:
        return 0
    print()
    print(heading)
    for p in problems:
        print("  " + p)
    return 1


def adapter_name(adapter):
    return "DPDK" if adapter == "dpdk" else adapter


# compare.sh: every case with both adapters, the two runs of a round back
# to back; medians of each adapter and the median of their ratios.

COMPARE_COLUMNS = [
    # key, heading, decimals
    ("out", "outstanding k", 0),
    ("mpps", "Mpps", 3),
    ("arm", "arm ns/timer", 0),
    ("arm99", "arm p99 ns", 0),
    ("late50", "late p50 us", 0),
    ("late99", "late p99 us", 0),
    ("svc", "svc ns/expiry", 0),
]


def compare_arm_ns(report):
    # The exact mean over the producers' timers: the histogram keeps
    # whole ns per call and would read about half a ns low.
    producers = report["producers"]
    armed = sum(p["armed"] for p in producers)
    if not armed:
        return None
    return sum(p["arm_latency_ns_avg"] * p["armed"] for p in producers) / armed


def compare_metrics(report):
    services = [s for s in report["services"]
                if s["what"].startswith("adapter")]
    expiries = sum(s["evtim_exp_count"] for s in report["adapter_stats"])
    busy_s = sum(s["callback_s"] for s in services)
    return {
        "out": report["throughput"]["outstanding_avg"] / 1000.0,
        "mpps": report["throughput"]["total_mpps"],
        "arm": compare_arm_ns(report),
        "arm99": report["arm_latency_ns"]["p99"],
        "late50": report["lateness_us"]["p50"],
        "late99": report["lateness_us"]["p99"],
        "svc": busy_s * 1e9 / expiries if expiries else None,
    }


def round_ratios(runs, key):
    """swtim / DPDK of each round that has both: the two runs of a round
    ran back to back under the same machine load."""
    ratios = []
    for r, dpdk in runs["dpdk"].items():
        swtim = runs["swtim"].get(r)
        if swtim is None:
            continue
        a, b = dpdk[key], swtim[key]
        if a and a == a and b is not None and b == b:
            ratios.append(b / a)
    return ratios


def compare(args):
    rows, problems, noise = [], [], []
    rounds = range(1, args.rounds + 1)
    for case in args.cases:
        runs = {"dpdk": {}, "swtim": {}}
        for adapter, by_round in runs.items():
            for r in rounds:
                path = os.path.join(args.out,
                                    "%s-%s-r%d.json" % (case, adapter, r))
                report = read_run(path, "%s %s round %d" % (case, adapter, r),
                                  problems)
                # A stalled or lossy run's figures say nothing about the
                # adapter: listed, and kept out of the medians.
                if passed(report):
                    by_round[r] = compare_metrics(report)
        cells = [case]
        for key, _, decimals in COMPARE_COLUMNS:
            a, b = (median(m[key] for m in runs[ad].values())
                    for ad in ("dpdk", "swtim"))
            cell = "%s / %s" % (fmt(a, decimals), fmt(b, decimals))
            if key != "out":
                ratio = median(round_ratios(runs, key))
                cell += " (%s)" % fmt(ratio, 2)
            cells.append(cell)
        rows.append(cells)
        noise.append("%-20s DPDK %s  swtim %s" % ((case,) + tuple(
            " ".join(fmt(runs[ad][r]["mpps"], 3) if r in runs[ad] else "-"
                     for r in rounds)
            for ad in ("dpdk", "swtim"))))

    head = ["case"] + ["%s DPDK / swtim%s" % (name, "" if key == "out"
                                              else " (x)")
                       for key, name, _ in COMPARE_COLUMNS]
    print("Medians of %d round(s); (x) = median over the rounds of swtim / DPDK"
          " (the two runs of a round ran back to back). Mpps: higher is better;"
          " the others: lower is better." % args.rounds)
    print()
    print_table(head, rows)
    print()
    print("Mpps of each round, to judge the noise:")
    for line in noise:
        print("  " + line)
    return finish(problems, "Runs that did not pass (lost, duplicate or"
                  " early expiries, errors), left out of the medians and"
                  " ratios:")


# lateness.sh: per tick and offered rate, both adapters, how late the
# expiries reach the worker against the tick.

def lateness(args):
    head = ["tick us", "timers/s", "adapter",
            "late p50 / p99 / p99.9 / max us", "p99 in ticks",
            "p99 beyond a tick, us", "lost / early"]
    rows, problems = [], []
    for tick in args.ticks:
        for rate in args.rates:
            for adapter in ("dpdk", "swtim"):
                reports = []
                for r in range(1, args.rounds + 1):
                    name = "t%s-q%s-%s-r%d.json" % (tick, rate, adapter, r)
                    label = "tick %s, %s/s, %s, round %d" % (tick, rate,
                                                             adapter, r)
                    report = read_run(os.path.join(args.out, name), label,
                                      problems)
                    if report is not None:
                        reports.append(report)
                # Lost and early over every run; the figures from the
                # runs that passed only (a failed run's are not the
                # adapter's).
                lost_early = "%d / %d" % (sum(j["lost"] for j in reports),
                                          sum(j["early"] for j in reports))
                good = [j for j in reports
                        if passed(j) and j["lateness_us"]["count"]]
                if not good:
                    rows.append(["%g" % (int(tick) / 1000.0), rate,
                                 adapter_name(adapter)] + ["-"] * 3 +
                                [lost_early])
                    continue

                def late(key):
                    return median(j["lateness_us"][key] for j in good)

                tick_us = median(j["config"]["timer_tick_nsec_in_force"]
                                 / 1000.0 for j in good)
                p99 = late("p99")
                rows.append(["%g" % tick_us, rate, adapter_name(adapter),
                             "%s / %s / %s / %s" % (fmt(late("p50"), 1),
                                                    fmt(p99, 1),
                                                    fmt(late("p999"), 1),
                                                    fmt(late("max"))),
                             fmt(p99 / tick_us, 2),
                             fmt(max(0.0, p99 - tick_us), 1),
                             lost_early])

    print("Medians of %d round(s). Lateness: the timer's deadline (TSC before"
          % args.rounds)
    print("its arm call plus its timeout) to the worker's dequeue. Both adapters")
    print("fire a timer at the first tick of theirs that starts at or after its")
    print("deadline, so up to one tick of lateness is the tick itself; what lies")
    print("beyond is the service's scan, the event device and the worker.")
    print()
    print_table(head, rows)
    return finish(problems)


# power.sh: rows = loads, a group of columns per max sleep, one run each.

def cpu_share(lcores, key):
    """Percent of one CPU, summed over LCORES; None where one lacks it."""
    shares = [c.get(key) for c in lcores]
    if not shares or None in shares:
        return None
    return 100.0 * sum(shares)


def power(args):
    head = ["load"]
    for sleep in args.sleeps:
        head += ["%s us: svc / wkr CPU %%" % sleep, "runnable %",
                 "late avg / p99 / max us", "lost"]
    rows, notes, problems = [], [], []
    for load in args.loads:
        cells = [load]
        for sleep in args.sleeps:
            report = read_run(os.path.join(args.out,
                                           "%s-%s.json" % (load, sleep)),
                              "%s, max sleep %s" % (load, sleep), problems)
            if report is None:
                cells += ["-"] * 4
                continue
            if not passed(report):
                # A failed run's figures are not the adapter's: its
                # losses only, and the reason below the table.
                cells += ["-"] * 3 + ["%d" % report["lost"]]
                continue
            workers = report["throughput"]["workers"]
            services = report["service_lcores"]
            cells.append("%s / %s" % (fmt(cpu_share(services, "cpu_share")),
                                      fmt(cpu_share(workers, "cpu_share"))))
            cells.append("%s / %s" % (
                fmt(cpu_share(services, "runnable_share")),
                fmt(cpu_share(workers, "runnable_share"))))
            late = report["lateness_us"]
            if late["count"]:
                cells.append("%.0f / %.0f / %.0f" % (late["avg"], late["p99"],
                                                    late["max"]))
            else:
                cells.append("-")
            cells.append("%d" % report["lost"])
            expected = report.get("load_expected", 0)
            notes.append("%-7s %5s us: armed %8d%s, dup %d, early %d, worker"
                         " slept %.2f s in %d naps, %.2f s run" % (
                             load, sleep, report["armed"],
                             " of %d" % expected if expected else "",
                             report["duplicates"], report["early"],
                             sum(w.get("sleep_s", 0) for w in workers),
                             sum(w.get("sleeps", 0) for w in workers),
                             report["run_s"]))
        rows.append(cells)

    print("CPU %: thread CPU time (schedstat) / wall time; runnable %: CPU time")
    print("plus time waiting for a CPU / wall time, the share a thread would")
    print("use on a CPU of its own. svc = the adapter's service lcore, wkr = the")
    print("worker. Lateness: deadline to dequeue by the worker.")
    print()
    print_table(head, rows)
    print()
    for line in notes:
        print("  " + line)
    return finish(problems)


# scaling.sh: per series, a row per adapter and number of service lcores.

def scaling_figures(report):
    """The per-run figures of a row, None where a run cannot give one."""
    services = report["service_lcores"]
    stats = report["adapter_stats"]
    cpu_s = sum(s["cpu_s"] or 0 for s in services)
    wall_s = max(s["wall_s"] for s in services) if services else 0
    runnable = [s.get("runnable_share") for s in services]
    enqueued = sum(s["ev_enq_count"] for s in stats)
    retried = sum(s["evtim_retry_count"] for s in stats)
    return {
        "cpu": 100.0 * cpu_s / wall_s if wall_s else None,
        "runnable": (100.0 * sum(runnable)
                     if runnable and None not in runnable else None),
        "per_cpu_s": enqueued / cpu_s / 1e6 if cpu_s else None,
        "late50": report["lateness_us"]["p50"],
        "late99": report["lateness_us"]["p99"],
        "refusals": retried / enqueued if enqueued else None,
        "arm": report["arm_latency_ns"]["avg"],
    }


def scaling(args):
    head = ["adapter", "service lcores", "Mpps at workers (min-max)",
            "service CPU % (runnable %)", "M expiries / service CPU-s",
            "late p50 / p99 us", "arm ns / timer", "device refusals / expiry",
            "lost / dup / early"]
    table, problems = [], []
    for row in args.rows:
        adapter, nb_lcores = row.split(":")
        reports = []
        for r in range(1, args.rounds + 1):
            name = "%s-%s-%s-r%d.json" % (args.series, adapter, nb_lcores, r)
            label = "%s, %s service lcore(s), round %d" % (adapter, nb_lcores,
                                                           r)
            report = read_run(os.path.join(args.out, name), label, problems)
            if report is not None:
                reports.append(report)
        # Lost, duplicate and early over every run; the figures from the
        # runs that passed only (a failed run's are not the adapter's).
        counts = "%d / %d / %d" % tuple(sum(j[k] for j in reports)
                                        for k in ("lost", "duplicates",
                                                  "early"))
        good = [j for j in reports if passed(j)]
        if not good:
            table.append([adapter_name(adapter), nb_lcores] +
                         ["-"] * (len(head) - 3) + [counts])
            continue
        mpps = [j["throughput"]["total_mpps"] for j in good]
        figures = [scaling_figures(j) for j in good]

        def med(key):
            return median(f[key] for f in figures)

        ports = good[0]["config"].get("adapter_ports", 1)
        table.append([
            adapter_name(adapter) +
            (" (%d ports)" % ports if ports > 1 else ""),
            nb_lcores,
            "%s (%s-%s)" % (fmt(median(mpps), 2), fmt(min(mpps), 2),
                            fmt(max(mpps), 2)),
            "%s (%s)" % (fmt(med("cpu")), fmt(med("runnable"))),
            fmt(med("per_cpu_s"), 2),
            "%s / %s" % (fmt(med("late50")), fmt(med("late99"))),
            fmt(med("arm")),
            fmt(med("refusals"), 2),
            counts,
        ])

    print("Medians of %d round(s). Mpps: expiry events dequeued per second by"
          " the workers, steady part. Service CPU %%: the service lcores' CPU"
          " time from the OS over wall time, summed (100 = one CPU); runnable:"
          " plus the time they waited for a CPU. Expiries per service CPU-"
          "second: events the adapter enqueued / that CPU time. Device"
          " refusals: expiry events the device refused at first (retried)"
          " per expiry. Arm ns: per timer, arm calls' time / timers armed."
          % args.rounds)
    print()
    print_table(head, table)
    return finish(problems)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="table", required=True)

    p = sub.add_parser("compare", help="compare.sh's table")
    p.add_argument("--out", required=True)
    p.add_argument("--rounds", type=int, required=True)
    p.add_argument("--cases", nargs="+", required=True)
    p.set_defaults(run=compare)

    p = sub.add_parser("lateness", help="lateness.sh's table")
    p.add_argument("--out", required=True)
    p.add_argument("--rounds", type=int, required=True)
    p.add_argument("--ticks", nargs="+", required=True)
    p.add_argument("--rates", nargs="+", required=True)
    p.set_defaults(run=lateness)

    p = sub.add_parser("power", help="power.sh's table")
    p.add_argument("--out", required=True)
    p.add_argument("--loads", nargs="+", required=True)
    p.add_argument("--sleeps", nargs="+", required=True)
    p.set_defaults(run=power)

    p = sub.add_parser("scaling", help="scaling.sh's table of one series")
    p.add_argument("--out", required=True)
    p.add_argument("--rounds", type=int, required=True)
    p.add_argument("--series", required=True)
    p.add_argument("--rows", nargs="+", required=True,
                   metavar="ADAPTER:SERVICE_LCORES")
    p.set_defaults(run=scaling)

    args = ap.parse_args()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
