// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The root package (Carlos) is a path dependency; SwiftPM names it after its folder,
// which differs between checkouts, so the name is read from this file's location.
let carlos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
  name: "CarlosIntegrations",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "CarlosPostgres", targets: ["CarlosPostgres"]),
    .library(name: "CarlosLogging", targets: ["CarlosLogging"]),
    .library(name: "CarlosMetrics", targets: ["CarlosMetrics"]),
    .executable(name: "carlos-postgres-example", targets: ["CarlosPostgresExample"]),
    .executable(name: "carlos-postgres-benchmark", targets: ["CarlosPostgresBenchmark"]),
  ],
  dependencies: [
    .package(path: ".."),
    .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
    .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
  ],
  targets: [
    .target(
      name: "CarlosPostgres",
      dependencies: [
        .product(name: "Carlos", package: carlos),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .target(
      name: "CarlosLogging",
      dependencies: [
        .product(name: "Carlos", package: carlos),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .target(
      name: "CarlosMetrics",
      dependencies: [
        .product(name: "Carlos", package: carlos),
        .product(name: "CoreMetrics", package: "swift-metrics"),
      ]),
    .executableTarget(
      name: "CarlosPostgresExample",
      dependencies: [
        "CarlosPostgres", "CarlosLogging", .product(name: "Logging", package: "swift-log"),
      ]),
    .executableTarget(
      name: "CarlosPostgresBenchmark",
      dependencies: [
        "CarlosPostgres", .product(name: "PostgresNIO", package: "postgres-nio"),
      ]),
    .testTarget(
      name: "CarlosIntegrationTests",
      dependencies: [
        "CarlosPostgres", "CarlosLogging", "CarlosMetrics", "CarlosPostgresExample",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "MetricsTestKit", package: "swift-metrics"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
