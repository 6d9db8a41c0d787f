#if Postgres
import Carlos
import CarlosPostgres
import Foundation
import PostgresNIO
import Synchronization
import Testing

/// Servers that are down at start, killed mid-run and restarted, each a throwaway
/// cluster of the test's own (Scripts/pg-cluster.sh) on an ephemeral port.
@Suite("Server failures", .serialized, .enabled(if: !PostgresTestServer.skipped))
struct ServerFailureTests {
  func options(_ durability: PostgresCacheOptions.Durability = .unlogged) -> PostgresCacheOptions {
    PostgresCacheOptions(
      namespace: PostgresTestServer.namespace(), durability: durability,
      operationTimeout: .milliseconds(500))
  }

  func isUnavailable(_ error: (any Error)?) -> Bool {
    switch error as? PostgresCacheLevelError {
    case .timedOut?, .queryFailed?, .unavailable?: return true
    default: return false
    }
  }

  @Test(
    "server down at start: get and set fail within the timeout, a composed get falls through, the level recovers once the server starts"
  )
  func downAtStart() async throws {
    try await withCluster { cluster in
      var configuration = try await cluster.configuration()
      configuration.options.connectTimeout = .milliseconds(200)
      try await PostgresTestServer.withRunningClient(configuration) { client in
        let level = try PostgresCacheLevel<String>(client: client, options: options())
        let started = ContinuousClock.now
        let get = await outcome(level.get("k"))
        let set = await outcome(level.set(Data("v".utf8), forKey: "k"))
        #expect(isUnavailable(get.failure), "\(get)")
        #expect(isUnavailable(set.failure), "\(set)")
        #expect(started.duration(to: .now) < .seconds(30), "bounded by the timeouts, not hanging")

        let cache = level >>> BasicFetcher<String, Data> { _ in Future(Data("from below".utf8)) }
        #expect(try await cache.get("k").value == Data("from below".utf8))

        try await cluster.start()
        try await eventually(within: .seconds(60), "the level to recover") {
          try await level.set(Data("back".utf8), forKey: "k").value
        }
        #expect(try await level.get("k").value == Data("back".utf8))
      }
    }
  }

  @Test(
    "server killed mid-run and restarted: operations fail fast, the listener stops and the upper level is bypassed, then everything recovers"
  )
  func killedAndRestarted() async throws {
    try await withCluster { cluster in
      try await cluster.start()
      var configuration = try await cluster.configuration()
      configuration.options.connectTimeout = .milliseconds(200)
      try await PostgresTestServer.withRunningClient(configuration) { client in
        let unlogged = try PostgresCacheLevel<String>(client: client, options: options())
        let logged = try PostgresCacheLevel<String>(client: client, options: options(.logged))
        let listener = PostgresInvalidationListener(
          client: client, reconnectDelay: .milliseconds(100))
        let listening = Task { await listener.run() }
        defer { listening.cancel() }
        let memory = MemoryCacheLevel<String, Data>(capacity: 100)
        let coherent = CoherentCache(upper: memory, lower: unlogged, listener: listener)
        try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
        try await coherent.set(Data("v1".utf8), forKey: "k").value
        try await logged.set(Data("durable".utf8), forKey: "k").value
        #expect(coherent.isUsingUpper)
        #expect(try await memory.get("k").value == Data("v1".utf8))

        try await cluster.kill()
        try await eventually(within: .seconds(10), "the listener to notice") {
          if coherent.isUsingUpper { throw WaitTimedOut(what: "bypass") }
        }
        #expect(await outcome(memory.get("k")).failure != nil, "the upper level was cleared")
        let get = await outcome(unlogged.get("k"))
        let set = await outcome(unlogged.set(Data("v2".utf8), forKey: "k"))
        #expect(isUnavailable(get.failure), "\(get)")
        #expect(isUnavailable(set.failure), "\(set)")
        let fallback = coherent >>> BasicFetcher<String, Data> { _ in Future(Data("below".utf8)) }
        #expect(try await fallback.get("k").value == Data("below".utf8))

        try await cluster.start()
        try await eventually(within: .seconds(60), "the level to recover") {
          try await unlogged.set(Data("v3".utf8), forKey: "k").value
        }
        #expect(try await unlogged.get("k").value == Data("v3".utf8))
        // The logged table survived the crash; the unlogged one was emptied by recovery.
        #expect(try await logged.get("k").value == Data("durable".utf8))
        try await withTimeout(.seconds(60), "the listener to listen again") {
          await listener.waitUntilListening()
        }
        #expect(listener.generation >= 2)
        try await eventually(within: .seconds(10), "the upper level to be used again") {
          if !coherent.isUsingUpper { throw WaitTimedOut(what: "upper") }
        }
      }
    }
  }

