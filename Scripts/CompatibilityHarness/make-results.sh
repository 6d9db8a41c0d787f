#!/bin/bash
# make-results.sh : /work/compat/results.md = METHOD.md + baselines + the harness runs + ANALYSIS.md
set -euo pipefail
C=/work/compat
cd $C
{
  echo "# Results — generated $(date -u '+%Y-%m-%d %H:%M UTC') by make-results.sh"
  echo
  cat METHOD.md
  echo
  python3 report.py baseline
  echo
  for n in ${RUNS:-plain compat}; do python3 report.py $n; echo; done
  [ -f ANALYSIS.md ] && cat ANALYSIS.md
} > results.md
echo "wrote $C/results.md"
