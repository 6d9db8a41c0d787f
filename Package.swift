// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Carlos",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
  products: [
    .library(name: "Carlos", targets: ["Carlos"]),
    .library(name: "PiedPiper", targets: ["PiedPiper"]),
    .library(name: "CarlosCompatibility", targets: ["CarlosCompatibility"]),
    .library(name: "PiedPiperCompatibility", targets: ["PiedPiperCompatibility"]),
    .executable(name: "Playground", targets: ["Playground"]),
  ],
  targets: [
    .target(name: "PiedPiper"),
    .target(name: "Carlos", dependencies: ["PiedPiper"]),
    .target(name: "PiedPiperCompatibility", dependencies: ["PiedPiper"]),
    .target(name: "CarlosCompatibility", dependencies: ["Carlos", "PiedPiperCompatibility"]),
    .target(name: "CarlosTestServer", dependencies: ["PiedPiper"]),
    .executableTarget(
      name: "Playground", dependencies: ["Carlos", "CarlosCompatibility", "CarlosTestServer"],
      path: "Playground"),
    .testTarget(name: "PiedPiperTests", dependencies: ["PiedPiper"]),
    .testTarget(name: "CompatibilityTests", dependencies: ["CarlosCompatibility"]),
    .target(
      name: "DiskCrashSupport", dependencies: ["Carlos"], path: "Tests/Support/DiskCrashSupport"),
    .executableTarget(
      name: "DiskCrashWriter", dependencies: ["Carlos", "DiskCrashSupport"],
      path: "Tests/Support/DiskCrashWriter"),
    .testTarget(
      name: "CarlosTests",
      dependencies: ["Carlos", "CarlosTestServer", "DiskCrashSupport", "DiskCrashWriter"]),
  ],
  swiftLanguageModes: [.v6]
)
