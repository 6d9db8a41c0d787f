#!/usr/bin/env bash
# Builds carlos-http-benchmark (release) and runs every scenario for each fetcher
# in a process of its own, so one fetcher's leftovers (URLSession keeps a core busy
# while any transfer lingers) never count against the other:
#   Integrations/CarlosHTTP/Scripts/run-benchmark.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
swift build -c release --traits HTTP --scratch-path .build-http-benchmark --product carlos-http-benchmark
echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC'), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for scenario in idle huge cancel small; do
  for fetcher in HTTPFetcher NetworkFetcher; do
    .build-http-benchmark/release/carlos-http-benchmark "$scenario" "$fetcher" | grep -v '^server pid'
  done
done
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
