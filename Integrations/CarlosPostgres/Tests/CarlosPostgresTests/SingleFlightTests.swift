#if Postgres
import Carlos
import CarlosPostgres
import Foundation
import PostgresNIO
import Synchronization
import Testing

/// Several `PostgresSingleFlight`s over levels of one namespace stand for several
/// instances: they share nothing but the server.
@Suite("PostgresSingleFlight", .enabled(if: !PostgresTestServer.skipped))
struct SingleFlightTests {
  /// Counts loads per key.
  final class Origin: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    let delay: Duration

    init(delay: Duration = .milliseconds(100)) { self.delay = delay }

    func load(_ key: String) async throws -> Data {
      counts.withLock { $0[key, default: 0] += 1 }
      try await Task.sleep(for: delay)
      return Data("value of \(key)".utf8)
    }

    var loads: [String: Int] { counts.withLock { $0 } }
  }

  static func instances(
    _ count: Int, client: PostgresClient, namespace: String,
    listener: PostgresInvalidationListener?, lease: Duration = .seconds(10),
    timeout: Duration = .seconds(30)
  ) throws -> [PostgresSingleFlight<String>] {
    try (0..<count).map { _ in
      PostgresSingleFlight(
        level: try PostgresCacheLevel<String>(
          client: client,
          // Generous: on a loaded machine, 120 racing gets can keep one waiting past 2 s.
          options: .init(namespace: namespace, operationTimeout: .seconds(30))),
        listener: listener, lease: lease, timeout: timeout)
    }
  }

  /// Plants the lease of a holder that never comes back on `key`, ending `seconds`
  /// from now on the server's clock.
  static func plantLease(
    on key: String, in namespace: String, seconds: Int64, _ client: PostgresClient
  ) async throws {
    _ = try await client.query(
      """
      INSERT INTO carlos_cache_leases (namespace, key_hash, owner, deadline)
      VALUES (\(namespace), sha256(\(Data(key.utf8))), \(UUID()),
        (extract(epoch FROM clock_timestamp()) * 1000000)::bigint + \(seconds * 1_000_000))
      """
    ).collect()
  }

  @Test(
    "3 instances × 40 concurrent gets of 10 cold keys: the origin loads each key once",
    arguments: [true, false])
  func oneLoadPerKey(withListener: Bool) async throws {
    try await PostgresTestServer.withClient { client in
      let listener = PostgresInvalidationListener(client: client)
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      if withListener {
        try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
      }
      let flights = try Self.instances(
        3, client: client, namespace: PostgresTestServer.namespace(),
        listener: withListener ? listener : nil)
      let origin = Origin()
      let keys = (0..<10).map { "cold-\($0)" }
      let results = try await withThrowingTaskGroup(of: (String, Data).self) { group in
        for flight in flights {
          for index in 0..<40 {
            let key = keys[index % keys.count]
            group.addTask { (key, try await flight.get(key, orLoad: origin.load)) }
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(results.count == 120)
      #expect(results.allSatisfy { $0.1 == Data("value of \($0.0)".utf8) })
      #expect(origin.loads == Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }))
      let statistics = flights.map(\.statistics)
      #expect(statistics.map(\.leaderLoads).reduce(0, +) == 10)
      #expect(statistics.map(\.failedLoads).reduce(0, +) == 0)
      #expect(
        statistics.map { $0.leaderLoads + $0.followedLoads + $0.hits + $0.joinedLocally }
          .reduce(0, +) == 120)

      // Once stored, a get is a hit and loads nothing.
      #expect(
        try await flights[0].get("cold-3", orLoad: origin.load) == Data("value of cold-3".utf8))
      #expect(origin.loads["cold-3"] == 1)
    }
  }

  @Test("a failed load fails its own instance's callers; a waiting instance then loads")
  func failedLoadReleasesTheLease() async throws {
    try await PostgresTestServer.withClient { client in
      let flights = try Self.instances(
        2, client: client, namespace: PostgresTestServer.namespace(), listener: nil)
      let started = Mutex(false)
      struct OriginDown: Error {}
      let failing = Task {
        try await flights[0].get("k") { _ -> Data in
          started.withLock { $0 = true }
          try await Task.sleep(for: .milliseconds(300))
          throw OriginDown()
        }
      }
      try await eventually(within: .seconds(10), "the first load") {
        if !started.withLock({ $0 }) { throw WaitTimedOut(what: "load") }
      }
      let second = try await flights[1].get("k") { _ in Data("b".utf8) }
      #expect(second == Data("b".utf8))
      await #expect(throws: OriginDown.self) { try await failing.value }
      #expect(flights[0].statistics.failedLoads == 1)
      #expect(flights[1].statistics.leaderLoads == 1)
    }
  }

  @Test("a lease whose holder died is taken over after its deadline, not before")
  func deadHolderIsTakenOver() async throws {
    try await PostgresTestServer.withClient { client in
      let namespace = PostgresTestServer.namespace()
      let flight = try Self.instances(1, client: client, namespace: namespace, listener: nil)[0]
      try await flight.level.remove("absent").value  // the level creates its tables
      // A holder that never comes back: its lease ends 1 s from now on the server's clock.
      let start = ContinuousClock.now
      try await Self.plantLease(on: "k", in: namespace, seconds: 1, client)
      let value = try await flight.get("k") { _ in Data("new".utf8) }
      let waited = start.duration(to: .now)
      #expect(value == Data("new".utf8))
      // Not before the deadline; and well before the get's own 30 s timeout.
      #expect(waited >= .milliseconds(800) && waited < .seconds(10), "took over after \(waited)")
      #expect(flight.statistics.takeovers == 1 && flight.statistics.leaderLoads == 1)
    }
  }

  @Test(
    "the lease holder, another process, SIGKILLed mid-load: this instance takes the lease over and loads after the deadline"
  )
  func killedHolderProcess() async throws {
    let namespace = PostgresTestServer.namespace()
    try await PostgresTestServer.withClient { client in
      let other = try ExampleProcess(
        databaseURL: try PostgresTestServer.url(), namespace: namespace)
      _ = try await other.line(startingWith: "ready")
      let flight = try Self.instances(1, client: client, namespace: namespace, listener: nil)[0]
      let origin = Origin(delay: .zero)
      let started = ContinuousClock.now
      other.send("lead k 3000")
      _ = try await other.line(startingWith: "loading k")
      let waiting = Task { try await flight.get("k", orLoad: origin.load) }
      try await Task.sleep(for: .milliseconds(200))
      #expect(origin.loads.isEmpty, "the live holder's lease is respected")
      await other.kill()
      #expect(try await waiting.value == Data("value of k".utf8))
      // The lease's 3 s deadline, then well before the get's own 30 s timeout.
      #expect(started.duration(to: .now) < .seconds(10), "the lease's 3 s deadline + a margin")
      #expect(origin.loads == ["k": 1])
      #expect(flight.statistics.takeovers == 1)
    }
  }

  @Test("a get that finds no value within its timeout fails with timedOut")
  func waitTimesOut() async throws {
    try await PostgresTestServer.withClient { client in
      let namespace = PostgresTestServer.namespace()
      let flight = try Self.instances(
        1, client: client, namespace: namespace, listener: nil, timeout: .milliseconds(500))[0]
      try await flight.level.remove("absent").value  // the level creates its tables
      try await Self.plantLease(on: "k", in: namespace, seconds: 60, client)
      await #expect(
        throws: PostgresCacheLevelError.timedOut(
          operation: "shared load", after: .milliseconds(500))
      ) {
        try await flight.get("k") { _ in Data("never".utf8) }
      }
    }
  }

  @Test("cancelling one caller's get leaves the others and the load alone")
  func cancellingOneCaller() async throws {
    try await PostgresTestServer.withClient { client in
      let flight = try Self.instances(
        1, client: client, namespace: PostgresTestServer.namespace(), listener: nil)[0]
      let origin = GatedOrigin()
      origin.hold()
      let cancelled = Task { try await flight.get("k", orLoad: origin.load) }
      let kept = (0..<3).map { _ in Task { try await flight.get("k", orLoad: origin.load) } }
      try await eventually(within: .seconds(10), "the load") {
        if origin.loads == 0 { throw WaitTimedOut(what: "load") }
      }
      cancelled.cancel()
      await #expect(throws: (any Error).self) { try await cancelled.value }
      origin.release()
      for task in kept { #expect(try await task.value == Data("k #1".utf8)) }
      #expect(origin.loads == 1)
    }
  }

  @Test("through coherent caches (memory >>> postgres): one load per key, values copied up")
  func throughCoherentCaches() async throws {
    try await PostgresTestServer.withClient { client in
      let listener = PostgresInvalidationListener(client: client)
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
      let namespace = PostgresTestServer.namespace()
      let instances = try (0..<2).map { _ in
        let level = try PostgresCacheLevel<String>(
          client: client, options: .init(namespace: namespace, operationTimeout: .seconds(30)))
        let memory = MemoryCacheLevel<String, Data>(capacity: 100)
        return (
          memory,
          CoherentCache(upper: memory, lower: level, listener: listener),
          PostgresSingleFlight(level: level, listener: listener)
        )
      }
      let origin = Origin()
      let keys = (0..<5).map { "user:\($0)" }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for (_, cache, flight) in instances {
          for index in 0..<30 {
            let key = keys[index % keys.count]
            group.addTask {
              let value = try await cache.get(key, through: flight, orLoad: origin.load)
              #expect(value == Data("value of \(key)".utf8))
            }
          }
        }
        try await group.waitForAll()
      }
      #expect(origin.loads == Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }))
      // A waiting instance's copy overlaps the notice of the value's store, so it is
      // skipped (as any copy a notice overtakes); the next get copies the value up.
      for (_, cache, flight) in instances {
        for key in keys { _ = try await cache.get(key, through: flight, orLoad: origin.load) }
      }
      #expect(origin.loads == Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }))
      for (memory, _, _) in instances {
        for key in keys { #expect(try await memory.get(key).value == Data("value of \(key)".utf8)) }
      }
    }
  }

  /// An origin whose loads are numbered and can be held until released.
  final class GatedOrigin: Sendable {
    private let state = Mutex<
      (loads: Int, held: Bool, waiting: [CheckedContinuation<Void, Never>])
    >(
      (0, false, []))

    var loads: Int { state.withLock { $0.loads } }

    /// Makes loads wait until ``release()``.
    func hold() { state.withLock { $0.held = true } }

    /// Lets the waiting loads (and later ones) finish.
    func release() {
      let waiting = state.withLock { state in
        state.held = false
        defer { state.waiting = [] }
        return state.waiting
      }
      for continuation in waiting { continuation.resume() }
    }

    /// Loads version n of `key` (n counts loads), with a lifetime of one second.
    func load(_ key: String) async -> Loaded<Data> {
      let number = state.withLock { state in
        state.loads += 1
        return state.loads
      }
      await withCheckedContinuation { continuation in
        let wait = state.withLock { state in
          if state.held { state.waiting.append(continuation) }
          return state.held
        }
        if !wait { continuation.resume() }
      }
      return Loaded(Data("\(key) #\(number)".utf8), expiry: .after(.seconds(1)))
    }
  }

  @Test(
    "refresh ahead: within the window, gets return the old value at once while one instance loads the new one; one load per lifetime"
  )
  func refreshAhead() async throws {
    try await PostgresTestServer.withClient { client in
      let listener = PostgresInvalidationListener(client: client)
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
      let namespace = PostgresTestServer.namespace()
      let clock = ManualClock()
      let flights = try (0..<3).map { _ in
        PostgresSingleFlight(
          level: try PostgresCacheLevel<String>(
            client: client,
            options: .init(namespace: namespace, operationTimeout: .seconds(30), clock: clock)),
          listener: listener, refreshAhead: .milliseconds(300))
      }
      let origin = GatedOrigin()
      @Sendable func getAll() async throws -> [String] {
        try await withThrowingTaskGroup(of: String.self) { group in
          for flight in flights {
            for _ in 0..<10 {
              group.addTask {
                String(decoding: try await flight.get("hot", orLoad: origin.load), as: UTF8.self)
              }
            }
          }
          return try await group.reduce(into: []) { $0.append($1) }
        }
      }
      #expect(Set(try await getAll()) == ["hot #1"])
      let followedCold = flights.map(\.statistics.followedLoads).reduce(0, +)
      clock.advance(by: .milliseconds(500))
      #expect(Set(try await getAll()) == ["hot #1"])
      #expect(origin.loads == 1, "not yet due: no refresh")

      // Due: every get returns the old value although the refresh's load is held.
      origin.hold()
      clock.advance(by: .milliseconds(300))
      #expect(Set(try await getAll()) == ["hot #1"])
      try await eventually(within: .seconds(10), "the refresh to start") {
        if origin.loads < 2 { throw WaitTimedOut(what: "a load") }
      }
      #expect(Set(try await getAll()) == ["hot #1"])
      origin.release()
      try await eventually(within: .seconds(10), "the new value") {
        if try await getAll().contains("hot #1") { throw WaitTimedOut(what: "#2") }
      }
      clock.advance(by: .milliseconds(400))  // #1 has expired; #2 is not due yet
      #expect(Set(try await getAll()) == ["hot #2"])
      #expect(origin.loads == 2)
      let statistics = flights.map(\.statistics)
      #expect(statistics.map(\.leaderLoads).reduce(0, +) == 1)
      #expect(statistics.map(\.refreshes).reduce(0, +) == 1)
      #expect(
        statistics.map(\.followedLoads).reduce(0, +) == followedCold,
        "no get waited for a load after the cold one")
    }
  }

  @Test("a refresh whose load started before a write does not replace the written value")
  func refreshNeverReplacesAWrite() async throws {
    try await PostgresTestServer.withClient { client in
      let namespace = PostgresTestServer.namespace()
      let clock = ManualClock()
      let level = try PostgresCacheLevel<String>(
        client: client,
        options: .init(namespace: namespace, operationTimeout: .seconds(30), clock: clock))
      let other = try PostgresCacheLevel<String>(
        client: client,
        options: .init(namespace: namespace, operationTimeout: .seconds(30), clock: clock))
      let flight = PostgresSingleFlight(level: level, refreshAhead: .milliseconds(300))
      let origin = GatedOrigin()
      #expect(try await flight.get("user", orLoad: origin.load) == Data("user #1".utf8))
      clock.advance(by: .milliseconds(800))

      // Due: the get answers #1 and starts the refresh, whose load is held.
      origin.hold()
      #expect(try await flight.get("user", orLoad: origin.load) == Data("user #1".utf8))
      try await eventually(within: .seconds(10), "the refresh's load") {
        if origin.loads < 2 { throw WaitTimedOut(what: "a load") }
      }
      // Another instance writes, and its write is acknowledged; then the load ends.
      try await other.set(Data("written".utf8), forKey: "user").value
      origin.release()
      try await eventually(within: .seconds(10), "the refresh to give its lease up") {
        let leases = try await client.query(
          "SELECT count(*) FROM carlos_cache_leases WHERE namespace = \(namespace)"
        ).collect()
        if try leases.first?.decode(Int64.self) != 0 { throw WaitTimedOut(what: "no lease") }
      }
      #expect(try await other.get("user").value == Data("written".utf8))
      #expect(flight.statistics.supersededRefreshes == 1)
      #expect(flight.statistics.refreshes == 0)
    }
  }

  @Test(
    "refresh ahead through coherent caches: memory hits start it; every instance then serves the new value from memory"
  )
  func refreshAheadThroughCoherentCaches() async throws {
    try await PostgresTestServer.withClient { client in
      let listener = PostgresInvalidationListener(client: client)
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
      let namespace = PostgresTestServer.namespace()
      let clock = ManualClock()
      let instances = try (0..<2).map { _ in
        let level = try PostgresCacheLevel<String>(
          client: client,
          options: .init(namespace: namespace, operationTimeout: .seconds(30), clock: clock))
        let memory = MemoryCacheLevel<String, Data>(capacity: 100, clock: clock)
        return (
          memory,
          CoherentCache(upper: memory, lower: level, listener: listener),
          PostgresSingleFlight(level: level, listener: listener, refreshAhead: .milliseconds(300))
        )
      }
      let origin = GatedOrigin()
      @Sendable func get(_ index: Int) async throws -> String {
        let (_, cache, flight) = instances[index]
        return String(
          decoding: try await cache.get("hot", through: flight, orLoad: origin.load), as: UTF8.self)
      }
      // A copy up that overlaps the notice of the first store is skipped; a later get
      // copies the value up.
      try await eventually(within: .seconds(10), "#1 in every memory level") {
        for index in 0..<2 {
          #expect(try await get(index) == "hot #1")
          _ = try await instances[index].0.get("hot").value
        }
      }
      clock.advance(by: .milliseconds(800))
      #expect(try await get(1) == "hot #1")
      try await eventually(within: .seconds(10), "the refresh") {
        if origin.loads < 2 { throw WaitTimedOut(what: "a load") }
      }
      // The refreshing instance puts #2 into its memory; the other drops #1 on the
      // notice and reads #2 from PostgreSQL.
      try await eventually(within: .seconds(10), "#2 everywhere") {
        for index in 0..<2 where try await get(index) != "hot #2" {
          throw WaitTimedOut(what: "#2 in instance \(index)")
        }
      }
      clock.advance(by: .milliseconds(400))  // #1 would have expired by now
      for (memory, _, _) in instances {
        #expect(try await memory.get("hot").value == Data("hot #2".utf8))
      }
      #expect(try await get(0) == "hot #2")
      #expect(origin.loads == 2)
    }
  }
}
#endif
