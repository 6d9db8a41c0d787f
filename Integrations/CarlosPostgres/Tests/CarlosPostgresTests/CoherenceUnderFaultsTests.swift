#if Postgres
import Carlos
import CarlosPostgres
import Foundation
import Glibc
import PostgresNIO
import Synchronization
import Testing

/// The coherence guarantee of two instances (`memory >>> postgres` each, each with its
/// own clients, as two processes have) when notices are late, connections are lost and
/// writes race reads: once a write through one instance is acknowledged, no get through
/// the other that starts more than the listener's staleness bound later answers an
/// older value.
@Suite("Coherence under faults", .serialized, .enabled(if: !PostgresTestServer.skipped))
struct CoherenceUnderFaultsTests {
  /// One get through an instance: when it started and what it answered.
  struct Read: Sendable {
    var start: ContinuousClock.Instant
    var value: String?
  }

  @Test(
    "a stalled listener (its notices arrive late): after a write is acknowledged, no get that starts later than the staleness bound answers the old value"
  )
  func stalledListener() async throws {
    let application = "carlos-stalled-\(UUID().uuidString.prefix(8))"
    try await PostgresTestServer.withClient { shared in
      var stalling = try DatabaseURL.configuration(try PostgresTestServer.url(), connections: 1)
      stalling.options.additionalStartupParameters = [("application_name", application)]
      try await PostgresTestServer.withRunningClient(stalling) { listenerClient in
        let namespace = PostgresTestServer.namespace()
        let levelA = try PostgresCacheLevel<String>(
          client: shared, options: .init(namespace: namespace))
        let levelB = try PostgresCacheLevel<String>(
          client: shared, options: .init(namespace: namespace))
        let listenerA = PostgresInvalidationListener(client: shared)
        let listenerB = PostgresInvalidationListener(
          client: listenerClient, stalenessBound: .seconds(1))
        let listening = [Task { await listenerA.run() }, Task { await listenerB.run() }]
        defer { for task in listening { task.cancel() } }
        let memoryB = MemoryCacheLevel<String, Data>(capacity: 100)
        let cacheA = CoherentCache(
          upper: MemoryCacheLevel<String, Data>(capacity: 100), lower: levelA, listener: listenerA)
        let cacheB = CoherentCache(upper: memoryB, lower: levelB, listener: listenerB)
        try await withTimeout(.seconds(20), "the listeners") {
          await listenerA.waitUntilListening()
          await listenerB.waitUntilListening()
        }
        try await cacheA.set(Data("v0".utf8), forKey: "k").value
        try await eventually(within: .seconds(10), "v0 in B's memory") {
          _ = try await cacheB.get("k").value
          guard try await memoryB.get("k").value == Data("v0".utf8) else {
            throw WaitTimedOut(what: "v0")
          }
        }

        // B's listener's server process stops: its connection stays open, its notices wait.
        let pid = try await backendPID(of: application, on: shared)
        #expect(kill(pid, SIGSTOP) == 0)
        defer { kill(pid, SIGCONT) }
        try await cacheA.set(Data("v1".utf8), forKey: "k").value
        let acknowledged = ContinuousClock.now
        let reads = try await readRepeatedly(cacheB, "k", for: .seconds(3))
        kill(pid, SIGCONT)

        let bound = listenerB.stalenessBound
        let late = reads.filter { $0.start > acknowledged + bound }
        let stale = late.filter { $0.value == "v0" }
        #expect(!late.isEmpty)
        #expect(stale.count == 0, "\(stale.count) of \(late.count) late gets answered v0")
        #expect(late.contains { $0.value == "v1" }, "B read the new value from PostgreSQL")

        // Once the listener listens again, B's memory is used again, and holds v1.
        try await eventually(within: .seconds(30), "B's memory in use again") {
          _ = try await cacheB.get("k").value
          guard cacheB.isUsingUpper, try await memoryB.get("k").value == Data("v1".utf8) else {
            throw WaitTimedOut(what: "memory")
          }
        }
      }
    }
  }

