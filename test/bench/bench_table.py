#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
"""Markdown tables from swtim-bench --json files.

    test/bench/bench_table.py [--best | --median] RESULTS.json [MORE.json ...]

Results of several runs (say 1k,64k,1M and a separate 4M) are merged; a
later file wins for the same impl/case/dist/size, or with --best the
lowest cycles win, with --median the median of the files that have the
cell (several runs of the same sizes on a shared machine); either way the
ratios are computed again from the cells kept. One row per case,
distribution and implementation, one column per size; each cell is the
cycles per operation, followed for swtim by the ratio to DPDK's adapter
(or rte_mempool) in parentheses.

The multi-producer rows (--producers, with a "producers" field) get a
table of their own: one row per case, distribution, implementation and
size, one column per producer count; each cell the median producer's
cycles per timer (median over the loops), the ratio to DPDK's adapter
with as many producers in parentheses.
"""

import json
import statistics
import sys

CASES = ["arm", "arm_burst", "arm_tmo_tick_burst", "cancel", "cancel_burst",
         "expiry", "alloc_fast", "alloc_return", "alloc_slow",
         "mp_arm", "mp_arm_burst", "mp_cancel", "mp_cancel_burst",
         "mp_cross_cancel", "mp_cross_cancel_burst"]
IMPLS = ["dpdk", "skiplist", "wheel", "dpdk-api-skiplist", "dpdk-api-wheel",
         "floor", "mempool", "recycler"]
# What each implementation's ratio is taken against (floor: nothing): a
# driver through DPDK's API against the same driver's own API.
REFS = {"skiplist": "dpdk", "wheel": "dpdk", "recycler": "mempool",
        "dpdk-api-skiplist": "skiplist", "dpdk-api-wheel": "wheel"}


def size_str(n):
    if n >= 1000000 and n % 1000000 == 0:
        return "%dM" % (n // 1000000)
    if n >= 1000 and n % 1000 == 0:
        return "%dk" % (n // 1000)
    return str(n)


def rank(known, x):
    return known.index(x) if x in known else len(known)


def cell(r):
    c = "%.0f" % r["cycles"] if r["cycles"] >= 10 else "%.1f" % r["cycles"]
    if "ratio" in r:
        c += " (%.2f)" % r["ratio"] if r["ratio"] >= 0.1 else \
            " (%.3f)" % r["ratio"]
    return c


def merge(paths, mode):
    """{(case, dist, impl, n, producers): result}; producers 0: single."""
    runs = {}
    hz = set()
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        hz.add(data.get("tsc_hz"))
        for r in data["results"]:
            key = (r["case"], r["dist"], r["impl"], r["n"],
                   r.get("producers", 0))
            runs.setdefault(key, []).append(dict(r))
    results = {}
    for key, rs in runs.items():
        if mode == "best":
            results[key] = min(rs, key=lambda r: r["cycles"])
        elif mode == "median":
            r = dict(rs[-1])
            r["cycles"] = statistics.median(x["cycles"] for x in rs)
            results[key] = r
        else:
            results[key] = rs[-1]
    # The ratios from the cells kept, whichever file each came from.
    for (case, dist, impl, n, p), r in results.items():
        r.pop("ratio", None)
        ref = results.get((case, dist, REFS.get(impl), n, p))
        if ref is not None and ref["cycles"] > 0:
            r["ratio"] = r["cycles"] / ref["cycles"]
    return results, hz


def order(k):
    return (rank(CASES, k[0]), k[0], k[1], rank(IMPLS, k[2]), k[2])


def single_table(results):
    single = {k[:4]: r for k, r in results.items() if k[4] == 0}
    if not single:
        return
    sizes = sorted({k[3] for k in single})
    rows = sorted({k[:3] for k in single}, key=order)
    print("Cycles per operation (minimum over the loops); (x) = ratio to "
          "dpdk / mempool (dpdk-api-X: to X).")
    print()
    print("| case | timeouts | impl | " +
          " | ".join(size_str(n) for n in sizes) + " |")
    print("|---|---|---|" + "---:|" * len(sizes))
    for case, dist, impl in rows:
        cells = [cell(single[(case, dist, impl, n)])
                 if (case, dist, impl, n) in single else ""
                 for n in sizes]
        print("| %s | %s | %s | %s |" % (case, dist, impl, " | ".join(cells)))


def mp_table(results):
    mp = {k: r for k, r in results.items() if k[4] > 0}
    if not mp:
        return
    counts = sorted({k[4] for k in mp})
    rows = sorted({k[:4] for k in mp}, key=lambda k: (k[3],) + order(k))
    shared = sorted({k[4] for k, r in mp.items() if r.get("cpus_shared")})
    print("Several producers: cycles per timer of the median producer "
          "(median over the loops); (x) = ratio to dpdk with as many "
          "producers." + (" Producers SHARED CPUs at p = %s: no scaling "
                          "figures there." %
                          ", ".join(str(p) for p in shared)
                          if shared else ""))
    print()
    print("| case | timeouts | impl | outstanding | " +
          " | ".join("p=%d" % p for p in counts) + " |")
    print("|---|---|---|---|" + "---:|" * len(counts))
    for case, dist, impl, n in rows:
        cells = [cell(mp[(case, dist, impl, n, p)])
                 if (case, dist, impl, n, p) in mp else ""
                 for p in counts]
        print("| %s | %s | %s | %s | %s |" % (case, dist, impl, size_str(n),
                                             " | ".join(cells)))


def main(args):
    if "-h" in args or "--help" in args:
        print(__doc__)
        return
    mode = "best" if "--best" in args else \
        "median" if "--median" in args else "last"
    paths = [a for a in args if a not in ("--best", "--median")]
    bad = [a for a in paths if a.startswith("-")]
    if bad:
        sys.exit("bench_table.py: unknown option %s; see --help" % bad[0])
    results, hz = merge(paths, mode)
    print("TSC: %s Hz." % ", ".join(str(h) for h in sorted(hz)))
    print()
    single_table(results)
    if any(k[4] == 0 for k in results) and any(k[4] > 0 for k in results):
        print()
    mp_table(results)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
