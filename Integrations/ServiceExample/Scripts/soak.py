#!/usr/bin/env python3
"""Soak and faults: two Carlos instances on one PostgreSQL under load, a version
checker, and faults injected one at a time (issue 45).

    python3 Integrations/ServiceExample/Scripts/soak.py --short              # CI: about 3 min
    python3 Integrations/ServiceExample/Scripts/soak.py --duration 900 --outage 60
    python3 Integrations/ServiceExample/Scripts/soak.py --faults pg-kill,pg-stop --duration 600

Needs PostgreSQL's server programs (Integrations/Scripts/pg-cluster.sh installs them
from Debian's packages as root), wrk (`apt-get install -y wrk`) and a release build
of carlos-service-example: --binary PATH (or CARLOS_SERVICE_BINARY), otherwise the
script runs `swift build -c release` (with --scratch-path when given). No
DATABASE_URL: the script starts a throwaway PostgreSQL of its own (its own data
folder, 127.0.0.1, a free port) because it kills, stops and restarts it.

What runs, all on 127.0.0.1:
- PostgreSQL (pg-cluster.sh), an upstream (this script, `soak.py upstream`: asyncio,
  GET /users/<id> answers {"id","name","version"} after 20 ms and counts its loads;
  versions can be bumped; it can answer 500s or hang on command), and two instances
  A and B of `carlos-service-example serve <port> carlos` on the one PostgreSQL.
- Load: one wrk per instance per window (--connections each, default 16), GET
  /users/<id> for --users ids (20,000 by default: the memory level holds about
  2,000 of them, so it evicts all the time).
- The checker, once a second: bumps a random user's version at the upstream, PUTs
  the new JSON through A or B (alternately), and once the PUT answered 204 polls both
  instances every 20 ms until each serves that version. A read of an older version
  by a GET that started more than --bound seconds (1 s: the README's staleness
  bound with PostgreSQL up) after the 204 is a violation. A sampler also GETs random
  users on both instances, 10 a second each; any answer whose id, name or version
  is wrong (a version the upstream never had, a user other than the one asked for) is
  a wrong value, and an older version than an acknowledged write past the bound is a
  violation too.
- Faults, one at a time, each starting at a window's start, spread over the run
  after the warm-up: pg-kill (SIGKILL of every PostgreSQL process, restarted
  --kill-down s later; crash recovery empties the unlogged cache table), pg-stop
  (pg_ctl stop -m fast, started again --outage s later), upstream-errors (500s for
  --upstream-fault s), upstream-hang (requests held as long), instance-kill (B is
  SIGKILLed and restarted on its port --kill-down s later).
- During and after a PostgreSQL fault a prober PUTs a probe key through each
  instance every 100 ms and GETs random users: how soon writes fail, how fast
  they fail and gets answer, and how long after the server is back both instances
  accept writes again (recovery).

Prints one table row per --window seconds (requests and errors of wrk, p50/p99 per
instance, checker writes, violations, the longest staleness seen, wrong values,
RSS and open descriptors of each instance from /proc, PostgreSQL client
connections from pg_stat_activity, origin loads in the window, stderr lines of
each instance, the fault active), then a summary against the issue's targets.
--output FILE writes the same to FILE. With --short (3 min: a kill+restart and a
30 s stop, 15 s windows) it exits 1 when a target a short run can judge failed:
violations or wrong values, or a recovery above 5 s. With --ci (CI's shared, noisy
machine) it exits 1 on correctness only: violations, wrong values, acknowledged
writes not seen on an instance within 30 s, non-2xx answers or socket errors in
windows without a fault, descriptors of an instance growing by more than
--fd-growth over the run after the warm-up, or a recovery above 30 s (or none);
timing figures (recovery within 5 s, latencies) are reported, not judged. Every process it started is
stopped and the data folder removed at the end, also on SIGINT/SIGTERM.
"""
import argparse
import asyncio
import collections
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INTEGRATIONS = os.path.dirname(HERE)
CLUSTER = os.path.join(INTEGRATIONS, "Scripts", "pg-cluster.sh")
LUA = os.path.join(HERE, "Scripts", "soak-users.lua")
FAULTS = ("pg-kill", "pg-stop", "upstream-errors", "upstream-hang", "instance-kill")


# --------------------------------------------------------------------------------------
# The upstream: `soak.py upstream PORT DELAY_MS`, a separate process (not sharing the
# checker's interpreter lock).