  @Test(
    "a listener whose connection is cut reconnects; no get answers a value replaced while it was gone"
  )
  func listenerConnectionCut() async throws {
    let application = "carlos-cut-\(UUID().uuidString.prefix(8))"
    try await PostgresTestServer.withClient { shared in
      var cut = try DatabaseURL.configuration(try PostgresTestServer.url(), connections: 1)
      cut.options.additionalStartupParameters = [("application_name", application)]
      try await PostgresTestServer.withRunningClient(cut) { listenerClient in
        let namespace = PostgresTestServer.namespace()
        let levelA = try PostgresCacheLevel<String>(
          client: shared, options: .init(namespace: namespace))
        let levelB = try PostgresCacheLevel<String>(
          client: shared, options: .init(namespace: namespace))
        let listenerB = PostgresInvalidationListener(
          client: listenerClient, reconnectDelay: .milliseconds(300))
        let listening = Task { await listenerB.run() }
        defer { listening.cancel() }
        let memoryB = MemoryCacheLevel<String, Data>(capacity: 100)
        let cacheB = CoherentCache(upper: memoryB, lower: levelB, listener: listenerB)
        try await withTimeout(.seconds(20), "the listener") { await listenerB.waitUntilListening() }
        try await levelA.set(Data("v0".utf8), forKey: "k").value
        try await eventually(within: .seconds(10), "v0 in B's memory") {
          _ = try await cacheB.get("k").value
          guard try await memoryB.get("k").value == Data("v0".utf8) else {
            throw WaitTimedOut(what: "v0")
          }
        }
        let generation = listenerB.generation
        let pid = try await backendPID(of: application, on: shared)
        // Writes go on while B's listener is gone, and gets race them.
        let writer = Task {
          for version in 1...20 {
            try await levelA.set(Data("v\(version)".utf8), forKey: "k").value
            try await Task.sleep(for: .milliseconds(20))
          }
        }
        _ = try await shared.query("SELECT pg_terminate_backend(\(pid))").collect()
        let reads = try await readRepeatedly(cacheB, "k", for: .seconds(2))
        try await writer.value
        let written = ContinuousClock.now
        try await eventually(within: .seconds(30), "the listener to listen again") {
          guard listenerB.generation > generation, cacheB.isUsingUpper else {
            throw WaitTimedOut(what: "listening")
          }
        }
        let after = try await readRepeatedly(cacheB, "k", for: .milliseconds(500))
        #expect(!reads.isEmpty)
        #expect(after.allSatisfy { $0.value == "v20" }, "\(after.map { $0.value ?? "miss" })")
        #expect(written < after[0].start)
      }
    }
  }

