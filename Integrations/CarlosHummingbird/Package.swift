// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The root package (Carlos) is a path dependency; SwiftPM names it after its folder,
// which differs between checkouts, so the name is read from this file's location.
let carlos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
  name: "CarlosHummingbird",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "CarlosHummingbird", targets: ["CarlosHummingbird"])
  ],
  dependencies: [
    .package(path: "../.."),
    .package(path: "../CarlosHTTP"),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
  ],
  targets: [
    .target(
      name: "CarlosHummingbird",
      dependencies: [
        .product(name: "Carlos", package: carlos),
        .product(name: "CarlosHTTPCaching", package: "CarlosHTTP"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]),
    .executableTarget(
      name: "CarlosHummingbirdBenchmark",
      dependencies: [
        "CarlosHummingbird",
        .product(name: "Carlos", package: carlos),
        .product(name: "CarlosHTTPCaching", package: "CarlosHTTP"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ]),
    .testTarget(
      name: "CarlosHummingbirdTests",
      dependencies: [
        "CarlosHummingbird",
        .product(name: "Carlos", package: carlos),
        .product(name: "CarlosHTTPCaching", package: "CarlosHTTP"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