def upstream_main(port, delay):
    versions = collections.defaultdict(int)
    loads = collections.Counter()
    state = {"served": 0, "mode": "ok"}
    resumed = None

    def body(user):
        return json.dumps({"id": user, "name": f"User {user}", "version": versions[user]},
                          separators=(",", ":")).encode()

    async def route(method, target):
        if method == "GET" and target.startswith("/users/"):
            user = target[len("/users/"):]
            state["served"] += 1
            loads[user] += 1
            if state["mode"] == "error":
                return 500, b'{"error":"injected"}'
            if state["mode"] == "hang":
                await resumed.wait()
            await asyncio.sleep(delay)
            return 200, body(user)
        if method == "GET" and target == "/served":
            return 200, str(state["served"]).encode()
        if method == "POST" and target.startswith("/admin/bump/"):
            user = target[len("/admin/bump/"):]
            versions[user] += 1
            return 200, str(versions[user]).encode()
        if method == "GET" and target.startswith("/admin/version/"):
            return 200, str(versions[target[len("/admin/version/"):]]).encode()
        if method == "POST" and target.startswith("/admin/mode/"):
            state["mode"] = target[len("/admin/mode/"):]
            if state["mode"] == "hang":
                resumed.clear()
            else:
                resumed.set()
            return 200, b"ok"
        if method == "POST" and target == "/admin/mark":
            loads.clear()
            return 200, b"ok"
        if method == "GET" and target == "/admin/loads":
            counts = list(loads.values())
            return 200, json.dumps({"keys": len(counts), "loads": sum(counts),
                                    "max": max(counts, default=0),
                                    "over2": sum(1 for c in counts if c > 2)}).encode()
        return 404, b"not found"

    async def handle(reader, writer):
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                method, target, _ = line.decode("latin-1").split(" ", 2)
                length, close = 0, False
                while True:
                    header = await reader.readline()
                    if header in (b"\r\n", b"\n", b""):
                        break
                    name, _, value = header.decode("latin-1").partition(":")
                    name = name.strip().lower()
                    if name == "content-length":
                        length = int(value)
                    elif name == "connection" and value.strip().lower() == "close":
                        close = True
                if length:
                    await reader.readexactly(length)
                status, payload = await route(method, target)
                reason = {200: "OK", 404: "Not Found", 500: "Internal Server Error"}[status]
                writer.write(b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
                             b"Content-Length: %d\r\n\r\n%s"
                             % (status, reason.encode(), len(payload), payload))
                await writer.drain()
                if close:
                    break
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()

    async def serve():
        nonlocal resumed
        resumed = asyncio.Event()
        resumed.set()
        server = await asyncio.start_server(handle, "127.0.0.1", port, backlog=1024)
        print(f"listening {server.sockets[0].getsockname()[1]}", flush=True)
        async with server:
            await server.serve_forever()

    asyncio.run(serve())


# --------------------------------------------------------------------------------------
# Helpers.

