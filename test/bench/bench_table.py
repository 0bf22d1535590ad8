#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
"""Markdown tables from swtim-bench --json files.

    test/bench/bench_table.py [--best] RESULTS.json [MORE.json ...]

Results of several runs (say 1k,64k,1M and a separate 4M) are merged; a
later file wins for the same impl/case/dist/size, or with --best the
lowest cycles win (several runs of the same sizes on a shared machine);
either way the ratios are computed again from the cells kept. One row per case,
distribution and implementation, one column per size; each cell is the
cycles per operation, followed for swtim by the ratio to DPDK's adapter
(or rte_mempool) in parentheses.
"""

import json
import sys

CASES = ["arm", "arm_burst", "arm_tmo_tick_burst", "cancel", "cancel_burst",
         "expiry", "alloc_fast", "alloc_return", "alloc_slow"]
IMPLS = ["dpdk", "skiplist", "wheel", "floor", "mempool", "recycler"]
# What each implementation's ratio is taken against (floor: nothing).
REFS = {"skiplist": "dpdk", "wheel": "dpdk", "recycler": "mempool"}


def size_str(n):
    if n >= 1000000 and n % 1000000 == 0:
        return "%dM" % (n // 1000000)
    if n >= 1000 and n % 1000 == 0:
        return "%dk" % (n // 1000)
    return str(n)


def rank(known, x):
    return known.index(x) if x in known else len(known)


def main(args):
    best = "--best" in args
    paths = [a for a in args if a != "--best"]
    results = {}
    hz = set()
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        hz.add(data.get("tsc_hz"))
        for r in data["results"]:
            key = (r["case"], r["dist"], r["impl"], r["n"])
            if not best or key not in results or \
                    r["cycles"] < results[key]["cycles"]:
                results[key] = dict(r)
    # The ratios from the cells kept, whichever file each came from.
    for (case, dist, impl, n), r in results.items():
        r.pop("ratio", None)
        ref = results.get((case, dist, REFS.get(impl), n))
        if ref is not None and ref["cycles"] > 0:
            r["ratio"] = r["cycles"] / ref["cycles"]
    sizes = sorted({k[3] for k in results})
    rows = sorted({k[:3] for k in results},
                  key=lambda k: (rank(CASES, k[0]), k[0], k[1],
                                 rank(IMPLS, k[2]), k[2]))
    print("TSC: %s Hz. Cycles per operation (minimum over the loops); "
          "(x) = ratio to dpdk / mempool." %
          ", ".join(str(h) for h in sorted(hz)))
    print()
    print("| case | timeouts | impl | " +
          " | ".join(size_str(n) for n in sizes) + " |")
    print("|---|---|---|" + "---:|" * len(sizes))
    for case, dist, impl in rows:
        cells = []
        for n in sizes:
            r = results.get((case, dist, impl, n))
            if r is None:
                cells.append("")
                continue
            c = "%.0f" % r["cycles"] if r["cycles"] >= 10 else \
                "%.1f" % r["cycles"]
            if "ratio" in r:
                c += " (%.2f)" % r["ratio"] if r["ratio"] >= 0.1 else \
                    " (%.3f)" % r["ratio"]
            cells.append(c)
        print("| %s | %s | %s | %s |" % (case, dist, impl, " | ".join(cells)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
