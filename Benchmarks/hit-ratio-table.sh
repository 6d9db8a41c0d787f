#!/usr/bin/env bash
# Replays every row of the traces README (trace, cache size) through the real
# MemoryCacheLevel with the HitRatio tool and prints a markdown table:
# LRU, W-TinyLFU with a fixed 1% window, adaptive W-TinyLFU, and OPT from the README.
#
#   Benchmarks/hit-ratio-table.sh [traces-folder]
#
# The folder holds the *.keys.gz traces and their README.md (by default
# ../shared/traces next to the repository, or $TRACES_DIR).
set -euo pipefail
benchmarks="$(cd "$(dirname "$0")" && pwd)"
traces="${1:-${TRACES_DIR:-$benchmarks/../../shared/traces}}"
if [ ! -f "$traces/README.md" ]; then
  echo "hit-ratio-table.sh: no README.md in '$traces' (pass the traces folder as the first argument)" >&2
  exit 64
fi

# Swift seeds its hash function per process; a fixed seed makes the table reproducible.
export SWIFT_DETERMINISTIC_HASHING=1
swift build -c release --package-path "$benchmarks" --product HitRatio >&2
tool="$(swift build -c release --package-path "$benchmarks" --show-bin-path)/HitRatio"

echo "| trace | size | LRU % | W-TinyLFU (1% window) % | adaptive W-TinyLFU % | OPT % | adaptive − max(LRU, W-TinyLFU) | OPT − adaptive |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
# README rows: | trace | requests | distinct keys | cache size | LRU % | OPT % | OPT-demand % |
grep -E '^\| [a-z0-9_-]+ \| [0-9]+ \|' "$traces/README.md" |
  awk -F'|' '{ gsub(/ /, "", $2); gsub(/ /, "", $5); gsub(/ /, "", $7); print $2, $5, $7 }' |
  while read -r trace size opt; do
    row="$(gzip -dc "$traces/$trace.keys.gz" | "$tool" --tsv "$size")"
    echo "$trace $row $opt"
  done |
  awk '{
    trace = $1; size = $2; lru = $3; fixed = $4; adaptive = $5; opt = $6
    best = (lru > fixed) ? lru : fixed
    printf "| %s | %s | %.2f | %.2f | %.2f | %.2f | %+.2f | %.2f |\n", trace, size, lru, fixed, adaptive, opt, adaptive - best, opt - adaptive
    gap += opt - adaptive; rows += 1
    if (adaptive < best - 1) short += 1
  }
  END { printf "\nMean gap of adaptive W-TinyLFU to OPT: %.2f points over %d rows; rows more than 1 point below max(LRU, W-TinyLFU): %d.\n", gap / rows, rows, short }'