  @Test(
    "server killed while a lease holder loads: every get ends within its timeout with a value or a clear error; after the restart, gets load again"
  )
  func killedMidLoad() async throws {
    try await withCluster { cluster in
      try await cluster.start()
      var configuration = try await cluster.configuration()
      configuration.options.connectTimeout = .milliseconds(200)
      try await PostgresTestServer.withRunningClient(configuration) { client in
        let shared = options()
        let flights = try (0..<2).map { _ in
          PostgresSingleFlight(
            level: try PostgresCacheLevel<String>(client: client, options: shared),
            timeout: .seconds(5))
        }
        let origin = SingleFlightTests.GatedOrigin()
        origin.hold()
        let holder = Task { try await flights[0].get("k", orLoad: origin.load) }
        try await eventually(within: .seconds(20), "the holder's load") {
          if origin.loads == 0 { throw WaitTimedOut(what: "a load") }
        }
        let waiters = (0..<5).map { _ in
          Task { try await flights[1].get("k", orLoad: origin.load) }
        }
        try await Task.sleep(for: .milliseconds(100))
        try await cluster.kill()
        origin.release()
        for task in [holder] + waiters {
          let result = try await withTimeout(.seconds(20), "a get to end") {
            () async -> Result<Data, any Error> in
            do { return .success(try await task.value) } catch { return .failure(error) }
          }
          switch result {
          case .success(let value): #expect(value == Data("k #1".utf8))
          case .failure(let error): #expect(isUnavailable(error), "\(error)")
          }
        }

        try await cluster.start()
        let value = try await eventually(within: .seconds(60), "a get after the restart") {
          try await flights[1].get("k", orLoad: origin.load)
        }
        #expect(value.starts(with: Data("k #".utf8)))
      }
    }
  }

