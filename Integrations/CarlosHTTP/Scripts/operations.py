#!/usr/bin/env python3
"""The helper of run-operations.sh: the origin, the clients and the measurements of
the operator's trial of carlos-caching-proxy against nginx (proxy_cache) and Varnish.
Python 3.11, standard library only.

  python3 operations.py origin
      The test origin (asyncio, raw HTTP/1.1 parsing so that request targets are seen
      exactly as a cache forwards them). Listens on 127.0.0.1 on an ephemeral port,
      prints the port on its first line of output, exits when its standard input
      closes. It counts the requests it receives per target. Any path answers; the
      query says how:
        size=N        a body of N bytes (default 100), with Content-Length, generated
                      1 MiB at a time (2 GiB bodies are streamed, never held)
        cc=VALUE      the Cache-Control value (default "public, max-age=3600"; "none": no field)
        delay=S       waits S seconds before answering
        hang=1        never answers (waits until the connection closes)
        vary=1        answers Vary: X-V, the body starting with the request's X-V value
        cookie=1      adds Set-Cookie: session=N, N counting such answers
        echo=1        the body is "target=<the raw target it received>"
      Control (asked of the origin directly, never through a cache; not counted):
        /__total       requests received
        /__count?t=T   requests received for the target T (percent-encoded in t)
        /__log?from=K  the targets received since the K-th request, one a line

  python3 operations.py run --work DIR --carlos PATH --nginx PATH --varnishd PATH [CASE ...]
      Runs the cases (all when none is named) against each cache in turn, each time
      with a fresh origin and a fresh cache process, prints a line per cache and case,
      and at the end a Markdown table. run-operations.sh describes the cases.
"""
import argparse
import asyncio
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from urllib.parse import parse_qs, quote

MIB = 1 << 20
KIB = 1 << 10
HEADER_TIMEOUT = 10  # header and idle (keep-alive) timeouts of all three caches, seconds
BODY_TIMEOUT = 10  # request body timeout, seconds
SEND_TIMEOUT = 20  # how long a client may leave a response unread, seconds
DEFAULT_CAPACITY = 256 * MIB
MAX_OBJECT_SIZE = 128 * MIB  # Carlos's --max-object-size: above the 64 MiB bodies of case 1
MAX_CONNECTIONS = 8192
CACHES = ("carlos", "nginx", "varnish")
TITLES = {"carlos": "carlos-caching-proxy", "nginx": "nginx", "varnish": "Varnish"}


# ======================================================================================
# The origin
# ======================================================================================

def origin_main():
    counts = {}  # target -> requests (targets up to 512 characters)
    log = []  # targets up to 512 characters, in order of arrival (the last 100,000)
    state = {"total": 0, "cookies": 0, "logged": 0}
    block = memoryview(b"x" * MIB)

    async def read_chunked(reader):
        body = bytearray()
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                while (await reader.readuntil(b"\r\n")) != b"\r\n":
                    pass
                return bytes(body)
            body += await reader.readexactly(size)
            await reader.readexactly(2)

    def control(path, query):
        q = parse_qs(query)
        if path == "/__total":
            return str(state["total"]).encode()
        if path == "/__count":
            return str(counts.get(q.get("t", [""])[0], 0)).encode()
        if path == "/__log":
            start = int(q.get("from", ["0"])[0])
            first = state["logged"] - len(log)
            return "\n".join(log[max(0, start - first):]).encode()
        return b"unknown"

    async def handle(reader, writer):
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head[:-4].split(b"\r\n")
                parts = lines[0].split(b" ")
                if len(parts) != 3:
                    return
                method, raw_target, version = parts
                fields = {}
                for line in lines[1:]:
                    name, _, value = line.partition(b":")
                    fields[name.strip().lower()] = value.strip()
                if b"chunked" in fields.get(b"transfer-encoding", b"").lower():
                    await read_chunked(reader)
                else:
                    length = int(fields.get(b"content-length", b"0") or b"0")
                    if length:
                        await reader.readexactly(length)
                target = raw_target.decode("latin-1")
                path, _, query = target.partition("?")
                keep = version == b"HTTP/1.1" and fields.get(b"connection", b"").lower() != b"close"
                if path.startswith("/__"):
                    body = control(path, query)
                    writer.write(b"HTTP/1.1 200 OK\r\nCache-Control: no-store\r\nContent-Length: %d\r\n\r\n"
                                 % len(body) + body)
                    await writer.drain()
                    if not keep:
                        return
                    continue
                state["total"] += 1
                if len(target) <= 512:
                    counts[target] = counts.get(target, 0) + 1
                    log.append(target)
                    state["logged"] += 1
                    if len(log) > 100_000:
                        del log[:50_000]
                q = parse_qs(query)
                if "hang" in q:
                    while await reader.read(65536):
                        pass
                    return
                if "delay" in q:
                    await asyncio.sleep(float(q["delay"][0]))
                size = int(q.get("size", ["100"])[0])
                extra = []
                cc = q.get("cc", ["public, max-age=3600"])[0]
                if cc != "none":
                    extra.append(b"Cache-Control: " + cc.encode())
                prefix = b""
                if "vary" in q:
                    extra.append(b"Vary: X-V")
                    prefix = b"x-v=" + fields.get(b"x-v", b"") + b"\n"
                if "cookie" in q:
                    state["cookies"] += 1
                    extra.append(b"Set-Cookie: session=%d; Path=/" % state["cookies"])
                if "echo" in q:
                    prefix = b"target=" + raw_target + b"\n" + prefix
                    size = len(prefix)
                size = max(size, len(prefix))
                if method == b"POST":
                    prefix, size = b"posted\n", 7
                response = (b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                            + b"".join(x + b"\r\n" for x in extra)
                            + b"Content-Length: %d\r\n" % size
                            + (b"" if keep else b"Connection: close\r\n") + b"\r\n")
                if method == b"HEAD":
                    writer.write(response)
                else:
                    writer.write(response + prefix)
                    remaining = size - len(prefix)
                    while remaining > 0:
                        n = min(remaining, MIB)
                        writer.write(block[:n])
                        remaining -= n
                        if writer.transport.get_write_buffer_size() > 4 * MIB:
                            await writer.drain()
                await writer.drain()
                if not keep:
                    return
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, ValueError):
            pass
        finally:
            writer.close()

    async def main():
        server = await asyncio.start_server(handle, "127.0.0.1", 0, limit=4 * MIB, backlog=4096)
        print(server.sockets[0].getsockname()[1], flush=True)
        loop = asyncio.get_running_loop()
        stdin_closed = loop.run_in_executor(None, sys.stdin.buffer.read)
        async with server:
            await stdin_closed
        os._exit(0)

    asyncio.run(main())


# ======================================================================================
# Processes: the origin and the caches
# ======================================================================================

LIVE = set()  # pids this helper started and has not seen end (killed if the run is interrupted)

