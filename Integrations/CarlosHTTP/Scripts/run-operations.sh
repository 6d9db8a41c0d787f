#!/usr/bin/env bash
# An operator's trial of carlos-caching-proxy beside nginx (proxy_cache) and Varnish
# (Debian's packages) on this machine: the same origin, the same clients, the same
# hostile traffic, and one Markdown table at the end.
#
#   Integrations/CarlosHTTP/Scripts/run-operations.sh [CASE ...]   # default: every case
#
# CASE is one of bodies urls collapse nonreading large slowloris hanging down leaks
# hostile sigterm (in that order when all run). The whole run takes 9 to 10 minutes on
# 2 cores (most of it in urls and nonreading); save it with
#   ... 2>&1 | tee Integrations/CarlosHTTP/Results/operations-$(date -u +%Y-%m-%d-%H%M)-before.txt
#
# Environment: CARLOS_PROXY=path of a built carlos-caching-proxy (otherwise the release
# product is built into Integrations/.build-operations, which takes several minutes),
# SKIP_BUILD=1 to use that build as it is; CARLOS_BUILT_FROM=text printed beside the
# binary's path (say, the commit it was built from when that is not the checkout's),
# KEEP_WORK=1 to keep the temporary folder (configurations, logs, Carlos's access log).
#
# What it does:
#  1. installs wrk, nginx and varnish with apt-get when missing (their services are not
#     started: the package scripts' starts are stopped again if they ran);
#  2. raises the open-file limit (ulimit -n) as far as the hard limit allows: case 6
#     holds 2,000 connections in the client and as many in each cache;
#  3. runs Scripts/operations.py (beside this script; Python 3.11, standard library),
#     which for every case and every cache starts a fresh origin (Python asyncio,
#     127.0.0.1, ephemeral port, counting the requests it receives per target, so that
#     no count depends on a cache's own metrics) and a fresh cache in front of it on its
#     own loopback port, with its files in a folder of a temporary folder (in /dev/shm
#     when it has 8 GiB free, else /tmp; each folder is removed when its cache stops):
#       carlos-caching-proxy --storage memory --capacity 256 MiB (64 MiB in case 2); when
#         its --help lists them also --max-object-size 128 MiB, --header-timeout 10,
#         --idle-timeout 10, --body-timeout 10, --send-timeout 20, --max-connections 8192,
#         --access-log (to a file) and --metrics-port (a few counters are printed beside
#         the origin's);
#       nginx: 2 workers, proxy_cache in that folder (max_size = the capacity, keys_zone
#         10m), proxy_cache_lock on, proxy_buffering on, the default
#         proxy_max_temp_file_size, proxy_buffer_size and proxy_busy_buffers_size 16k
#         (with the default 4k nginx cannot keep the cache key of an 8,000-character URL
#         and passes such requests uncached), client_header_timeout, keepalive_timeout
#         and client_body_timeout 10 s, send_timeout 20 s, keep-alive upstream connections;
#       varnishd -s malloc,<capacity> with the built-in VCL, timeout_idle 10 s,
#         idle_send_timeout and send_timeout 20 s.
#     The 10 s header/idle timeouts (and 20 s send timeouts) are set in every case so the
#     run is short; every other setting is the package's default. Memory is VmRSS from
#     /proc/PID/status, sampled every 100 ms: the proxy process for Carlos, the workers
#     added up for nginx (so pages they share are counted twice), the child (cache)
#     process for Varnish; open descriptors from /proc/PID/fd; whether a cache closed a
#     connection from its end of it in /proc/net/tcp.
#  4. prints a line per case and cache as it goes, then one Markdown table (case |
#     carlos-caching-proxy | nginx | Varnish | target) and the date, commit and load;
#  5. stops everything it started (by pid) and removes the temporary folder.
#
# The cases (each against the three caches in turn):
#  bodies      cached bodies of 1, 8, 40 and 64 MiB fetched at once by an HTTP/1.0 client,
#              an HTTP/1.1 Connection: close client, a slow reader (64 KiB every 10 ms) and
#              a keep-alive client: body bytes received against Content-Length.
#  urls        --capacity 64 MiB: wrk sends 20,000 distinct 8,000-character URLs (100-byte
#              bodies), then 200,000 distinct URLs with 10 KiB bodies (32 connections);
#              then 5,000 distinct X-V values on 5 URLs answered with Vary: X-V (each
#              body names its variant, so a wrong variant is counted): peak and final RSS
#              against 1.5 × capacity + 64 MiB.
#  collapse    200 concurrent requests for one cold URL the origin answers after 1 s;
#              50 cold URLs × 20 clients each (1,000 at once); 40 clients of one cold
#              40 MiB URL: origin fetches (the origin's count), total time, peak RSS.
#  nonreading  24 clients ask for a 50 MiB body (no-store, then a cached one) and never
#              read: RSS held 10 s later (above the RSS before they came), and whether
#              and when the cache closes them (watched until the send timeout + 10 s).
#  large       a 2 GiB body streamed by the origin with Content-Length (no-store, then
#              cacheable), read as fast as possible: MiB/s and peak RSS.
#  slowloris   1,000 connections sending a header byte every 5 s and 1,000 keep-alive
#              connections left idle after one request; meanwhile a normal client makes
#              requests on new connections every 50 ms: its p50/p99 latency; how many
#              hostile connections the cache has closed 15 s after they opened (timeout + 5 s).
#  hanging     70 requests (distinct targets) that the origin never answers, then 20
#              requests for other cold URLs: their status and latency.
#  down        the origin is stopped: a cold URL (status, time) and a URL cached with
#              Cache-Control: max-age=1, stale-if-error=60 and stale for 1.5 s.
#  leaks       Set-Cookie on a public, max-age=60 response: does a second client get the
#              first one's cookie?; /%41 vs /A, /%7Euser vs /~user, /a/%2e%2e/b vs
#              /a/../b sent byte for byte: does the origin see both, and does each client
#              get the answer for its own target (the origin echoes the target it saw)?
#  hostile     10,000 request header fields (≈119 KB), an 8 KB and a 100 KB request line,
#              no Host and two Host fields on HTTP/1.1: the status; Expect: 100-continue
#              with a 1 KiB body: how long until 100 Continue, and the final status.
#  sigterm     SIGTERM to the cache (nginx's master, varnishd's manager) while 20 slow
#              clients download a cached 40 MiB body: how many complete, and when the
#              process exits. SIGTERM is nginx's fast shutdown (its graceful one is
#              SIGQUIT); varnishd has no draining stop.
#
# Each case's cells come from the origin's own counts and the clients' byte counts;
# Carlos's /metrics (newer builds) is only printed beside them. The machine is shared:
# the load average is printed at each case, and throughput and latency move with it.
set -euo pipefail
PACKAGE=$(cd "$(dirname "$0")/.." && pwd)
SCRIPTS="$PACKAGE/Scripts"
CASES=("$@")

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
  SCRATCH="$PACKAGE/../.build-operations"
  if [ -z "${SKIP_BUILD:-}" ]; then
    swift build -c release --package-path "$PACKAGE/../.." --traits HTTP --product carlos-caching-proxy \
      --scratch-path "$SCRATCH" >&2
  fi
  CARLOS_PROXY="$SCRATCH/release/carlos-caching-proxy"
