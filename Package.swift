// swift-tools-version: 6.1
import PackageDescription

// One package: the dependency-free core (`Carlos`, `PiedPiper`, the compatibility
// modules) and, each behind a package trait of its name, the integrations in
// `Integrations/`. No trait is on by default, so a build, a test run or an application
// that uses only the core fetches no package. An application turns on what it uses:
//
//   .package(url: "https://github.com/<owner>/Carlos.git", from: "1.0.0", traits: ["Postgres"])
//
// Every integration module compiles to nothing without its trait (its sources sit in
// `#if <Trait>`), and its dependencies are conditioned on the trait, so they are neither
// fetched nor built.

/// The package traits, each with the integration it turns on.
let traits: Set<Trait> = [
  .trait(
    name: "Postgres",
    description:
      "CarlosPostgres: a PostgreSQL level with cross-process invalidation and one origin load per key across instances (postgres-nio)."
  ),
  .trait(
    name: "HTTPCaching",
    description: "CarlosHTTPCaching: the HTTP caching rules (RFC 9111), with no dependency."),
  .trait(
    name: "HTTP",
    description:
      "CarlosHTTP and CarlosCachingProxy: an HTTP level, HTTP caching over it and a caching reverse proxy (async-http-client, swift-nio).",
    enabledTraits: ["HTTPCaching"]),
  .trait(
    name: "Observability",
    description:
      "CarlosLogging, CarlosMetrics and CarlosTracing (swift-log, swift-metrics, swift-distributed-tracing)."
  ),
  .trait(
    name: "Crypto",
    description: "CarlosCrypto: authenticated encryption of stored values (swift-crypto)."),
  .trait(name: "NIO", description: "CarlosNIO: Future ⇄ EventLoopFuture (swift-nio)."),
  .trait(
    name: "Hummingbird",
    description:
      "CarlosHummingbird: a Hummingbird 2 persist driver and response cache middleware (hummingbird).",
    enabledTraits: ["HTTPCaching"]),
  .trait(
    name: "Vapor", description: "CarlosVapor: Carlos pipelines as Vapor caches (vapor).",
    enabledTraits: ["NIO"]),
  .default(enabledTraits: []),
]

/// A product of a third-party package, used only when `trait` is on.
func product(_ name: String, _ package: String, when trait: String) -> Target.Dependency {
  .product(name: name, package: package, condition: .when(traits: [trait]))
}

/// The folder of an integration's sources or tests.
func integration(_ folder: String, _ kind: String, _ target: String) -> String {
  "Integrations/\(folder)/\(kind)/\(target)"
}

let core: [Target] = [
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
]

let postgres: [Target] = [
  .target(
    name: "CarlosPostgres",
    dependencies: [
      "Carlos",
      product("PostgresNIO", "postgres-nio", when: "Postgres"),
      product("Logging", "swift-log", when: "Postgres"),
      product("ServiceLifecycle", "swift-service-lifecycle", when: "Postgres"),
      product("Crypto", "swift-crypto", when: "Postgres"),
    ],
    path: integration("CarlosPostgres", "Sources", "CarlosPostgres")),
  .executableTarget(
    name: "CarlosPostgresExample",
    dependencies: ["CarlosPostgres", product("PostgresNIO", "postgres-nio", when: "Postgres")],
    path: integration("CarlosPostgres", "Sources", "CarlosPostgresExample")),
  .executableTarget(
    name: "CarlosPostgresBenchmark",
    dependencies: ["CarlosPostgres", product("PostgresNIO", "postgres-nio", when: "Postgres")],
    path: integration("CarlosPostgres", "Sources", "CarlosPostgresBenchmark")),
  .testTarget(
    name: "CarlosPostgresTests",
    dependencies: [
      "CarlosPostgres", "CarlosPostgresExample",
      product("PostgresNIO", "postgres-nio", when: "Postgres"),
      product("Logging", "swift-log", when: "Postgres"),
      product("ServiceLifecycle", "swift-service-lifecycle", when: "Postgres"),
      product("Crypto", "swift-crypto", when: "Postgres"),
    ],
    path: integration("CarlosPostgres", "Tests", "CarlosPostgresTests")),
]

