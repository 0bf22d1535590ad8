#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors

"""Run swtim-test-eventdev and check its exit status and its JSON report.

Usage:
  check_json.py [--json FILE] [--expect-rc N] -- COMMAND [ARGS...]
  check_json.py --json FILE            (check an existing report only)

In COMMAND's arguments, @CPUS@ is replaced by the CPUs this process may
run on (at most two, e.g. "0-1" or "3": tev_cpu_list in tev_lib.sh), so
that an EAL --lcores map fits the machine. Given --json and --expect-rc 0 (the default), the JSON report must
show a clean run: every timer asked for armed, received once, none early
or lost, and the counts consistent with each other. For a timed load
(--load=idle|low|high|bursty) the timers asked for are those the
producers armed in the duration: none for idle, some for the others.
"""

import argparse
import json
import os
import subprocess
import sys


def cpu_list():
    """The scripts' CPU pick, tev_cpu_list of tev_lib.sh beside this file,
    so that the meson tests place their lcores as the scripts do."""
    lib = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "tev_lib.sh")
    return subprocess.run(["bash", "-c", '. "$1" && tev_cpu_list',
                           "bash", lib], check=True, capture_output=True,
                          text=True).stdout.strip()


def check_report(path):
    """Return a list of problems found in the report."""
    with open(path) as f:
        r = json.load(f)
    bad = []

    def expect(cond, what):
        if not cond:
            bad.append(what)

    cfg = r["config"]
    load = cfg.get("load", "count")
    if load == "count":
        asked = cfg["nb_timers"] * cfg["nb_producers"]
    else:
        asked = r["armed"]
        if load == "idle":
            expect(r["armed"] == 0, "idle load armed %d timers" % r["armed"])
        else:
            expect(r["armed"] > 0, "%s load armed no timer" % load)
    expect(r["result"] == "pass", "result is %r (%s)" % (r["result"], r["failure"]))
    expect(r["complete"], "run did not complete")
    expect(r["lost"] == 0, "lost = %d" % r["lost"])
    expect(r["early"] == 0, "early = %d" % r["early"])
    expect(r["duplicates"] == 0, "duplicates = %d" % r["duplicates"])
    expect(r["asked"] == asked, "asked %d, config says %d" % (r["asked"], asked))
    expect(r["armed"] == asked, "armed %d of %d" % (r["armed"], asked))
    expect(r["received"] == r["armed"],
           "received %d != armed %d" % (r["received"], r["armed"]))
    expect(r["processed"] == r["received"],
           "processed %d != received %d" % (r["processed"], r["received"]))
    expect(r["lost"] == r["armed"] - r["received"], "lost != armed - received")

    prods = r["producers"]
    expect(len(prods) == cfg["nb_producers"], "producer count")
    expect(sum(p["armed"] for p in prods) == r["armed"],
           "producers' armed do not add up")
    for p in prods:
        expect(p["error"] == 0, "producer %d error %d" % (p["lcore"], p["error"]))
        expect(p["arm_latency_ns"]["count"] == p["armed"],
               "producer %d: arm histogram count" % p["lcore"])
        expect(p["arm_latency_us_upstream"] >= 0, "negative arm latency")

    workers = r["throughput"]["workers"]
    expect(len(workers) == cfg["nb_workers"], "worker count")
    expect(sum(w["received"] for w in workers) == r["received"],
           "workers' received do not add up")
    expect(sum(w["early"] for w in workers) == r["early"], "early does not add up")
    expect(sum(w["duplicates"] for w in workers) == r["duplicates"],
           "duplicates do not add up")
    if load != "idle":
        expect(r["throughput"]["total_mpps"] > 0, "no throughput")
    expect(r["lateness_us"]["count"] == r["received"],
           "lateness histogram count %d != received %d"
           % (r["lateness_us"]["count"], r["received"]))
    late = r["lateness_us"]
    expect(late["p50"] <= late["p99"] <= late["max"] + 1e-9,
           "lateness percentiles out of order")
    expect(r["lateness_min_us"] >= 0, "negative lateness")
    lows = [b[0] for b in late["buckets"]]
    expect(sum(b[1] for b in late["buckets"]) == late["count"],
           "lateness buckets hold %d samples, count says %d"
           % (sum(b[1] for b in late["buckets"]), late["count"]))
    expect(lows == sorted(set(lows)) and all(b[1] > 0 for b in late["buckets"]),
           "lateness buckets not ascending, or one empty")

    stats = r["adapter_stats"]
    expect(len(stats) == cfg["nb_timer_adptrs"], "adapter stats count")
    expect(all(s["valid"] for s in stats), "adapter stats unavailable")
    enq = sum(s["ev_enq_count"] for s in stats)
    exp = sum(s["evtim_exp_count"] for s in stats)
    expect(enq == r["received"], "adapters enqueued %d, received %d"
           % (enq, r["received"]))
    expect(exp == r["armed"], "adapters expired %d, armed %d"
           % (exp, r["armed"]))
    expect(len(r["services"]) >= 1, "no service measured")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="report to check")
    ap.add_argument("--expect-rc", type=int, default=0,
                    help="exit status the command must return")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd

    if cmd:
        cpus = cpu_list()
        cmd = [c.replace("@CPUS@", cpus) for c in cmd]
        if a.json and os.path.exists(a.json):
            os.unlink(a.json)
        print("running:", " ".join(cmd), flush=True)
        rc = subprocess.call(cmd)
        if rc != a.expect_rc:
            print("FAIL: exit status %d, expected %d" % (rc, a.expect_rc))
            return 1
        if a.expect_rc != 0 or not a.json:
            print("ok: exit status %d" % rc)
            return 0
    if not a.json:
        print("nothing to check")
        return 1
    try:
        bad = check_report(a.json)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("FAIL: report %s: %s" % (a.json, e))
        return 1
    for b in bad:
        print("FAIL:", b)
    if not bad:
        print("ok: %s" % a.json)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
