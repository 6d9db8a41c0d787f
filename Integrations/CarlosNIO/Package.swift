// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The root package (Carlos) is a path dependency; SwiftPM names it after its folder,
// which differs between checkouts, so the name is read from this file's location.
let carlos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
  name: "CarlosNIO",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "CarlosNIO", targets: ["CarlosNIO"])
  ],
  dependencies: [
    .package(path: "../.."),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
  ],
  targets: [
    .target(
      name: "CarlosNIO",
      dependencies: [
        .product(name: "Carlos", package: carlos),
        .product(name: "NIOCore", package: "swift-nio"),
      ]),
    .testTarget(
      name: "CarlosNIOTests",
      dependencies: [
        "CarlosNIO",
        .product(name: "Carlos", package: carlos),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
