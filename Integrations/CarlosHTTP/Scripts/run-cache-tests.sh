#!/bin/sh
# Runs the http-tests/cache-tests suite against carlos-caching-proxy and
# summarises the results.
#
#   Integrations/CarlosHTTP/Scripts/run-cache-tests.sh CACHE_TESTS_FOLDER [RESULTS.json]
#
# CACHE_TESTS_FOLDER is a checkout of https://github.com/http-tests/cache-tests
# (it needs node, and its `undici` dependency for the 4 interim-response tests:
# `npm install` in the checkout, or, offline, a copy of a nodejs/undici 7.x
# release at CACHE_TESTS_FOLDER/node_modules/undici). The suite's origin
# server listens on 127.0.0.1:8000; the proxy (memory storage)
# on a free port (debug build; CONFIGURATION=release for a release one).
# RESULTS.json defaults to Results/cache-tests.json. PROXY_OPTIONS adds options to the
# proxy's command line (e.g. PROXY_OPTIONS=--store-set-cookie).
set -eu
suite=$(cd "$1" && pwd)
[ -d "$suite/node_modules/undici" ] ||
  echo "warning: no $suite/node_modules/undici: the 4 interim-response tests will fail" >&2
package=$(cd "$(dirname "$0")/.." && pwd)
results=${2:-$package/Results/cache-tests.json}
scratch=${SCRATCH_PATH:-$package/../.build-http}
configuration=${CONFIGURATION:-debug}

swift build -c "$configuration" --package-path "$package/../.." --traits HTTP --scratch-path "$scratch" --product carlos-caching-proxy
proxy_binary=$(swift build -c "$configuration" --package-path "$package/../.." --traits HTTP --scratch-path "$scratch" --show-bin-path)/carlos-caching-proxy

# What `npm run server` runs, started directly so that $! is the server itself.
(cd "$suite" && npm_config_protocol=http npm_config_port=8000 \
  npm_config_pidfile=/tmp/http-cache-test-server.pid exec node test-engine/server/server.mjs) \
  >/tmp/cache-tests-server.log 2>&1 &
origin=$!
fifo=$(mktemp -u)
mkfifo "$fifo"
# shellcheck disable=SC2086 # PROXY_OPTIONS is a list of words
"$proxy_binary" --upstream http://127.0.0.1:8000 --port 0 ${PROXY_OPTIONS:-} >"$fifo" 2>/tmp/cache-tests-proxy.log &
proxy=$!
trap 'kill $proxy $origin 2>/dev/null || true; rm -f "$fifo"' EXIT INT TERM
read -r word port <"$fifo"
[ "$word" = listening ] || { echo "proxy did not start" >&2; exit 1; }
sleep 1

(cd "$suite" && npm run --silent cli --base="http://127.0.0.1:$port") >"$results"
node "$package/Scripts/summarise-cache-tests.mjs" "$results" "$suite"
