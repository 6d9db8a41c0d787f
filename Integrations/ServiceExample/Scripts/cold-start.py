#!/usr/bin/env python3
"""Cold start of several instances at once: how many times the upstream is asked.

    Integrations/Scripts/with-postgres.sh python3 Integrations/ServiceExample/Scripts/cold-start.py [INSTANCES] [CONNECTIONS] [KEYS]

Needs DATABASE_URL (with-postgres.sh starts a throwaway PostgreSQL on loopback).
Builds the service in release mode (CARLOS_SERVICE_BINARY: use that binary instead),
starts the upstream (answers after 20 ms) and INSTANCES instances (4 by default) of
the Carlos pipeline on one PostgreSQL, empties the cache, then every instance gets
all KEYS users (1,000 by default) at once over CONNECTIONS connections each (64 by
default): each connection asks for its share of the keys, in a shuffled order, all
connections starting together. Rows: `carlos` (each instance coalesces its own loads)
and `carlos-once` (PostgresSingleFlight: one load per key across instances). For each,
prints the upstream's requests (the origin loads) and the latency of the gets (p50, p99,
max), and writes Results/cold-start.md.
"""
import http.client
import os
import random
import statistics
import sys
import threading
import time

from service import HERE, build, database, percentile, request, served, start, stop

INSTANCES = int(sys.argv[1]) if len(sys.argv) > 1 else 4
CONNECTIONS = int(sys.argv[2]) if len(sys.argv) > 2 else 64
KEYS = int(sys.argv[3]) if len(sys.argv) > 3 else 1000


def log(message):
    print(f"cold-start: {message}", file=sys.stderr, flush=True)


def cold_phase(ports):
    """Every instance gets every key once, CONNECTIONS connections each, all at once."""
    latencies, errors = [], []
    lock = threading.Lock()
    barrier = threading.Barrier(len(ports) * CONNECTIONS)

    def worker(port, keys):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        barrier.wait()
        mine = []
        for key in keys:
            started = time.perf_counter()
            try:
                connection.request("GET", f"/users/{key}")
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    errors.append(response.status)
            except Exception as error:  # noqa: BLE001 - counted and reported
                errors.append(repr(error))
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            mine.append((time.perf_counter() - started) * 1000)
        with lock:
            latencies.extend(mine)

    threads = []
    for port in ports:
        keys = list(range(1, KEYS + 1))
        random.shuffle(keys)
        for index in range(CONNECTIONS):
            threads.append(threading.Thread(target=worker, args=(port, keys[index::CONNECTIONS])))
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, errors, time.perf_counter() - started


def main():
    url = database()
    build()
    upstream = start("upstream", "0")
    origin = f"http://127.0.0.1:{upstream}"
    rows = []
    for mode in ("carlos", "carlos-once"):
        ports = [start("serve", "0", mode, origin, url) for _ in range(INSTANCES)]
        time.sleep(1)  # the instances' listeners start listening
        status, _ = request(ports[0], "POST", "/admin/clear")
        assert status == 204, status
        time.sleep(0.5)  # the clear's notice empties the other instances' memory
        before = served(upstream)
        log(f"{mode}: {INSTANCES} instances × {CONNECTIONS} connections × {KEYS} cold keys")
        latencies, errors, elapsed = cold_phase(ports)
        loads = served(upstream) - before
        rows.append((mode, loads, latencies, errors, elapsed))
        stop(keep=1)

    lines = [
        f"{INSTANCES} instances × {CONNECTIONS} connections, every instance getting all "
        f"{KEYS} cold keys at once ({INSTANCES * KEYS} gets; upstream answers after 20 ms):",
        "",
        "| pipeline | origin loads | p50 | p99 | max | errors | wall time |",
        "|---|--:|--:|--:|--:|--:|--:|",
    ]
    for mode, loads, latencies, errors, elapsed in rows:
        lines.append(
            f"| {mode} | {loads} | {statistics.median(latencies):.1f} ms | "
            f"{percentile(latencies, 0.99):.1f} ms | {max(latencies):.1f} ms | {len(errors)} | "
            f"{elapsed:.2f} s |")
    table = "\n".join(lines)
    print(table)
    os.makedirs(os.path.join(HERE, "Results"), exist_ok=True)
    with open(os.path.join(HERE, "Results", "cold-start.md"), "w") as out:
        out.write("# Cold start across instances\n\n`Scripts/cold-start.py`, "
                  + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()) + "\n\n" + table + "\n")
    if any(errors for _, _, _, errors, _ in rows):
        sys.exit(1)


try:
    main()
finally:
    stop()
