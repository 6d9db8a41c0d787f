// The end-to-end service of Integrations/ServiceExample (see its README):
//
//   carlos-service-example upstream <port>
//   carlos-service-example serve <port> none|framework|carlos|carlos-once <upstream-url> [database-url]
//
// carlos-once: the Carlos pipeline with one upstream load per user across instances
// (PostgresSingleFlight). Environment of the Carlos modes: CARLOS_SERVICE_LIFETIME_MS
// (how long users are kept; 300,000 by default), CARLOS_SERVICE_MEMORY_BYTES (the
// memory level's capacity; 100,000 by default) and, for carlos-once,
// CARLOS_SERVICE_REFRESH_AHEAD_MS (refresh users that long before they expire).
//   carlos-service-example staleness <writer-url> <reader-url> <writes>
//
// A server prints `listening <port>` once it accepts connections (port 0 picks one).
import AsyncHTTPClient
import CarlosPostgres
import Foundation
import Hummingbird
import PostgresNIO
import UserDirectory

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("error: \(message)\n".utf8))
  exit(64)
}

func announce(_ port: Int) async {
  FileHandle.standardOutput.write(Data("listening \(port)\n".utf8))
}

/// Runs the command its arguments name.
func run() async throws {
  let arguments = CommandLine.arguments.dropFirst()
  switch (arguments.first, arguments.count) {
  case ("upstream", 2):
    guard let port = Int(arguments.last!) else { fail("port: \(arguments.last!)") }
    try await Upstream.application(port: port, onServerRunning: announce).runService()

  case ("serve", 4...5):
    let values = Array(arguments)
    guard let port = Int(values[1]), let upstream = URL(string: values[3]) else {
      fail("serve <port> <mode> <upstream-url> [database-url]")
    }
    // Up to 64 connections to the upstream (AsyncHTTPClient's default is 8 per host,
    // which would cap the no-cache setup at 8 / 20 ms = 400 requests per second).
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    switch values[2] {
    case "none":
      var app = UserService.application(
        store: UpstreamOnlyStore(upstream: upstream, client: client), port: port,
        onServerRunning: announce)
      app.addServices(HTTPClientService(client))
      try await app.runService()
    case "framework":
      let store = FrameworkMemoryStore(upstream: upstream, client: client)
      var app = UserService.application(store: store, port: port, onServerRunning: announce)
      app.addServices(store.persist, HTTPClientService(client))
      try await app.runService()
    case "carlos", "carlos-once":
      guard values.count == 5 else { fail("\(values[2]) needs a database URL") }
      // The level and the listener run PostgreSQL clients of their own, which they
      // replace by fresh ones once the server is back after an outage.
      let postgres = try DatabaseURL.configuration(values[4])
      let listener = PostgresInvalidationListener(configuration: postgres)
      let environment = ProcessInfo.processInfo.environment
      let lifetime = environment["CARLOS_SERVICE_LIFETIME_MS"].flatMap(Int.init) ?? 300_000
      let refreshAhead = environment["CARLOS_SERVICE_REFRESH_AHEAD_MS"].flatMap(Int.init)
      let memoryBytes = environment["CARLOS_SERVICE_MEMORY_BYTES"].flatMap(Int.init) ?? 100_000
      let store = try CarlosStore(
        postgres: postgres, listener: listener, upstream: upstream, client: client,
        lifetime: .milliseconds(lifetime), singleFlight: values[2] == "carlos-once",
        refreshAhead: refreshAhead.map { .milliseconds($0) }, memoryCapacity: memoryBytes)
      var app = UserService.application(store: store, port: port, onServerRunning: announce)
      // Stopped in reverse order: the server, the HTTP client, the listener, then the
      // level (its writes in flight finish before it closes its PostgreSQL client).
      app.addServices(store.shared, listener, HTTPClientService(client))
      try await app.runService()
    default:
      fail("mode: \(values[2]) (none, framework, carlos or carlos-once)")
    }

  case ("staleness", 4):
    let values = Array(arguments)
    guard let writer = URL(string: values[1]), let reader = URL(string: values[2]),
      let count = Int(values[3])
    else { fail("staleness <writer-url> <reader-url> <writes>") }
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let delays = try await StalenessProbe.run(
      writer: writer, reader: reader, id: "staleness", count: count, client: client)
    try await client.shutdown()
    let micros = delays.map {
      Double($0.components.attoseconds) / 1e12 + Double($0.components.seconds) * 1e6
    }
    .sorted()
    func percentile(_ p: Double) -> Double {
      micros[min(micros.count - 1, Int(Double(micros.count) * p))]
    }
    print(
      String(
        format: "staleness writes %d p50_us %.0f p99_us %.0f max_us %.0f", micros.count,
        percentile(0.5), percentile(0.99), micros.last ?? 0))

  default:
    fail(
      "usage: upstream <port> | serve <port> <mode> <upstream-url> [database-url] | staleness <writer> <reader> <writes>"
    )
  }
}

// Two malloc arenas, not glibc's eight per core: what a PostgreSQL outage allocated
// and freed on many threads went back to shared free lists instead of staying in
// per-thread arenas (README, "Soak and faults": +24 % RSS with the default, flat
// with two). The environment's MALLOC_ARENA_MAX, when set, wins.
// (mallopt is in <malloc.h>, which Swift's Glibc module leaves out.)
#if canImport(Glibc)
if ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil,
  let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")
{
  typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
  let arenaMaximum: Int32 = -8  // M_ARENA_MAX
  _ = unsafeBitCast(mallopt, to: Mallopt.self)(arenaMaximum, 2)
}
#endif
try await run()
