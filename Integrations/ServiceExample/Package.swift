// swift-tools-version: 6.1
import PackageDescription

// An end-to-end service (a program, not a library): a Hummingbird JSON endpoint that
// reads through memory >>> PostgreSQL >>> an HTTP upstream, measured under load by
// Scripts/load.py. It uses the root package with the traits Postgres, HTTP and Hummingbird,
// and Crypto for carlos-encrypted-postgres-benchmark (what encryption costs a PostgreSQL get).
let package = Package(
  name: "CarlosServiceExample",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "carlos-service-example", targets: ["CarlosServiceExample"]),
    .executable(
      name: "carlos-encrypted-postgres-benchmark", targets: ["EncryptedPostgresBenchmark"]),
  ],
  dependencies: [
    // Named, so that products can say `package: "Carlos"` whatever the clone's folder is called.
    .package(name: "Carlos", path: "../..", traits: ["Postgres", "HTTP", "Hummingbird", "Crypto"]),
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
        .product(name: "Carlos", package: "Carlos"),
        .product(name: "CarlosPostgres", package: "Carlos"),
        .product(name: "CarlosHTTP", package: "Carlos"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]),
    .executableTarget(name: "CarlosServiceExample", dependencies: ["UserDirectory"]),
    .executableTarget(
      name: "EncryptedPostgresBenchmark",
      dependencies: [
        .product(name: "Carlos", package: "Carlos"),
        .product(name: "CarlosPostgres", package: "Carlos"),
        .product(name: "CarlosCrypto", package: "Carlos"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ]),
    .testTarget(
      name: "UserDirectoryTests",
      dependencies: [
        "UserDirectory",
        .product(name: "Carlos", package: "Carlos"),
        .product(name: "CarlosPostgres", package: "Carlos"),
        .product(name: "CarlosHummingbird", package: "Carlos"),
        .product(name: "CarlosHTTPCaching", package: "Carlos"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
