#!/usr/bin/env bash
# Builds the DocC documentation of the Carlos and PiedPiper modules with the
# toolchain's own `docc` (no SwiftPM plugin): `swift build` emits the symbol
# graphs, then `docc convert` turns each catalog into a static website.
# Any DocC warning, an unresolved symbol link included, fails the script.
#
# Output (git-ignored): .build-docs/site/Carlos and .build-docs/site/PiedPiper.
# Open them with:  python3 -m http.server --directory .build-docs/site/Carlos 8000
# and browse http://localhost:8000/documentation/carlos
set -euo pipefail
cd "$(dirname "$0")/.."

version="$(tr -d '[:space:]' < VERSION)"
scratch=".build-docs"
graphs="$scratch/symbol-graphs"
site="$scratch/site"

# The docc next to the swift in use, unless DOCC says otherwise.
docc="${DOCC:-}"
if [ -z "$docc" ]; then
  swift_path="$(command -v swift)"
  swift_path="$(readlink -f "$swift_path" 2>/dev/null || echo "$swift_path")"
  docc="$(dirname "$swift_path")/docc"
fi
if [ ! -x "$docc" ]; then
  if command -v xcrun > /dev/null; then
    docc="$(xcrun --find docc)"
  else
    echo "error: no docc next to $(command -v swift); set DOCC to its path" >&2
    exit 1
  fi
fi

# The compiler writes a module's symbol graph when it compiles the module, so
# the graphs of an up-to-date build are kept; a build whose graphs are gone is redone.
emit_symbol_graphs() {
  swift build --target Carlos --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs/all"
}

echo "== symbol graphs ($version)"
rm -rf "$site" "$graphs"/PiedPiper "$graphs"/Carlos
mkdir -p "$graphs/all" "$site"
emit_symbol_graphs
if [ ! -f "$graphs/all/Carlos.symbols.json" ] || [ ! -f "$graphs/all/PiedPiper.symbols.json" ]; then
  rm -rf "$scratch"
  mkdir -p "$graphs/all" "$site"
  emit_symbol_graphs
fi

for module in PiedPiper Carlos; do
  echo "== docc convert $module"
  mkdir -p "$graphs/$module"
  cp "$graphs/all/$module.symbols.json" "$graphs/all/$module"@*.symbols.json "$graphs/$module/"
  "$docc" convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$graphs/$module" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.carlos-swift.$module" \
    --fallback-bundle-version "$version" \
    --transform-for-static-hosting \
    --warnings-as-errors \
    --output-dir "$site/$module"
done

echo "== documentation in $site (Carlos $version)"
