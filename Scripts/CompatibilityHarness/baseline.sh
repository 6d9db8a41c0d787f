#!/bin/bash
# baseline.sh : the originals' own suites on the originals (PiedPiper HEAD, Carlos 0.10.1), on Linux.
set -euo pipefail
C=/work/compat
cd $C/baseline
./setup.sh
for suite in PiedPiperSpecs CarlosSpecs; do
  python3 $C/exclude.py $C/baseline $suite $C/.build-baseline
done
python3 $C/run.py $C/.build-baseline/debug/PiedPiperSpecs $C/baseline/piedpiper-results.json > $C/baseline/piedpiper-run.txt; head -1 $C/baseline/piedpiper-run.txt
python3 $C/run.py $C/.build-baseline/debug/CarlosSpecs $C/baseline/carlos-results.json > $C/baseline/carlos-run.txt; head -1 $C/baseline/carlos-run.txt
