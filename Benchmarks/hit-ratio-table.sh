#!/usr/bin/env bash
# Replays every row of the traces README (trace, cache size) through the real
# MemoryCacheLevel with the HitRatio tool and prints a markdown table:
# LRU, W-TinyLFU with a fixed 1% window, adaptive W-TinyLFU, and OPT from the README.
#
#   Benchmarks/hit-ratio-table.sh [--seed N | --seeds 1,2,3,4,5] [--synthetic DIR] [traces-folder]
#
# The folder holds the *.keys.gz traces and their README.md (by default
# ../shared/traces next to the repository, or $TRACES_DIR). --seed N (default 0)
# is passed to HitRatio (it renames the keys, which is the same as another hash
# seed; the tool always runs with SWIFT_DETERMINISTIC_HASHING=1), so the same
# command prints the same table. --seeds prints each row's spread (minimum and
# maximum) over several seeds instead. --synthetic DIR adds the traces written by
# `python3 Scripts/synthetic-traces.py DIR`. The work is done by Scripts/hit-ratio-report.py.
set -euo pipefail
benchmarks="$(cd "$(dirname "$0")" && pwd)"
seeds=0
synthetic=()
traces="${TRACES_DIR:-$benchmarks/../../shared/traces}"
while [ $# -gt 0 ]; do
  case "$1" in
    --seed | --seeds)
      seeds="${2:?$1 needs a value}"
      shift 2
      ;;
    --synthetic)
      synthetic=(--synthetic "${2:?--synthetic needs a folder}")
      shift 2
      ;;
    -*)
      echo "hit-ratio-table.sh: unknown option '$1'" >&2
      exit 64
      ;;
    *)
      traces="$1"
      shift
      ;;
  esac
done
if [ ! -f "$traces/README.md" ]; then
  echo "hit-ratio-table.sh: no README.md in '$traces' (pass the traces folder as the first argument)" >&2
  exit 64
fi

swift build -c release --package-path "$benchmarks" --product HitRatio >&2
tool="$(swift build -c release --package-path "$benchmarks" --show-bin-path)/HitRatio"
python3 "$benchmarks/Scripts/hit-ratio-report.py" --tool "$tool" --traces "$traces" --seeds "$seeds" "${synthetic[@]}"
