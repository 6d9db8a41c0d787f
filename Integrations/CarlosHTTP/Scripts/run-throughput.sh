#!/usr/bin/env bash
# Hit throughput of carlos-caching-proxy (memory storage) against nginx's proxy_cache and
# Varnish (Debian's packages) on this machine, with wrk: 2 threads, 64 connections, a Lua
# script cycling through 1,000 URLs that are all fresh in every cache.
#
#   Integrations/CarlosHTTP/Scripts/run-throughput.sh [ROUNDS] [SECONDS]   # default 3 rounds of 15 s
#
# Environment: CARLOS_PROXY=path of a built carlos-caching-proxy (otherwise the release
# product is built into Integrations/.build-throughput), SKIP_BUILD=1 to use it as is.
#
# What it does:
#  1. installs wrk, nginx and varnish with apt-get when missing (their services are not
#     started: the package scripts' starts are stopped again if they ran);
#  2. starts an origin (Python, 127.0.0.1, ephemeral port) answering /item/0 ... /item/999
#     with a 1 KiB body and Cache-Control: max-age=3600, and /stats with its request count;
#  3. starts the three caches on loopback ports, each with its own files in a temporary
#     folder: carlos-caching-proxy --storage memory; nginx (worker_processes auto, sendfile
#     as Debian's default configuration has it, proxy_cache_path in the folder, keep-alive
#     upstream connections, X-Cache-Status);
#     varnishd -s malloc,256m (built-in VCL, -b the origin);
#  4. warms each cache with one request per URL, then asks every URL again and checks that
#     each answer was a hit (nginx X-Cache-Status: HIT, Varnish two ids in X-Varnish,
#     Carlos an Age field) and that the origin saw none of those requests;
#  5. ROUNDS times: wrk against each cache in turn (the order rotates each round), the
#     origin's request count read before and after each run (it must not move);
#  6. prints the raw wrk output, the load average around each run, and a Markdown table
#     (requests/s per cache and round, Carlos / the better of nginx and Varnish);
#  7. stops everything it started and removes the temporary folder.
set -euo pipefail
ROUNDS=${1:-3}
DURATION=${2:-15}
THREADS=2
CONNECTIONS=64
URLS=1000
PACKAGE=$(cd "$(dirname "$0")/.." && pwd)

# ---- 1. packages ---------------------------------------------------------------------
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v varnishd >/dev/null || [ -x /usr/sbin/varnishd ] || missing+=(varnish)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" >&2
  # The packages' own services are not wanted (where policy-rc.d allowed them to start).
  for service in nginx varnish varnishncsa; do
    if command -v systemctl >/dev/null && systemctl is-active --quiet "$service" 2>/dev/null; then
      systemctl stop "$service" || true
    elif command -v service >/dev/null; then
      service "$service" stop >/dev/null 2>&1 || true
    fi
  done
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
VARNISHD=$(command -v varnishd || echo /usr/sbin/varnishd)

# ---- the proxy -----------------------------------------------------------------------
if [ -z "${CARLOS_PROXY:-}" ]; then
  SCRATCH="$PACKAGE/../.build-throughput"
  if [ -z "${SKIP_BUILD:-}" ]; then
    swift build -c release --package-path "$PACKAGE/../.." --traits HTTP --product carlos-caching-proxy \
      --scratch-path "$SCRATCH" >&2
  fi
  CARLOS_PROXY="$SCRATCH/release/carlos-caching-proxy"
fi
[ -x "$CARLOS_PROXY" ] || { echo "no carlos-caching-proxy at $CARLOS_PROXY" >&2; exit 1; }

