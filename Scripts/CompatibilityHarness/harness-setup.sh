#!/bin/bash
# harness-setup.sh DIR [--compat | --compat=MODULE] [--commit REV]
# Lays out a harness package in DIR: the originals' spec files (prepare.sh rules only) compiled
# against a snapshot of /work/main (its HEAD commit, or REV; `git archive`, so uncommitted edits
# in the lead's work tree are never measured). --compat: each spec file also imports
# CarlosCompatibility (--compat=MODULE: that module instead, for the PiedPiper suite too).
set -euo pipefail
C=/work/compat
dir=$1; shift
compat=""; rev=HEAD
while [ $# -gt 0 ]; do
  case "$1" in --compat*) compat=$1;; --commit) rev=$2; shift;; esac; shift
done
mkdir -p "$dir" && cd "$dir"
commit=$(git -C /work/main rev-parse "$rev")
if [ "$(cat snapshot/COMMIT 2>/dev/null)" != "$commit" ]; then
  rm -rf snapshot && mkdir -p snapshot/main
  git -C /work/main archive "$commit" | tar -x -C snapshot/main
  echo "$commit" > snapshot/COMMIT
fi
compatdep=""
if [ -n "$compat" ]; then
  mod=CarlosCompatibility; case "$compat" in --compat=*) mod=${compat#--compat=};; esac
  compatdep=", .product(name: \"$mod\", package: \"main\")"
fi
cat > Package.swift <<SWIFT
// swift-tools-version:5.9
// Harness: the originals' spec files, unchanged but for /work/compat/prepare.sh's mechanical rules
// ${compat:+and $compat }compiled against this package (a snapshot of /work/main at ${commit:0:7}).
// Swift 5 language mode for the spec targets, as the originals' own package declared.
import PackageDescription

let package = Package(
  name: "Harness",
  dependencies: [
    .package(path: "snapshot/main"),
    .package(url: "https://github.com/Quick/Quick", from: "7.6.2"),
    .package(url: "https://github.com/Quick/Nimble", from: "13.8.0"),
  ],
  targets: [
    .executableTarget(name: "PiedPiperSpecs", dependencies: [.product(name: "PiedPiper", package: "main"), "Quick", "Nimble"$compatdep], path: "Specs/PiedPiperSpecs"),
    .executableTarget(name: "CarlosSpecs", dependencies: [.product(name: "Carlos", package: "main"), .product(name: "PiedPiper", package: "main"), "Quick", "Nimble"$compatdep], path: "Specs/CarlosSpecs"),
  ],
  swiftLanguageVersions: [.v5]
)
SWIFT
rm -rf Specs && mkdir -p Specs
$C/prepare.sh $C/piedpiper/Tests/PiedPiperTests Specs/PiedPiperSpecs $compat
$C/prepare.sh $C/carlos-0.10.1/Tests/CarlosTests Specs/CarlosSpecs $compat
rm -f Specs/CarlosSpecs/Info.plist Specs/CarlosSpecs/swift-og.png
$C/genmain.sh Specs/PiedPiperSpecs > Specs/PiedPiperSpecs/main.swift
$C/genmain.sh Specs/CarlosSpecs > Specs/CarlosSpecs/main.swift
echo "harness in $dir at ${commit:0:7} ${compat}"