let http: [Target] = [
  // The caching rules without a client: what CarlosHummingbird's middleware builds on
  // without compiling async-http-client.
  .target(
    name: "CarlosHTTPCaching", dependencies: ["Carlos"],
    path: integration("CarlosHTTP", "Sources", "CarlosHTTPCaching")),
  .target(
    name: "CarlosHTTP",
    dependencies: [
      "CarlosHTTPCaching", "Carlos",
      product("AsyncHTTPClient", "async-http-client", when: "HTTP"),
      product("NIOCore", "swift-nio", when: "HTTP"),
      product("NIOHTTP1", "swift-nio", when: "HTTP"),
    ],
    path: integration("CarlosHTTP", "Sources", "CarlosHTTP")),
  .target(
    name: "CarlosCachingProxy",
    dependencies: [
      "CarlosHTTP", "Carlos",
      product("AsyncHTTPClient", "async-http-client", when: "HTTP"),
      product("NIOCore", "swift-nio", when: "HTTP"),
      product("NIOPosix", "swift-nio", when: "HTTP"),
      product("NIOHTTP1", "swift-nio", when: "HTTP"),
    ],
    path: integration("CarlosHTTP", "Sources", "CarlosCachingProxy")),
  .executableTarget(
    name: "CarlosCachingProxyCommand", dependencies: ["CarlosCachingProxy"],
    path: integration("CarlosHTTP", "Sources", "CarlosCachingProxyCommand")),
  .executableTarget(
    name: "CarlosHTTPBenchmark",
    dependencies: [
      "CarlosHTTP", "Carlos", product("AsyncHTTPClient", "async-http-client", when: "HTTP"),
    ],
    path: integration("CarlosHTTP", "Sources", "CarlosHTTPBenchmark")),
  .testTarget(
    name: "CarlosHTTPTests",
    dependencies: [
      "CarlosHTTP", "CarlosHTTPCaching", "CarlosCachingProxy", "CarlosCachingProxyCommand",
      "Carlos",
      product("AsyncHTTPClient", "async-http-client", when: "HTTP"),
      product("NIOCore", "swift-nio", when: "HTTP"),
      product("NIOPosix", "swift-nio", when: "HTTP"),
      product("NIOHTTP1", "swift-nio", when: "HTTP"),
    ],
    path: integration("CarlosHTTP", "Tests", "CarlosHTTPTests")),
]

let observability: [Target] = [
  .target(
    name: "CarlosLogging",
    dependencies: ["Carlos", product("Logging", "swift-log", when: "Observability")],
    path: integration("CarlosObservability", "Sources", "CarlosLogging")),
  .target(
    name: "CarlosMetrics",
    dependencies: [
      "Carlos",
      product("CoreMetrics", "swift-metrics", when: "Observability"),
      product("ServiceLifecycle", "swift-service-lifecycle", when: "Observability"),
    ],
    path: integration("CarlosObservability", "Sources", "CarlosMetrics")),
  .target(
    name: "CarlosTracing",
    dependencies: [
      "Carlos", product("Tracing", "swift-distributed-tracing", when: "Observability"),
    ],
    path: integration("CarlosObservability", "Sources", "CarlosTracing")),
  .testTarget(
    name: "CarlosLoggingTests",
    dependencies: ["CarlosLogging", product("Logging", "swift-log", when: "Observability")],
    path: integration("CarlosObservability", "Tests", "CarlosLoggingTests")),
  .testTarget(
    name: "CarlosMetricsTests",
    dependencies: [
      "CarlosMetrics",
      product("MetricsTestKit", "swift-metrics", when: "Observability"),
      product("ServiceLifecycle", "swift-service-lifecycle", when: "Observability"),
      product("Logging", "swift-log", when: "Observability"),
    ],
    path: integration("CarlosObservability", "Tests", "CarlosMetricsTests")),
  .testTarget(
    name: "CarlosTracingTests",
    dependencies: [
      "CarlosTracing",
      product("Tracing", "swift-distributed-tracing", when: "Observability"),
      product("InMemoryTracing", "swift-distributed-tracing", when: "Observability"),
    ],
    path: integration("CarlosObservability", "Tests", "CarlosTracingTests")),
]

let crypto: [Target] = [
  .target(
    name: "CarlosCrypto",
    dependencies: ["Carlos", product("Crypto", "swift-crypto", when: "Crypto")],
    path: integration("CarlosCrypto", "Sources", "CarlosCrypto")),
  .executableTarget(
    name: "CarlosCryptoBenchmark",
    dependencies: ["CarlosCrypto", "Carlos", product("Crypto", "swift-crypto", when: "Crypto")],
    path: integration("CarlosCrypto", "Sources", "CarlosCryptoBenchmark")),
  .testTarget(
    name: "CarlosCryptoTests",
    dependencies: ["CarlosCrypto", "Carlos", product("Crypto", "swift-crypto", when: "Crypto")],
    path: integration("CarlosCrypto", "Tests", "CarlosCryptoTests")),
]

let nio: [Target] = [
  .target(
    name: "CarlosNIO", dependencies: ["Carlos", product("NIOCore", "swift-nio", when: "NIO")],
    path: integration("CarlosNIO", "Sources", "CarlosNIO")),
  .testTarget(
    name: "CarlosNIOTests",
    dependencies: [
      "CarlosNIO", "Carlos",
      product("NIOCore", "swift-nio", when: "NIO"),
      product("NIOPosix", "swift-nio", when: "NIO"),
    ],
    path: integration("CarlosNIO", "Tests", "CarlosNIOTests")),
]

