// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The root package (Carlos) is a path dependency; SwiftPM names it after its folder,
// which differs between checkouts, so the name is read from this file's location.
let carlos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

// An end-to-end service (a program, not a library): a Hummingbird JSON endpoint that
// reads through memory >>> PostgreSQL >>> an HTTP upstream, measured under load by
// Scripts/load.py. It uses the CarlosPostgres, CarlosHTTP and CarlosHummingbird packages next to it,
// and CarlosCrypto for carlos-encrypted-postgres-benchmark (what encryption costs a PostgreSQL get).
let package = Package(
  name: "CarlosServiceExample",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "carlos-service-example", targets: ["CarlosServiceExample"]),
    .executable(
      name: "carlos-encrypted-postgres-benchmark", targets: ["EncryptedPostgresBenchmark"]),
  ],
  dependencies: [
    .package(path: "../.."),
    .package(path: "../CarlosPostgres"),
    .package(path: "../CarlosHTTP"),
    .package(path: "../CarlosHummingbird"),
    .package(path: "../CarlosCrypto"),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
  ],
  targets: [
    .target(
      name: "UserDirectory",
      dependencies: [
        .product(name: "Carlos", package: carlos),
        .product(name: "CarlosPostgres", package: "CarlosPostgres"),
        .product(name: "CarlosHTTP", package: "CarlosHTTP"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]),
    .executableTarget(name: "CarlosServiceExample", dependencies: ["UserDirectory"]),
    .executableTarget(
      name: "EncryptedPostgresBenchmark",
      dependencies: [
        .product(name: "Carlos", package: carlos),
        .product(name: "CarlosPostgres", package: "CarlosPostgres"),
        .product(name: "CarlosCrypto", package: "CarlosCrypto"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ]),
    .testTarget(
      name: "UserDirectoryTests",
      dependencies: [
        "UserDirectory",
        .product(name: "Carlos", package: carlos),
        .product(name: "CarlosPostgres", package: "CarlosPostgres"),
        .product(name: "CarlosHummingbird", package: "CarlosHummingbird"),
        .product(name: "CarlosHTTPCaching", package: "CarlosHTTP"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
