// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The root package (Carlos) is a path dependency; SwiftPM names it after its folder,
// which differs between checkouts, so the name is read from this file's location.
let carlos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
  name: "CarlosHTTP",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "CarlosHTTP", targets: ["CarlosHTTP"]),
    .library(name: "CarlosHTTPCaching", targets: ["CarlosHTTPCaching"]),
    .executable(name: "carlos-http-benchmark", targets: ["CarlosHTTPBenchmark"]),
    .executable(name: "carlos-caching-proxy", targets: ["CarlosCachingProxyCommand"]),
    .library(name: "CarlosCachingProxy", targets: ["CarlosCachingProxy"]),
  ],
  dependencies: [
    .package(path: "../.."),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
  ],
  targets: [
    // The caching rules (RFC 9111) without a client: what a server-side cache such as
    // CarlosHummingbird's middleware builds on without compiling async-http-client.
    .target(
      name: "CarlosHTTPCaching",
      dependencies: [.product(name: "Carlos", package: carlos)]),
    .target(
      name: "CarlosHTTP",
      dependencies: [
        "CarlosHTTPCaching",
        .product(name: "Carlos", package: carlos),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),
    .target(
      name: "CarlosCachingProxy",
      dependencies: [
        "CarlosHTTP",
        .product(name: "Carlos", package: carlos),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),
    .executableTarget(
      name: "CarlosCachingProxyCommand",
      dependencies: ["CarlosCachingProxy"]),
    .executableTarget(
      name: "CarlosHTTPBenchmark",
      dependencies: [
        "CarlosHTTP",
        .product(name: "Carlos", package: carlos),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ]),
    .testTarget(
      name: "CarlosHTTPTests",
      dependencies: [
        "CarlosHTTP",
        "CarlosHTTPCaching",
        "CarlosCachingProxy",
        "CarlosCachingProxyCommand",
        .product(name: "Carlos", package: carlos),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
