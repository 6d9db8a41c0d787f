#!/usr/bin/env bash
# Builds every libFuzzer target of Fuzz/Targets into .build-fuzz/bin/ (FUZZ_OUT=folder:
# into folder/bin/), with
# libFuzzer and AddressSanitizer, straight with swiftc (no SwiftPM package):
#   Fuzz/build.sh
# PiedPiper and Carlos are compiled from Sources/ with the same instrumentation as
# the targets (so libFuzzer sees their coverage) and with -enable-testing (so a
# target can `@testable import Carlos` to reach the internal parsers in an
# optimised build). The PostgreSQL notice target compiles
# Integrations/CarlosPostgres/Sources/CarlosPostgres/InvalidationNotice.swift (Foundation only)
# into itself, so postgres-nio is never built; the HTTP header target compiles
# Integrations/CarlosHTTP/Sources/CarlosHTTPCaching, so AsyncHTTPClient is not; the
# envelope target compiles CarlosCrypto's two Foundation-only files, so swift-crypto is not.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${FUZZ_OUT:-.build-fuzz}
mkdir -p "$out/modules" "$out/bin"
# lld: the default gold linker warns about every AddressSanitizer helper symbol.
flags=(-swift-version 6 -O -sanitize=fuzzer,address -parse-as-library -package-name CarlosFuzz
  -warnings-as-errors -use-ld=lld
  # The integrations' files it takes compile only with their package traits on.
  -D HTTPCaching -D Postgres -D Crypto)

# Whether `product` is missing or older than a file under the given folders.
stale() {
  local product=$1
  shift
  [ ! -f "$product" ] || [ -n "$(find "$@" -name '*.swift' -newer "$product" | head -1)" ]
}

if stale "$out/modules/PiedPiper.o" Sources/PiedPiper; then
  echo "== fuzz build: PiedPiper"
  swiftc "${flags[@]}" -enable-testing -module-name PiedPiper -wmo -c \
    -emit-module -emit-module-path "$out/modules/PiedPiper.swiftmodule" \
    -o "$out/modules/PiedPiper.o" Sources/PiedPiper/*.swift
fi

if stale "$out/modules/Carlos.o" Sources/PiedPiper Sources/Carlos; then
  echo "== fuzz build: Carlos"
  mapfile -t carlos < <(find Sources/Carlos -name '*.swift' | sort)
  swiftc "${flags[@]}" -enable-testing -module-name Carlos -I "$out/modules" -wmo -c \
    -emit-module -emit-module-path "$out/modules/Carlos.swiftmodule" \
    -o "$out/modules/Carlos.o" "${carlos[@]}"
fi

# The HTTP level's header parsers and cache rules: the CarlosHTTPCaching library, which
# needs Carlos and Foundation only (AsyncHTTPClient is never built).
mapfile -t http_caching < <(find Integrations/CarlosHTTP/Sources/CarlosHTTPCaching -name '*.swift' | sort)
http_parsers="${http_caching[*]}"

# target name, then the Swift files it is built from (besides Fuzz/Support).
targets=(
  "disk-record Fuzz/Targets/DiskRecord.swift"
  "disk-file Fuzz/Targets/DiskFileRead.swift"
  "user-defaults-record Fuzz/Targets/UserDefaultsRecord.swift"
  "json Fuzz/Targets/JSON.swift"
  "postgres-notice Fuzz/Targets/PostgresNotice.swift Integrations/CarlosPostgres/Sources/CarlosPostgres/InvalidationNotice.swift"
  "http-headers Fuzz/Targets/HTTPHeaders.swift $http_parsers"
  "crypto-envelope Fuzz/Targets/CryptoEnvelope.swift Integrations/CarlosCrypto/Sources/CarlosCrypto/EncryptedEnvelope.swift Integrations/CarlosCrypto/Sources/CarlosCrypto/CacheEncryptionError.swift"
)
for entry in "${targets[@]}"; do
  read -r name files <<<"$entry"
  echo "== fuzz build: $name"
  # shellcheck disable=SC2086
  swiftc "${flags[@]}" -module-name "Fuzz_${name//-/_}" -I "$out/modules" \
    Fuzz/Support/*.swift $files "$out/modules/PiedPiper.o" "$out/modules/Carlos.o" \
    -o "$out/bin/$name"
done