# ---- temporary folder and clean-up ---------------------------------------------------
WORK=$(mktemp -d /tmp/carlos-throughput.XXXXXX)
chmod 755 "$WORK"   # nginx's workers and varnishd's child run as other users
PIDS=()
cleanup() {
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  sleep 1
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() {  # port: waits up to 10 s until something listens on it
  for _ in $(seq 100); do
    python3 -c "import socket,sys; socket.create_connection(('127.0.0.1',$1),1)" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on $1" >&2; return 1
}

# ---- 2. origin -----------------------------------------------------------------------
cat > "$WORK/origin.py" <<'EOF'
import sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
lock = threading.Lock()
count = 0
BODY = b"x" * 1024
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    def log_message(self, *args): pass
    def do_GET(self):
        global count
        if self.path == "/stats":
            with lock: body = str(count).encode()
            self.send_response(200)
            self.send_header("Cache-Control", "no-store")
        else:
            with lock: count += 1
            parts = self.path.split("/")
            if len(parts) != 3 or parts[1] != "item" or not parts[2].isdigit() or int(parts[2]) >= 1000:
                self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
            body = BODY
            self.send_response(200)
            self.send_header("Cache-Control", "max-age=3600")
            self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256
server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
EOF
python3 "$WORK/origin.py" > "$WORK/origin.port" &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$WORK/origin.port" ] && break; sleep 0.1; done
ORIGIN=$(head -1 "$WORK/origin.port")
origin_count() { curl -s "http://127.0.0.1:$ORIGIN/stats"; }

# ---- 3. caches -----------------------------------------------------------------------
"$CARLOS_PROXY" --upstream "http://127.0.0.1:$ORIGIN" --port 0 --storage memory \
  > "$WORK/carlos.out" 2> "$WORK/carlos.err" &
PIDS+=($!)
CARLOS_PID=$!
for _ in $(seq 100); do grep -q '^listening ' "$WORK/carlos.out" 2>/dev/null && break; sleep 0.1; done
CARLOS=$(sed -n 's/^listening //p' "$WORK/carlos.out")

NGINX_PORT=$(free_port)
mkdir -p "$WORK/nginx"
cat > "$WORK/nginx.conf" <<EOF
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;      # as in Debian's /etc/nginx/nginx.conf
  tcp_nopush on;
  proxy_temp_path $WORK/nginx/proxy_temp;
  client_body_temp_path $WORK/nginx/client_temp;
  fastcgi_temp_path $WORK/nginx/fastcgi_temp;
  uwsgi_temp_path $WORK/nginx/uwsgi_temp;
  scgi_temp_path $WORK/nginx/scgi_temp;
  proxy_cache_path $WORK/nginx/cache levels=1:2 keys_zone=items:10m max_size=256m inactive=1h;
  upstream origin { server 127.0.0.1:$ORIGIN; keepalive 32; }
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location / {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache items;
      add_header X-Cache-Status \$upstream_cache_status;
    }
  }
}
EOF
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx.conf" -g 'daemon off;' 2> "$WORK/nginx.err" &
PIDS+=($!)

VARNISH_PORT=$(free_port)
"$VARNISHD" -F -a "127.0.0.1:$VARNISH_PORT" -b "127.0.0.1:$ORIGIN" -s malloc,256m \
  -n "$WORK/varnish" -P "$WORK/varnish.pid" > "$WORK/varnish.out" 2>&1 &
PIDS+=($!)

wait_port "$CARLOS"; wait_port "$NGINX_PORT"; wait_port "$VARNISH_PORT"

# ---- 4. warm and verify ----------------------------------------------------------------
cat > "$WORK/check.py" <<'EOF'
# python3 check.py PORT KIND warm|verify: one keep-alive connection, every URL once.
import http.client, sys
port, kind, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3]
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
hits = bad = 0
for i in range(1000):
    connection.request("GET", f"/item/{i}")
    response = connection.getresponse()
    body = response.read()
    if response.status != 200 or len(body) != 1024:
        bad += 1
    if kind == "nginx":
        hit = response.getheader("X-Cache-Status") == "HIT"
    elif kind == "varnish":
        hit = len((response.getheader("X-Varnish") or "").split()) == 2
    else:
        hit = response.getheader("Age") is not None
    hits += hit