let hummingbird: [Target] = [
  .target(
    name: "CarlosHummingbird",
    dependencies: [
      "Carlos", "CarlosHTTPCaching",
      product("Hummingbird", "hummingbird", when: "Hummingbird"),
      product("HTTPTypes", "swift-http-types", when: "Hummingbird"),
      product("ServiceLifecycle", "swift-service-lifecycle", when: "Hummingbird"),
    ],
    path: integration("CarlosHummingbird", "Sources", "CarlosHummingbird")),
  .executableTarget(
    name: "CarlosHummingbirdBenchmark",
    dependencies: [
      "CarlosHummingbird", "Carlos", "CarlosHTTPCaching",
      product("Hummingbird", "hummingbird", when: "Hummingbird"),
    ],
    path: integration("CarlosHummingbird", "Sources", "CarlosHummingbirdBenchmark")),
  .testTarget(
    name: "CarlosHummingbirdTests",
    dependencies: [
      "CarlosHummingbird", "Carlos", "CarlosHTTPCaching",
      product("Hummingbird", "hummingbird", when: "Hummingbird"),
      product("HummingbirdTesting", "hummingbird", when: "Hummingbird"),
      product("ServiceLifecycle", "swift-service-lifecycle", when: "Hummingbird"),
    ],
    path: integration("CarlosHummingbird", "Tests", "CarlosHummingbirdTests")),
]

let vapor: [Target] = [
  .target(
    name: "CarlosVapor",
    dependencies: [
      "Carlos", "CarlosNIO",
      product("Vapor", "vapor", when: "Vapor"),
      product("NIOCore", "swift-nio", when: "Vapor"),
    ],
    path: integration("CarlosVapor", "Sources", "CarlosVapor")),
  .testTarget(
    name: "CarlosVaporTests",
    dependencies: [
      "CarlosVapor", "Carlos",
      product("Vapor", "vapor", when: "Vapor"),
      product("XCTVapor", "vapor", when: "Vapor"),
    ],
    path: integration("CarlosVapor", "Tests", "CarlosVaporTests")),
]

let package = Package(
  name: "Carlos",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
  products: [
    .library(name: "Carlos", targets: ["Carlos"]),
    .library(name: "PiedPiper", targets: ["PiedPiper"]),
    .library(name: "CarlosCompatibility", targets: ["CarlosCompatibility"]),
    .library(name: "PiedPiperCompatibility", targets: ["PiedPiperCompatibility"]),
    .executable(name: "Playground", targets: ["Playground"]),
    // Trait "Postgres"
    .library(name: "CarlosPostgres", targets: ["CarlosPostgres"]),
    .executable(name: "carlos-postgres-example", targets: ["CarlosPostgresExample"]),
    .executable(name: "carlos-postgres-benchmark", targets: ["CarlosPostgresBenchmark"]),
    // Trait "HTTPCaching" (also on with "HTTP" and "Hummingbird")
    .library(name: "CarlosHTTPCaching", targets: ["CarlosHTTPCaching"]),
    // Trait "HTTP"
    .library(name: "CarlosHTTP", targets: ["CarlosHTTP"]),
    .library(name: "CarlosCachingProxy", targets: ["CarlosCachingProxy"]),
    .executable(name: "carlos-caching-proxy", targets: ["CarlosCachingProxyCommand"]),
    .executable(name: "carlos-http-benchmark", targets: ["CarlosHTTPBenchmark"]),
    // Trait "Observability"
    .library(
      name: "CarlosObservability", targets: ["CarlosLogging", "CarlosMetrics", "CarlosTracing"]),
    .library(name: "CarlosLogging", targets: ["CarlosLogging"]),
    .library(name: "CarlosMetrics", targets: ["CarlosMetrics"]),
    .library(name: "CarlosTracing", targets: ["CarlosTracing"]),
    // Trait "Crypto"
    .library(name: "CarlosCrypto", targets: ["CarlosCrypto"]),
    .executable(name: "CarlosCryptoBenchmark", targets: ["CarlosCryptoBenchmark"]),
    // Trait "NIO"
    .library(name: "CarlosNIO", targets: ["CarlosNIO"]),
    // Trait "Hummingbird"
    .library(name: "CarlosHummingbird", targets: ["CarlosHummingbird"]),
    // Trait "Vapor"
    .library(name: "CarlosVapor", targets: ["CarlosVapor"]),
  ],
  traits: traits,
  dependencies: [
    // Each is fetched only when a trait that uses it is on.
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
  ],
  targets: core + postgres + http + observability + crypto + nio + hummingbird + vapor,
  swiftLanguageModes: [.v6]
)