  @Test(
    "a load from a slow origin racing a write through another instance never replaces the written value"
  )
  func slowLoadRacingAWrite() async throws {
    try await PostgresTestServer.withClient { client in
      let namespace = PostgresTestServer.namespace()
      let levelA = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: namespace))
      let levelB = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: namespace))
      let listener = PostgresInvalidationListener(client: client)
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      let cacheA = CoherentCache(
        upper: MemoryCacheLevel<String, Data>(capacity: 100), lower: levelA, listener: listener)
      let cacheB = CoherentCache(
        upper: MemoryCacheLevel<String, Data>(capacity: 100), lower: levelB, listener: listener)
      let flightB = PostgresSingleFlight(level: levelB, listener: listener)
      try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }

      // B misses everywhere and loads from the origin, which answers an old value late.
      let origin = SingleFlightTests.GatedOrigin()
      origin.hold()
      let load = Task { try await cacheB.get("k", through: flightB, orLoad: origin.load) }
      try await eventually(within: .seconds(20), "B's load") {
        if origin.loads == 0 { throw WaitTimedOut(what: "a load") }
      }
      try await cacheA.set(Data("written".utf8), forKey: "k", expiry: .after(.seconds(60))).value
      origin.release()
      _ = try await load.value

      // The write was acknowledged before the load ended: every level serves it.
      #expect(try await levelA.get("k").value == Data("written".utf8))
      try await eventually(within: .seconds(10), "both instances to serve the write") {
        let a = try await cacheA.get("k").value
        let b = try await cacheB.get("k", through: flightB, orLoad: origin.load)
        guard a == Data("written".utf8), b == Data("written".utf8) else {
          throw WaitTimedOut(what: "the written value (A: \(a.count), B: \(b.count) bytes)")
        }
      }
    }
  }

  @Test(
    "get(_:orLoad:): a load from a slow origin racing a write through another instance never replaces the written value"
  )
  func slowPlainLoadRacingAWrite() async throws {
    try await raceAWrite { cacheB, origin in
      (0..<5).map { _ in Task { try await cacheB.get("k", orLoad: origin.load) } }
    }
  }

  @Test(
    "coherent >>> load: a fetch from a slow origin racing a write through another instance never replaces the written value"
  )
  func slowComposedFetchRacingAWrite() async throws {
    try await raceAWrite { coherentB, origin in
      let cacheB = coherentB >>> { key in await origin.load(key).value }
      let fetcherB =
        coherentB
        >>> BasicFetcher<String, Data> { key in
          Future { await origin.load(key).value }
        }
      return (0..<5).map { index in
        Task { try await (index.isMultiple(of: 2) ? cacheB : fetcherB).get("k").value }
      }
    }
  }

  @Test(
    "a get that joins a read PostgreSQL answered before a write acknowledged longer than the staleness bound ago answers the write",
    arguments: ["get(_:orLoad:)", "get(_:through:orLoad:)"])
  func lateJoinerOfASlowRead(path: String) async throws {
    try await PostgresTestServer.withClient { shared in
      let (proxy, url) = try HoldingProxy.toTestServer()
      defer { proxy.close() }
      let slow = try DatabaseURL.configuration(url, connections: 1)
      try await PostgresTestServer.withRunningClient(slow) { slowClient in
        let namespace = PostgresTestServer.namespace()
        let levelA = try PostgresCacheLevel<String>(
          client: shared, options: .init(namespace: namespace))
        // B's answers come through the proxy; its reads wait for them up to 20 s.
        let levelB = try PostgresCacheLevel<String>(
          client: slowClient,
          options: .init(namespace: namespace, operationTimeout: .seconds(20)))
        let listener = PostgresInvalidationListener(client: shared)
        let listening = Task { await listener.run() }
        defer { listening.cancel() }
        let cacheB = CoherentCache(
          upper: MemoryCacheLevel<String, Data>(capacity: 100), lower: levelB, listener: listener)
        let flightB = PostgresSingleFlight(level: levelB, listener: listener)
        try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
        let origin = SingleFlightTests.GatedOrigin()
        let get: @Sendable (String) async throws -> Data = { key in
          path == "get(_:orLoad:)"
            ? try await cacheB.get(key, orLoad: origin.load)
            : try await cacheB.get(key, through: flightB, orLoad: origin.load)
        }
        try await levelA.set(Data("v0".utf8), forKey: "k", expiry: .after(.seconds(60))).value
        // B's connection prepares its statements (a first use waits for the server).
        _ = try await get("warm-up")

        // PostgreSQL answers B's read with v0; B hears it only when the proxy lets it.
        proxy.hold()
        let first = Task { try await get("k") }
        try await eventually(within: .seconds(10), "PostgreSQL's answer to B's read") {
          if proxy.heldBytes == 0 { throw WaitTimedOut(what: "the answer") }
        }
        try await levelA.set(Data("v1".utf8), forKey: "k", expiry: .after(.seconds(60))).value
        try await Task.sleep(for: listener.stalenessBound + .milliseconds(200))
        let late = Task { try await get("k") }
        try await Task.sleep(for: .milliseconds(200))
        proxy.release()

        // The first get started before the write: either value is right for it.
        #expect(["v0", "v1"].contains(String(decoding: try await first.value, as: UTF8.self)))
        let answer = String(decoding: try await late.value, as: UTF8.self)
        #expect(answer == "v1", "a get started \(listener.stalenessBound) after the write")
        #expect(origin.loads == 1, "the warm-up's load only")
      }
    }
  }

  /// Starts `gets` of "k" through instance B, whose origin load is held; writes "k"
  /// through instance A; then lets the load end: every get answers the write, the
  /// origin loaded once, and both instances and PostgreSQL hold the write.
  func raceAWrite(
    _ gets:
      @escaping @Sendable (
        CoherentCache<MemoryCacheLevel<String, Data>>, SingleFlightTests.GatedOrigin
      )
      -> [Task<Data, any Error>]
  ) async throws {
    try await PostgresTestServer.withClient { client in
      let namespace = PostgresTestServer.namespace()
      let levelA = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: namespace))
      let levelB = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: namespace))
      let listener = PostgresInvalidationListener(client: client)
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      let cacheA = CoherentCache(
        upper: MemoryCacheLevel<String, Data>(capacity: 100), lower: levelA, listener: listener)
      let cacheB = CoherentCache(
        upper: MemoryCacheLevel<String, Data>(capacity: 100), lower: levelB, listener: listener)
      try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }

      let origin = SingleFlightTests.GatedOrigin()
      origin.hold()
      let running = gets(cacheB, origin)
      try await eventually(within: .seconds(20), "B's load") {
        if origin.loads == 0 { throw WaitTimedOut(what: "a load") }
      }
      try await cacheA.set(Data("written".utf8), forKey: "k", expiry: .after(.seconds(60))).value
      origin.release()
      for get in running { #expect(try await get.value == Data("written".utf8)) }
      #expect(origin.loads == 1, "one load for the five gets")
      #expect(try await levelA.get("k").value == Data("written".utf8))
      #expect(try await cacheB.get("k").value == Data("written".utf8))
      #expect(try await cacheA.get("k").value == Data("written".utf8))
    }
  }

  /// Gets `key` through `cache` every 5 ms for `duration`, recording each get.
  func readRepeatedly(
    _ cache: CoherentCache<MemoryCacheLevel<String, Data>>, _ key: String, for duration: Duration
  ) async throws -> [Read] {
    var reads: [Read] = []
    let end = ContinuousClock.now + duration
    while ContinuousClock.now < end {
      let start = ContinuousClock.now
      let value = try? await cache.get(key).value
      reads.append(Read(start: start, value: value.map { String(decoding: $0, as: UTF8.self) }))
      try await Task.sleep(for: .milliseconds(5))
    }
    return reads
  }

  /// The server process serving the connection of `application` (its `application_name`).
  func backendPID(of application: String, on client: PostgresClient) async throws -> pid_t {
    try await eventually(within: .seconds(10), "the backend of \(application)") {
      let rows = try await client.query(
        "SELECT pid FROM pg_stat_activity WHERE application_name = \(application)"
      ).collect()
      guard rows.count == 1, let pid = try? rows[0].decode(Int32.self) else {
        throw WaitTimedOut(what: "one backend (found \(rows.count))")
      }
      return pid_t(pid)
    }
  }
}
#endif
