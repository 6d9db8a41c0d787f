#!/usr/bin/env python3
"""Turns the text output of `swift package --package-path Benchmarks benchmark`
into the Markdown table of Benchmarks/README.md.

    python3 Benchmarks/Scripts/summarize.py run1.txt run2.txt run3.txt

reads one or more runs (stdin when none is given). With several runs, each
benchmark keeps its best run (lowest p50): on a shared machine the other
runs measure the neighbours' load rather than the code.

Benchmarks are named `<group> · <subject>`. In each group, a subject that starts
with `baseline`, `NIO` or `Swift` is a baseline; every other subject is compared
with every baseline of its group. Figures are per operation (the benchmarks run
1,000 operations per sample): wall-clock p50 and p0 (best sample) in ns, and the
number of mallocs (p50). Ratios are subject / baseline at p50 and at p0.

A subject measured with a number of threads (a name with ", 1 thread" or ", 2
threads") is compared only with the baselines of the same number, and a second
table gives each such subject's scaling: two threads' throughput over one
thread's, 2 × (time of one thread) ÷ (time of two threads), at p50.
"""
import re
import sys

BASELINE = re.compile(r"^(baseline|NIO|Swift)\b")
THREADS = re.compile(r", (\d+) threads?\b")


def threads(subject):
    """The number of threads a subject names, or None."""
    match = THREADS.search(subject)
    return int(match.group(1)) if match else None


def parse(lines):
    results = {}
    name = None
    for line in lines:
        line = line.rstrip("\n")
        if " · " in line and not line.startswith(("│", "╒", "╞", "├", "╘")):
            name = line.strip()
            results[name] = {}
            continue
        if name is None or not line.startswith("│"):
            continue
        cells = [c.strip() for c in line.strip("│").split("│")]
        if len(cells) < 9:
            continue
        metric = cells[0]
        try:
            numbers = [float(c) for c in cells[1:8]]
        except ValueError:
            continue
        if metric.startswith("Time (wall clock)"):
            unit = re.search(r"\((ns|us|μs|ms|s)\)", metric)
            scale = {"ns": 1, "us": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9}[unit.group(1) if unit else "ns"]
            results[name]["p0"] = numbers[0] * scale
            results[name]["p50"] = numbers[2] * scale
        elif metric.startswith("Malloc (total)"):
            results[name]["mallocs"] = int(numbers[2])
    return results


def main():
    runs = [parse(open(path)) for path in sys.argv[1:]] or [parse(sys.stdin)]
    results = {}
    for run in runs:
        for name, figures in run.items():
            if "p50" not in figures:
                continue
            if name not in results or figures["p50"] < results[name]["p50"]:
                results[name] = figures
    groups = {}
    for name, figures in results.items():
        if "p50" not in figures:
            continue
        group, subject = name.split(" · ", 1)
        groups.setdefault(group, []).append((subject, figures))
    print("| Benchmark | p50 ns | p0 ns | mallocs | Baseline | p50 ns | p0 ns | mallocs | ratio p50 | ratio p0 |")
    print("|---|--:|--:|--:|---|--:|--:|--:|--:|--:|")
    for group, rows in groups.items():
        baselines = [r for r in rows if BASELINE.match(r[0])]
        subjects = [r for r in rows if not BASELINE.match(r[0])]
        for subject, s in subjects:
            same = [r for r in baselines if threads(r[0]) == threads(subject)]
            for baseline, b in same or [("—", {})]:
                ratio50 = f"{s['p50'] / b['p50']:.2f}×" if b.get("p50") else "—"
                ratio0 = f"{s['p0'] / b['p0']:.2f}×" if b.get("p0") else "—"
                b50 = f"{b['p50']:.0f}" if b.get("p50") else "—"
                b0 = f"{b['p0']:.0f}" if b.get("p0") else "—"
                print(
                    f"| {group} · {subject} | {s['p50']:.0f} | {s['p0']:.0f} | {s.get('mallocs', '—')} "
                    f"| {baseline} | {b50} | {b0} | {b.get('mallocs', '—')} "
                    f"| {ratio50} | {ratio0} |"
                )
    print_scaling(groups)


def print_scaling(groups):
    """The scaling table: every subject measured with one and with two threads."""
    rows = []
    for group, subjects in groups.items():
        figures = {}
        for subject, s in subjects:
            count = threads(subject)
            if count in (1, 2):
                figures.setdefault(THREADS.split(subject)[0], {})[count] = s["p50"]
        for subject, by in figures.items():
            if 1 in by and 2 in by:
                rows.append((group, subject, by[1], by[2]))
    if not rows:
        return
    print()
    print("| group | subject | 1 thread | 2 threads | scaling |")
    print("|---|---|--:|--:|--:|")
    for group, subject, one, two in rows:
        print(f"| {group} | {subject} | {one / 1e6:.2f} ms | {two / 1e6:.2f} ms | {2 * one / two:.2f}× |")


if __name__ == "__main__":
    main()
