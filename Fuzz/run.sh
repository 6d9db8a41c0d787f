#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for SECONDS, one after another
# (FUZZ_PARALLEL=1: all at once), then prints executions, coverage and crashes:
#   Fuzz/run.sh SECONDS [TARGET...]
# The corpus of each target grows in .build-fuzz/corpus/TARGET across runs; the
# seeds are written afresh by the project's own writers into .build-fuzz/seeds/;
# crash, timeout and out-of-memory inputs land in .build-fuzz/artifacts/TARGET/,
# and libFuzzer's output in .build-fuzz/logs/TARGET.log (FUZZ_OUT=folder: another
# folder than .build-fuzz). Exits 1 when a target found a crash (the summary names
# the files). FUZZ_TIMEOUT=seconds: how long one input may take before it counts as a
# hang (10 by default; the alarm is wall-clock time, so give runs at low priority on
# a busy machine more). See Fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
  echo "usage: Fuzz/run.sh SECONDS [TARGET...]" >&2
  exit 2
fi
seconds=$1
shift
all=(disk-record disk-file user-defaults-record json postgres-notice http-headers crypto-envelope)
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${all[@]}"); fi

Fuzz/build.sh
out=${FUZZ_OUT:-.build-fuzz}

# The longest input libFuzzer makes, per target: disk files past 64 KiB take the
# read path that checks the header's declared size first; a notice may be 8,000 bytes.
max_len() {
  case $1 in
    disk-file) echo 80000 ;;
    postgres-notice) echo 9000 ;;
    *) echo 8192 ;;
  esac
}

# Leak checks stay on, except where Foundation itself leaks: swift-corelibs-foundation's
# CFPropertyListCreateWithData leaks the CFError it makes for a malformed property list.
detect_leaks() {
  case $1 in
    user-defaults-record) echo 0 ;;
    *) echo 1 ;;
  esac
}

run_one() {
  local name=$1 leaks deadline left attempt=0
  rm -rf "$out/seeds/$name"
  CARLOS_FUZZ_WRITE_SEEDS="$out/seeds/$name" "$out/bin/$name"
  mkdir -p "$out/corpus/$name" "$out/artifacts/$name" "$out/logs"
  : >"$out/logs/$name.log"
  leaks=$(detect_leaks "$name")
  deadline=$(($(date +%s) + seconds))
  # libFuzzer stops at the first crash, hang (-timeout: an input taking too long) or
  # out-of-memory input: start it again on the grown corpus until the time is up
  # (at most 20 times, in case a seed itself crashes). No Swift backtracer:
  # libFuzzer reports the crash itself.
  while left=$((deadline - $(date +%s))) && [ "$left" -gt 2 ] && [ $attempt -lt 20 ]; do
    attempt=$((attempt + 1))
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=$leaks" "$out/bin/$name" \
      -max_total_time="$left" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -max_len="$(max_len "$name")" \
      -detect_leaks="$leaks" -print_final_stats=1 -artifact_prefix="$out/artifacts/$name/" \
      "$out/corpus/$name" "$out/seeds/$name" >>"$out/logs/$name.log" 2>&1 || true
  done
}

started=$(date +%s)
if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then
  for name in "${targets[@]}"; do run_one "$name" & done
  wait
else
  for name in "${targets[@]}"; do
    echo "== fuzz: $name for $seconds s"
    run_one "$name"
  done
fi

echo
printf '%-22s %12s %8s %8s %8s  %s\n' target executions cov ft corpus crashes
found=0
for name in "${targets[@]}"; do
  log="$out/logs/$name.log"
  # Executions summed over the restarts (a crashed run prints no final stats: its
  # last progress line counts).
  execs=$(awk '/^#[0-9]+/ { last = substr($1, 2) }
    /^stat::number_of_executed_units:/ { total += $2; last = 0 }
    /^INFO: Seed:/ { total += last; last = 0 }
    END { print total + last }' "$log")
  cov=$( (grep -oE 'cov: [0-9]+' "$log" || true) | tail -1 | cut -d' ' -f2)
  ft=$( (grep -oE 'ft: [0-9]+' "$log" || true) | tail -1 | cut -d' ' -f2)
  corpus=$(find "$out/corpus/$name" -type f | wc -l)
  # slow-unit-* files are inputs that took over 10 s, reported but not failures.
  crashes=$(find "$out/artifacts/$name" -type f ! -name 'slow-unit-*' -newermt "@$started" | sort)
  count=$(printf '%s' "$crashes" | grep -c . || true)
  printf '%-22s %12s %8s %8s %8s  %s\n' "$name" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$count"
  if [ "$count" -gt 0 ]; then
    found=1
    printf '    %s\n' $crashes
    (grep -m3 -E 'ERROR: |Fatal error|deadly signal|Timeout|out-of-memory' "$log" || true) |
      sed 's/^/    /'
  fi
done
exit "$found"
