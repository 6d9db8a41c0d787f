#!/usr/bin/env bash
# Runs the whole benchmark suite RUNS times (3 by default) and prints the
# Markdown table of Benchmarks/README.md, each benchmark from its best run.
#
#   Benchmarks/Scripts/table.sh [runs]
#
# With REALTIME=1 (as root), the benchmarks run under `chrt -f 50`: on a shared
# machine other processes then cannot take the cores in the middle of a
# two-thread sample (the build before the runs still runs at normal priority).
set -euo pipefail
scripts="$(cd "$(dirname "$0")" && pwd)"
benchmarks="$(dirname "$scripts")"
runs="${1:-3}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for i in $(seq 1 "$runs"); do
  echo "run $i of $runs" >&2
  if [ "${REALTIME:-0}" = 1 ]; then
    swift build --package-path "$benchmarks" -c release --product CarlosBenchmarks >/dev/null
    chrt -f 50 swift package --package-path "$benchmarks" benchmark --no-progress >"$out/run$i.txt" 2>/dev/null
  else
    swift package --package-path "$benchmarks" benchmark --no-progress >"$out/run$i.txt" 2>/dev/null
  fi
done
python3 "$scripts/summarize.py" "$out"/run*.txt
