#!/bin/bash
# Linux build fixes of the ORIGINAL Carlos 0.10.1 sources (Apple-only frameworks guarded out);
# no behaviour of the Linux-buildable code is changed. MD5 (CommonCrypto) comes from a shim module.
set -euo pipefail
cd "$(dirname "$0")/Sources/Carlos"
wrap() { { echo "#if canImport(UIKit) || canImport(AppKit)"; cat "$1"; echo "#endif"; } > "$1.tmp" && mv "$1.tmp" "$1"; }
wrap ImageTransformer.swift
wrap CacheProvider+ImageCache.swift
perl -0pi -e 's/(extension CarlosImage: ExpensiveObject \{.*?\n\}\n)/#if canImport(UIKit) || canImport(AppKit)\n$1#endif\n/s' ExpensiveObject.swift
perl -0pi -e 's/import MapKit\n/#if canImport(MapKit)\nimport MapKit\n#endif\n/; s/(\/\*\*\nMKDistanceFormatter.*?\n\}\n)/#if canImport(MapKit)\n$1#endif\n/s' Transformers.swift
perl -0pi -e 's/#if !os\(watchOS\)/#if !os(watchOS) \&\& !os(Linux)/' MemoryWarning.swift
perl -0pi -e 's/import Foundation\n/import Foundation\n#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n/' NetworkFetcher.swift
cp ../../shims/CarlosLinuxShims.swift .
