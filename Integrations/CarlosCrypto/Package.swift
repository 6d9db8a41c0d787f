// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The root package (Carlos) is a path dependency; SwiftPM names it after its folder,
// which differs between checkouts, so the name is read from this file's location.
let carlos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
  name: "CarlosCrypto",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "CarlosCrypto", targets: ["CarlosCrypto"]),
    .executable(name: "CarlosCryptoBenchmark", targets: ["CarlosCryptoBenchmark"]),
  ],
  dependencies: [
    .package(path: "../.."),
    .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
  ],
  targets: [
    .target(
      name: "CarlosCrypto",
      dependencies: [
        .product(name: "Carlos", package: carlos),
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
    .executableTarget(
      name: "CarlosCryptoBenchmark",
      dependencies: [
        "CarlosCrypto",
        .product(name: "Carlos", package: carlos),
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
    .testTarget(
      name: "CarlosCryptoTests",
      dependencies: [
        "CarlosCrypto",
        .product(name: "Carlos", package: carlos),
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
