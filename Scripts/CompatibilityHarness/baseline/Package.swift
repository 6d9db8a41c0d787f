// swift-tools-version:5.9
// Baseline: the ORIGINAL PiedPiper (HEAD) and Carlos 0.10.1 sources, with their own specs
// (mechanical Quick 7 / Nimble 13 rules only, see ../prepare.sh). Swift 5 language mode, as the originals.
import PackageDescription

let package = Package(
  name: "Baseline",
  dependencies: [
    .package(url: "https://github.com/Quick/Quick", from: "7.6.2"),
    .package(url: "https://github.com/Quick/Nimble", from: "13.8.0"),
  ],
  targets: [
    .target(name: "PiedPiper", path: "Sources/PiedPiper"),
    .target(name: "CommonCrypto", path: "shims/CommonCrypto"),
    .target(name: "Carlos", dependencies: ["PiedPiper", "CommonCrypto"], path: "Sources/Carlos"),
    .executableTarget(name: "PiedPiperSpecs", dependencies: ["PiedPiper", "Quick", "Nimble"], path: "Specs/PiedPiperSpecs"),
    .executableTarget(name: "CarlosSpecs", dependencies: ["Carlos", "PiedPiper", "Quick", "Nimble"], path: "Specs/CarlosSpecs"),
  ],
  swiftLanguageVersions: [.v5]
)
