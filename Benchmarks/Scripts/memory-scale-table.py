#!/usr/bin/env python3
"""Prints the Markdown tables of the `memory.scale` group (Benchmarks/README.md,
"The memory level at real sizes"): get hits and sets, ns per operation (p50)
with each subject's ratio to Dictionary+Mutex of the same run (and, for the
levels, to the textbook LRU dictionary, the nearest baseline), and the two-thread
scaling of every subject.

    chrt -f 50 swift package --package-path Benchmarks benchmark --no-progress \\
        --filter 'memory\\.scale\\..*' > /tmp/scale1.txt      # as many runs as you like
    python3 Benchmarks/Scripts/memory-scale-table.py /tmp/scale*.txt

Each row keeps its best run (lowest p50), as summarize.py does; a ratio divides
figures of the same run.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import parse  # noqa: E402

DICTIONARY = "baseline Dictionary+Mutex"
SHARDED = "baseline sharded Dictionary+Mutex"
LRU_DICTIONARY = "baseline LRU Dictionary+Mutex"
ADAPTIVE = "Carlos MemoryCacheLevel adaptive"
LRU = "Carlos MemoryCacheLevel lru"
SIZES = {"1k": "1,000", "100k": "100,000", "1M": "1,000,000"}


def best_runs(paths):
    """One {group: {subject: p50}} per run. A subject's figure is its best p50 over
    the runs; its ratio divides it by the Dictionary+Mutex row of that same run."""
    runs = []
    for path in paths:
        with open(path) as text:
            groups = {}
            for name, figures in parse(text).items():
                if "p50" not in figures or " · " not in name:
                    continue
                group, subject = name.split(" · ", 1)
                groups.setdefault(group, {})[subject] = figures["p50"]
            runs.append(groups)
    return runs


def best(runs, group, subject):
    """The best p50 of `subject` in `group` and the run it came from."""
    found = [(run[group][subject], run) for run in runs if subject in run.get(group, {})]
    return min(found, key=lambda item: item[0]) if found else (None, None)


def cell(runs, group, subject):
    """The subject's best p50 with its ratio to Dictionary+Mutex of the same run and,
    for a level, the ratio to the LRU dictionary of that run after a slash."""
    value, run = best(runs, group, subject)
    if value is None:
        return "—"
    baseline = run[group].get(DICTIONARY)
    ratios = []
    if baseline and subject != DICTIONARY:
        ratios.append(f"{value / baseline:.2f}×")
    nearest = run[group].get(LRU_DICTIONARY)
    if nearest and subject in (ADAPTIVE, LRU):
        ratios.append(f"{value / nearest:.2f}×")
    return f"{value:.0f}" + (f" ({' / '.join(ratios)})" if ratios else "")


def main():
    runs = best_runs(sys.argv[1:])
    print(
        "Get hits, one thread, ns per get (ratio to Dictionary+Mutex of the same run;"
        " for the levels, then to the LRU dictionary of the same run):"
    )
    print()
    print("| stored keys | access | key | Dictionary+Mutex | sharded | LRU dictionary | adaptive | .lru |")
    print("|---|---|---|--:|--:|--:|--:|--:|")
    for size, label in SIZES.items():
        for access in ("uniform", "zipf"):
            for key in ("Int", "String"):
                group = f"memory.scale.get.{size}.{access}.{key}"
                print(
                    f"| {label} | {'Zipf 0.99' if access == 'zipf' else access} | {key} | "
                    + " | ".join(cell(runs, group, s) for s in (DICTIONARY, SHARDED, LRU_DICTIONARY, ADAPTIVE, LRU))
                    + " |"
                )
    print()
    print("Sets of new keys at capacity (90 % of the keys), ns per set:")
    print()
    print(
        "| stored keys | key | Dictionary+Mutex (FIFO bound) | sharded | LRU dictionary | adaptive | .lru |"
    )
    print("|---|---|--:|--:|--:|--:|--:|")
    for size, label in SIZES.items():
        for key in ("Int", "String"):
            group = f"memory.scale.set.{size}.{key}"
            print(
                f"| {label} | {key} | "
                + " | ".join(cell(runs, group, s) for s in (DICTIONARY, SHARDED, LRU_DICTIONARY, ADAPTIVE, LRU))
                + " |"
            )
    print()
    print("Two threads, random gets of shared keys (65,536 per thread per sample):")
    print()
    print("| hot keys | subject | 1 thread | 2 threads | scaling |")
    print("|---|---|--:|--:|--:|")
    for size in ("1k", "100k"):
        group = f"memory.scale.concurrent.{size}"
        for subject in (DICTIONARY, SHARDED, LRU_DICTIONARY, ADAPTIVE, LRU):
            suffix = "random get hits of shared keys"
            one, _ = best(runs, group, f"{subject}, 1 thread, {suffix}")
            two, _ = best(runs, group, f"{subject}, 2 threads, {suffix}")
            if one is None or two is None:
                continue
            print(
                f"| {SIZES[size]} | {subject} | {one / 1e6:.2f} ms | {two / 1e6:.2f} ms "
                f"| {2 * one / two:.2f}× |"
            )


if __name__ == "__main__":
    main()
