#!/usr/bin/env python3
"""Memory of one instance under load: RSS and what glibc's malloc holds, after each
phase of gets (issue 45, "memory not flat").

    python3 Integrations/ServiceExample/Scripts/memory.py --binary Integrations/.build-c/release/carlos-service-example
    python3 Integrations/ServiceExample/Scripts/memory.py --mode framework --rounds 6

Starts a throwaway PostgreSQL, the soak's upstream (20 ms a user) and one instance of
`carlos-service-example serve <port> <mode>` on 127.0.0.1, then: 10,000 users got
once by 8 clients, the same users again, 10,000 more, then --rounds rounds of wrk
(16 connections, --seconds each, 20,000 users). After each phase it prints the
instance's RSS and malloc's bytes in use (malloc_stats() through gdb), so memory that
stays in use after the work that needed it ended shows as a rising column. Needs
gdb, wrk and PostgreSQL's server programs (pg-cluster.sh installs them as root).
"""
import argparse
import http.client
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak  # noqa: E402

soak.USERS = 20_000


def in_use(pid, log):
    """malloc's bytes in use (mmap included), in MB."""
    total = re.search(r"Total \(incl. mmap\):\s+system bytes\s+=\s+\d+\s+in use bytes\s+=\s+(\d+)",
                      soak.malloc_stats(pid, log))
    return int(total.group(1)) / 2**20 if total else float("nan")


def get_each(port, first, last, clients=8):
    """GET /users/<id> for ids first...last, spread over `clients` connections."""
    failures = []

    def work(offset):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for user in range(first + offset, last + 1, clients):
            connection.request("GET", f"/users/{user}")
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                failures.append((user, response.status))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise SystemExit(f"{len(failures)} gets failed, first {failures[0]}")
    return last - first + 1


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.environ.get("CARLOS_SERVICE_BINARY"))
    parser.add_argument("--mode", default="carlos",
                        help="carlos, carlos-once, framework or none (default carlos)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=20)
    args = parser.parse_args()
    if not args.binary:
        raise SystemExit("--binary PATH (a release build of carlos-service-example)")
    for tool in ("gdb", "wrk"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is missing (apt-get install -y {tool})")

    folder = tempfile.mkdtemp(prefix="carlos-memory.")
    log = os.path.join(folder, "instance.log")
    postgres = soak.Postgres()
    processes = []
    try:
        postgres.start()
        upstream = subprocess.Popen(
            [sys.executable, soak.__file__, "upstream", "0", "0.02"],
            stdout=subprocess.PIPE, text=True)
        processes.append(upstream)
        origin = f"http://127.0.0.1:{upstream.stdout.readline().split()[1]}"
        with open(log, "w") as stderr:
            instance = subprocess.Popen(
                [args.binary, "serve", "0", args.mode, origin, postgres.url],
                stdout=subprocess.PIPE, stderr=stderr, text=True)
        processes.append(instance)
        line = instance.stdout.readline()
        if not line.startswith("listening"):
            raise SystemExit(f"the instance did not start: {line!r}")
        port = int(line.split()[1])
        time.sleep(1)

        print(f"# memory.py {' '.join(sys.argv[1:])}")
        print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores,"
              f" mode {args.mode}")
        print("\n| phase | requests | RSS MB | malloc in use MB |\n|---|--:|--:|--:|")

        def row(phase, requests):
            rss = soak.rss_and_fds(instance.pid)[0]
            print(f"| {phase} | {requests:,} | {rss:.1f} | {in_use(instance.pid, log):.1f} |",
                  flush=True)

        row("started", 0)
        row("users 1-10,000 once", get_each(port, 1, 10_000))
        row("users 1-10,000 again", get_each(port, 1, 10_000))
        row("users 10,001-20,000 once", get_each(port, 10_001, 20_000))
        for round in range(1, args.rounds + 1):
            output = soak.wrk(port, args.seconds, 16).communicate()[0]
            result = soak.parse_wrk(output)
            row(f"wrk round {round} ({args.seconds} s, 16 connections)", result["requests"])
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        postgres.remove()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
