#!/usr/bin/env python3
"""Replays the rows of the hit-ratio table through simple reference policies
written in Python, to tell how much of the gap between the adaptive policy and
OPT published online policies close (headroom estimates, not part of the
package):

- ARC (Megiddo & Modha, FAST 2003), as in the paper's pseudo-code;
- LIRS (Jiang & Zhang, SIGMETRICS 2002), resident HIR share 1 % of the cache,
  non-resident entries in the stack bounded to 3 × the cache;
- W-TinyLFU with *exact* counts instead of a sketch (1 % window, SLRU with 80 %
  protected, counts capped at 15 and halved every 10 × the cache's requests):
  what the fixed policy would do with a perfect sketch; `exact80` halves every
  80 × instead (a longer memory).

    python3 Benchmarks/Scripts/reference-policies.py [--synthetic DIR] [--only NAME,...]
        [--policies arc,lirs,exact,exact80] [traces-folder]

Pure Python: the 1.2-million-request scarab trace takes minutes (--only skips it).
"""
import argparse
import gzip
import os
from collections import Counter, OrderedDict
from concurrent.futures import ProcessPoolExecutor
from importlib.machinery import SourceFileLoader

here = os.path.dirname(os.path.abspath(__file__))
report = SourceFileLoader("report", os.path.join(here, "hit-ratio-report.py")).load_module()


def arc(keys, size):
    t1, t2, b1, b2 = OrderedDict(), OrderedDict(), OrderedDict(), OrderedDict()
    target = 0.0
    hits = 0

    def replace(key):
        if t1 and (len(t1) > target or (key in b2 and len(t1) == target)):
            old, _ = t1.popitem(last=False)
            b1[old] = True
        else:
            old, _ = t2.popitem(last=False)
            b2[old] = True

    for key in keys:
        if key in t1:
            del t1[key]
            t2[key] = True
            hits += 1
        elif key in t2:
            t2.move_to_end(key)
            hits += 1
        elif key in b1:
            target = min(size, target + max(len(b2) / len(b1), 1))
            replace(key)
            del b1[key]
            t2[key] = True
        elif key in b2:
            target = max(0, target - max(len(b1) / len(b2), 1))
            replace(key)
            del b2[key]
            t2[key] = True
        else:
            if len(t1) + len(b1) == size:
                if len(t1) < size:
                    b1.popitem(last=False)
                    replace(key)
                else:
                    t1.popitem(last=False)
            elif len(t1) + len(t2) + len(b1) + len(b2) >= size:
                if len(t1) + len(t2) + len(b1) + len(b2) == 2 * size:
                    b2.popitem(last=False)
                replace(key)
            t1[key] = True
    return hits


def lirs(keys, size):
    hir_size = max(1, size // 100)
    lir_size = size - hir_size
    stack = OrderedDict()  # the LIRS stack S, bottom first
    queue = OrderedDict()  # resident HIR blocks, least recent first
    state = {}  # "L" (LIR), "H" (resident HIR), "N" (non-resident HIR in S)
    lir_count = 0
    hits = 0

    def prune():
        while stack:
            bottom = next(iter(stack))
            if state.get(bottom) == "L":
                return
            stack.popitem(last=False)
            if state.get(bottom) == "N":
                del state[bottom]

    def demote_bottom():
        bottom, _ = stack.popitem(last=False)
        state[bottom] = "H"
        queue[bottom] = True
        prune()

    for key in keys:
        kind = state.get(key)
        if kind == "L":
            hits += 1
            stack[key] = True
            stack.move_to_end(key)
            prune()
            continue
        if kind == "H":
            hits += 1
            if key in stack:
                stack.move_to_end(key)
                state[key] = "L"
                del queue[key]
                demote_bottom()
            else:
                stack[key] = True
                queue.move_to_end(key)
            continue
        if lir_count < lir_size:
            state[key] = "L"
            stack[key] = True
            stack.move_to_end(key)
            lir_count += 1
            continue
        if len(queue) >= hir_size:
            evicted, _ = queue.popitem(last=False)
            if evicted in stack:
                state[evicted] = "N"
            else:
                del state[evicted]
        if kind == "N" and key in stack:
            stack.move_to_end(key)
            state[key] = "L"
            demote_bottom()
        else:
            state[key] = "H"
            queue[key] = True
            stack[key] = True
            stack.move_to_end(key)
        if len(stack) > 3 * size:
            for old in list(stack)[: len(stack) - 3 * size]:
                if state.get(old) == "N":
                    del stack[old]
                    del state[old]
    return hits


def exact_tinylfu(keys, size, period_factor):
    window_size = max(1, size // 100)
    main_size = size - window_size
    protected_size = int(main_size * 0.8)
    window, probation, protected = OrderedDict(), OrderedDict(), OrderedDict()
    counts = Counter()
    additions = 0
    period = period_factor * size
    hits = 0
    for key in keys:
        counts[key] = min(15, counts[key] + 1)
        additions += 1
        if additions >= period:
            for counted in list(counts):
                counts[counted] //= 2
                if counts[counted] == 0:
                    del counts[counted]
            additions //= 2
        if key in window:
            window.move_to_end(key)
            hits += 1
        elif key in probation:
            del probation[key]
            protected[key] = True
            while len(protected) > protected_size:
                demoted, _ = protected.popitem(last=False)
                probation[demoted] = True
            hits += 1
        elif key in protected:
            protected.move_to_end(key)
            hits += 1
        else:
            window[key] = True
            if len(window) > window_size:
                candidate, _ = window.popitem(last=False)
                if len(probation) + len(protected) < main_size:
                    probation[candidate] = True
                else:
                    segment = probation if probation else protected
                    victim = next(iter(segment))
                    if counts[candidate] > counts[victim]:
                        del segment[victim]
                        probation[candidate] = True
    return hits


POLICIES = {
    "arc": arc,
    "lirs": lirs,
    "exact": lambda keys, size: exact_tinylfu(keys, size, 10),
    "exact80": lambda keys, size: exact_tinylfu(keys, size, 80),
}


def replay(path, sizes, policies):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as trace:
        keys = trace.read().split()
    return {(size, name): 100 * POLICIES[name](keys, size) / len(keys) for size in sizes for name in policies}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("traces", nargs="?", default=os.path.join(here, "..", "..", "..", "shared", "traces"))
    parser.add_argument("--synthetic")
    parser.add_argument("--only")
    parser.add_argument("--policies", default="arc,lirs,exact,exact80")
    args = parser.parse_args()
    policies = args.policies.split(",")
    only = set(args.only.split(",")) if args.only else None
    groups = [("shared", report.shared_rows(args.traces))]
    if args.synthetic:
        groups.append(("unseen (synthetic)", report.synthetic_rows(args.synthetic)))
    for title, rows in groups:
        rows = [row for row in rows if only is None or row[0] in only]
        paths = {}
        for name, size, _, path in rows:
            paths.setdefault(path, []).append(size)
        with ProcessPoolExecutor(2) as pool:
            futures = {path: pool.submit(replay, path, sizes, policies) for path, sizes in paths.items()}
            results = {path: future.result() for path, future in futures.items()}
        print(f"\n### {title}\n")
        print("| trace | size | " + " | ".join(f"{name} %" for name in policies) + " | OPT % |")
        print("|---|---:|" + "---:|" * (len(policies) + 1))
        for name, size, opt, path in rows:
            values = " | ".join(f"{results[path][(size, policy)]:.2f}" for policy in policies)
            print(f"| {name} | {size} | {values} | {opt:.2f} |")


if __name__ == "__main__":
    main()
