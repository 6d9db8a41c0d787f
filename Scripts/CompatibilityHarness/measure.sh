#!/bin/bash
# measure.sh NAME [harness-setup flags] : lays out /work/compat/NAME (harness-setup.sh), excludes what
# does not compile (exclude.py), runs the suites (run.py); results in NAME/<Suite>-results.json and
# NAME/report.md. SUITES="PiedPiperSpecs CarlosSpecs" by default.
set -euo pipefail
C=/work/compat
name=$1; shift
$C/harness-setup.sh $C/$name "$@"
for suite in ${SUITES:-PiedPiperSpecs CarlosSpecs}; do
  python3 $C/exclude.py $C/$name $suite $C/.build-$name
  python3 $C/run.py $C/.build-$name/debug/$suite $C/$name/$suite-results.json > $C/$name/$suite-run.txt || true
  head -1 $C/$name/$suite-run.txt
done
python3 $C/report.py $name > $C/$name/report.md
git -C /work/main log -1 --format='measured at %h %s' $(cat $C/$name/snapshot/COMMIT) | cut -c1-100
