#!/usr/bin/env python3
"""Generates the synthetic traces of Benchmarks/README.md ("Synthetic traces")
and computes their LRU and OPT (Belady) hit ratios.

    python3 Benchmarks/Scripts/synthetic-traces.py OUT_DIR [--seed N]

Writes OUT_DIR/<name>.keys (one decimal key per line, the HitRatio tool's
input) and prints one row per (trace, size): name, size, LRU %, OPT %; the
same rows go to OUT_DIR/rows.txt (read by hit-ratio-report.py). --seed N
(default 42, the traces of the README tables) draws other traces of the same
kinds: a check on workloads the policy was not tuned on.
Replay a trace with:

    swift run -c release --package-path Benchmarks HitRatio --tsv 500 2000 < OUT_DIR/zipf0.9.keys
"""
import bisect
import heapq
import itertools
import os
import random
import sys
from collections import OrderedDict


def zipf_sampler(keys, alpha, rng):
    """Draws keys 0..<keys with Zipf(alpha) popularity, ranks shuffled."""
    cumulative = list(itertools.accumulate(1 / rank**alpha for rank in range(1, keys + 1)))
    total = cumulative[-1]
    order = list(range(keys))
    rng.shuffle(order)
    return lambda: order[bisect.bisect_left(cumulative, rng.random() * total)]


def traces(seed=42):
    """The traces, by name, each with the cache sizes to test."""
    rng = random.Random(seed)
    result = {}
    for alpha in (0.7, 0.9, 1.1):
        draw = zipf_sampler(100_000, alpha, rng)
        result[f"zipf{alpha}"] = ([draw() for _ in range(200_000)], [500, 2000])

    # Zipf 0.9 with a scan of 5,000 never-seen keys every 20,000 requests.
    draw = zipf_sampler(100_000, 0.9, rng)
    trace, next_new = [], 10**7
    for index in range(200_000):
        if index % 20_000 == 10_000:
            trace.extend(range(next_new, next_new + 5_000))
            next_new += 5_000
        trace.append(draw())
    result["zipf0.9+scans"] = (trace, [500, 2000])

    # A loop slightly larger than the cache.
    result["loop1100"] = (list(range(1_100)) * 150, [1000])

    # A Zipf 0.9 working set of 5,000 keys, replaced every 20,000 requests.
    trace = []
    for phase in range(10):
        draw = zipf_sampler(5_000, 0.9, rng)
        trace.extend(phase * 100_000 + draw() for _ in range(20_000))
    result["shifting-ws"] = (trace, [500, 2000])

    # Keys used once, or twice with the second use 10-100 requests later.
    trace, due, key, clock = [], {}, 0, 0
    while len(trace) < 150_000:
        if clock in due:
            trace.append(due.pop(clock))
        else:
            trace.append(key)
            if rng.random() < 0.5:
                when = clock + rng.randint(10, 100)
                while when in due:
                    when += 1
                due[when] = key
            key += 1
        clock += 1
    result["once-or-twice"] = (trace, [50, 200])
    return result


def lru_hit_ratio(trace, size):
    cache, hits = OrderedDict(), 0
    for key in trace:
        if key in cache:
            hits += 1
            cache.move_to_end(key)
        else:
            cache[key] = None
            if len(cache) > size:
                cache.popitem(last=False)
    return hits / len(trace)


def opt_hit_ratio(trace, size):
    """Belady: on a miss with a full cache, evict the key used again furthest
    in the future, unless the new key is itself used later than all of them."""
    count = len(trace)
    next_use, last_seen = [0] * count, {}
    for index in range(count - 1, -1, -1):
        next_use[index] = last_seen.get(trace[index], count + index)
        last_seen[trace[index]] = index
    resident, heap, hits = {}, [], 0
    for index, key in enumerate(trace):
        if key in resident:
            hits += 1
        elif len(resident) >= size:
            while resident.get(heap[0][1]) != -heap[0][0]:
                heapq.heappop(heap)  # a stale entry
            if -heap[0][0] <= next_use[index]:
                continue  # the new key is the one used furthest away: bypass it
            del resident[heapq.heappop(heap)[1]]
        resident[key] = next_use[index]
        heapq.heappush(heap, (-next_use[index], key))
    return hits / count


def main():
    arguments = sys.argv[1:]
    seed = 42
    if len(arguments) == 3 and arguments[1] == "--seed" and arguments[2].isdigit():
        seed = int(arguments[2])
    elif len(arguments) != 1:
        sys.exit("usage: synthetic-traces.py OUT_DIR [--seed N]")
    folder = arguments[0]
    os.makedirs(folder, exist_ok=True)
    rows = []
    for name, (trace, sizes) in traces(seed).items():
        with open(os.path.join(folder, f"{name}.keys"), "w") as file:
            file.write("\n".join(map(str, trace)) + "\n")
        for size in sizes:
            lru = lru_hit_ratio(trace, size) * 100
            opt = opt_hit_ratio(trace, size) * 100
            rows.append(f"{name} {size} {lru:.2f} {opt:.2f}")
            print(rows[-1], flush=True)
    with open(os.path.join(folder, "rows.txt"), "w") as file:
        file.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
