#!/usr/bin/env bash
# Runs `swift test` N times in a row on a loaded machine and logs each run's
# result line, to show that the suite neither crashes nor fails under load.
#
# The load, started before the first run and stopped on exit:
#   - a `swift build --build-tests` of another copy of this package (HEAD, in a
#     temporary folder), from a clean scratch folder, again and again: compiler
#     processes that take both cores, memory and disk, as when another package
#     builds beside the tests;
#   - stress-ng, when installed (`apt-get install stress-ng`): one worker that
#     keeps touching a share of memory (--vm) and one that writes and deletes
#     files (--hdd), for memory and I/O pressure beyond CPU.
#
# Usage: Scripts/loaded-test-runs.sh [N (default 20)] [--skip-build] [--no-load]
#   --skip-build  passed to `swift test` (build once with `swift build --build-tests`)
#   --no-load     runs without the load, to compare
# Every run's full output is kept in the log folder it prints. A run that ends
# without its summary (a crash) is logged with the number of tests that passed
# before it ended and the names of those that started and never ended.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=20
skip_build=()
load=1
for argument in "$@"; do
  case "$argument" in
    --skip-build) skip_build=(--skip-build) ;;
    --no-load) load=0 ;;
    ''|*[!0-9]*) echo "usage: $0 [N] [--skip-build] [--no-load]" >&2; exit 64 ;;
    *) runs=$argument ;;
  esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/carlos-loaded-runs.XXXXXX")
logs="$work/logs"
mkdir -p "$logs"
load_pids=()

# The process ids of `pid` and of all its descendants, parents first.
process_tree() {
  echo "$1"
  for child in $(ps -o pid= --ppid "$1" 2> /dev/null); do process_tree "$child"; done
}

# Ends the load jobs and every process they started (the compiler's processes
# leave the job's process group, so they are found through their parents).
stop_load() {
  [ "${#load_pids[@]}" = 0 ] && return
  # Stopped, a job starts nothing new while its tree is listed and ended.
  kill -STOP "${load_pids[@]}" 2> /dev/null
  local tree=()
  for pid in "${load_pids[@]}"; do tree+=($(process_tree "$pid")); done
  kill "${tree[@]}" 2> /dev/null
  kill -CONT "${load_pids[@]}" 2> /dev/null
  for pid in "${load_pids[@]}"; do wait "$pid" 2> /dev/null; done
  load_pids=()
}
trap 'stop_load; rm -rf "$work/package" "$work/scratch" "$work/stress"' EXIT
trap 'exit 130' INT TERM

if [ "$load" = 1 ]; then
  mkdir -p "$work/package"
  git archive HEAD | tar -x -C "$work/package"
  (
    while true; do
      rm -rf "$work/scratch"
      swift build --build-tests --package-path "$work/package" --scratch-path "$work/scratch" \
        > "$logs/load-build.log" 2>&1
    done
  ) &
  load_pids+=($!)
  if command -v stress-ng > /dev/null; then
    mkdir -p "$work/stress"
    stress-ng --vm 1 --vm-bytes 15% --hdd 1 --hdd-bytes 512M --temp-path "$work/stress" \
      > "$logs/stress-ng.log" 2>&1 &
    load_pids+=($!)
    stress="; stress-ng --vm 1 --vm-bytes 15% --hdd 1 --hdd-bytes 512M"
  else
    stress="; stress-ng not installed: no extra memory and I/O pressure"
  fi
  echo "load: swift build --build-tests of a copy of HEAD in a loop$stress"
  sleep 20
fi
echo "logs: $logs"

# The tests a Swift Testing log shows started but not passed, failed or skipped.
unfinished_tests() {
  awk '
    /^◇ Test ".*" started\.$/ {
      name = $0; sub(/^◇ Test "/, "", name); sub(/" started\.$/, "", name); open[name] = 1
    }
    /^(✔|✘|➜) Test ".*" (with [0-9]+ test cases? )?(passed|failed|skipped)/ {
      name = $0; sub(/^(✔|✘|➜) Test "/, "", name)
      sub(/" (with [0-9]+ test cases? )?(passed|failed|skipped).*$/, "", name); delete open[name]
    }
    END { for (name in open) printf "\"%s\" ", name }
  ' "$1"
}

green=0
for run in $(seq 1 "$runs"); do
  log="$logs/run-$run.log"
  start=$SECONDS
  swift test "${skip_build[@]}" > "$log" 2>&1
  status=$?
  result=$(grep -E "Test run with .* (passed|failed)|unexpected signal|Program crashed" "$log" \
    | tr '\n' ' ')
  [ -n "$result" ] || result="(no result line)"
  if [ "$status" = 0 ] && grep -q "Test run with .* passed" "$log"; then
    green=$((green + 1))
    verdict=green
  else
    verdict=RED
    # A run that dies prints no summary: count what passed, name what never ended.
    result+="; $(grep -c '^✔ Test .* passed' "$log") tests passed before it ended"
    unfinished=$(unfinished_tests "$log")
    [ -z "$unfinished" ] || result+="; started, never ended: $unfinished"
  fi
  printf '%s run %d/%d: %s exit %d, %d s, load %s: %s\n' "$(date +%H:%M:%S)" "$run" "$runs" \
    "$verdict" "$status" $((SECONDS - start)) "$(cut -d' ' -f1 /proc/loadavg)" "$result" \
    | tee -a "$logs/summary.txt"
done
echo "$green of $runs runs green" | tee -a "$logs/summary.txt"
[ "$green" = "$runs" ]
