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
  80 × instead (a longer memory);
- S3-FIFO (Yang, Zhang, Qiu, Yue & Vinayak, "FIFO queues are all you need for
  cache eviction", SOSP 2023), after the paper's description and Algorithm 1:
  small FIFO of size // 10 entries, main FIFO of the rest, a ghost FIFO of keys
  as long as the main FIFO, a 2-bit frequency (capped at 3) counted on hits.
  A miss goes to main if its key is in the ghost, else to small; eviction
  takes from small while small holds >= size // 10 entries, else from main.
  Small's tail moves to main when its frequency is > 1 (Algorithm 1's test;
  promoting after a single hit, > 0, measured worse on these rows: mean gap to
  OPT 13.32 / 13.19 instead of 12.93 / 10.13 on the shared / synthetic rows),
  keeping its frequency, and goes to the ghost otherwise; main's tail is reinserted with frequency - 1
  while its frequency is > 0. A move into a full main evicts from main and the
  small-queue eviction goes on until one key reaches the ghost, as in
  Algorithm 1 (so that request may free two slots);
- SIEVE (Zhang, Yang, Yue, Vigfusson & Rashmi, "SIEVE is simpler than LRU: an
  efficient turn-key eviction algorithm for web caches", NSDI 2024): one FIFO
  queue, new entries at the head, a visited bit set on hits, and a hand that
  starts at the tail and moves toward the head (wrapping to the tail), clearing
  visited bits until it finds an unvisited entry to evict; the hand then rests
  on the entry just newer than the evicted one.

Every entry costs one unit; the capacity is a number of entries. The S3-FIFO and
SIEVE code was written from the papers' text, not from any implementation.

    python3 Benchmarks/Scripts/reference-policies.py [--synthetic DIR] [--only NAME,...]
        [--policies arc,lirs,exact,exact80,s3fifo,sieve] [traces-folder]
    python3 Benchmarks/Scripts/reference-policies.py --self-test

--self-test replays short hand-worked traces whose hit counts are known. Each
table ends with every policy's mean gap to OPT over its rows.

Pure Python: the 1.2-million-request scarab trace takes minutes (--only skips it);
LIRS takes most of the time, s3fifo and sieve cost about as much as arc.
"""
import argparse
import gzip
import os
from collections import Counter, OrderedDict
from concurrent.futures import ProcessPoolExecutor
from importlib.machinery import SourceFileLoader

here = os.path.dirname(os.path.abspath(__file__))

# What each policy counts its hits with: a plain number, or (switch-bound.py)
# an object that also notes which requests hit.
new_tally = int
report = SourceFileLoader("report", os.path.join(here, "hit-ratio-report.py")).load_module()


def arc(keys, size):
    t1, t2, b1, b2 = OrderedDict(), OrderedDict(), OrderedDict(), OrderedDict()
    target = 0.0
    hits = new_tally()

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
    hits = new_tally()

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
    hits = new_tally()
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


def s3fifo(keys, size, small_ratio=0.1):
    small_size = max(1, int(size * small_ratio + 1e-9))
    main_size = max(1, size - small_size)
    small, main, ghost = OrderedDict(), OrderedDict(), OrderedDict()  # oldest (tail) first
    freq = {}  # resident keys only
    hits = new_tally()

    def evict_main():
        while main:
            tail, _ = main.popitem(last=False)
            if freq[tail] > 0:
                freq[tail] -= 1
                main[tail] = True
            else:
                del freq[tail]
                return

    def evict_small():
        while small:
            tail, _ = small.popitem(last=False)
            if freq[tail] > 1:
                main[tail] = True
                if len(main) > main_size:
                    evict_main()
            else:
                del freq[tail]
                ghost[tail] = True
                if len(ghost) > main_size:
                    ghost.popitem(last=False)
                return

    for key in keys:
        count = freq.get(key)
        if count is not None:
            if count < 3:
                freq[key] = count + 1
            hits += 1
            continue
        while len(small) + len(main) >= size:
            if len(small) >= small_size:
                evict_small()
            else:
                evict_main()
        freq[key] = 0
        if key in ghost:
            del ghost[key]
            main[key] = True
        else:
            small[key] = True
    return hits


def sieve(keys, size):
    visited = {}  # resident key -> visited bit
    newer, older = {}, {}  # the queue as a doubly linked list; None past the ends
    head = tail = hand = None  # head = newest, tail = oldest
    hits = new_tally()
    for key in keys:
        if key in visited:
            visited[key] = True
            hits += 1
            continue
        if len(visited) >= size:
            victim = tail if hand is None else hand
            while visited[victim]:
                visited[victim] = False
                victim = newer[victim]
                if victim is None:
                    victim = tail
            hand = newer[victim]
            above, below = newer.pop(victim), older.pop(victim)
            if above is None:
                head = below
            else:
                older[above] = below
            if below is None:
                tail = above
            else:
                newer[below] = above
            del visited[victim]
        visited[key] = False
        newer[key] = None
        older[key] = head
        if head is None:
            tail = key
        else:
            newer[head] = key
        head = key
    return hits


POLICIES = {
    "arc": arc,
    "lirs": lirs,
    "exact": lambda keys, size: exact_tinylfu(keys, size, 10),
    "exact80": lambda keys, size: exact_tinylfu(keys, size, 80),
    "s3fifo": s3fifo,
    "sieve": sieve,
}


def self_test():
    """Short traces worked out by hand (one letter a request)."""
    def check(name, policy, trace, size, expected):
        hits = policy(list(trace), size)
        assert hits == expected, f"{name}: {hits} hits on {trace!r} with size {size}, expected {expected}"
        print(f"ok  {name}: {trace} size {size}: {hits} hits")

    # Every policy: a working set that fits is missed once per key, then always hit.
    for name, policy in POLICIES.items():
        check(name, policy, "abcdefgh" * 5, 10, 32)
    # S3-FIFO, small FIFO half the cache (2 + 2 entries, ghost of 2): a with 2 hits
    # in small moves to main (step 7) while b goes to the ghost; b and c come back
    # from the ghost into main (8, 9); main reinserts a (freq 2 -> 1) and drops b
    # (10); e, hit once in small (freq 1), is not promoted (13) but returns through
    # the ghost (14); d, hit twice, moves to a full main, which reinserts a and drops
    # e (19). Residents then: a, d (main), h, i (small); 6 hits + 4 probes.
    check("s3fifo", lambda keys, size: s3fifo(keys, size, 0.5), "abaacdebcfaegedbddhi" + "adhi", 4, 10)
    # S3-FIFO, 10 entries (small 1, main 9, ghost 9): a, hit twice in small, moves to
    # main when the scan k..t starts and survives it (hit at the end); the scan
    # pushes c..k through small into the ghost, so k comes back into main, is hit
    # once, and survives a second scan that only cycles small. 6 hits.
    check("s3fifo", s3fifo, "aaa" + "bcdefghij" + "klmnopqrst" + "a" + "kk" + "uvwxyzABC" + "ka", 10, 6)
    # S3-FIFO, 2 + 2 entries again: a, hit 3 times in small, enters main with freq 3;
    # b, c, d, then e, f come back from the ghost into main and push main's tail
    # out: a is reinserted twice (freq 3 -> 2 -> 1) while b, c, d are dropped,
    # so a is still resident at the end. 4 hits.
    check("s3fifo", lambda keys, size: s3fifo(keys, size, 0.5), "aaaabcd" + "ebcd" + "fgef" + "h" + "a", 4, 4)
    # SIEVE, 3 entries: all visited, so the hand clears a, b, c, passes the head,
    # wraps to the tail and evicts a; b, c, d stay. 3 hits + 3 probes.
    check("sieve", sieve, "abcabcd" + "bcd", 3, 6)
    # SIEVE, 3 entries: the hand skips visited a (clearing it) and evicts b (step 5),
    # then rests on c, evicts c (6), d (8) and b (10), skips visited e to evict d,
    # the newest, so the hand falls past the head (12) and restarts at the tail,
    # skips a and evicts e (13). Residents then: g, f, a; 5 hits + 3 probes.
    check("sieve", sieve, "abcadbaeadefga" + "gfa", 3, 8)
    # SIEVE keeps a hit entry through a scan that LRU would let push it out: the hand
    # clears a once and then evicts b, c, d behind it (LRU: 1 hit).
    check("sieve", sieve, "abca" + "def" + "a", 3, 2)
    print("self-test passed")


def replay(path, sizes, policies):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as trace:
        keys = trace.read().split()
    return {(size, name): 100 * POLICIES[name](keys, size) / len(keys) for size in sizes for name in policies}


def replayed_groups(traces, synthetic, only, replay, *extra):
    """Per group of rows (the shared ones, then the synthetic ones when given): its
    title, its rows (only those of the traces named in `only`, when given) and, per
    trace, `replay(path, sizes, *extra)`, two traces at a time."""
    groups = [("shared", report.shared_rows(traces))]
    if synthetic:
        groups.append(("unseen (synthetic)", report.synthetic_rows(synthetic)))
    for title, rows in groups:
        rows = [row for row in rows if only is None or row[0] in only]
        paths = {}
        for _, size, _, path in rows:
            paths.setdefault(path, []).append(size)
        with ProcessPoolExecutor(2) as pool:
            futures = {path: pool.submit(replay, path, sizes, *extra) for path, sizes in paths.items()}
            yield title, rows, {path: future.result() for path, future in futures.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("traces", nargs="?", default=os.path.join(here, "..", "..", "..", "shared", "traces"))
    parser.add_argument("--synthetic")
    parser.add_argument("--only")
    parser.add_argument("--policies", default="arc,lirs,exact,exact80,s3fifo,sieve")
    parser.add_argument("--self-test", action="store_true", help="replay the hand-worked traces and exit")
    args = parser.parse_args()
    if args.self_test:
        self_test()
        return
    policies = args.policies.split(",")
    only = set(args.only.split(",")) if args.only else None
    for title, rows, results in replayed_groups(args.traces, args.synthetic, only, replay, policies):
        print(f"\n### {title}\n")
        print("| trace | size | " + " | ".join(f"{name} %" for name in policies) + " | OPT % |")
        print("|---|---:|" + "---:|" * (len(policies) + 1))
        for name, size, opt, path in rows:
            values = " | ".join(f"{results[path][(size, policy)]:.2f}" for policy in policies)
            print(f"| {name} | {size} | {values} | {opt:.2f} |")
        if rows:
            gaps = ", ".join(
                f"{policy} {sum(opt - results[path][(size, policy)] for _, size, opt, path in rows) / len(rows):.2f}"
                for policy in policies
            )
            print(f"\nmean gap to OPT over {len(rows)} rows: {gaps}")


if __name__ == "__main__":
    main()
