#!/bin/bash
# prepare.sh SRC_DIR DEST_DIR [--compat[=MODULE]]
# Copies the originals' spec files from SRC_DIR into DEST_DIR, applying ONLY the
# mechanical Quick 3 -> Quick 7 / Nimble 8 -> Nimble 13 spelling rules below.
# --compat additionally adds `import CarlosCompatibility` (or `import MODULE`) after the
# first `import PiedPiper` / `import Carlos` line of each file (the one harness rule for
# the opt-in compatibility module).
set -euo pipefail
src=$1; dest=$2; compat=${3:-}
compatmod=CarlosCompatibility
case "$compat" in --compat=*) compatmod=${compat#--compat=}; compat=--compat;; esac
mkdir -p "$dest"
find "$src" -name '*.swift' | while read -r f; do
  rel=${f#"$src"/}
  out="$dest/$rel"
  mkdir -p "$(dirname "$out")"
  sed -E \
    -e 's/override func spec\(\)/override class func spec()/' \
    -e 's/override class func configure\(_ configuration: Configuration\)/override class func configure(_ configuration: QCKConfiguration)/' \
    -e 's/Nimble\.AsyncDefaults\.Timeout = ([0-9]+)$/Nimble.PollingDefaults.timeout = .seconds(\1)/' \
    -e 's/Nimble\.AsyncDefaults\.PollInterval = 0\.1$/Nimble.PollingDefaults.pollInterval = .milliseconds(100)/' \
    -e 's/(toEventually(Not)?\(.*, timeout: )([0-9]+)\)/\1.seconds(\3))/' \
    "$f" | perl -pe 's/(toEventually(?:Not)?\(.*, timeout: )([0-9]*\.[0-9]+)\)/$1.".milliseconds(".int($2*1000+0.5)."))"/e' > "$out"
  # Quick 7: spec() is a class method, so a spec's stored properties become static ones
  perl -0pi -e 's/(: QuickSpec \{\n)  var /$1  static var /g' "$out"
  if [ "$compat" = "--compat" ]; then
    # add the import once, after the first `import Carlos` or `import PiedPiper`
    awk 'BEGIN{d=0} {print} /^import (Carlos|PiedPiper)$/ && !d {print "import '"$compatmod"'"; d=1}' "$out" > "$out.tmp" && mv "$out.tmp" "$out"
  fi
done
