// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The root package (Carlos) is a path dependency; SwiftPM names it after its folder,
// which differs between checkouts, so the name is read from this file's location.
let carlos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
  name: "CarlosPostgres",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "CarlosPostgres", targets: ["CarlosPostgres"]),
    .executable(name: "carlos-postgres-example", targets: ["CarlosPostgresExample"]),
    .executable(name: "carlos-postgres-benchmark", targets: ["CarlosPostgresBenchmark"]),
  ],
  dependencies: [
    .package(path: "../.."),
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
  ],
  targets: [
    .target(
      name: "CarlosPostgres",
      dependencies: [
        .product(name: "Carlos", package: carlos),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
    .executableTarget(
      name: "CarlosPostgresExample",
      dependencies: ["CarlosPostgres", .product(name: "PostgresNIO", package: "postgres-nio")]),
    .executableTarget(
      name: "CarlosPostgresBenchmark",
      dependencies: ["CarlosPostgres", .product(name: "PostgresNIO", package: "postgres-nio")]),
    .testTarget(
      name: "CarlosPostgresTests",
      dependencies: [
        "CarlosPostgres", "CarlosPostgresExample",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
