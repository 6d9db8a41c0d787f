// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The root package (Carlos) is a path dependency; SwiftPM names it after its folder,
// which differs between checkouts, so the name is read from this file's location.
let carlos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
  name: "CarlosVapor",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "CarlosVapor", targets: ["CarlosVapor"])
  ],
  dependencies: [
    .package(path: "../.."),
    .package(path: "../CarlosNIO"),
    .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
  ],
  targets: [
    .target(
      name: "CarlosVapor",
      dependencies: [
        .product(name: "Carlos", package: carlos),
        .product(name: "CarlosNIO", package: "CarlosNIO"),
        .product(name: "Vapor", package: "vapor"),
        .product(name: "NIOCore", package: "swift-nio"),
      ]),
    .testTarget(
      name: "CarlosVaporTests",
      dependencies: [
        "CarlosVapor",
        .product(name: "Carlos", package: carlos),
        .product(name: "Vapor", package: "vapor"),
        .product(name: "XCTVapor", package: "vapor"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