fi
[ -x "$CARLOS_PROXY" ] || { echo "no carlos-caching-proxy at $CARLOS_PROXY" >&2; exit 1; }

# ---- 2. open files -------------------------------------------------------------------
SOFT_BEFORE=$(ulimit -n)
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 8192 ]; then
  echo "the open-file limit is $(ulimit -n) (hard limit $(ulimit -Hn)); case slowloris needs about 5,000" >&2
fi

# ---- temporary folder and clean-up ---------------------------------------------------
# In /dev/shm when it has room: this machine's disk is mounted with discard, where
# deleting nginx's 200,000 cache files of case urls takes minutes and slows whatever runs.
BASE=/tmp
if [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -gt $((8 << 20)) ]; then
  BASE=/dev/shm
fi
WORK=$(mktemp -d "$BASE/carlos-operations.XXXXXX")
chmod 755 "$WORK"   # nginx's workers and varnishd's child run as other users
HELPER=
cleanup() {
  if [ -n "$HELPER" ]; then kill "$HELPER" 2>/dev/null || true; wait "$HELPER" 2>/dev/null || true; fi
  # Whatever the helper started and could not stop (it lists every pid it starts).
  if [ -f "$WORK/pids" ]; then
    while read -r pid; do kill -9 "$pid" 2>/dev/null || true; done < "$WORK/pids"
  fi
  sleep 1
  if [ -n "${KEEP_WORK:-}" ]; then echo "== files kept in $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- 3. the cases --------------------------------------------------------------------
echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC'), commit $(git -C "$PACKAGE" rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $("$NGINX" -v 2>&1); $("$VARNISHD" -V 2>&1 | head -1); $(wrk -v 2>&1 | head -1 || true); $(python3 --version)"
echo "== carlos-caching-proxy: $CARLOS_PROXY (built $(date -u -r "$CARLOS_PROXY" '+%Y-%m-%d %H:%M UTC')${CARLOS_BUILT_FROM:+ from $CARLOS_BUILT_FROM})"
echo "== open-file limit raised from $SOFT_BEFORE to $(ulimit -n) (hard limit $(ulimit -Hn)) for 2,000 hostile connections"
echo "== files (nginx's cache and temporary files among them) in $WORK"
echo "== timeouts in all three caches: header and idle 10 s, request body 10 s, send 20 s (short, so the run is short); everything else as the packages ship it"
START=$(date +%s)
python3 "$SCRIPTS/operations.py" run --work "$WORK" --carlos "$CARLOS_PROXY" --nginx "$NGINX" \
  --varnishd "$VARNISHD" ${CASES[@]+"${CASES[@]}"} &
HELPER=$!
status=0
wait "$HELPER" || status=$?
HELPER=
END=$(date +%s)

# ---- 4. where and when ---------------------------------------------------------------
echo
echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC'), commit $(git -C "$PACKAGE" rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores, load average at the end $(cut -d' ' -f1-3 /proc/loadavg); the run took $(( (END - START) / 60 )) min $(( (END - START) % 60 )) s"
exit "$status"
