#!/usr/bin/env python3
"""How far choosing a whole eviction policy per workload could get: an upper
bound for the switch issue 35 proposes, measured before building it.

For every row of the hit-ratio table, the adaptive policy (the real
MemoryCacheLevel, replayed by the HitRatio tool with --hits-out) and the
reference policies of reference-policies.py (by default the deployable ones:
ARC, LIRS, S3-FIFO, SIEVE; --policies may add exact and exact80, W-TinyLFU with
exact counts) are replayed side by side, and each request's outcome is kept.
Then:

- hindsight: the best single policy per row (what a perfect choice made
  before the trace starts gets);
- follow the leader, period P, decay D: the trace is cut into periods of P x
  the cache size requests; the first period is served by the adaptive policy,
  and each later one by the policy with the most hits so far, each period
  weighing D times the one after it (D = 1: all periods alike). Every policy is simulated in full (no sampling) and a
  switch costs nothing: the cache is assumed to hold what the chosen policy
  would hold. A real switch starts from the old policy's contents and sees its
  candidates through sampled miniatures, so it can only do worse.

    python3 Benchmarks/Scripts/switch-bound.py --tool PATH [--synthetic DIR]
        [--only NAME,...] [--policies arc,lirs,s3fifo,sieve] [--periods 1,4,16]
        [--decays 0.5,1] [traces-folder]

PATH is the HitRatio binary (`swift build -c release --package-path Benchmarks
--product HitRatio`). Pure Python for the reference policies: the scarab trace
takes minutes (--only skips it).
"""
import argparse
import gzip
import os
import subprocess
import tempfile
from importlib.machinery import SourceFileLoader

here = os.path.dirname(os.path.abspath(__file__))
reference = SourceFileLoader("reference", os.path.join(here, "reference-policies.py")).load_module()


class Positions:
    """The keys of a trace, remembering which one is being replayed."""

    def __init__(self, keys):
        self.keys = keys
        self.index = -1

    def __iter__(self):
        for self.index, key in enumerate(self.keys):
            yield key


def reference_outcomes(keys, size, policy):
    """Per request, 1 when `policy` hits it at `size` entries, else 0."""
    positions = Positions(keys)
    outcomes = bytearray(len(keys))

    class Tally:
        def __iadd__(self, count):
            outcomes[positions.index] = 1
            return self

    reference.new_tally = Tally
    reference.POLICIES[policy](positions, size)
    return bytes(outcomes)


def adaptive_outcomes(tool, path, sizes):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as trace:
        data = trace.read()
    with tempfile.TemporaryDirectory() as folder:
        command = [tool, "--tsv", "--policies", "adaptive", "--hits-out", folder] + [str(s) for s in sizes]
        subprocess.run(command, input=data, capture_output=True, check=True)
        result = {}
        for size in sizes:
            with open(os.path.join(folder, f"{size}-adaptive.hits"), "rb") as hits:
                result[size] = hits.read()
        return result, data.split()


def replay(path, sizes, tool, policies):
    adaptive, keys = adaptive_outcomes(tool, path, sizes)
    result = {}
    for size in sizes:
        outcomes = {"adaptive": adaptive[size]}
        for policy in policies:
            outcomes[policy] = reference_outcomes(keys, size, policy)
        result[size] = outcomes
    return result


def follow_the_leader(outcomes, size, factor, decay):
    """Hits served when each period goes to the policy that led the periods before."""
    names = list(outcomes)
    length = len(outcomes["adaptive"])
    period = max(1, factor * size)
    scores = dict.fromkeys(names, 0.0)
    current = "adaptive"
    served = 0
    for start in range(0, length, period):
        hits = {name: sum(outcomes[name][start : start + period]) for name in names}
        served += hits[current]
        for name in names:
            scores[name] = scores[name] * decay + hits[name]
        leader = max(names, key=lambda name: scores[name])
        if scores[leader] > scores[current]:
            current = leader
    return served


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("traces", nargs="?", default=os.path.join(here, "..", "..", "..", "shared", "traces"))
    parser.add_argument("--tool", required=True)
    parser.add_argument("--synthetic")
    parser.add_argument("--only")
    parser.add_argument("--policies", default="arc,lirs,s3fifo,sieve")
    parser.add_argument("--periods", default="1,4,16")
    parser.add_argument("--decays", default="0.5,1")
    args = parser.parse_args()
    leaders = [(int(p), float(d)) for p in args.periods.split(",") for d in args.decays.split(",")]
    only = set(args.only.split(",")) if args.only else None
    policies = args.policies.split(",")
    for title, rows, results in reference.replayed_groups(
        args.traces, args.synthetic, only, replay, args.tool, policies
    ):
        columns = ["adaptive", "hindsight"] + [f"leader ×{p} D {d:g}" for p, d in leaders]
        print(f"\n### {title}\n")
        print("| trace | size | " + " | ".join(f"{column} %" for column in columns) + " | OPT % |")
        print("|---|---:|" + "---:|" * (len(columns) + 1))
        gaps = dict.fromkeys(columns, 0.0)
        for name, size, opt, path in rows:
            outcomes = results[path][size]
            length = len(outcomes["adaptive"])
            values = {
                "adaptive": sum(outcomes["adaptive"]),
                "hindsight": max(sum(hits) for hits in outcomes.values()),
            }
            for p, d in leaders:
                values[f"leader ×{p} D {d:g}"] = follow_the_leader(outcomes, size, p, d)
            percents = {column: 100 * values[column] / length for column in columns}
            for column in columns:
                gaps[column] += opt - percents[column]
            print(f"| {name} | {size} | " + " | ".join(f"{percents[c]:.2f}" for c in columns) + f" | {opt:.2f} |")
        if rows:
            summary = ", ".join(f"{column} {gaps[column] / len(rows):.2f}" for column in columns)
            print(f"\nmean gap to OPT over {len(rows)} rows: {summary}")


if __name__ == "__main__":
    main()
