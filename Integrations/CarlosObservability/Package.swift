// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The root package (Carlos) is a path dependency; SwiftPM names it after its folder,
// which differs between checkouts, so the name is read from this file's location.
let carlos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
  name: "CarlosObservability",
  platforms: [.macOS(.v15)],
  products: [
    // The package's main product: all three at once.
    .library(
      name: "CarlosObservability", targets: ["CarlosLogging", "CarlosMetrics", "CarlosTracing"]),
    .library(name: "CarlosLogging", targets: ["CarlosLogging"]),
    .library(name: "CarlosMetrics", targets: ["CarlosMetrics"]),
    .library(name: "CarlosTracing", targets: ["CarlosTracing"]),
  ],
  dependencies: [
    .package(path: "../.."),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
  ],
  targets: [
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
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]),
    .target(
      name: "CarlosTracing",
      dependencies: [
        .product(name: "Carlos", package: carlos),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
      ]),
    .testTarget(
      name: "CarlosLoggingTests",
      dependencies: ["CarlosLogging", .product(name: "Logging", package: "swift-log")]),
    .testTarget(
      name: "CarlosMetricsTests",
      dependencies: [
        "CarlosMetrics", .product(name: "MetricsTestKit", package: "swift-metrics"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .testTarget(
      name: "CarlosTracingTests",
      dependencies: [
        "CarlosTracing", .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
