#!/usr/bin/env python3
"""One hot key with a short lifetime, asked for by every instance at once: how many
times the upstream is asked, and what the gets cost.

    Integrations/Scripts/with-postgres.sh python3 Integrations/ServiceExample/Scripts/hot-key.py [INSTANCES] [CONNECTIONS] [SECONDS] [REFRESH_AHEAD_MS] [ROUNDS]

Needs DATABASE_URL (with-postgres.sh starts a throwaway PostgreSQL on loopback) and
wrk. Builds the service in release mode (CARLOS_SERVICE_BINARY: use that binary
instead), starts the upstream (answers after 20 ms) and INSTANCES instances (4 by
default) of the `carlos-once` pipeline (PostgresSingleFlight behind the coherent
memory level) on one PostgreSQL, gets the key once, then runs one wrk per instance
(CONNECTIONS connections, 64 by default) on `GET /users/1` for SECONDS (60 by
default). Rows:

- `hit`: users kept 300 s, so every get is a hit (the latency to match);
- `1 s, no refresh`: users kept 1 s; when the key expires, one instance loads it and
  the others' gets wait for that load;
- `1 s, refresh ahead`: users kept 1 s, refreshed REFRESH_AHEAD_MS (60 by default)
  before they expire by one instance while all serve the old copy.

ROUNDS (2 by default) runs every row that many times, in alternating order (the machine
is saturated, so a row's figures vary between runs). For each run: the upstream's
requests during it (origin loads), requests per second, and the worst instance's p50
and p99. Writes Results/hot-key.md.
"""
import os
import re
import subprocess
import sys
import time

from service import HERE, build, database, request, served, start, stop, to_ms

INSTANCES = int(sys.argv[1]) if len(sys.argv) > 1 else 4
CONNECTIONS = int(sys.argv[2]) if len(sys.argv) > 2 else 64
SECONDS = int(sys.argv[3]) if len(sys.argv) > 3 else 60
REFRESH_AHEAD_MS = int(sys.argv[4]) if len(sys.argv) > 4 else 60
ROUNDS = int(sys.argv[5]) if len(sys.argv) > 5 else 2


def log(message):
    print(f"hot-key: {message}", file=sys.stderr, flush=True)


def load(ports):
    """One wrk per instance on the hot key, all at once; their parsed outputs."""
    runs = [subprocess.Popen(
        ["wrk", "-t1", f"-c{CONNECTIONS}", f"-d{SECONDS}s", "--latency",
         f"http://127.0.0.1:{port}/users/1"], stdout=subprocess.PIPE, text=True)
        for port in ports]
    results = []
    for run in runs:
        output = run.communicate()[0]
        percent = dict(re.findall(r"^\s+(50|99)%\s+(\S+)$", output, re.M))
        errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
        results.append({
            "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
            "p50": to_ms(percent["50"]), "p99": to_ms(percent["99"]),
            "errors": int(errors.group(1)) if errors else 0,
        })
    return results


def main():
    url = database()
    build()
    upstream = start("upstream", "0")
    origin = f"http://127.0.0.1:{upstream}"
    setups = [
        ("hit", {"CARLOS_SERVICE_LIFETIME_MS": "300000"}),
        ("1 s, no refresh", {"CARLOS_SERVICE_LIFETIME_MS": "1000"}),
        (f"1 s, refresh ahead {REFRESH_AHEAD_MS} ms", {
            "CARLOS_SERVICE_LIFETIME_MS": "1000",
            "CARLOS_SERVICE_REFRESH_AHEAD_MS": str(REFRESH_AHEAD_MS)}),
    ]
    rows = []
    runs = [setup for round in range(ROUNDS)
            for setup in (setups if round % 2 == 0 else setups[::-1])]
    for name, environment in runs:
        ports = [start("serve", "0", "carlos-once", origin, url, environment=environment)
                 for _ in range(INSTANCES)]
        time.sleep(1)  # the instances' listeners start listening
        assert request(ports[0], "POST", "/admin/clear")[0] == 204
        time.sleep(0.5)
        assert request(ports[0], "GET", "/users/1")[0] == 200
        before = served(upstream)
        log(f"{name}: {INSTANCES} instances × {CONNECTIONS} connections, {SECONDS} s")
        results = load(ports)
        rows.append((name, served(upstream) - before, results))
        stop(keep=1)

    lines = [
        f"{INSTANCES} instances × {CONNECTIONS} connections (one wrk each) on one key for "
        f"{SECONDS} s per run, {ROUNDS} runs per row in alternating order; upstream answers "
        "after 20 ms; worst instance's latency:",
        "",
        "| setup | origin loads | requests/s | p50 | p99 | errors |",
        "|---|--:|--:|--:|--:|--:|",
    ]
    for name, loads, results in sorted(rows, key=lambda row: [s[0] for s in setups].index(row[0])):
        lines.append(
            f"| {name} | {loads} | {sum(r['rps'] for r in results):,.0f} | "
            f"{max(r['p50'] for r in results):.2f} ms | {max(r['p99'] for r in results):.2f} ms | "
            f"{sum(r['errors'] for r in results)} |")
    table = "\n".join(lines)
    print(table)
    os.makedirs(os.path.join(HERE, "Results"), exist_ok=True)
    with open(os.path.join(HERE, "Results", "hot-key.md"), "w") as out:
        out.write("# One hot key across instances\n\n`Scripts/hot-key.py`, "
                  + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()) + "\n\n" + table + "\n")


try:
    main()
finally:
    stop()