print(f"{kind} {mode}: 1000 requests, {hits} hits, {bad} not 200 with 1 KiB")
sys.exit(1 if bad or (mode == "verify" and hits != 1000) else 0)
EOF
for cache in carlos:$CARLOS nginx:$NGINX_PORT varnish:$VARNISH_PORT; do
  kind=${cache%%:*}; port=${cache##*:}
  before=$(origin_count)
  python3 "$WORK/check.py" "$port" "$kind" warm
  warmed=$(origin_count)
  python3 "$WORK/check.py" "$port" "$kind" verify
  after=$(origin_count)
  echo "$kind: origin saw $((warmed - before)) requests while warming, $((after - warmed)) while verifying"
  [ "$after" = "$warmed" ] || { echo "$kind: the origin was asked again; not all hits" >&2; exit 1; }
done

# ---- 5. wrk --------------------------------------------------------------------------

declare -A RATE
run_one() {  # round kind port
  local round=$1 kind=$2 port=$3 before after load_before load_after out
  before=$(origin_count)
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  out=$(wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s -s "$PACKAGE/../Scripts/cycle-urls.lua" \
    "http://127.0.0.1:$port" -- /item/ $URLS $THREADS)
  load_after=$(cut -d' ' -f1-3 /proc/loadavg)
  after=$(origin_count)
  echo "--- round $round, $kind (port $port), $(date -u '+%H:%M:%S UTC'), load average before: $load_before, after: $load_after, origin requests during the run: $((after - before))"
  echo "$out"
  if echo "$out" | grep -q 'Non-2xx'; then echo "$kind: non-2xx answers" >&2; exit 1; fi
  [ "$after" = "$before" ] || { echo "$kind: the origin was asked during the run" >&2; exit 1; }
  RATE[$round,$kind]=$(echo "$out" | sed -n 's/^Requests\/sec: *//p')
}

echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s -s cycle-urls.lua ($URLS URLs, 1 KiB bodies, max-age=3600), $ROUNDS rounds"
echo "== $(wrk -v 2>&1 | head -1 || true); $("$NGINX" -v 2>&1); $("$VARNISHD" -V 2>&1 | head -1); carlos-caching-proxy $CARLOS_PROXY"
ORDER=(carlos nginx varnish)
declare -A PORT=([carlos]=$CARLOS [nginx]=$NGINX_PORT [varnish]=$VARNISH_PORT)
for round in $(seq "$ROUNDS"); do
  for k in 0 1 2; do
    kind=${ORDER[$(( (k + round - 1) % 3 ))]}
    run_one "$round" "$kind" "${PORT[$kind]}"
  done
done
kill -0 "$CARLOS_PID" 2>/dev/null || { echo "carlos-caching-proxy died" >&2; exit 1; }
if [ -s "$WORK/carlos.err" ]; then echo "--- carlos-caching-proxy standard error (last 20 lines):"; tail -20 "$WORK/carlos.err"; fi

# ---- 6. table ------------------------------------------------------------------------
echo
echo "| Round | carlos-caching-proxy (req/s) | nginx proxy_cache (req/s) | Varnish (req/s) | Carlos / better of the two |"
echo "|---|---|---|---|---|"
for round in $(seq "$ROUNDS"); do
  c=${RATE[$round,carlos]} n=${RATE[$round,nginx]} v=${RATE[$round,varnish]}
  python3 -c "
c, n, v = $c, $n, $v
best = max(n, v)
print(f'| $round | {c:,.0f} | {n:,.0f} | {v:,.0f} | {c / best:.2f} ({\"nginx\" if n >= v else \"Varnish\"}) |')"
done
means=$(for round in $(seq "$ROUNDS"); do
  echo "${RATE[$round,carlos]} ${RATE[$round,nginx]} ${RATE[$round,varnish]}"; done)
echo "$means" | python3 -c "
import sys
rows = [list(map(float, line.split())) for line in sys.stdin if line.strip()]
c, n, v = (sum(column) / len(rows) for column in zip(*rows))
best = max(n, v)
print(f'| mean | {c:,.0f} | {n:,.0f} | {v:,.0f} | {c / best:.2f} ({\"nginx\" if n >= v else \"Varnish\"}) |')"
echo
echo "== load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
