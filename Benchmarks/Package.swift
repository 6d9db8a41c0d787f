// swift-tools-version: 6.1
// Minimal manifest for the hit-ratio tool; the lead merges it with the benchmarks' manifest.
import PackageDescription

let package = Package(
  name: "CarlosBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Carlos", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "HitRatio",
      dependencies: [.product(name: "Carlos", package: "Carlos")],
      path: "HitRatio",
      exclude: ["README.md"]
    )
  ],
  swiftLanguageModes: [.v6]
)
