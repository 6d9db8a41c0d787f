#!/usr/bin/env python3
"""The server of carlos-http-benchmark, in a process of its own so that its CPU is
not counted with the client's.

Listens on 127.0.0.1 on an ephemeral port and prints the port on the first line of
standard output. Endpoints (HTTP/1.1, keep-alive):
  /small            a 100-byte body
  /slow?s=SECONDS   the same body after SECONDS seconds
  /huge?bytes=N     N bytes (default 1 GiB), chunked (no Content-Length), 64 KiB at a time
  /hang             no answer; waits until the client closes the connection
  /stats            JSON: {"closes": [{"path": ..., "at": unix time}...], "requests": n}
A close is recorded when the client ends a /huge, /slow or /hang connection early.
The server exits when its standard input closes.
"""
import json
import os
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

lock = threading.Lock()
closes = []
request_count = 0
BODY = b"x" * 100


def record_close(path):
    with lock:
        closes.append({"path": path, "at": time.time()})


def client_closed(connection, timeout):
    """Whether the client closed the connection within `timeout` seconds."""
    readable, _, _ = select.select([connection], [], [], timeout)
    if not readable:
        return False
    try:
        return connection.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes: without this, Nagle's algorithm and
    # the client's delayed ACK add 40 ms to every keep-alive request.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send_small(self):
        self.send_response(200)
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def do_GET(self):
        global request_count
        with lock:
            request_count += 1
        url = urlparse(self.path)
        query = parse_qs(url.query)
        if url.path == "/small":
            self.send_small()
        elif url.path == "/slow":
            end = time.time() + float(query.get("s", ["10"])[0])
            while time.time() < end:
                if client_closed(self.connection, min(0.05, max(0, end - time.time()))):
                    record_close(url.path)
                    self.close_connection = True
                    return
            self.send_small()
        elif url.path == "/hang":
            while not client_closed(self.connection, 0.05):
                pass
            record_close(url.path)
            self.close_connection = True
        elif url.path == "/huge":
            total = int(query.get("bytes", [str(1 << 30)])[0])
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"a" * 65536
            frame = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
            sent = 0
            try:
                while sent < total:
                    self.wfile.write(frame)
                    sent += len(chunk)
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                record_close(url.path)
                self.close_connection = True
        elif url.path == "/stats":
            with lock:
                body = json.dumps({"closes": closes, "requests": request_count}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256


def exit_with_parent():
    """Ends the server when its standard input closes (the benchmark ended)."""
    sys.stdin.buffer.read()
    os._exit(0)


server = Server(("127.0.0.1", 0), Handler)
threading.Thread(target=exit_with_parent, daemon=True).start()
print(server.server_address[1], flush=True)
server.serve_forever()