class Run:
    """What the whole run shares: paths, the Carlos options found, the pids file."""

    def __init__(self, args):
        self.work = args.work
        self.carlos = args.carlos
        self.nginx = args.nginx
        self.varnishd = args.varnishd
        self.pids_file = os.path.join(self.work, "pids")
        self.serial = 0
        try:
            out = subprocess.run([self.carlos, "--help"], capture_output=True, text=True, timeout=10)
            self.carlos_help = out.stdout + out.stderr
        except (OSError, subprocess.TimeoutExpired) as error:
            self.carlos_help = str(error)
        self.carlos_options = [name for name in (
            "--max-object-size", "--header-timeout", "--idle-timeout", "--body-timeout",
            "--send-timeout", "--max-connections", "--access-log", "--metrics-port")
            if name in self.carlos_help]

    def register(self, pid):
        LIVE.add(pid)
        with open(self.pids_file, "a") as file:
            file.write(f"{pid}\n")

    def folder(self, name):
        self.serial += 1
        path = os.path.join(self.work, f"{self.serial:03d}-{name}")
        os.makedirs(path)
        os.chmod(path, 0o755)
        return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, seconds=20.0):
    end = time.time() + seconds
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return True
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def children(pid):
    """The pids whose parent is pid."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    stat = file.read()
                if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                    found.append(int(entry))
            except (OSError, ValueError):
                pass
    return found


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as file:
            return file.read().strip()
    except OSError:
        return ""


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as file:
            for line in file:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def fd_count(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def terminate(pid, grace=5.0, sig=signal.SIGTERM):
    """Signals pid (started by this run), waits up to grace seconds, then kills it."""
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        return
    end = time.time() + grace
    while time.time() < end and alive(pid):
        time.sleep(0.05)
    if alive(pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class Origin:
    def __init__(self, run):
        self.process = subprocess.Popen([sys.executable, os.path.abspath(__file__), "origin"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        run.register(self.process.pid)
        self.port = int(self.process.stdout.readline())

    def ask(self, path):
        with socket.create_connection(("127.0.0.1", self.port), 10) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: origin\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        return data.split(b"\r\n\r\n", 1)[1].decode("latin-1")

    def total(self):
        return int(self.ask("/__total"))

    def count(self, target):
        return int(self.ask("/__count?t=" + quote(target, safe="")))

    def log(self, start):
        text = self.ask(f"/__log?from={start}")
        return text.split("\n") if text else []

    def stop(self):
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
            except OSError:
                pass
            try:
                self.process.wait(3)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Cache:
    """One cache process (and its origin's port). kind: carlos, nginx or varnish."""

    def __init__(self, run, kind, origin_port, capacity):
        self.run, self.kind, self.capacity = run, kind, capacity
        self.folder = run.folder(kind)
        self.metrics_port = None
        self.worker_pids = []
        if kind == "carlos":
            self._start_carlos(origin_port)
        elif kind == "nginx":
            self._start_nginx(origin_port)
        else:
            self._start_varnish(origin_port)
        self.base_rss = self.rss()

    # ---- starting ---------------------------------------------------------------------
    def _start_carlos(self, origin_port):
        run = self.run
        arguments = [run.carlos, "--upstream", f"http://127.0.0.1:{origin_port}", "--port", "0",
                     "--storage", "memory", "--capacity", str(self.capacity)]
        wanted = {"--max-object-size": str(MAX_OBJECT_SIZE), "--header-timeout": str(HEADER_TIMEOUT),
                  "--idle-timeout": str(HEADER_TIMEOUT), "--body-timeout": str(BODY_TIMEOUT),
                  "--send-timeout": str(SEND_TIMEOUT), "--max-connections": str(MAX_CONNECTIONS)}
        for name, value in wanted.items():
            if name in run.carlos_options:
                arguments += [name, value]
        if "--access-log" in run.carlos_options:
            arguments.append("--access-log")
        if "--metrics-port" in run.carlos_options:
            self.metrics_port = free_port()
            arguments += ["--metrics-port", str(self.metrics_port)]
        self.out_path = os.path.join(self.folder, "carlos.out")
        self.process = subprocess.Popen(arguments, stdout=open(self.out_path, "wb"),
                                        stderr=open(os.path.join(self.folder, "carlos.err"), "wb"))
        run.register(self.process.pid)
        self.pid = self.process.pid
        end = time.time() + 20
        self.port = None
        while time.time() < end and self.port is None:
            with open(self.out_path, "rb") as file:
                for line in file:
                    if line.startswith(b"listening "):
                        self.port = int(line.split()[1])
                        break
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        if self.port is None:
            raise RuntimeError("carlos-caching-proxy did not start: "
                               + open(os.path.join(self.folder, "carlos.err")).read()[-2000:])
        wait_port(self.port)

    def _start_nginx(self, origin_port):
        self.port = free_port()
        folder = self.folder
        max_size = max(self.capacity // MIB, 1)
        config = f"""
worker_processes auto;
worker_rlimit_nofile 16384;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections {MAX_CONNECTIONS}; }}
http {{
  access_log off;
  sendfile on;
  tcp_nopush on;
  client_header_timeout {HEADER_TIMEOUT}s;
  keepalive_timeout {HEADER_TIMEOUT}s;
  client_body_timeout {BODY_TIMEOUT}s;
  send_timeout {SEND_TIMEOUT}s;
  proxy_temp_path {folder}/proxy_temp;
  client_body_temp_path {folder}/client_temp;
  fastcgi_temp_path {folder}/fastcgi_temp;
  uwsgi_temp_path {folder}/uwsgi_temp;
  scgi_temp_path {folder}/scgi_temp;
  proxy_cache_path {folder}/cache levels=1:2 keys_zone=items:10m max_size={max_size}m inactive=1h;
  upstream origin {{ server 127.0.0.1:{origin_port}; keepalive 32; }}
  server {{
    listen 127.0.0.1:{self.port} backlog=4096;
    location / {{
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache items;
      proxy_cache_lock on;
      proxy_buffering on;
      proxy_buffer_size 16k;  # the default 4k cannot hold the cache key of an 8,000-character URL
      proxy_busy_buffers_size 16k;  # the default (2 × proxy_buffer_size) would exceed 8 × 4k - 4k
      add_header X-Cache-Status $upstream_cache_status;
    }}
  }}
}}
"""
        with open(os.path.join(folder, "nginx.conf"), "w") as file:
            file.write(config)
        self.process = subprocess.Popen(
            [self.run.nginx, "-p", folder, "-c", os.path.join(folder, "nginx.conf"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(folder, "nginx.err"), "wb"))
        self.run.register(self.process.pid)
        self.pid = self.process.pid
        try:
            wait_port(self.port)
        except RuntimeError:
            terminate(self.pid, 2)
            raise RuntimeError("nginx did not start: " + open(os.path.join(folder, "nginx.err")).read()[-1000:])
        end = time.time() + 10
        while time.time() < end:
            self.worker_pids = [p for p in children(self.pid) if "worker process" in cmdline(p)]
            if self.worker_pids:
                break
            time.sleep(0.05)
        for pid in children(self.pid):
            self.run.register(pid)

    def _start_varnish(self, origin_port):
        self.port = free_port()
        folder = self.folder
        arguments = [self.run.varnishd, "-F", "-a", f"127.0.0.1:{self.port}", "-b", f"127.0.0.1:{origin_port}",
                     "-s", f"malloc,{max(self.capacity // MIB, 1)}m", "-n", os.path.join(folder, "varnish"),
                     "-P", os.path.join(folder, "varnish.pid"),
                     "-p", f"timeout_idle={HEADER_TIMEOUT}", "-p", f"idle_send_timeout={SEND_TIMEOUT}",
                     "-p", f"send_timeout={SEND_TIMEOUT}"]
        self.process = subprocess.Popen(arguments, stdout=open(os.path.join(folder, "varnish.out"), "wb"),
                                        stderr=subprocess.STDOUT)
        self.run.register(self.process.pid)
        self.pid = self.process.pid
        try:
            wait_port(self.port, 60)
        except RuntimeError:
            terminate(self.pid, 2)
            raise RuntimeError("varnishd did not start: " + open(os.path.join(folder, "varnish.out")).read()[-1000:])
        end = time.time() + 30
        while time.time() < end:
            # The child that serves is named cache-main (the VCL compiler's are not).
            self.worker_pids = [p for p in children(self.pid) if comm(p) == "cache-main"]
            if self.worker_pids:
                break
            time.sleep(0.05)
        if not self.worker_pids:
            raise RuntimeError("varnishd's cache-main process did not start")
        for pid in self.worker_pids:
            self.run.register(pid)

    # ---- measuring --------------------------------------------------------------------
    def measured_pids(self):
        """carlos: the proxy; nginx: the workers; Varnish: the child (cache) process."""
        if self.kind == "carlos":
            return [self.pid]
        return self.worker_pids

    def rss(self):
        """Resident memory in MiB (nginx: the workers' VmRSS added up)."""
        return sum(rss_kib(pid) for pid in self.measured_pids()) / 1024

    def fds(self):
        return sum(fd_count(pid) for pid in self.measured_pids())

    def metrics(self):
        """Carlos's /metrics counters (when it has them), as a dict."""
        if not self.metrics_port:
            return {}
        try:
            with socket.create_connection(("127.0.0.1", self.metrics_port), 5) as s:
                s.sendall(b"GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                data = b""
                while chunk := s.recv(65536):
                    data += chunk
            values = {}
            for line in data.split(b"\r\n\r\n", 1)[-1].decode(errors="replace").splitlines():
                parts = line.split()
                if len(parts) == 2 and not line.startswith("#"):
                    values[parts[0]] = parts[1]
            return values
        except OSError:
            return {}

    def errors(self, count=2):
        """The first distinct error messages nginx logged, or Carlos wrote to standard error."""
        path = os.path.join(self.folder, "error.log" if self.kind == "nginx" else "carlos.err")
        seen = []
        try:
            with open(path, errors="replace") as file:
                for line in file:
                    if self.kind == "nginx":
                        if "[warn]" in line or "[notice]" in line:
                            continue
                        line = line.split("] ", 1)[-1]  # no time stamp
                        line = line.split(": ", 1)[-1] if line[:1].isdigit() else line
                        line = line.split(" ", 1)[-1] if line.startswith("*") else line  # connection
                        line = line.split(", client:")[0]
                    line = line.strip()[:160]
                    if line and line not in seen:
                        seen.append(line)
                    if len(seen) >= count:
                        break
        except OSError:
            pass
        return "; ".join(seen)

    def stop(self):
        if self.kind == "nginx":
            terminate(self.pid, 5)
            for pid in self.worker_pids:
                if alive(pid) and "nginx" in cmdline(pid):
                    terminate(pid, 1, signal.SIGKILL)
        elif self.kind == "varnish":
            terminate(self.pid, 10)
            for pid in self.worker_pids:
                if alive(pid) and "varnishd" in cmdline(pid):
                    terminate(pid, 1, signal.SIGKILL)
        else:
            terminate(self.pid, 3)
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            pass


class Stack:
    """A fresh origin and one fresh cache in front of it, for one case and cache."""

    def __init__(self, run, kind, capacity=DEFAULT_CAPACITY):
        self.run, self.kind, self.capacity = run, kind, capacity

    def __enter__(self):
        self.origin = Origin(self.run)
        try:
            self.cache = Cache(self.run, self.kind, self.origin.port, self.capacity)
        except BaseException:
            self.origin.stop()
            raise
        self.port = self.cache.port
        return self

    def __exit__(self, *exc):
        self.cache.stop()
        self.origin.stop()
        if not os.environ.get("KEEP_WORK"):
            # nginx's cache folder can hold 200,000 files and 2 GiB temporary files.
            subprocess.run(["rm", "-rf", self.cache.folder], check=False)
        return False


class Sampler:
    """Samples a cache's RSS (MiB) every 100 ms in a thread; peak since the last reset."""

    def __init__(self, cache):
        self.cache = cache
        self.peak = cache.rss()
        self.last = self.peak
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while not self.stopping.wait(0.1):
            self.last = self.cache.rss()
            self.peak = max(self.peak, self.last)

    def reset(self):
        self.last = self.cache.rss()
        self.peak = self.last

    def stop(self):
        self.stopping.set()
        self.thread.join()
        self.last = self.cache.rss()
        self.peak = max(self.peak, self.last)
        return self.peak


# ======================================================================================
# Clients
# ======================================================================================

class Answer:
    def __init__(self):
        self.status = None  # int, or None when no status line came
        self.fields = {}
        self.length = None  # Content-Length
        self.received = 0  # body bytes
        self.body = b""  # kept when small
        self.error = None  # "timeout", "closed", "reset", ...
        self.elapsed = 0.0
        self.first_byte = None

    @property
    def complete(self):
        return self.status == 200 and self.length is not None and self.received == self.length and not self.error

    def describe(self):
        if self.status is None:
            return self.error or "no answer"
        return str(self.status) + (f" ({self.error})" if self.error else "")


def build_request(target, method="GET", version="HTTP/1.1", fields=(), close=False, body=b""):
    lines = [f"{method} {target} {version}", "Host: localhost"]
    lines += [f"{name}: {value}" for name, value in fields]
    if close:
        lines.append("Connection: close")
    if body:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


async def read_answer(reader, answer, *, slow=False, keep_body=False, head_request=False):
    """Reads one response into answer (in place, so a timeout keeps what came)."""
    start = time.monotonic()
    while True:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as error:
            answer.error = "closed" if not error.partial else "closed mid-head"
            return
        if answer.first_byte is None:
            answer.first_byte = time.monotonic() - start
        lines = head[:-4].decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        answer.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else -1
        answer.fields = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            answer.fields.setdefault(name.strip().lower(), []).append(value.strip())
        if answer.status != 100:
            break
    if "content-length" in answer.fields:
        answer.length = int(answer.fields["content-length"][0])
    if head_request or answer.status in (204, 304):
        return
    chunked = "chunked" in ",".join(answer.fields.get("transfer-encoding", [])).lower()
    size = 65536 if slow else MIB
    try:
        if chunked:
            while True:
                line = await reader.readuntil(b"\r\n")
                n = int(line.split(b";")[0], 16)
                if n == 0:
                    await reader.readuntil(b"\r\n")
                    if answer.length is None:
                        answer.length = answer.received
                    return
                while n > 0:
                    chunk = await reader.read(min(n, size))
                    if not chunk:
                        answer.error = "closed early"
                        return
                    n -= len(chunk)
                    answer.received += len(chunk)
                    if keep_body and len(answer.body) < 65536:
                        answer.body += chunk
                    if slow:
                        await asyncio.sleep(0.01)
                await reader.readexactly(2)
        else:
            while answer.length is None or answer.received < answer.length:
                want = size if answer.length is None else min(size, answer.length - answer.received)
                chunk = await reader.read(want)
                if not chunk:
                    if answer.length is not None:
                        answer.error = "closed early"
                    return
                answer.received += len(chunk)
                if keep_body and len(answer.body) < 65536:
                    answer.body += chunk
                if slow:
                    await asyncio.sleep(0.01)
    except (asyncio.IncompleteReadError, ValueError):
        answer.error = "closed early"


async def fetch(port, target, *, timeout=60.0, slow=False, keep_body=False, **request):
    """One request on a new connection; the Answer (never raises)."""
    answer = Answer()
    start = time.monotonic()
    writer = None

    async def go():
        nonlocal writer
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=65536 if slow else MIB)
        writer.write(build_request(target, **request))
        await writer.drain()
        await read_answer(reader, answer, slow=slow, keep_body=keep_body,
                          head_request=request.get("method") == "HEAD")

    try:
        await asyncio.wait_for(go(), timeout)
    except asyncio.TimeoutError:
        answer.error = "timeout"
    except ConnectionResetError:
        answer.error = "reset"
    except OSError as error:
        answer.error = type(error).__name__
    finally:
        answer.elapsed = time.monotonic() - start
        if writer is not None:
            writer.close()
    return answer


class KeepAlive:
    """One keep-alive connection making requests in turn."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None

    async def get(self, target, timeout=60.0, keep_body=False, fields=()):
        answer = Answer()
        start = time.monotonic()
        try:
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, limit=MIB)
            self.writer.write(build_request(target, fields=fields))
            await self.writer.drain()
            await asyncio.wait_for(read_answer(self.reader, answer, keep_body=keep_body), timeout)
        except asyncio.TimeoutError:
            answer.error = "timeout"
        except OSError as error:
            answer.error = type(error).__name__
        answer.elapsed = time.monotonic() - start
        if answer.error or "close" in ",".join(answer.fields.get("connection", [])).lower():
            self.close()
        return answer

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def raw_exchange(port, data, *, timeout=10.0):
    """Sends raw bytes on a new connection while reading what comes back (a cache may
    answer, and close, before the request is all sent); the answer's status code, or
    what happened instead, and the seconds it took."""
    import select
    start = time.monotonic()
    s = socket.create_connection(("127.0.0.1", port), 5)
    s.setblocking(False)
    view = memoryview(data)
    received = b""
    event = None
    try:
        while time.monotonic() - start < timeout:
            readable, writable, _ = select.select([s], [s] if view else [], [], 0.2)
            if readable:
                try:
                    chunk = s.recv(65536)
                except ConnectionResetError:
                    event = "reset"
                    break
                if not chunk:
                    event = "closed"
                    break
                received += chunk
                if b"\r\n\r\n" in received:
                    break
            if writable and view:
                try:
                    view = view[s.send(view[:65536]):]
                except BlockingIOError:
                    pass
                except (BrokenPipeError, ConnectionResetError):
                    event = "reset while sending"
                    view = view[:0]
    finally:
        s.close()
    elapsed = time.monotonic() - start
    if received.startswith(b"HTTP/"):
        status = received.split(b"\r\n", 1)[0].split(b" ")[1].decode("latin-1")
        return status + (f" then {event}" if event and view else ""), elapsed
    if received:
        return "not HTTP: " + repr(received[:40]), elapsed
    if event:
        return event + (f" after {len(data) - len(view):,} bytes sent" if view else "") + ", no answer", elapsed
    return f"no answer in {timeout:.0f} s", elapsed


def server_side_states(server_port, client_ports):
    """For each client port: the state of the cache's end of that connection (from
    /proc/net/tcp), or None when the cache's socket is gone."""
    wanted = set(client_ports)
    states = {}
    with open("/proc/net/tcp") as file:
        next(file)
        for line in file:
            fields = line.split()
            local_port = int(fields[1].split(":")[1], 16)
            remote_port = int(fields[2].split(":")[1], 16)
            if local_port == server_port and remote_port in wanted:
                states[remote_port] = int(fields[3], 16)
    return {port: states.get(port) for port in client_ports}


def closed_by_server(server_port, client_ports):
    """How many of the connections the cache has closed (its socket gone or past FIN)."""
    states = server_side_states(server_port, client_ports)
    return sum(1 for state in states.values() if state not in (1, 8))  # not ESTABLISHED/CLOSE_WAIT


# ======================================================================================
# Reporting
# ======================================================================================

class Report:
    def __init__(self):
        self.rows = {}  # (case, label) -> {"target": ..., kind: cell}
        self.order = []

    def cell(self, case, label, kind, value, target=""):
        key = (case, label)
        if key not in self.rows:
            self.rows[key] = {"target": target}
            self.order.append(key)
        self.rows[key][kind] = value
        if target:
            self.rows[key]["target"] = target

    def line(self, case, kind, text):
        print(f"[{case}] {TITLES[kind]}: {text}", flush=True)

    def table(self):
        print("| case | carlos-caching-proxy | nginx | Varnish | target |")
        print("|---|---|---|---|---|")
        for key in self.order:
            row = self.rows[key]
            cells = [row.get(kind, "not run") for kind in CACHES]
            print(f"| {key[0]}: {key[1]} | " + " | ".join(cells) + f" | {row['target']} |")


def mib(value):
    return f"{value:,.0f} MiB" if value >= 10 else f"{value:.1f} MiB"


def ms(seconds):
    return f"{seconds * 1000:,.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def statuses(answers):
    tally = {}
    for a in answers:
        key = a.describe()
        tally[key] = tally.get(key, 0) + 1
    return ", ".join(f"{n}× {k}" for k, n in sorted(tally.items(), key=lambda item: -item[1]))


def metrics_note(cache):
    values = cache.metrics()
    if not values:
        return ""
    keys = [k for k in values if "origin_fetch" in k or "collapsed" in k or "closed" in k or "timeout" in k]
    return "; metrics: " + ", ".join(f"{k} {values[k]}" for k in keys[:6]) if keys else ""


# ======================================================================================
# The cases
# ======================================================================================

async def case_bodies(run, report):
    """Cached bodies of 1, 8, 40 and 64 MiB read by four kinds of client at once."""
    sizes = [1, 8, 40, 64]
    kinds = [("a", "HTTP/1.0 client"), ("b", "HTTP/1.1 Connection: close"),
             ("c", "slow reader (64 KiB / 10 ms)"), ("d", "keep-alive client")]
    for kind in CACHES:
        with Stack(run, kind) as stack:
            sampler = Sampler(stack.cache)
            warm = KeepAlive(stack.port)
            warmed = [await warm.get(f"/body/{s}?size={s * MIB}") for s in sizes]
            warm.close()
            fetched_warming = stack.origin.total()

            async def keep_alive_client():
                connection = KeepAlive(stack.port)
                answers = [await connection.get(f"/body/{s}?size={s * MIB}") for s in sizes]
                connection.close()
                return answers

            tasks = {}
            for s in sizes:
                target = f"/body/{s}?size={s * MIB}"
                tasks[("a", s)] = fetch(stack.port, target, version="HTTP/1.0", timeout=90)
                tasks[("b", s)] = fetch(stack.port, target, close=True, timeout=90)
                tasks[("c", s)] = fetch(stack.port, target, slow=True, timeout=90)
            keys = list(tasks)
            results = await asyncio.gather(*tasks.values(), keep_alive_client())
            answers = dict(zip(keys, results[:-1]))
            for s, a in zip(sizes, results[-1]):
                answers[("d", s)] = a
            peak = sampler.stop()
            fetched = stack.origin.total() - fetched_warming
            details = []
            for letter, name in kinds:
                lost = []
                for s in sizes:
                    a = answers[(letter, s)]
                    expected = s * MIB
                    if not a.complete:
                        if a.status != 200:
                            lost.append(f"{s} MiB: {a.describe()}")
                        else:
                            missing = expected - a.received
                            got = (f"{a.received / MIB:.1f} of {s} MiB" if missing >= MIB // 10
                                   else f"all but {missing:,} bytes")
                            lost.append(f"{s} MiB: {got} ({a.error or 'short'})"
                                        + (f", Content-Length {a.length}" if a.length != expected else ""))
                cellv = "0 lost (4/4 complete)" if not lost else "; ".join(lost)
                report.cell("1 bodies", f"({letter}) {name}, cached 1/8/40/64 MiB", kind, cellv,
                            "0 bytes lost")
                details.append(f"({letter}) {cellv}")
            warm_state = "warm 4/4" if all(a.complete for a in warmed) else "warming: " + statuses(warmed)
            report.line("bodies", kind, f"{warm_state}; " + "; ".join(details)
                        + f"; origin fetches while reading {fetched}; peak RSS {mib(peak)}"
                        + metrics_note(stack.cache)
                        + (f"; logged: {stack.cache.errors()}" if stack.cache.errors() else ""))


def wrk_flood(port, prefix, count, size, length, progress, connections=16, cap=150, stall=20):
    """wrk: count distinct URLs (prefix + number, padded with a query to length characters).
    Each wrk thread stops after its share and leaves a mark; wrk is then interrupted
    (SIGINT: it prints its summary) instead of waiting out its duration. It is
    interrupted too after cap seconds, or when progress() (the origin's request count)
    has not moved for stall seconds."""
    work = os.environ.get("OPERATIONS_WORK", "/tmp")
    lua = os.path.join(work, "distinct-urls.lua")
    with open(lua, "w") as file:
        file.write("""
-- id is a global that setup() sets in each thread's state
local counter = 0
local done = 0
local next_id = 0
local statuses = {}
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end
function init(args)
  prefix = args[1]; per_thread = tonumber(args[2]); size = args[3]; length = tonumber(args[4]); marks = args[5]
end
function request()
  counter = counter + 1
  local path = prefix .. id .. "-" .. counter .. "?size=" .. size
  if length > #path + 3 then path = path .. "&p=" .. string.rep("a", length - #path - 3) end
  return wrk.format("GET", path)
end
function response(status, headers, body)
  done = done + 1
  statuses[status] = (statuses[status] or 0) + 1
  if done == per_thread then
    local mark = io.open(marks .. id, "w")
    for code, n in pairs(statuses) do mark:write(code .. " " .. n .. "\\n") end
    mark:close()
    wrk.thread:stop()
  end
end
""")
    threads = 2
    marks = os.path.join(work, f"wrk-done-{time.monotonic_ns()}-")
    process = subprocess.Popen(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{cap + 30}s", "-T10s", "-s", lua,
         f"http://127.0.0.1:{port}", "--", prefix, str(count // threads), str(size), str(length), marks],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    LIVE.add(process.pid)
    start = time.monotonic()
    stopped = None
    last, moved = progress(), start
    while process.poll() is None:
        if all(os.path.exists(f"{marks}{i}") for i in range(threads)):
            break
        time.sleep(0.05)
        now = time.monotonic()
        if now - moved >= 1:
            current = progress()
            if current != last:
                last, moved = current, now
            elif now - moved >= stall:
                stopped = f"stopped: no request reached the origin for {stall} s"
                break
        if now - start >= cap:
            stopped = f"stopped after {cap} s"
            break
    elapsed = time.monotonic() - start
    if process.poll() is None:
        time.sleep(0.2)
        process.send_signal(signal.SIGINT)
    try:
        text = process.communicate(timeout=30)[0]
    except subprocess.TimeoutExpired:
        process.kill()
        text = process.communicate()[0]
    LIVE.discard(process.pid)
    if lua + ":" in text:  # a script error: wrk would have asked for / again and again
        raise RuntimeError("wrk's script failed: " + text[:500])
    result = {"raw": text, "requests": 0, "rate": 0.0, "errors": "", "seconds": elapsed, "stopped": stopped}
    for line in text.splitlines():
        line = line.strip()
        if " requests in " in line:
            result["requests"] = int(line.split()[0])
        elif line.startswith("Socket errors:"):
            result["errors"] = line.split(":", 1)[1].strip()
    result["rate"] = result["requests"] / elapsed if elapsed else 0
    tally = {}
    for i in range(threads):
        try:
            with open(f"{marks}{i}") as file:
                for line in file:
                    code, n = line.split()
                    tally[int(code)] = tally.get(int(code), 0) + int(n)
        except (OSError, ValueError):
            pass
    result["statuses"] = ", ".join(f"{n:,}× {code}" for code, n in sorted(tally.items())) or "unknown"
    result["failed"] = sum(n for code, n in tally.items() if code >= 400)
    return result


async def case_urls(run, report):
    """64 MiB of capacity against many keys: long URLs, many URLs, many Vary variants."""
    capacity = 64 * MIB
    limit = 1.5 * 64 + 64
    target = f"≤ {limit:.0f} MiB (1.5 × 64 MiB + 64)"
    for kind in CACHES:
        with Stack(run, kind, capacity) as stack:
            sampler = Sampler(stack.cache)
            base = stack.cache.rss()
            progress = stack.origin.total
            long_urls = await asyncio.to_thread(wrk_flood, stack.port, "/long/", 20_000, 100, 8000, progress)
            peak_long = sampler.peak
            after_long = stack.cache.rss()
            fetched_long = stack.origin.total()
            many = await asyncio.to_thread(wrk_flood, stack.port, "/many/", 200_000, 10 * KIB, 0, progress, 32)
            peak_many = sampler.peak
            after_many = stack.cache.rss()
            fetched_many = stack.origin.total() - fetched_long
            sampler.reset()

            # 5,000 X-V values on 5 URLs, over 16 keep-alive connections; each body names its
            # variant. At most 60 s, and a connection gives up after 3 timeouts in a row.
            tally = {"wrong": 0, "failed": 0, "sent": 0}
            deadline = time.monotonic() + 60

            async def vary_worker(worker):
                connection = KeepAlive(stack.port)
                timeouts = 0
                for i in range(worker, 5000, 16):
                    if time.monotonic() > deadline or timeouts >= 3:
                        break
                    value = f"v{i}"
                    a = await connection.get(f"/vary/{i % 5}?vary=1&size=1024", keep_body=True,
                                             fields=[("X-V", value)], timeout=10)
                    tally["sent"] += 1
                    timeouts = timeouts + 1 if a.error == "timeout" else 0
                    if a.status != 200:
                        tally["failed"] += 1
                    elif not a.body.startswith(f"x-v={value}\n".encode()):
                        tally["wrong"] += 1
                connection.close()

            start = time.monotonic()
            await asyncio.gather(*(vary_worker(w) for w in range(16)))
            vary_time = time.monotonic() - start
            await asyncio.sleep(2)
            peak_vary = sampler.stop()
            final = stack.cache.rss()
            fetched_vary = stack.origin.total() - fetched_long - fetched_many
            wrong, failed, sent = tally["wrong"], tally["failed"], tally["sent"]
            ok = lambda peak: "" if peak <= limit else " (over)"

            def outcome(result, total):
                text = f"{result['failed']:,} errors"
                if result["stopped"] or result["requests"] < total:
                    text += f"; only {result['requests']:,} of {total:,} answered ({result['stopped'] or 'wrk ended'})"
                return text

            report.cell("2 urls", "20,000 distinct 8,000-character URLs (100-byte bodies): peak RSS", kind,
                        f"{mib(peak_long)}{ok(peak_long)}; {outcome(long_urls, 20_000)}", target)
            report.cell("2 urls", "then 200,000 distinct URLs × 10 KiB: peak / RSS after", kind,
                        f"{mib(peak_many)}{ok(peak_many)} / {mib(after_many)}; {outcome(many, 200_000)}; "
                        f"{many['rate']:,.0f} req/s", target)
            report.cell("2 urls", "then 5,000 Vary: X-V variants on 5 URLs: wrong variant, peak / final RSS",
                        kind, f"{wrong} wrong, {failed} failed" + (f" ({sent:,} sent)" if sent < 5000 else "")
                        + f"; {mib(peak_vary)} / {mib(final)}{ok(final)}", f"0 wrong; {target}")
            report.line("urls", kind,
                        f"RSS at start {mib(base)}; long URLs: {long_urls['requests']:,} answered in "
                        f"{long_urls['seconds']:.1f} s ({long_urls['rate']:,.0f}/s, statuses {long_urls['statuses']}, "
                        f"socket errors {long_urls['errors'] or 'none'}{', ' + long_urls['stopped'] if long_urls['stopped'] else ''}), "
                        f"origin saw {fetched_long:,}, peak {mib(peak_long)}, after {mib(after_long)}; 200,000 URLs × 10 KiB: "
                        f"{many['requests']:,} answered in {many['seconds']:.1f} s ({many['rate']:,.0f}/s, statuses "
                        f"{many['statuses']}, socket errors {many['errors'] or 'none'}{', ' + many['stopped'] if many['stopped'] else ''}), "
                        f"origin saw {fetched_many:,}, peak {mib(peak_many)}, after {mib(after_many)}; Vary: {sent:,} "
                        f"requests in {vary_time:.1f} s, origin saw {fetched_vary:,}, {wrong} wrong variants, "
                        f"{failed} failed, peak {mib(peak_vary)}, final {mib(final)}" + metrics_note(stack.cache)
                        + (f"; logged: {stack.cache.errors()}" if stack.cache.errors() else ""))


async def case_collapse(run, report):
    """Concurrent requests for cold URLs: how many reach the origin."""
    for kind in CACHES:
        with Stack(run, kind) as stack:
            target = "/one?delay=1&size=1000"
            start = time.monotonic()
            answers = await asyncio.gather(*(fetch(stack.port, target, timeout=60) for _ in range(200)))
            one_time = time.monotonic() - start
            one = stack.origin.count(target)
            report.cell("3 collapse", "200 concurrent requests, one cold URL, origin takes 1 s: origin fetches",
                        kind, f"{one} ({ms(one_time)}; {statuses(answers)})", "1")

            before = stack.origin.total()
            start = time.monotonic()
            answers = await asyncio.gather(*(fetch(stack.port, f"/fifty/{i}?delay=1&size=1000", timeout=90)
                                             for i in range(50) for _ in range(20)))
            fifty_time = time.monotonic() - start
            fifty = stack.origin.total() - before
            report.cell("3 collapse", "50 cold URLs × 20 clients (origin 1 s): origin fetches, total time", kind,
                        f"{fifty:,}, {ms(fifty_time)}" + ("" if all(a.status == 200 for a in answers)
                                                       else f" ({statuses(answers)})"), "50, ~1 s")

            sampler = Sampler(stack.cache)
            target = f"/forty?size={40 * MIB}"
            start = time.monotonic()
            answers = await asyncio.gather(*(fetch(stack.port, target, timeout=120) for _ in range(40)))
            forty_time = time.monotonic() - start
            peak = sampler.stop()
            forty = stack.origin.count(target)
            complete = sum(a.complete for a in answers)
            report.cell("3 collapse", "40 clients of one cold 40 MiB URL: origin fetches, peak RSS", kind,
                        f"{forty}, {mib(peak)}" + ("" if complete == 40 else f", {complete}/40 complete"),
                        "1, ≤ 100 MiB above the 40 MiB body")
            report.line("collapse", kind, f"one URL: {one} fetches in {ms(one_time)}; 50 URLs: {fifty} fetches in "
                        f"{ms(fifty_time)}; 40 MiB: {forty} fetches, {complete}/40 complete in {ms(forty_time)}, "
                        f"peak RSS {mib(peak)}, statuses {statuses(answers)}" + metrics_note(stack.cache))


def open_nonreaders(port, target, count):
    sockets = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), 5)
        s.sendall(build_request(target))
        sockets.append(s)
    return sockets


async def case_nonreading(run, report):
    """24 clients ask for 50 MiB and never read."""
    hold, watch = 10, SEND_TIMEOUT + 10
    for variant, target, cc in (("uncacheable (no-store)", f"/nr?size={50 * MIB}&cc=no-store", "no-store"),
                                ("cached", f"/nrc?size={50 * MIB}", "")):
        for kind in CACHES:
            with Stack(run, kind) as stack:
                if cc == "":
                    warm = await fetch(stack.port, target, timeout=60)
                    if not warm.complete:
                        report.line("nonreading", kind, f"warming failed: {warm.describe()}")
                await asyncio.sleep(0.5)
                before = stack.cache.rss()
                sampler = Sampler(stack.cache)
                sockets = await asyncio.to_thread(open_nonreaders, stack.port, target, 24)
                ports = [s.getsockname()[1] for s in sockets]
                opened = time.monotonic()
                closed_at = {}
                fds_at_hold = rss_at_hold = None
                closed_at_hold = 0
                while time.monotonic() - opened < watch:
                    await asyncio.sleep(0.5)
                    elapsed = time.monotonic() - opened
                    states = server_side_states(stack.port, ports)
                    for p, state in states.items():
                        if p not in closed_at and state not in (1, 8):
                            closed_at[p] = elapsed
                    if rss_at_hold is None and elapsed >= hold:
                        rss_at_hold = stack.cache.rss()
                        fds_at_hold = stack.cache.fds()
                        closed_at_hold = len(closed_at)
                peak = sampler.stop()
                for s in sockets:
                    s.close()
                fetched = stack.origin.total()
                held = rss_at_hold - before
                if closed_at:
                    first, last = min(closed_at.values()), max(closed_at.values())
                    when = (f"{len(closed_at)}/24 closed by {watch} s (at {ms(first)}"
                            + (f"–{ms(last)}" if last - first >= 0.5 else "") + ")")
                else:
                    when = f"none closed in {watch} s"
                report.cell("4 nonreading", f"24 × 50 MiB {variant}, never read: RSS held at 10 s; closed?", kind,
                            f"{mib(held)}; {when}", "≤ 100 MiB; closed after the send timeout")
                report.line("nonreading", kind,
                            f"{variant}: RSS before {mib(before)}, at {hold} s {mib(rss_at_hold)} (held {mib(held)}), "
                            f"peak {mib(peak)}; fds at {hold} s {fds_at_hold}; closed by {hold} s {closed_at_hold}, "
                            f"{when}; origin requests {fetched}" + metrics_note(stack.cache))


def read_large(port, target, timeout=240.0):
    """A fast reader on a blocking socket: status, bytes, seconds, error."""
    start = time.monotonic()
    s = socket.create_connection(("127.0.0.1", port), 5)
    s.settimeout(60)
    s.sendall(build_request(target))
    buffer = bytearray(4 * MIB)
    view = memoryview(buffer)
    received = 0
    head = b""
    status, length, error = None, None, None
    try:
        while b"\r\n\r\n" not in head:
            n = s.recv_into(view)
            if n == 0:
                error = "closed before the head"
                break
            head += bytes(view[:n])
        if error is None:
            head, _, rest = head.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split(" ")[1])
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            received = len(rest)
            while length is None or received < length:
                if time.monotonic() - start > timeout:
                    error = "timeout"
                    break
                n = s.recv_into(view)
                if n == 0:
                    if length is not None:
                        error = "closed early"
                    break
                received += n
    except socket.timeout:
        error = "stalled 60 s"
    except ConnectionResetError:
        error = "reset"
    finally:
        s.close()
    return status, length, received, time.monotonic() - start, error


async def case_large(run, report):
    """A 2 GiB body, uncacheable and cacheable."""
    size = 2 << 30
    speeds = {}
    for variant, target in (("Cache-Control: no-store", f"/large?size={size}&cc=no-store"),
                            ("cacheable", f"/largec?size={size}")):
        for kind in CACHES:
            with Stack(run, kind) as stack:
                sampler = Sampler(stack.cache)
                status, length, received, seconds, error = await asyncio.to_thread(read_large, stack.port, target)
                peak = sampler.stop()
                rate = received / MIB / seconds if seconds else 0
                complete = status == 200 and received == size and error is None
                speeds[(variant, kind)] = rate if complete else 0
                text = (f"{rate:,.0f} MiB/s, peak RSS {mib(peak)}" if complete else
                        f"{status or ''} {error or ''}".strip() + f" after {received / MIB:,.0f} MiB in {ms(seconds)}, "
                        f"peak RSS {mib(peak)}")
                report.cell("5 large", f"2 GiB body, {variant}: MiB/s, peak RSS", kind, text,
                            "≥ 0.5 × nginx's MiB/s, ≤ 100 MiB")
                report.line("large", kind, f"{variant}: status {status}, Content-Length {length}, {received:,} bytes "
                            f"in {seconds:.1f} s ({rate:,.0f} MiB/s), error {error}, peak RSS {mib(peak)}"
                            + metrics_note(stack.cache)
                            + (f"; logged: {stack.cache.errors()}" if stack.cache.errors() else ""))
        nginx = speeds.get((variant, "nginx"))
        if nginx:
            report.rows[("5 large", f"2 GiB body, {variant}: MiB/s, peak RSS")]["target"] = \
                f"≥ {nginx / 2:,.0f} MiB/s (0.5 × nginx), ≤ 100 MiB"


async def case_slowloris(run, report):
    """1,000 slowloris connections and 1,000 idle keep-alive connections, and a normal client."""
    window = HEADER_TIMEOUT + 5
    for kind in CACHES:
        with Stack(run, kind) as stack:
            small = "/ok?size=1000"
            await fetch(stack.port, small)
            stop = asyncio.Event()

            async def slowloris():
                reader, writer = await asyncio.open_connection("127.0.0.1", stack.port)
                writer.write(b"GET /slowloris HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
                port = writer.get_extra_info("sockname")[1]
                return port, writer

            async def trickle(writer):
                while not stop.is_set():
                    try:
                        await asyncio.wait_for(stop.wait(), 5)
                    except asyncio.TimeoutError:
                        pass
                    if stop.is_set() or writer.is_closing():
                        return
                    try:
                        writer.write(b"a")
                        await writer.drain()
                    except OSError:
                        return

            async def idle():
                reader, writer = await asyncio.open_connection("127.0.0.1", stack.port)
                port = writer.get_extra_info("sockname")[1]
                writer.write(build_request(small))
                answer = Answer()
                await asyncio.wait_for(read_answer(reader, answer), 30)
                return port, writer, answer.status

            slow = []
            for batch in range(10):
                slow += await asyncio.gather(*(slowloris() for _ in range(100)))
            idles = []
            for batch in range(10):
                idles += await asyncio.gather(*(idle() for _ in range(100)))
            opened = time.monotonic()
            idle_ok = sum(1 for _, _, status in idles if status == 200)
            trickles = [asyncio.create_task(trickle(w)) for _, w in slow]
            fds_open = stack.cache.fds()
            latencies, failures = [], []
            while time.monotonic() - opened < window:
                a = await fetch(stack.port, small, timeout=10)
                if a.status == 200:
                    latencies.append(a.elapsed)
                else:
                    failures.append(a.describe())
                await asyncio.sleep(0.05)
            slow_ports = [p for p, _ in slow]
            idle_ports = [p for p, _, _ in idles]
            slow_closed = closed_by_server(stack.port, slow_ports)
            idle_closed = closed_by_server(stack.port, idle_ports)
            fds_end = stack.cache.fds()
            stop.set()
            await asyncio.gather(*trickles, return_exceptions=True)
            for _, w in slow:
                w.close()
            for _, w, _ in idles:
                w.close()
            p50, p99 = percentile(latencies, 50), percentile(latencies, 99)
            report.cell("6 slowloris", "normal client during 1,000 slowloris + 1,000 idle: p50 / p99 latency",
                        kind, f"{ms(p50)} / {ms(p99)}" + (f", {len(failures)} failed" if failures else ""),
                        "p99 unaffected (a few ms)")
            report.cell("6 slowloris", f"slowloris connections closed at {window} s (header timeout "
                        f"{HEADER_TIMEOUT} s)", kind, f"{slow_closed:,}/1,000", "1,000/1,000")
            report.cell("6 slowloris", f"idle keep-alive connections closed at {window} s (idle timeout "
                        f"{HEADER_TIMEOUT} s)", kind, f"{idle_closed:,}/1,000", "1,000/1,000")
            report.line("slowloris", kind,
                        f"{len(latencies)} normal requests, p50 {ms(p50)}, p99 {ms(p99)}, max "
                        f"{ms(max(latencies) if latencies else 0)}, failures {statuses_text(failures)}; idle "
                        f"connections answered {idle_ok}/1,000 before idling; cache fds with all open {fds_open}, at "
                        f"{window} s {fds_end}; closed at {window} s: slowloris {slow_closed}, idle {idle_closed}"
                        + metrics_note(stack.cache))


def statuses_text(items):
    if not items:
        return "none"
    tally = {}
    for item in items:
        tally[item] = tally.get(item, 0) + 1
    return ", ".join(f"{n}× {k}" for k, n in tally.items())


async def case_hanging(run, report):
    """70 requests the origin never answers, then 20 requests for other cold URLs."""
    for kind in CACHES:
        with Stack(run, kind) as stack:
            hanging = [asyncio.create_task(fetch(stack.port, f"/hang?hang=1&i={i}", timeout=120)) for i in range(70)]
            await asyncio.sleep(2)
            reached = stack.origin.total()
            answers = await asyncio.gather(*(fetch(stack.port, f"/other/{i}?size=1000", timeout=45)
                                             for i in range(20)))
            still = sum(1 for t in hanging if not t.done())
            fds = stack.cache.fds()
            for t in hanging:
                t.cancel()
            await asyncio.gather(*hanging, return_exceptions=True)
            times = [a.elapsed for a in answers]
            text = f"{statuses(answers)}; p50 {ms(statistics.median(times))}, max {ms(max(times))}"
            report.cell("7 hanging", "70 requests hang at the origin, then 20 other cold URLs: status, latency",
                        kind, text, "200 at once")
            report.line("hanging", kind, f"origin had received {reached} of the 70 hanging requests after 2 s; "
                        f"others: {text}; {still}/70 hanging requests still open, cache fds {fds}" + metrics_note(stack.cache))


async def case_down(run, report):
    """The origin stops: a cold URL, and a stale URL with stale-if-error."""
    for kind in CACHES:
        with Stack(run, kind) as stack:
            stale = "/stale?size=1000&cc=" + quote("max-age=1, stale-if-error=60")
            warm = await fetch(stack.port, stale)
            await asyncio.sleep(2.5)
            stack.origin.stop()
            cold = await fetch(stack.port, "/cold-down?size=1000", timeout=60)
            again = await fetch(stack.port, stale, timeout=60, keep_body=True)
            report.cell("8 down", "origin stopped: cold URL status, time", kind,
                        f"{cold.describe()}, {ms(cold.elapsed)}", "502/503/504 at once")
            report.cell("8 down", "origin stopped: URL stale for 1.5 s with stale-if-error=60: status, time", kind,
                        f"{again.describe()}, {ms(again.elapsed)}" + (", full stale body" if again.complete and
                                                                       again.received == 1000 else ""),
                        "200 (stale) at once")
            warning = again.fields.get("warning") or again.fields.get("x-cache-status") or again.fields.get("age")
            report.line("down", kind, f"warm {warm.describe()}; cold {cold.describe()} in {ms(cold.elapsed)}; stale "
                        f"{again.describe()} in {ms(again.elapsed)}, {again.received} bytes, Age/cache field "
                        f"{warning}" + metrics_note(stack.cache))


def raw_get(port, target):
    """GET with the target sent byte for byte; (status, body)."""
    with socket.create_connection(("127.0.0.1", port), 5) as s:
        s.settimeout(10)
        s.sendall(f"GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode("latin-1"))
        data = b""
        try:
            while chunk := s.recv(65536):
                data += chunk
        except (socket.timeout, ConnectionResetError):
            pass
    head, _, body = data.partition(b"\r\n\r\n")
    status = head.split(b" ")[1].decode() if b" " in head else "no answer"
    return status, body


async def case_leaks(run, report):
    """Set-Cookie on a public response; percent-encoded and dot-segment targets."""
    pairs = [("/A", "/%41"), ("/~user", "/%7Euser"), ("/a/../b", "/a/%2e%2e/b")]
    for kind in CACHES:
        with Stack(run, kind) as stack:
            target = "/cookie?cookie=1&cc=" + quote("public, max-age=60")
            first = await fetch(stack.port, target)
            second = await fetch(stack.port, target)
            c1 = (first.fields.get("set-cookie") or ["none"])[0].split(";")[0]
            c2 = (second.fields.get("set-cookie") or ["none"])[0].split(";")[0]
            if c2 == "none":
                verdict = "no: no Set-Cookie"
            elif c2 == c1:
                verdict = f"YES: 2nd client got the 1st's {c2}"
            else:
                verdict = f"no: own cookie ({c2})"
            fetched = stack.origin.count(target)
            report.cell("9 leaks", "Set-Cookie on public, max-age=60: 2nd client gets the 1st's cookie?", kind,
                        verdict, "no")
            line = [f"cookie: 1st {c1}, 2nd {c2}, origin fetches {fetched}"]
            for plain, encoded in pairs:
                start = stack.origin.total()
                served = []
                for t in (plain, encoded, plain, encoded):
                    status, body = await asyncio.to_thread(raw_get, stack.port, t + "?echo=1")
                    got = body.split(b"\n")[0].decode("latin-1").removeprefix("target=").removesuffix("?echo=1")
                    served.append((t, status, got))
                seen = [s.removesuffix("?echo=1") for s in stack.origin.log(start)]
                saw_both = plain in seen and encoded in seen
                own = all(got == t for t, status, got in served)
                wrong = [f"{t}→{got or status}" for t, status, got in served if got != t]
                text = ("origin saw both" if saw_both else "origin saw " + (", ".join(sorted(set(seen))) or "none"))
                text += "; each got its own" if own else "; answers: " + ", ".join(dict.fromkeys(wrong))
                report.cell("9 leaks", f"{encoded} vs {plain}: origin sees both? each client its own answer?",
                            kind, text, "both forwarded; each its own")
                line.append(f"{plain} vs {encoded}: origin saw {seen}, served "
                            + ", ".join(f"{t}→{status} {got}" for t, status, got in served))
            report.line("leaks", kind, "; ".join(line))


async def case_hostile(run, report):
    """Oversized and malformed requests."""
    headers = "".join(f"X-H{i}: v\r\n" for i in range(10_000))
    line8 = "GET /" + "a" * (8192 - len("GET / HTTP/1.1\r\n")) + " HTTP/1.1\r\n"
    line100 = "GET /" + "a" * (102400 - len("GET / HTTP/1.1\r\n")) + " HTTP/1.1\r\n"
    requests = [
        ("10,000 request header fields (≈119 KB)",
         f"GET /h?size=10 HTTP/1.1\r\nHost: localhost\r\n{headers}\r\n", "431 or 400"),
        ("8 KB request line (8,192 bytes)", line8 + "Host: localhost\r\n\r\n", "414 (or 200)"),
        ("100 KB request line", line100 + "Host: localhost\r\n\r\n", "414"),
        ("HTTP/1.1 without Host", "GET /nohost?size=10 HTTP/1.1\r\n\r\n", "400"),
        ("two Host fields", "GET /twohost?size=10 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "400"),
    ]
    for kind in CACHES:
        with Stack(run, kind) as stack:
            line = []
            for label, data, target in requests:
                status, seconds = await asyncio.to_thread(raw_exchange, stack.port, data.encode("latin-1"))
                report.cell("10 hostile", label, kind, status, target)
                line.append(f"{label}: {status} in {ms(seconds)}")
            text = await asyncio.to_thread(expect_continue, stack.port)
            report.cell("10 hostile", "Expect: 100-continue with a 1 KiB body: 100 Continue after; final status",
                        kind, text, "100 Continue at once, then 200")
            line.append(f"Expect: {text}; origin received {stack.origin.total()} requests")
            report.line("hostile", kind, "; ".join(line))


def expect_continue(port, wait=3.0):
    body = b"b" * 1024
    s = socket.create_connection(("127.0.0.1", port), 5)
    try:
        s.sendall(b"POST /post HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1024\r\n"
                  b"Expect: 100-continue\r\nConnection: close\r\n\r\n")
        start = time.monotonic()
        s.settimeout(wait)
        first = b""
        try:
            first = s.recv(65536)
        except socket.timeout:
            pass
        waited = time.monotonic() - start
        if first.startswith(b"HTTP/1.1 100") or first.startswith(b"HTTP/1.0 100"):
            interim = f"100 after {ms(waited)}"
            rest = first.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in first else b""
        elif first:
            return f"no 100; {first.split(b' ')[1].decode()} before the body ({ms(waited)})"
        else:
            interim = f"no 100 in {wait:.0f} s"
            rest = b""
        s.sendall(body)
        s.settimeout(10)
        data = rest
        try:
            while b"\r\n\r\n" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except (socket.timeout, ConnectionResetError):
            pass
        status = data.split(b" ")[1].decode() if data.startswith(b"HTTP/") else "no answer"
        return f"{interim}; {status}"
    finally:
        s.close()


async def case_sigterm(run, report):
    """SIGTERM while 20 slow clients download a cached 40 MiB body."""
    for kind in CACHES:
        with Stack(run, kind) as stack:
            target = f"/term?size={40 * MIB}"
            warm = await fetch(stack.port, target, timeout=60)
            tasks = [asyncio.create_task(fetch(stack.port, target, slow=True, timeout=60)) for _ in range(20)]
            await asyncio.sleep(1)
            signalled = time.monotonic()
            os.kill(stack.cache.pid, signal.SIGTERM)

            async def watch_exit():
                while time.monotonic() - signalled < 40:
                    if stack.cache.process.poll() is not None:
                        return time.monotonic() - signalled
                    await asyncio.sleep(0.02)
                return None

            watcher = asyncio.create_task(watch_exit())
            answers = await asyncio.gather(*tasks)
            exited = await watcher
            complete = sum(a.complete for a in answers)
            got = sum(a.received for a in answers) / MIB
            report.cell("11 sigterm", "SIGTERM while 20 slow clients read a cached 40 MiB body: complete",
                        kind, f"{complete}/20" + (f" (exited after {ms(exited)})" if exited is not None
                                                  else " (still running after 40 s)"), "20/20")
            note = {"nginx": " (SIGTERM is nginx's fast shutdown; its graceful stop is SIGQUIT)",
                    "varnish": " (varnishd has no draining stop)"}.get(kind, "")
            report.line("sigterm", kind, f"warm {warm.describe()}; {complete}/20 complete, {got:,.0f} of 800 MiB "
                        f"received; {statuses(answers)}; process exited "
                        + (f"{ms(exited)} after SIGTERM" if exited is not None else "not within 40 s") + note)


CASES = {
    "bodies": case_bodies, "urls": case_urls, "collapse": case_collapse, "nonreading": case_nonreading,
    "large": case_large, "slowloris": case_slowloris, "hanging": case_hanging, "down": case_down,
    "leaks": case_leaks, "hostile": case_hostile, "sigterm": case_sigterm,
}


REPORT = None


async def run_cases(run, names):
    global REPORT
    report = REPORT = Report()
    durations = {}
    try:
        for name in names:
            start = time.monotonic()
            print(f"== {name} ({time.strftime('%H:%M:%S', time.gmtime())} UTC, load average "
                  f"{open('/proc/loadavg').read().split()[0]})", flush=True)
            try:
                await CASES[name](run, report)
            except Exception as error:  # a case that breaks leaves the others to run
                print(f"[{name}] failed: {type(error).__name__}: {error}", flush=True)
                import traceback
                traceback.print_exc()
            durations[name] = time.monotonic() - start
            print(f"== {name} took {durations[name]:.0f} s", flush=True)
    finally:
        print()
        report.table()
        print()
        print("Case durations: " + ", ".join(f"{n} {s:.0f} s" for n, s in durations.items())
              + f"; {sum(durations.values()):.0f} s in all")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "origin":
        origin_main()
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["run"])
    parser.add_argument("--work", required=True)
    parser.add_argument("--carlos", required=True)
    parser.add_argument("--nginx", required=True)
    parser.add_argument("--varnishd", required=True)
    parser.add_argument("cases", nargs="*")
    args = parser.parse_intermixed_args()
    names = args.cases or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        sys.exit(f"unknown case {', '.join(unknown)}; cases: {' '.join(CASES)}")
    os.environ["OPERATIONS_WORK"] = args.work
    run = Run(args)
    if run.carlos_options:
        print(f"== carlos-caching-proxy --help lists {' '.join(run.carlos_options)}: passed "
              f"(--max-object-size {MAX_OBJECT_SIZE}, header/idle/body timeouts {HEADER_TIMEOUT}/{HEADER_TIMEOUT}/"
              f"{BODY_TIMEOUT} s, send timeout {SEND_TIMEOUT} s, --max-connections {MAX_CONNECTIONS})")
    else:
        print("== carlos-caching-proxy --help lists none of the newer options: run with --upstream, --port, "
              "--storage memory and --capacity only (no timeouts, limits, access log or metrics)")
    def interrupted(number, frame):
        # Ends what this run started (by pid), prints the table so far and leaves at once:
        # threads (wrk, readers) would otherwise hold the interpreter's exit.
        for pid in list(LIVE):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        print(f"\n== interrupted by signal {number}", flush=True)
        REPORT.table()
        sys.stdout.flush()
        os._exit(128 + number)

    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGINT, interrupted)
    asyncio.run(run_cases(run, names))


if __name__ == "__main__":
    main()
