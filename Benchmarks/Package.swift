// swift-tools-version: 6.1
// Benchmarks for Carlos and PiedPiper, each measured next to its baseline in one run:
//   swift package --package-path Benchmarks benchmark
// Results and targets: Benchmarks/README.md.
import Foundation
import PackageDescription

/// The root package's identity: SwiftPM names a path dependency after its folder,
/// which is whatever the clone is called, so read it off this manifest's path.
let root = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
  name: "CarlosBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: ".."),
    .package(
      url: "https://github.com/ordo-one/package-benchmark",
      from: "1.38.1",
      traits: ["MallocInterposer"]
    ),
    .package(url: "https://github.com/apple/swift-nio", "2.101.2"..<"2.102.0"),
  ],
  targets: [
    // The benchmark plugin runs every executable target whose folder sits in `Benchmarks/`.
    .executableTarget(
      name: "CarlosBenchmarks",
      dependencies: [
        .product(name: "Carlos", package: root),
        .product(name: "Benchmark", package: "package-benchmark"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      path: "Benchmarks/CarlosBenchmarks",
      swiftSettings: [.unsafeFlags(["-cross-module-optimization"])],
      plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    ),
    // Cache hit ratios of the memory level on recorded key traces (not a benchmark:
    // it lives outside `Benchmarks/Benchmarks/` so the benchmark plugin leaves it alone).
    .executableTarget(
      name: "HitRatio",
      dependencies: [.product(name: "Carlos", package: root)],
      path: ".",
      exclude: ["Benchmarks", "README.md"],
      sources: ["HitRatio"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