  @Test(
    "once the server is known unreachable, gets and sets fail at once with unavailable, loads reach the origin once per key, and the probe finds the server again after its restart"
  )
  func failFastDuringAnOutage() async throws {
    try await withCluster { cluster in
      try await cluster.start()
      var configuration = try await cluster.configuration()
      configuration.options.connectTimeout = .milliseconds(200)
      try await PostgresTestServer.withRunningClient(configuration) { client in
        let timeout = Duration.seconds(10)
        let level = try PostgresCacheLevel<String>(
          client: client,
          options: .init(namespace: PostgresTestServer.namespace(), operationTimeout: timeout))
        let listener = PostgresInvalidationListener(
          client: client, reconnectDelay: .milliseconds(100))
        let listening = Task { await listener.run() }
        defer { listening.cancel() }
        let cache = CoherentCache(
          upper: MemoryCacheLevel<String, Data>(capacity: 1 << 20), lower: level,
          listener: listener)
        try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
        try await cache.set(Data("v".utf8), forKey: "k").value
        #expect(level.isAvailable)

        try await cluster.kill()
        _ = await outcome(level.get("k"))  // the first failed call
        try await eventually(within: .seconds(20), "the level to know") {
          if level.isAvailable || listener.isListening { throw WaitTimedOut(what: "unavailable") }
        }
        var waited = 0
        for index in 0..<50 {
          let start = ContinuousClock.now
          let get = await outcome(level.get("k\(index)"))
          let set = await outcome(level.set(Data("w".utf8), forKey: "k\(index)"))
          if start.duration(to: .now) >= timeout { waited += 1 }
          #expect(get.failure as? PostgresCacheLevelError == .unavailable(operation: "get"))
          #expect(set.failure as? PostgresCacheLevelError == .unavailable(operation: "set"))
        }
        #expect(waited == 0, "no get or set waited for the operation timeout")

        // 10 keys, 20 gets each at once, twice: the origin sees each key once.
        let loads = OriginLoads()
        for _ in 0..<2 {
          try await withThrowingTaskGroup(of: Data.self) { group in
            for index in 0..<200 {
              group.addTask {
                try await cache.get("user\(index % 10)") { key in
                  loads.count(key)
                  try await Task.sleep(for: .milliseconds(50))
                  return Loaded(Data(key.utf8), expiry: .after(.seconds(300)))
                }
              }
            }
            for try await value in group { #expect(!value.isEmpty) }
          }
        }
        #expect(loads.perKey.count == 10)
        #expect(loads.perKey.values.allSatisfy { $0 == 1 }, "\(loads.perKey)")

        try await cluster.start()
        let back = ContinuousClock.now
        try await eventually(within: .seconds(60), "the probe to find the server") {
          if !level.isAvailable { throw WaitTimedOut(what: "available") }
        }
        print(
          "failFastDuringAnOutage: available again \(back.duration(to: .now)) after the restart")
        try await eventually(within: .seconds(60), "a write") {
          try await cache.set(Data("back".utf8), forKey: "k").value
        }
        try await eventually(within: .seconds(60), "the listener") {
          if !cache.isUsingUpper { throw WaitTimedOut(what: "upper") }
        }
        #expect(try await cache.get("k").value == Data("back".utf8))
      }
    }
  }

  @Test(
    "after a long outage, the level and the listener work again within about a second of the server's return"
  )
  func recoveryAfterALongOutage() async throws {
    try await withCluster { cluster in
      try await cluster.start()
      var configuration = try await cluster.configuration()
      configuration.options.connectTimeout = .milliseconds(200)
      // Level and listener run clients of their own, closed when they are released.
      do {
        let level = try PostgresCacheLevel<String>(
          configuration: configuration,
          options: .init(
            namespace: PostgresTestServer.namespace(), operationTimeout: .milliseconds(500)))
        let listener = PostgresInvalidationListener(
          configuration: configuration, reconnectDelay: .milliseconds(100))
        let listening = Task { await listener.run() }
        defer { listening.cancel() }
        try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
        try await level.set(Data("v1".utf8), forKey: "k").value

        // 45 s down: a pool that kept failing to connect for that long waits about
        // 10 s between its attempts (postgres-nio's back-off, 100 ms * 1.25^n).
        try await cluster.kill()
        _ = await outcome(level.get("k"))  // the first failed call
        try await eventually(within: .seconds(10), "the level to know") {
          if level.isAvailable || listener.isListening { throw WaitTimedOut(what: "unavailable") }
        }
        try await Task.sleep(for: .seconds(45))

        try await cluster.start()
        let back = ContinuousClock.now
        try await eventually(within: .seconds(60), "a write") {
          try await level.set(Data("v2".utf8), forKey: "k").value
        }
        let writable = back.duration(to: .now)
        try await withTimeout(.seconds(60), "the listener") { await listener.waitUntilListening() }
        let listens = back.duration(to: .now)
        print("recoveryAfterALongOutage: writes after \(writable), listening after \(listens)")
        #expect(writable < .seconds(2), "writes succeed \(writable) after the server is back")
        #expect(listens < .seconds(3), "the listener listens \(listens) after the server is back")
        #expect(try await level.get("k").value == Data("v2".utf8))
      }
    }
  }

  @Test(
    "while only this instance cannot reach PostgreSQL, its loads are kept whether or not its listener noticed, and failed writes leave them: the origin sees each key once; once it is reachable, PostgreSQL's values are served"
  )
  func outageLoadsAreKeptBeforeTheListenerStops() async throws {
    try await PostgresTestServer.withClient { shared in
      let (proxy, url) = try HoldingProxy.toTestServer()
      defer { proxy.close() }
      var cutOff = try DatabaseURL.configuration(url)
      cutOff.options.connectTimeout = .milliseconds(200)
      try await PostgresTestServer.withRunningClient(cutOff) { client in
        let namespace = PostgresTestServer.namespace()
        let stored = try PostgresCacheLevel<String>(
          client: shared, options: .init(namespace: namespace))
        let level = try PostgresCacheLevel<String>(
          client: client, options: .init(namespace: namespace))
        // The listener reaches PostgreSQL directly: only the level is cut off.
        let listener = PostgresInvalidationListener(
          client: shared, reconnectDelay: .milliseconds(100))
        var listening = Task { await listener.run() }
        defer { listening.cancel() }
        let cache = CoherentCache(
          upper: MemoryCacheLevel<String, Data>(capacity: 1 << 20), lower: level,
          listener: listener)
        try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
        let keys = (0..<10).map { "user\($0)" }
        for key in keys {
          try await stored.set(Data("stored".utf8), forKey: key, expiry: .after(.seconds(300)))
            .value
        }
        #expect(
          try await cache.get("user0") { _ in Loaded(Data("origin".utf8)) } == Data("stored".utf8))

        var loads = OriginLoads()
        let getAll = { @Sendable (loads: OriginLoads) async throws -> [String] in
          var answers: [String] = []
          for key in keys {
            answers.append(
              String(
                decoding: try await cache.get(key) { key in
                  loads.count(key)
                  return Loaded(Data("origin".utf8), expiry: .after(.seconds(300)))
                }, as: UTF8.self))
          }
          return answers
        }

        proxy.cut()
        _ = await outcome(level.get("user0"))  // the first failed call
        try await eventually(within: .seconds(20), "the level to know") {
          if level.isAvailable { throw WaitTimedOut(what: "unavailable") }
        }
        #expect(listener.isListening, "the listener still listens")
        for _ in 0..<3 { #expect(try await getAll(loads).allSatisfy { $0 == "origin" }) }
        #expect(loads.perKey == Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }))
        // Writes fail at once and leave the loads alone.
        for key in keys {
          let write = await outcome(cache.set(Data("new".utf8), forKey: key))
          #expect(write.failure as? PostgresCacheLevelError == .unavailable(operation: "set"))
        }
        #expect(try await getAll(loads).allSatisfy { $0 == "origin" })
        #expect(loads.perKey == Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }))

        // The listener stops too: what the instance loaded stays.
        listening.cancel()
        await listening.value
        #expect(!listener.isListening)
        #expect(try await getAll(loads).allSatisfy { $0 == "origin" })
        #expect(loads.perKey == Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }))

        // Reachable again: the loads made meanwhile give way to PostgreSQL's values.
        listening = Task { await listener.run() }
        proxy.restore()
        try await eventually(within: .seconds(20), "the level to find the server") {
          if !level.isAvailable { throw WaitTimedOut(what: "available") }
        }
        try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
        loads = OriginLoads()
        #expect(try await getAll(loads).allSatisfy { $0 == "stored" })
        #expect(loads.perKey.isEmpty)

        // Cut off again while the listener listens, then reachable again while it
        // still listens: the loads of the outage are not served after it.
        proxy.cut()
        _ = await outcome(level.get("user0"))
        try await eventually(within: .seconds(20), "the level to know") {
          if level.isAvailable { throw WaitTimedOut(what: "unavailable") }
        }
        try await stored.remove("user1").value
        #expect(try await getAll(loads).allSatisfy { $0 == "origin" })
        proxy.restore()
        try await eventually(within: .seconds(20), "the level to find the server") {
          if !level.isAvailable { throw WaitTimedOut(what: "available") }
        }
        #expect(listener.isListening)
        let after = try await getAll(OriginLoads())
        #expect(
          after[0] == "stored" && after[1] == "origin" && after[2...].allSatisfy { $0 == "stored" },
          "\(after)")
      }
    }
  }

  /// Runs `body` with a cluster of its own, removed afterwards whatever happens.
  func withCluster(_ body: (ThrowawayCluster) async throws -> Void) async throws {
    let cluster = try await ThrowawayCluster()
    do {
      try await body(cluster)
    } catch {
      await cluster.remove()
      throw error
    }
    await cluster.remove()
  }
}

/// How many times the origin was asked for each key.
final class OriginLoads: Sendable {
  private let counts = Mutex<[String: Int]>([:])

  /// Counts one load of `key`.
  func count(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }

  /// The loads so far, per key.
  var perKey: [String: Int] { counts.withLock { $0 } }
}
#endif
