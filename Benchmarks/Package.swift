// swift-tools-version: 6.1
// Benchmarks for Carlos and PiedPiper, each measured next to its baseline in one run:
//   swift package --package-path Benchmarks benchmark
// Results and targets: Benchmarks/README.md.
import PackageDescription

let package = Package(
  name: "CarlosBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    // Named, so that products can say `package: "Carlos"` whatever the clone's folder is called.
    // The Observability trait: CarlosTracing, for the cost of `traced()` when tracing is off.
    .package(name: "Carlos", path: "..", traits: ["Observability"]),
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
        .product(name: "Carlos", package: "Carlos"),
        .product(name: "Benchmark", package: "package-benchmark"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "CarlosTracing", package: "Carlos"),
        "Baselines",
      ],
      path: "Benchmarks/CarlosBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    ),
    // Cache hit ratios of the memory level on recorded key traces. Not a benchmark: the
    // plugin would run `HitRatio/` as one (its parent folder is called `Benchmarks`), so
    // the target is rooted at this package's folder and takes only `HitRatio/`'s sources;
    // every other file here must be excluded (SwiftPM warns about unhandled files).
    .executableTarget(
      name: "HitRatio",
      dependencies: [.product(name: "Carlos", package: "Carlos")],
      path: ".",
      exclude: [
        "Benchmarks", "Scripts", "README.md", "HitRatio/README.md", "hit-ratio-table.sh",
        "hit-ratios.svg", "Footprint", "memory-scale.svg", "memory-scale-notes.md", "Baselines",
      ],
      sources: ["HitRatio"]
    ),
    // Resident bytes per entry of the memory level and of a Dictionary (issue 22), one
    // subject per process; rooted like `HitRatio`, for the same reason.
    .executableTarget(
      name: "Footprint",
      dependencies: [.product(name: "Carlos", package: "Carlos"), "Baselines"],
      path: ".",
      exclude: [
        "Benchmarks", "Scripts", "README.md", "HitRatio", "hit-ratio-table.sh",
        "hit-ratios.svg", "memory-scale.svg", "memory-scale-notes.md", "Baselines",
      ],
      sources: ["Footprint"]
    ),
    // The baselines that the benchmarks and the `Footprint` probes share; rooted like
    // `HitRatio`.
    .target(
      name: "Baselines",
      path: ".",
      exclude: [
        "Benchmarks", "Scripts", "README.md", "HitRatio", "hit-ratio-table.sh",
        "hit-ratios.svg", "memory-scale.svg", "memory-scale-notes.md", "Footprint",
      ],
      sources: ["Baselines"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
