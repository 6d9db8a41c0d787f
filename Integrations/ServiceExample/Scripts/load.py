#!/usr/bin/env python3
"""Loads the end-to-end service with wrk and writes its results table and picture.

    Integrations/Scripts/with-postgres.sh python3 Integrations/ServiceExample/Scripts/load.py [SECONDS]

Needs DATABASE_URL (with-postgres.sh starts a throwaway PostgreSQL on loopback) and
wrk (Debian's package: `apt-get install -y wrk`). Builds the service in release
mode, starts on 127.0.0.1 the upstream (answers after 20 ms), one instance per
setup (no cache; Hummingbird's MemoryPersistDriver; the Carlos pipeline, twice, on one
PostgreSQL), then runs wrk for SECONDS (default 10) per row: 2 threads, 64
connections, GET /users/<id> for 1,000 ids. Rows:

- no cache; the framework's in-memory store (after a warm-up run); Carlos hot (after
  a warm-up run); Carlos right after `POST /admin/clear` (memory and PostgreSQL
  emptied: the run starts cold);
- staleness: while wrk loads both Carlos instances, 100 writes through one are read
  back from the other (time from the write to the first read that sees it).

Writes Results/results.md and Results/latency.svg next to this script's folder, and
prints the table. Every process it starts runs on loopback and is stopped at the end.
"""
import os
import re
import subprocess
import sys
import time

from service import BINARY, HERE, build, database, start, stop, to_ms

SECONDS = int(sys.argv[1]) if len(sys.argv) > 1 else 10
LUA = os.path.join(HERE, "Scripts", "users.lua")
RESULTS = os.path.join(HERE, "Results")


def log(message):
    print(f"load: {message}", file=sys.stderr, flush=True)


def wrk(port, seconds=SECONDS, connections=64):
    output = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", LUA,
         f"http://127.0.0.1:{port}"], capture_output=True, text=True, check=True).stdout
    percent = dict(re.findall(r"^\s+(50|99)%\s+(\S+)$", output, re.M))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    sockets = re.search(r"Socket errors: (.*)$", output, re.M)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        "p50": to_ms(percent["50"]), "p99": to_ms(percent["99"]),
        "requests": int(re.search(r"(\d+) requests in", output).group(1)),
        "errors": int(errors.group(1)) if errors else 0,
        "socket": sockets.group(1) if sockets else "none",
    }


def post(port, path):
    subprocess.run(["curl", "-sf", "-X", "POST", f"http://127.0.0.1:{port}{path}"], check=True)


def svg(rows):
    """Horizontal bars: p50 and p99 latency per setup, on a log scale."""
    import math
    width, left, bar, gap = 900, 290, 14, 18
    height = 40 + len(rows) * (2 * bar + gap) + 40
    top = max(r["p99"] for _, r in rows)
    low = 0.05
    scale = lambda ms: left + (width - left - 110) * (math.log10(max(ms, low) / low)
                                                     / math.log10(top * 1.5 / low))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             'font-family="sans-serif" font-size="12">',
             f'<text x="10" y="20" font-weight="bold">GET /users/&lt;id&gt; latency under '
             f'wrk (2 threads, 64 connections), ms, log scale</text>']
    y = 40
    for name, row in rows:
        parts.append(f'<text x="{left - 8}" y="{y + bar + 4}" text-anchor="end">{name}</text>')
        for key, colour in (("p50", "#4878d0"), ("p99", "#ee854a")):
            x = scale(row[key])
            parts.append(f'<rect x="{left}" y="{y}" width="{x - left:.1f}" height="{bar}" '
                         f'fill="{colour}"/>')
            parts.append(f'<text x="{x + 4:.1f}" y="{y + bar - 3}">{key} {row[key]:.2f}</text>')
            y += bar
        y += gap
    for tick in (0.1, 1, 10, 100, 1000):
        if tick <= top * 1.5:
            x = scale(tick)
            parts.append(f'<line x1="{x:.1f}" y1="34" x2="{x:.1f}" y2="{y}" stroke="#ccc"/>')
            parts.append(f'<text x="{x:.1f}" y="{y + 14}" text-anchor="middle">{tick:g}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def main():
    url = database()
    build()
    upstream = start("upstream", "0")
    origin = f"http://127.0.0.1:{upstream}"
    none = start("serve", "0", "none", origin)
    framework = start("serve", "0", "framework", origin)
    a = start("serve", "0", "carlos", origin, url)
    b = start("serve", "0", "carlos", origin, url)
    time.sleep(1)  # the listeners of a and b start listening
    rows = []
    log("no cache")
    rows.append(("no cache", wrk(none)))
    log("framework store: warm-up, then measured")
    wrk(framework, seconds=3)
    rows.append(("Hummingbird MemoryPersistDriver", wrk(framework)))
    log("Carlos: warm-up, then measured hot")
    wrk(a, seconds=3)
    rows.append(("Carlos memory >>> postgres >>> http, hot", wrk(a)))
    log("Carlos right after a clear")
    post(a, "/admin/clear")
    rows.append(("Carlos, right after clear", wrk(a)))

    log("staleness: 100 writes through A read back from B while wrk loads both")
    loaders = [subprocess.Popen(
        ["wrk", "-t1", "-c32", f"-d{SECONDS}s", "-s", LUA, f"http://127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL) for port in (a, b)]
    time.sleep(1)
    probe = subprocess.run([BINARY, "staleness", f"http://127.0.0.1:{a}",
                            f"http://127.0.0.1:{b}", "100"], capture_output=True, text=True,
                           check=True).stdout
    for loader in loaders:
        loader.wait()
    staleness = dict(re.findall(r"(\w+) ([\d.]+)", probe))

    lines = ["| setup | requests/s | p50 ms | p99 ms | requests | non-2xx | socket errors |",
             "|---|--:|--:|--:|--:|--:|---|"]
    for name, row in rows:
        lines.append(f"| {name} | {row['rps']:,.0f} | {row['p50']:.2f} | {row['p99']:.2f} | "
                     f"{row['requests']:,} | {row['errors']} | {row['socket']} |")
    lines += ["", "| staleness under load (write on A → read on B) | writes | p50 ms | p99 ms | max ms |",
              "|---|--:|--:|--:|--:|",
              f"| 2 × 32 connections of wrk on A and B | {staleness['writes']} | "
              f"{float(staleness['p50_us']) / 1000:.2f} | {float(staleness['p99_us']) / 1000:.2f} | "
              f"{float(staleness['max_us']) / 1000:.2f} |"]
    table = "\n".join(lines)
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, "results.md"), "w") as f:
        f.write(f"wrk -t2 -c64 -d{SECONDS}s, 1,000 ids, upstream delay 20 ms, "
                f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n\n{table}\n")
    with open(os.path.join(RESULTS, "latency.svg"), "w") as f:
        f.write(svg(rows))
    print(table)


try:
    main()
finally:
    stop()
