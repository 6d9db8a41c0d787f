#!/usr/bin/env python3
"""Replays trace rows through the HitRatio tool under one or more seeds and
prints the hit-ratio table (one seed) or the spread over seeds (several).

    python3 Benchmarks/Scripts/hit-ratio-report.py --tool PATH --traces DIR \
        [--synthetic DIR] [--seeds 0] [--jobs 2] [--cache FILE]

--traces DIR     the shared traces: DIR/README.md's rows and DIR/<trace>.keys.gz
--synthetic DIR  also the synthetic traces written by synthetic-traces.py
                 (DIR/rows.txt: name size LRU OPT; DIR/<name>.keys)
--seeds 0,1,...  seeds passed to HitRatio --seed; one seed prints the table,
                 several print each row's minimum and maximum over the seeds
--cache FILE     keeps the LRU and W-TinyLFU columns (per trace, size and
                 seed) between runs, so only the adaptive column is replayed;
                 delete it when the fixed policy's code changes
A row "holds" when adaptive >= max(LRU, W-TinyLFU) - 0.5.
"""
import argparse
import gzip
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def shared_rows(folder):
    rows = []
    pattern = re.compile(r"^\| ([a-z0-9_-]+) \| [0-9]+ \| [0-9]+ \| ([0-9]+) \| ([0-9.]+) \| ([0-9.]+) \|")
    with open(os.path.join(folder, "README.md")) as readme:
        for line in readme:
            match = pattern.match(line)
            if match:
                name, size, lru, opt = match.groups()
                rows.append((name, int(size), float(opt), os.path.join(folder, f"{name}.keys.gz")))
    return rows


def synthetic_rows(folder):
    rows = []
    with open(os.path.join(folder, "rows.txt")) as listing:
        for line in listing:
            name, size, _lru, opt = line.split()
            rows.append((name, int(size), float(opt), os.path.join(folder, f"{name}.keys")))
    return rows


def replay(tool, path, sizes, seed, policies):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as trace:
        data = trace.read()
    command = [tool, "--tsv", "--seed", str(seed), "--policies", ",".join(policies)]
    output = subprocess.run(command + [str(s) for s in sizes], input=data, capture_output=True, check=True)
    result = {}
    for line in output.stdout.decode().splitlines():
        fields = line.split("\t")
        result[int(fields[0])] = dict(zip(policies, map(float, fields[1:])))
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--traces", required=True)
    parser.add_argument("--synthetic")
    parser.add_argument("--seeds", default="0")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    groups = [("shared", shared_rows(args.traces))]
    if args.synthetic:
        groups.append(("unseen (synthetic)", synthetic_rows(args.synthetic)))
    cache = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as file:
            cache = json.load(file)

    jobs = []
    for _, rows in groups:
        paths = {}
        for name, size, _, path in rows:
            paths.setdefault(path, []).append(size)
        for path, sizes in paths.items():
            for seed in seeds:
                cached = all(f"{path}|{size}|{seed}" in cache for size in sizes)
                policies = ["adaptive"] if cached else ["lru", "tinyLFU", "adaptive"]
                jobs.append((path, sizes, seed, policies))
    # Longest traces first, so the pool stays busy.
    jobs.sort(key=lambda job: -os.path.getsize(job[0]))
    results = {}
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = [(job, pool.submit(replay, args.tool, *job)) for job in jobs]
        for (path, sizes, seed, _), future in futures:
            for size, ratios in future.result().items():
                key = f"{path}|{size}|{seed}"
                if "lru" in ratios:
                    cache[key] = {"lru": ratios["lru"], "tinyLFU": ratios["tinyLFU"]}
                results[key] = dict(cache[key], adaptive=ratios["adaptive"])
    if args.cache:
        with open(args.cache, "w") as file:
            json.dump(cache, file)

    for title, rows in groups:
        print(f"\n### {title}: seeds {args.seeds}\n")
        if len(seeds) == 1:
            print("| trace | size | LRU % | W-TinyLFU (1% window) % | adaptive W-TinyLFU % | OPT % | adaptive − max(LRU, W-TinyLFU) | OPT − adaptive |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|")
        else:
            print("| trace | size | LRU % | W-TinyLFU % min–max | adaptive % min–max | OPT % | adaptive − max, min–max | OPT − adaptive, mean |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|")
        gaps = {seed: 0.0 for seed in seeds}
        below_half = {seed: 0 for seed in seeds}
        below_one = {seed: 0 for seed in seeds}
        worst_margins = []
        for name, size, opt, path in rows:
            values = [results[f"{path}|{size}|{seed}"] for seed in seeds]
            lru = values[0]["lru"]
            fixed = [v["tinyLFU"] for v in values]
            adaptive = [v["adaptive"] for v in values]
            margins = [v["adaptive"] - max(v["lru"], v["tinyLFU"]) for v in values]
            for seed, v, m in zip(seeds, values, margins):
                gaps[seed] += opt - v["adaptive"]
                below_half[seed] += m < -0.5
                below_one[seed] += m < -1
            worst_margins.append((min(margins), name, size))
            if len(seeds) == 1:
                print(f"| {name} | {size} | {lru:.2f} | {fixed[0]:.2f} | {adaptive[0]:.2f} | {opt:.2f} | {margins[0]:+.2f} | {opt - adaptive[0]:.2f} |")
            else:
                mean_gap = opt - sum(adaptive) / len(adaptive)
                print(f"| {name} | {size} | {lru:.2f} | {min(fixed):.2f}–{max(fixed):.2f} | {min(adaptive):.2f}–{max(adaptive):.2f} | {opt:.2f} | {min(margins):+.2f} … {max(margins):+.2f} | {mean_gap:.2f} |")
        count = len(rows)
        print()
        for seed in seeds:
            print(f"seed {seed}: mean gap of adaptive to OPT {gaps[seed] / count:.2f} points over {count} rows; "
                  f"rows below max(LRU, W-TinyLFU) − 0.5: {below_half[seed]}, below max − 1: {below_one[seed]}")
        worst = min(worst_margins)
        print(f"worst row over the seeds: {worst[1]} {worst[2]} {worst[0]:+.2f}; "
              f"rows whose minimum over the seeds is below max − 1: {sum(m < -1 for m, _, _ in worst_margins)}")


if __name__ == "__main__":
    sys.exit(main())