def log(message):
    print(f"soak: {time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(len(ordered) * p + 0.5) - 1))]


def to_ms(text):
    value, unit = re.match(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def call(port, method, path, body=None, timeout=10):
    """One request on a connection of its own: (status, body bytes)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


class Client:
    """A keep-alive connection that reconnects after any error."""

    def __init__(self, port, timeout=10):
        self.port, self.timeout, self.connection = port, timeout, None

    def request(self, method, path, body=None):
        """(status or an error's name, body, start, seconds)."""
        started = time.monotonic()
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port,
                                                             timeout=self.timeout)
            self.connection.request(method, path, body=body)
            response = self.connection.getresponse()
            payload = response.read()
            return response.status, payload, started, time.monotonic() - started
        except (OSError, http.client.HTTPException) as error:
            if self.connection is not None:
                self.connection.close()
            self.connection = None
            return type(error).__name__, b"", started, time.monotonic() - started


def rss_and_fds(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            rss = int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1)) / 1024
        return rss, len(os.listdir(f"/proc/{pid}/fd"))
    except (OSError, AttributeError):
        return None, None


# --------------------------------------------------------------------------------------
# PostgreSQL of its own.

class Postgres:
    def __init__(self):
        subprocess.run([CLUSTER, "install"], check=True)
        self.bin = subprocess.run([CLUSTER, "bin"], check=True, capture_output=True,
                                  text=True).stdout.strip()
        self.user = subprocess.run([CLUSTER, "user"], check=True, capture_output=True,
                                   text=True).stdout.strip()
        self.dir = tempfile.mkdtemp(prefix="carlos-soak-pg.")
        self.port = free_port()
        self.url = f"postgres://{self.user}@127.0.0.1:{self.port}/postgres"
        self.run_as = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []

    def start(self):
        subprocess.run([CLUSTER, "start", self.dir, str(self.port)], check=True,
                       stdin=subprocess.DEVNULL)

    def stop(self):
        subprocess.run([*self.run_as, os.path.join(self.bin, "pg_ctl"), "-D",
                        os.path.join(self.dir, "data"), "-m", "fast", "-w", "stop"],
                       check=True, stdout=subprocess.DEVNULL)

    def kill(self):
        """SIGKILL to the postmaster and every process it started, as a crash would."""
        with open(os.path.join(self.dir, "data", "postmaster.pid")) as f:
            postmaster = int(f.readline())
        victims = [postmaster]
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as f:
                        fields = f.read().rsplit(")", 1)[1].split()
                    if int(fields[1]) == postmaster:
                        victims.append(int(entry))
                except (OSError, IndexError, ValueError):
                    pass
        for pid in victims:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(os.path.exists(f"/proc/{p}") and
                                                  not zombie(p) for p in victims):
            time.sleep(0.05)
        return len(victims)

    def connections(self):
        try:
            out = subprocess.run(
                [os.path.join(self.bin, "psql"), "-h", "127.0.0.1", "-p", str(self.port),
                 "-U", self.user, "-d", "postgres", "-Atc",
                 "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
                 " AND pid <> pg_backend_pid()"],
                capture_output=True, text=True, timeout=3)
            return int(out.stdout.strip()) if out.returncode == 0 else None
        except (subprocess.TimeoutExpired, ValueError):
            return None

    def remove(self):
        subprocess.run([CLUSTER, "remove", self.dir], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


def zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


# --------------------------------------------------------------------------------------
# The instances and their logs.

MESSAGE = re.compile(r"^(\d{4}-\d\d-\d\dT\S+ \w+ |\[[^\]]+\] \[\w+\] )")


def log_kind(line):
    """A message's kind: its logger and level, and its text up to the first `(` or `:`
    (the details, such as the error, left out), numbers and quoted parts replaced."""
    line = re.sub(r"^\d{4}-\d\d-\d\dT\S+\s*", "", line.strip())
    prefix = re.match(r"^(\[[^\]]+\] \[\w+\] |\w+ [\w.-]+: (\[[^\]]+\] )?)", line)
    head = prefix.group(0) if prefix else ""
    text = re.split(r"[(:]", line[len(head):], 1)[0]
    text = re.sub(r"\"[^\"]*\"|'[^']*'", "…", text)
    return (head + re.sub(r"\d+(\.\d+)?", "#", text)).strip()[:100]


class Instance:
    def __init__(self, name, binary, upstream, database, logs, lock, environment=None):
        self.name, self.binary, self.upstream, self.database = name, binary, upstream, database
        self.environment = environment or {}
        self.port = free_port()
        self.logs = logs  # shared list of (monotonic time, instance name, kind)
        self.lock = lock
        self.raw = [0]  # stderr lines, continuation lines included
        self.process = None
        self.logfile = None

    def start(self, folder):
        self.logfile = open(os.path.join(folder, f"instance-{self.name}.log"), "a")
        self.process = subprocess.Popen(
            [self.binary, "serve", str(self.port), "carlos", self.upstream, self.database],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
            env={**os.environ, **self.environment})
        line = self.process.stdout.readline()
        if not line.startswith("listening"):
            raise SystemExit(f"instance {self.name} did not start: {line!r}")
        process = self.process
        threading.Thread(target=lambda: process.stdout.read(), daemon=True).start()
        threading.Thread(target=self.read_stderr, args=(process,), daemon=True).start()

    def read_stderr(self, process):
        """Each message (a line starting with a timestamp; the lines after it that do not
        are its continuation, as a multi-line error description) is one entry."""
        for line in process.stderr:
            now = time.monotonic()
            self.logfile.write(line)
            self.logfile.flush()
            with self.lock:
                self.raw[0] += 1
                if MESSAGE.match(line) or not self.logs:
                    self.logs.append((now, self.name, log_kind(line)))

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# --------------------------------------------------------------------------------------
# The checker, the sampler and the prober.

class Checks:
    """Every observation, with monotonic times, for the windows and the summary."""

    def __init__(self, bound):
        self.bound = bound
        self.lock = threading.Lock()
        self.acked = {}  # user -> (version, ack time) of its latest acknowledged write
        self.writes = []  # (time, instance, status, seconds, version)
        self.stale = []  # (time of the stale read's start, instance, staleness s, violation)
        self.wrong = []  # (time, instance, user, body)
        self.gets = []  # (time, instance, status, seconds) of sampler and prober gets
        self.probes = []  # (time, instance, status, seconds) of the prober's writes
        self.unconfirmed = []  # (time, instance, user, version): never seen within 30 s


def parse_user(body):
    try:
        value = json.loads(body)
        return value["id"], value["name"], int(value["version"])
    except (ValueError, KeyError, TypeError):
        return None


def check_answer(checks, instance, user, status, body, started, upstream_version):
    """Wrong values and violations of one 200 answer; returns its version (or None)."""
    parsed = parse_user(body)
    if parsed is None or parsed[0] != user or parsed[1] != f"User {user}" or parsed[2] < 0 \
            or parsed[2] > upstream_version:
        with checks.lock:
            checks.wrong.append((started, instance, user, body[:200]))
        return None
    with checks.lock:
        acked = checks.acked.get(user)
    if acked and parsed[2] < acked[0] and started > acked[1]:
        late = started - acked[1]
        with checks.lock:
            checks.stale.append((started, instance, late, late > checks.bound))
    return parsed[2]


def checker(checks, instances, upstream, stop, interval=1.0):
    """Once a second: bump a user at the upstream, PUT it through A or B, poll both."""
    turn = 0
    busy = set()
    next_time = time.monotonic()
    while not stop.is_set():
        next_time += interval
        user = str(random.randint(1, USERS))
        while user in busy:
            user = str(random.randint(1, USERS))
        try:
            version = int(call(upstream, "POST", f"/admin/bump/{user}", timeout=5)[1])
        except (OSError, ValueError, http.client.HTTPException):
            stop.wait(max(0, next_time - time.monotonic()))
            continue
        instance = instances[turn % len(instances)]
        turn += 1
        body = json.dumps({"id": user, "name": f"User {user}", "version": version},
                          separators=(",", ":")).encode()
        status, _, started, seconds = Client(instance.port, timeout=15).request(
            "PUT", f"/users/{user}", body)
        with checks.lock:
            checks.writes.append((started, instance.name, status, seconds, version))
            if status == 204:
                checks.acked[user] = (version, started + seconds)
        if status == 204:
            busy.add(user)
            threading.Thread(target=poll, daemon=True,
                             args=(checks, instances, user, version, started + seconds,
                                   busy)).start()
        stop.wait(max(0, next_time - time.monotonic()))


def poll(checks, instances, user, version, acked_at, busy):
    pending = {i.name: Client(i.port, timeout=10) for i in instances}
    deadline = acked_at + 30
    while pending and time.monotonic() < deadline:
        for name, client in list(pending.items()):
            status, body, started, _ = client.request("GET", f"/users/{user}")
            if status == 200:
                seen = check_answer(checks, name, user, status, body, started, version)
                if seen is not None and seen >= version:
                    del pending[name]
        time.sleep(0.02)
    for name in pending:
        with checks.lock:
            checks.unconfirmed.append((acked_at, name, user, version))
    busy.discard(user)


def sampler(checks, instance, upstream, stop, rate=10.0):
    """GETs random users on one instance: latency, wrong values, stale reads."""
    client = Client(instance.port, timeout=15)
    control = Client(upstream, timeout=5)
    while not stop.is_set():
        user = str(random.randint(1, USERS))
        status, body, started, seconds = client.request("GET", f"/users/{user}")
        with checks.lock:
            checks.gets.append((started, instance.name, status, seconds))
        if status == 200:
            answer = control.request("GET", f"/admin/version/{user}")
            if answer[0] == 200:
                check_answer(checks, instance.name, user, status, body, started,
                             int(answer[1]))
        stop.wait(max(0, 1 / rate - seconds))


def prober(checks, instance, stop):
    """During a PostgreSQL fault and its recovery: a probe write every 100 ms."""
    client = Client(instance.port, timeout=15)
    count = 0
    while not stop.is_set():
        count += 1
        status, _, started, seconds = client.request(
            "PUT", f"/users/probe-{instance.name}",
            json.dumps({"id": f"probe-{instance.name}", "n": count}).encode())
        with checks.lock:
            checks.probes.append((started, instance.name, status, seconds))
        stop.wait(max(0, 0.1 - seconds))


# --------------------------------------------------------------------------------------
# Load.

def wrk(port, seconds, connections):
    return subprocess.Popen(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "--latency",
         "-s", LUA, f"http://127.0.0.1:{port}", "--", str(USERS)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def parse_wrk(output):
    percent = dict(re.findall(r"^\s+(50|99)%\s+(\S+)\s*$", output, re.M))
    if "99" not in percent:
        log("wrk output without a p99: " + output.replace("\n", " | "))
    requests = re.search(r"(\d+) requests in", output)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)",
                        output)
    return {
        "requests": int(requests.group(1)) if requests else 0,
        "errors": (int(non2xx.group(1)) if non2xx else 0)
        + (sum(int(x) for x in sockets.groups()) if sockets else 0),
        "p50": to_ms(percent["50"]) if "50" in percent else float("nan"),
        "p99": to_ms(percent["99"]) if "99" in percent else float("nan"),
    }


# --------------------------------------------------------------------------------------
# The run.

def schedule(args):
    """[(window index, fault)]: faults at window starts, spread after the warm-up."""
    windows = int(args.duration // args.window)
    faults = [f for f in args.faults.split(",") if f]
    for fault in faults:
        if fault not in FAULTS:
            raise SystemExit(f"unknown fault {fault!r} (known: {', '.join(FAULTS)})")
    warm = max(1, int(args.warmup // args.window))
    if not faults:
        return windows, warm, []
    span = windows - warm
    step = span / len(faults)
    plan = [(warm + int(i * step), fault) for i, fault in enumerate(faults)]
    needs = {"pg-stop": args.outage, "upstream-errors": args.upstream_fault,
             "upstream-hang": args.upstream_fault}
    for (index, fault), (next_index, _) in zip(plan, plan[1:] + [(windows, None)]):
        length = (next_index - index) * args.window
        if needs.get(fault, args.kill_down) + 10 > length:
            raise SystemExit(f"{fault} at window {index + 1} does not fit before the next "
                             f"fault or the end: raise --duration")
    return windows, warm, plan


def main():
    global USERS
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=1800, help="seconds (1800)")
    parser.add_argument("--window", type=float, default=30, help="seconds per row (30)")
    parser.add_argument("--warmup", type=float, default=120,
                        help="seconds before the first fault (120)")
    parser.add_argument("--outage", type=float, default=60, help="pg-stop seconds (60)")
    parser.add_argument("--kill-down", type=float, default=2,
                        help="seconds between a kill and the restart (2)")
    parser.add_argument("--upstream-fault", type=float, default=20,
                        help="seconds of upstream errors, of upstream hangs (20)")
    parser.add_argument("--faults", default=",".join(FAULTS),
                        help=f"comma-separated, in order (default: {','.join(FAULTS)})")
    parser.add_argument("--users", type=int, default=20000)
    parser.add_argument("--connections", type=int, default=16, help="per instance (16)")
    parser.add_argument("--bound", type=float, default=1.0,
                        help="staleness bound in seconds with PostgreSQL up (1)")
    parser.add_argument("--short", action="store_true",
                        help="CI: 180 s, 15 s windows, 30 s warm-up, pg-kill,pg-stop, "
                             "30 s outage; exits 1 when a target fails")
    parser.add_argument("--ci", action="store_true",
                        help="exit 1 on correctness (and a recovery above 30 s) only; "
                             "timing targets are reported, not judged")
    parser.add_argument("--fd-growth", type=int, default=64,
                        help="with --ci: most descriptors an instance may gain from the "
                             "end of the warm-up to the end (64)")
    parser.add_argument("--binary", default=os.environ.get("CARLOS_SERVICE_BINARY"))
    parser.add_argument("--scratch-path", help="for the release build when no --binary")
    parser.add_argument("--output", help="also write the table and summary to this file")
    parser.add_argument("--keep-logs", help="copy the instances' stderr into this folder")
    parser.add_argument("--env", action="append", default=[], metavar="A:NAME=VALUE",
                        help="environment of one instance, e.g. B:MALLOC_ARENA_MAX=2")
    parser.add_argument("--malloc-report", action="store_true",
                        help="at the end, through gdb: glibc's malloc_stats() of each "
                             "instance, then RSS before and after malloc_trim(0)")
    args = parser.parse_args()
    if args.short:
        args.duration, args.window, args.warmup, args.outage = 180, 15, 30, 30
        if "--faults" not in sys.argv:
            args.faults = "pg-kill,pg-stop"
    USERS = args.users
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install -y wrk")
    windows, warm, plan = schedule(args)
    binary = args.binary or build(args.scratch_path)
    return run(args, binary, windows, warm, dict(plan))


def build(scratch):
    extra = ["--scratch-path", scratch] if scratch else []
    log("building carlos-service-example (release)")
    subprocess.run(["swift", "build", "-c", "release", "--package-path", HERE, "--product",
                    "carlos-service-example", *extra], check=True)
    folder = subprocess.run(["swift", "build", "-c", "release", "--package-path", HERE,
                             "--show-bin-path", *extra], check=True, capture_output=True,
                            text=True).stdout.strip()
    return os.path.join(folder, "carlos-service-example")


class Output:
    def __init__(self, path):
        self.file = open(path, "w") if path else None

    def __call__(self, line=""):
        print(line, flush=True)
        if self.file:
            self.file.write(line + "\n")
            self.file.flush()


def run(args, binary, windows, warm, plan):
    out = Output(args.output)
    folder = tempfile.mkdtemp(prefix="carlos-soak.")
    postgres = Postgres()
    upstream_process = None
    instances = []
    stop = threading.Event()
    loaders = []

    def terminate(signum, _frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminate)
    try:
        postgres.start()
        upstream_process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "upstream", "0", "0.02"],
            stdout=subprocess.PIPE, text=True)
        upstream = int(upstream_process.stdout.readline().split()[1])
        origin = f"http://127.0.0.1:{upstream}"
        logs, logs_lock = [], threading.Lock()
        environments = collections.defaultdict(dict)
        for item in args.env:
            name, _, assignment = item.partition(":")
            variable, _, value = assignment.partition("=")
            environments[name][variable] = value
        instances = [Instance(name, binary, origin, postgres.url, logs, logs_lock,
                              environments[name]) for name in "AB"]
        for instance in instances:
            instance.start(folder)
        time.sleep(1)  # the listeners listen
        checks = Checks(args.bound)
        threads = [threading.Thread(target=checker, args=(checks, instances, upstream, stop),
                                    daemon=True)]
        threads += [threading.Thread(target=sampler, args=(checks, i, upstream, stop),
                                     daemon=True) for i in instances]
        for thread in threads:
            thread.start()

        out(f"# soak.py {' '.join(sys.argv[1:])}")
        out(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
            f"load average at start {os.getloadavg()[0]:.2f}; binary {binary}")
        out(f"# {args.users} users, wrk -t1 -c{args.connections} per instance, "
            f"{args.window:g} s windows, warm-up {warm * args.window:g} s, bound "
            f"{args.bound:g} s; faults: "
            + ", ".join(f"{f} at {i * args.window:g} s" for i, f in sorted(plan.items())))
        out()
        out("| win | end s | fault | requests | errors | p50 ms A/B | p99 ms A/B | writes ok/failed "
            "| violations | max stale ms | wrong | RSS MB A/B | fds A/B | pg conns | origin loads "
            "| log msgs A/B | load avg |")
        out("|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")

        starts = [threading.Event() for _ in range(windows)]
        begin = time.monotonic()
        window_times = []
        labels = [""] * windows
        events = []  # (name, fault, dict of times)
        faults_thread = threading.Thread(
            target=inject, daemon=True,
            args=(args, plan, starts, labels, events, postgres, instances, upstream, checks,
                  folder, stop))
        faults_thread.start()
        rows = []
        served_before = served(upstream)
        for index in range(windows):
            started = time.monotonic()
            loaders = [wrk(i.port, int(args.window), args.connections) for i in instances]
            starts[index].set()
            results = [parse_wrk(p.communicate()[0]) for p in loaders]
            ended = time.monotonic()
            window_times.append((started, ended))
            served_now = served(upstream)
            row = summarize_window(index, started, ended, begin, results, checks, instances,
                                   postgres, served_now - served_before if served_now is not None
                                   and served_before is not None else None, labels[index])
            served_before = served_now if served_now is not None else served_before
            rows.append(row)
            out(row["line"])
        stop.set()
        faults_thread.join(timeout=120)
        status = summary(args, out, rows, warm, events, checks, instances, logs, window_times)
        if args.malloc_report:
            malloc_report(out, instances, folder)
        return status
    finally:
        stop.set()
        for loader in loaders:
            if loader.poll() is None:
                loader.kill()
        for instance in instances:
            instance.stop()
        if upstream_process:
            upstream_process.terminate()
            upstream_process.wait()
        postgres.remove()
        if args.keep_logs:
            os.makedirs(args.keep_logs, exist_ok=True)
            for name in os.listdir(folder):
                shutil.copy(os.path.join(folder, name), args.keep_logs)
        shutil.rmtree(folder, ignore_errors=True)


def served(upstream):
    try:
        return int(call(upstream, "GET", "/served", timeout=5)[1])
    except (OSError, ValueError, http.client.HTTPException):
        return None


def summarize_window(index, started, ended, begin, results, checks, instances, postgres,
                     origin, label):
    with checks.lock:
        writes = [w for w in checks.writes if started <= w[0] < ended]
        stale = [s for s in checks.stale if started <= s[0] < ended]
        wrong = [w for w in checks.wrong if started <= w[0] < ended]
    with instances[0].lock:
        lines = collections.Counter(name for t, name, _ in instances[0].logs
                                    if started <= t < ended)
    memory = [rss_and_fds(i.process.pid) for i in instances]
    connections = postgres.connections()
    ok = sum(1 for w in writes if w[2] == 204)
    violations = sum(1 for s in stale if s[3])
    row = {
        "index": index, "started": started, "ended": ended, "label": label,
        "requests": sum(r["requests"] for r in results),
        "errors": sum(r["errors"] for r in results),
        "p50": [r["p50"] for r in results], "p99": [r["p99"] for r in results],
        "writes": (ok, len(writes) - ok), "violations": violations,
        "stale": max((s[2] for s in stale), default=0.0), "wrong": len(wrong),
        "rss": [m[0] for m in memory], "fds": [m[1] for m in memory],
        "connections": connections, "origin": origin,
        "lines": [lines.get(i.name, 0) for i in instances],
    }

    def pair(values, form):
        return "/".join("–" if v is None or v != v else form.format(v) for v in values)

    row["line"] = (
        f"| {index + 1} | {ended - begin:.0f} | {label or '–'} | {row['requests']:,} | "
        f"{row['errors']:,} | {pair(row['p50'], '{:.1f}')} | {pair(row['p99'], '{:.1f}')} | "
        f"{ok}/{len(writes) - ok} | {violations} | {row['stale'] * 1000:.0f} | {len(wrong)} | "
        f"{pair(row['rss'], '{:.0f}')} | {pair(row['fds'], '{}')} | "
        f"{'–' if connections is None else connections} | "
        f"{'–' if origin is None else f'{origin:,}'} | {pair(row['lines'], '{}')} | "
        f"{os.getloadavg()[0]:.1f} |")
    return row


def inject(args, plan, starts, labels, events, postgres, instances, upstream, checks, folder,
           stop):
    """Waits for each fault's window and injects it; records its times in `events`."""
    for index, fault in sorted(plan.items()):
        while not starts[index].wait(0.5):
            if stop.is_set():
                return
        times = {"start": time.monotonic()}
        probe_stop = threading.Event()
        probers = []
        if fault.startswith("pg-"):
            probers = [threading.Thread(target=prober, args=(checks, i, probe_stop), daemon=True)
                       for i in instances]
            for thread in probers:
                thread.start()
            call(upstream, "POST", "/admin/mark")
        log(f"fault {fault}")
        if fault == "pg-kill":
            label(labels, index, args, args.kill_down + 5, fault)
            times["killed"] = postgres.kill()
            stop.wait(args.kill_down)
            times["restart"] = time.monotonic()
            postgres.start()
            times["back"] = time.monotonic()
        elif fault == "pg-stop":
            label(labels, index, args, args.outage, f"pg-stop {args.outage:g}s")
            postgres.stop()
            times["down"] = time.monotonic()
            stop.wait(args.outage)
            times["restart"] = time.monotonic()
            postgres.start()
            times["back"] = time.monotonic()
        elif fault in ("upstream-errors", "upstream-hang"):
            label(labels, index, args, args.upstream_fault,
                  f"{fault} {args.upstream_fault:g}s")
            call(upstream, "POST", f"/admin/mode/{'error' if fault == 'upstream-errors' else 'hang'}")
            stop.wait(args.upstream_fault)
            call(upstream, "POST", "/admin/mode/ok")
            times["back"] = time.monotonic()
        elif fault == "instance-kill":
            label(labels, index, args, args.kill_down + 1, "instance-kill B")
            instances[1].kill()
            stop.wait(args.kill_down)
            times["restart"] = time.monotonic()
            instances[1].start(folder)
            times["listening"] = time.monotonic()
            while call_ok(instances[1].port, "/health") is False and \
                    time.monotonic() - times["restart"] < 60:
                time.sleep(0.01)
            times["back"] = time.monotonic()
        if fault.startswith("pg-"):
            # Recovery: both instances accept the probe's writes again.
            deadline = times["back"] + 120
            while time.monotonic() < deadline and not stop.is_set():
                time.sleep(0.1)
                with checks.lock:
                    recent = [p for p in checks.probes if p[0] >= times["back"]]
                done = {}
                for p in recent:
                    if p[2] == 204 and p[1] not in done:
                        done[p[1]] = p[0] + p[3]
                if len(done) == len(instances):
                    times["recovered"] = max(done.values())
                    break
            stop.wait(2)
            probe_stop.set()
            try:
                times["loads"] = json.loads(call(upstream, "GET", "/admin/loads")[1])
            except (OSError, ValueError, http.client.HTTPException):
                pass
        events.append((fault, times))
        log(f"fault {fault} over: " + ", ".join(
            f"{k} +{v - times['start']:.2f}s" for k, v in times.items()
            if isinstance(v, float) and k != "start"))


def gdb_call(pid, expression):
    subprocess.run(["gdb", "-p", str(pid), "-batch", "-nx", "-ex", f"call {expression}"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)


def malloc_stats(pid, log):
    """What malloc_stats() prints in process `pid`, read from its stderr file `log`."""
    offset = os.path.getsize(log)
    gdb_call(pid, "(void) malloc_stats()")
    time.sleep(0.5)
    with open(log) as f:
        f.seek(offset)
        return f.read()


def malloc_report(out, instances, folder):
    """What glibc holds: malloc_stats() (written to the instance's stderr) and how much
    of the RSS malloc_trim(0) gives back, for each instance still running."""
    if shutil.which("gdb") is None:
        out("- malloc report: gdb is missing")
        return
    for instance in instances:
        pid = instance.process.pid
        before = rss_and_fds(pid)[0]
        stats = malloc_stats(pid, os.path.join(folder, f"instance-{instance.name}.log"))
        arenas = re.findall(r"Arena (\d+):\s+system bytes\s+=\s+(\d+)\s+in use bytes\s+=\s+(\d+)",
                            stats)
        total = re.search(r"Total \(incl. mmap\):\s+system bytes\s+=\s+(\d+)\s+"
                          r"in use bytes\s+=\s+(\d+)", stats)
        mmapped = re.search(r"max mmap bytes\s+=\s+(\d+)", stats)
        gdb_call(pid, "(int) malloc_trim(0)")
        time.sleep(0.5)
        after = rss_and_fds(pid)[0]
        env = " ".join(f"{k}={v}" for k, v in instance.environment.items()) or "default malloc"
        out(f"- malloc of {instance.name} ({env}): RSS {before:.0f} MB; {len(arenas)} arenas, "
            + (f"system {int(total.group(1)) / 2**20:.0f} MB, in use "
               f"{int(total.group(2)) / 2**20:.0f} MB (incl. mmap)" if total else "no stats")
            + (f", max mmap {int(mmapped.group(1)) / 2**20:.0f} MB" if mmapped else "")
            + f"; RSS after malloc_trim(0) {after:.0f} MB")


def call_ok(port, path):
    try:
        return call(port, "GET", path, timeout=2)[0] == 200
    except (OSError, http.client.HTTPException):
        return False


def label(labels, index, args, seconds, text):
    count = max(1, int(-(-seconds // args.window)))
    for i in range(index, min(len(labels), index + count)):
        labels[i] = text if count == 1 else f"{text} ({i - index + 1}/{count})"


def summary(args, out, rows, warm, events, checks, instances, logs, window_times):
    failed = []
    out()
    out("## Summary")
    total = sum(r["requests"] for r in rows)
    errors = sum(r["errors"] for r in rows)
    clean = [r for r in rows if not r["label"]]
    out(f"- requests {total:,}, errors (non-2xx and socket errors) {errors:,}; in windows "
        f"without a fault {sum(r['requests'] for r in clean):,} requests, "
        f"{sum(r['errors'] for r in clean):,} errors")
    with checks.lock:
        writes = list(checks.writes)
        stale = list(checks.stale)
        wrong = list(checks.wrong)
        gets = list(checks.gets)
        probes = list(checks.probes)
        unconfirmed = list(checks.unconfirmed)
    violations = [s for s in stale if s[3]]
    acked = [w for w in writes if w[2] == 204]
    checked = sum(1 for g in gets if g[2] == 200)
    out(f"- checker: {len(writes)} writes, {len(acked)} acknowledged (p50 "
        f"{percentile([w[3] for w in acked], 0.5) * 1000:.1f} ms); {checked:,} sampled gets "
        f"checked; stale reads {len(stale)} (any, after the 204), violations (older than "
        f"the 204 by more than {args.bound:g} s) **{len(violations)}**, longest staleness "
        f"{max((s[2] for s in stale), default=0) * 1000:.0f} ms; wrong values **{len(wrong)}**; "
        f"writes not seen on an instance within 30 s: {len(unconfirmed)}")
    for s in violations[:10]:
        out(f"  - violation: instance {s[1]} served an old version {s[2]:.2f} s after the 204")
    for w in wrong[:10]:
        out(f"  - wrong value: instance {w[1]} for user {w[2]}: {w[3]!r}")
    target(out, failed, "0 violations", len(violations) == 0, f"{len(violations)}")
    target(out, failed, "0 wrong values", len(wrong) == 0, f"{len(wrong)}")
    target(out, failed, "every acknowledged write seen on both instances within 30 s",
           len(unconfirmed) == 0, f"{len(unconfirmed)} not seen", judged=args.ci)
    clean_errors = sum(r["errors"] for r in clean)
    target(out, failed, "0 errors in windows without a fault", clean_errors == 0,
           f"{clean_errors:,}", judged=args.ci)

    for fault, times in events:
        start = times["start"]
        if fault.startswith("pg-"):
            back = times.get("back", start)
            # Per instance, from the end of its first failed write (the first failed call
            # that tells the instance PostgreSQL is gone) to the server's return.
            first = {}
            for p in probes:
                if p[0] >= start and p[2] != 204 and p[1] not in first:
                    first[p[1]] = p[0] + p[3]
            first_failed = min(first.values(), default=None)
            failing = [p for p in probes if p[1] in first and first[p[1]] <= p[0] < back
                       and p[2] != 204]
            outage_gets = [g for g in gets if g[1] in first and first[g[1]] <= g[0] < back]
            get_ms = [g[3] * 1000 for g in outage_gets]
            get_errors = sum(1 for g in outage_gets if g[2] != 200)
            statuses = collections.Counter(str(p[2]) for p in failing)
            fail_ms = [p[3] * 1000 for p in failing]
            recovered = times.get("recovered")
            loads = times.get("loads", {})
            downtime = back - start
            out(f"- **{fault}** at {start - window_times[0][0]:.0f} s: server back after "
                f"{downtime:.1f} s; first failed write "
                + (f"answered {first_failed - start:.2f} s after the fault" if first_failed
                   else "none")
                + f"; after it: failed writes {len(failing)} ({', '.join(f'{k}: {v}' for k, v in statuses.items())}), "
                f"p99 {percentile(fail_ms, 0.99):.1f} ms, max {max(fail_ms, default=0):.1f} ms; "
                f"sampled gets while down {len(get_ms)} (p50 {percentile(get_ms, 0.5):.1f} ms, "
                f"p99 {percentile(get_ms, 0.99):.1f} ms, max {max(get_ms, default=0):.1f} ms, "
                f"errors {get_errors}); origin loads from the fault to recovery "
                f"{loads.get('loads', '?')} for {loads.get('keys', '?')} users (at most "
                f"{loads.get('max', '?')} per user, {loads.get('over2', '?')} users more than "
                f"twice); recovery (both instances accept writes) "
                + (f"**{recovered - back:.2f} s** after the server was back" if recovered
                   else "**not within 120 s**"))
            if fail_ms:
                target(out, failed, f"{fault}: writes fail in ≤ 100 ms (p99)",
                       percentile(fail_ms, 0.99) <= 100, f"{percentile(fail_ms, 0.99):.1f} ms",
                       judged=False)
            if get_ms:
                target(out, failed, f"{fault}: p99 of gets ≤ 100 ms while down",
                       percentile(get_ms, 0.99) <= 100, f"{percentile(get_ms, 0.99):.1f} ms",
                       judged=False)
            figure = f"{recovered - back:.2f} s" if recovered else "none"
            target(out, failed, f"{fault}: recovery ≤ 5 s",
                   bool(recovered) and recovered - back <= 5, figure, judged=not args.ci)
            if args.ci:
                target(out, failed, f"{fault}: recovery ≤ 30 s (CI limit)",
                       bool(recovered) and recovered - back <= 30, figure)
        elif fault == "instance-kill":
            out(f"- **instance-kill** of B at {start - window_times[0][0]:.0f} s: restarted "
                f"{times['restart'] - start:.1f} s later, listening after "
                f"{times['listening'] - times['restart']:.2f} s, /health answered "
                f"{times['back'] - times['restart']:.2f} s after the restart")
        else:
            after = [g for g in gets if times["back"] <= g[0] < times["back"] + 10]
            first_ok = min((g[0] for g in after if g[2] == 200), default=None)
            during = [g for g in gets if start <= g[0] < times["back"]]
            out(f"- **{fault}** at {start - window_times[0][0]:.0f} s for "
                f"{times['back'] - start:.0f} s: sampled gets {len(during)}, errors "
                f"{sum(1 for g in during if g[2] != 200)}, max "
                f"{max((g[3] for g in during), default=0) * 1000:.0f} ms; first good sampled get "
                + (f"{first_ok - times['back']:.2f} s after it ended" if first_ok else "none"))

    # Memory: RSS at the end of the warm-up, at the end of the window after each fault
    # ended and one window later, and at the end.
    def window_of(moment):
        for index, (started, ended) in enumerate(window_times):
            if started <= moment < ended:
                return index
        return len(window_times) - 1

    for position, instance in enumerate(instances):
        if len(rows) <= warm or rows[warm - 1]["rss"][position] is None:
            continue
        base = rows[warm - 1]["rss"][position]
        points = [f"after warm-up {base:.0f} MB"]
        for fault, times in events:
            after = window_of(times.get("recovered", times.get("back", times["start"]))) + 1
            if after < len(rows):
                later = rows[min(len(rows) - 1, after + 1)]["rss"][position]
                points.append(f"after {fault} {rows[after]['rss'][position] or 0:.0f} MB "
                              f"(then {later or 0:.0f})")
        end = rows[-1]["rss"][position]
        growth = (end - base) / base * 100
        restarted = instance.name == "B" and any(f == "instance-kill" for f, _ in events)
        out(f"- RSS of {instance.name}: " + "; ".join(points) + f"; at the end {end:.0f} MB "
            f"({growth:+.1f} % over {(len(rows) - warm) * args.window / 60:.1f} min after "
            f"warm-up{', restarted by instance-kill' if restarted else ''})")
    # Descriptors: from the end of the warm-up to the end (instance-kill restarts B,
    # whose count starts again; --short has no instance-kill).
    for position, instance in enumerate(instances):
        if len(rows) <= warm or rows[warm - 1]["fds"][position] is None:
            continue
        base, end = rows[warm - 1]["fds"][position], rows[-1]["fds"][position] or 0
        peak = max(r["fds"][position] or 0 for r in rows[warm - 1:])
        target(out, failed, f"descriptors of {instance.name} grow by ≤ {args.fd_growth}",
               end - base <= args.fd_growth,
               f"{base} after warm-up, {end} at the end, at most {peak}", judged=args.ci)
    # Logs.
    with instances[0].lock:
        entries = list(logs)
    kinds = collections.defaultdict(collections.Counter)
    for t, name, kind in entries:
        kinds[(name, kind)][int(t)] += 1
    out(f"- stderr: {len(entries)} messages in all ("
        + ", ".join(f"{i.name} {i.raw[0]} lines" for i in instances) + ")")
    worst = 0
    for (name, kind), seconds in sorted(kinds.items(), key=lambda kv: -sum(kv[1].values()))[:12]:
        peak = max(seconds.values())
        worst = max(worst, peak)
        out(f"  - {name}: {sum(seconds.values())} messages, at most {peak} in a second: `{kind}`")
    target(out, failed, "at most one log message per second per kind", worst <= 1,
           f"at most {worst} in a second", judged=False)
    out()
    if failed:
        out("targets failed: " + ", ".join(failed))
    return 1 if (args.short or args.ci) and failed else 0


def target(out, failed, name, held, figure, judged=True):
    out(f"  - target {name}: {'held' if held else 'NOT held'} ({figure})")
    if not held and judged:
        failed.append(name)


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "upstream":
        upstream_main(int(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 0.02)
    else:
        USERS = 20000
        sys.exit(main())
