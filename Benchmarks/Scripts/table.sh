#!/usr/bin/env bash
# Runs the whole benchmark suite RUNS times (3 by default) and prints the
# Markdown table of Benchmarks/README.md, each benchmark from its best run.
#
#   Benchmarks/Scripts/table.sh [runs]
set -euo pipefail
scripts="$(cd "$(dirname "$0")" && pwd)"
benchmarks="$(dirname "$scripts")"
runs="${1:-3}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for i in $(seq 1 "$runs"); do
  echo "run $i of $runs" >&2
  swift package --package-path "$benchmarks" benchmark --no-progress >"$out/run$i.txt" 2>/dev/null
done
python3 "$scripts/summarize.py" "$out"/run*.txt
