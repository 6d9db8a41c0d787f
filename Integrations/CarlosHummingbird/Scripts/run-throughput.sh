#!/usr/bin/env bash
# Requests per second of a cached 20 ms route against the same application answering a
# constant with no middleware, with wrk: 2 threads, 64 connections, a Lua script cycling
# through 1,000 URLs of each kind.
#
#   Integrations/CarlosHummingbird/Scripts/run-throughput.sh [ROUNDS] [SECONDS]   # default 3 rounds of 15 s
#
# SKIP_BUILD=1 uses the release build in Integrations/.build-throughput as it is.
#
# What it does:
#  1. installs wrk with apt-get when missing; builds the CarlosHummingbirdBenchmark
#     product (release) and starts it on a free loopback port: /constant/N answers 1 KiB
#     with no middleware, /cached/N sleeps 20 ms and answers 1 KiB with
#     `Cache-Control: max-age=3600` behind ResponseCacheMiddleware on a memory level;
#  2. warms /cached/0 ... /cached/999, then asks each again and checks that it came from
#     the cache (an `Age` field, and the route's call count, /stats, did not move);
#  3. ROUNDS times: wrk against /constant and /cached in turn (the order alternates);
#  4. prints the raw wrk output, the load average around each run, and a Markdown table
#     (requests/s of each and cached / constant).
set -euo pipefail
ROUNDS=${1:-3}
DURATION=${2:-15}
THREADS=2
CONNECTIONS=64
URLS=1000
PACKAGE=$(cd "$(dirname "$0")/.." && pwd)
SCRATCH="$PACKAGE/../.build-throughput"

command -v wrk >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y wrk >&2
if [ -z "${SKIP_BUILD:-}" ]; then
  swift build -c release --package-path "$PACKAGE/../.." --traits Hummingbird --product CarlosHummingbirdBenchmark \
    --scratch-path "$SCRATCH" >&2
fi
SERVER="$SCRATCH/release/CarlosHummingbirdBenchmark"

WORK=$(mktemp -d /tmp/carlos-hummingbird-throughput.XXXXXX)
SERVER_PID=
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
"$SERVER" 0 > "$WORK/server.out" 2> "$WORK/server.err" &
SERVER_PID=$!
for _ in $(seq 100); do grep -q '^listening ' "$WORK/server.out" 2>/dev/null && break; sleep 0.1; done
PORT=$(sed -n 's/^listening //p' "$WORK/server.out")
[ -n "$PORT" ] || { echo "the benchmark server did not start" >&2; cat "$WORK/server.err" >&2; exit 1; }

# ---- 2. warm and verify ----------------------------------------------------------------
python3 - "$PORT" <<'EOF'
import http.client, sys
from concurrent.futures import ThreadPoolExecutor
port = int(sys.argv[1])
def ask(indices):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    answers = []
    for i in indices:
        connection.request("GET", f"/cached/{i}")
        response = connection.getresponse()
        body = response.read()
        answers.append((response.status, len(body), response.getheader("Age")))
    return answers
def everything():
    with ThreadPoolExecutor(8) as pool:
        return [a for part in pool.map(ask, [range(k, 1000, 8) for k in range(8)]) for a in part]
def calls():
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/stats")
    return int(connection.getresponse().read())
warm = everything()
warmed = calls()
check = everything()
bad = sum(1 for status, length, _ in warm + check if status != 200 or length != 1024)
hits = sum(1 for _, _, age in check if age is not None)
print(f"warmed 1000 cached URLs (the route ran {warmed} times); asked again: {hits} of 1000 "
      f"with an Age field, the route ran {calls() - warmed} more times, {bad} answers not 200 with 1 KiB")
sys.exit(1 if bad or hits != 1000 or calls() != warmed else 0)
EOF

# ---- 3. wrk ----------------------------------------------------------------------------

declare -A RATE
echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s ($URLS URLs each, 1 KiB bodies), $ROUNDS rounds"
for round in $(seq "$ROUNDS"); do
  order=(constant cached)
  [ $((round % 2)) -eq 0 ] && order=(cached constant)
  for kind in "${order[@]}"; do
    load_before=$(cut -d' ' -f1-3 /proc/loadavg)
    calls_before=$(curl -s "http://127.0.0.1:$PORT/stats")
    out=$(wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s -s "$PACKAGE/../Scripts/cycle-urls.lua" \
      "http://127.0.0.1:$PORT" -- "/$kind/" $URLS $THREADS)
    calls_after=$(curl -s "http://127.0.0.1:$PORT/stats")
    echo "--- round $round, /$kind, load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg), 20 ms route calls during the run: $((calls_after - calls_before))"
    echo "$out"
    if echo "$out" | grep -q 'Non-2xx'; then echo "/$kind: non-2xx answers" >&2; exit 1; fi
    [ "$calls_after" = "$calls_before" ] || { echo "/$kind: the 20 ms route ran during the run" >&2; exit 1; }
    RATE[$round,$kind]=$(echo "$out" | sed -n 's/^Requests\/sec: *//p')
  done
done
kill -0 "$SERVER_PID" 2>/dev/null || { echo "the benchmark server died" >&2; exit 1; }

# ---- 4. table --------------------------------------------------------------------------
echo
echo "| Round | constant, no middleware (req/s) | 20 ms route, cached (req/s) | cached / constant |"
echo "|---|---|---|---|"
for round in $(seq "$ROUNDS"); do
  echo "$round ${RATE[$round,constant]} ${RATE[$round,cached]}"
done | python3 -c "
import sys
rows = [line.split() for line in sys.stdin if line.strip()]
for name, constant, cached in rows:
    print(f'| {name} | {float(constant):,.0f} | {float(cached):,.0f} | {float(cached) / float(constant):.2f} |')
constant = sum(float(r[1]) for r in rows) / len(rows)
cached = sum(float(r[2]) for r in rows) / len(rows)
print(f'| mean | {constant:,.0f} | {cached:,.0f} | {cached / constant:.2f} |')"
echo
echo "== load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
