#!/usr/bin/env python3
"""Prints, for every row of the hit-ratio table, the hit ratio of a cache that
knows each key's total count in the trace in advance and holds the `size` most
requested keys for the whole trace (each key's first request still misses): the
best any policy that ranks keys by frequency alone can do when the popularity
does not change (a static-LFU oracle). Beside it: OPT, and how far the oracle
is from OPT. Where OPT is far above the oracle, the missing hits come from
*when* keys are requested (loops, phases, reuse distances), which no better
frequency estimate can give.

    python3 Benchmarks/Scripts/frequency-bound.py [--synthetic DIR] [traces-folder]

The folder (default ../shared/traces next to the repository) holds the shared
traces and their README.md; --synthetic DIR adds the rows written by
synthetic-traces.py.
"""
import argparse
import gzip
import os
from collections import Counter
from importlib.machinery import SourceFileLoader

here = os.path.dirname(os.path.abspath(__file__))
report = SourceFileLoader("report", os.path.join(here, "hit-ratio-report.py")).load_module()


def bound(path, sizes):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as trace:
        keys = trace.read().split()
    counts = sorted(Counter(keys).values(), reverse=True)
    return {size: 100 * (sum(counts[:size]) - min(size, len(counts))) / len(keys) for size in sizes}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("traces", nargs="?", default=os.path.join(here, "..", "..", "..", "shared", "traces"))
    parser.add_argument("--synthetic")
    args = parser.parse_args()
    groups = [("shared", report.shared_rows(args.traces))]
    if args.synthetic:
        groups.append(("unseen (synthetic)", report.synthetic_rows(args.synthetic)))
    for title, rows in groups:
        print(f"\n### {title}\n")
        print("| trace | size | static-LFU oracle % | OPT % | OPT − oracle |")
        print("|---|---:|---:|---:|---:|")
        paths = {}
        for name, size, _, path in rows:
            paths.setdefault(path, []).append(size)
        bounds = {path: bound(path, sizes) for path, sizes in paths.items()}
        for name, size, opt, path in rows:
            value = bounds[path][size]
            print(f"| {name} | {size} | {value:.2f} | {opt:.2f} | {opt - value:.2f} |")


if __name__ == "__main__":
    main()
