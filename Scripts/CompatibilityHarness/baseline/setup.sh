#!/bin/bash
# Lays out the baseline package from the checked-out originals.
set -euo pipefail
cd "$(dirname "$0")"
C=/work/compat
rm -rf Sources Specs
mkdir -p Sources Specs
cp -r $C/piedpiper/Sources Sources/PiedPiper
cp -r $C/carlos-0.10.1/Sources/Carlos Sources/Carlos
rm -f Sources/Carlos/Info.plist Sources/Carlos/Carlos.h
$C/prepare.sh $C/piedpiper/Tests/PiedPiperTests Specs/PiedPiperSpecs
$C/prepare.sh $C/carlos-0.10.1/Tests/CarlosTests Specs/CarlosSpecs
rm -f Specs/CarlosSpecs/Info.plist Specs/CarlosSpecs/swift-og.png
# Linux-only build fixes of the originals' library code (Apple-only frameworks guarded out)
./linux-fixes.sh
cp shims/PiedPiperLinuxShims.swift Sources/PiedPiper/
$C/genmain.sh Specs/PiedPiperSpecs > Specs/PiedPiperSpecs/main.swift
$C/genmain.sh Specs/CarlosSpecs > Specs/CarlosSpecs/main.swift
