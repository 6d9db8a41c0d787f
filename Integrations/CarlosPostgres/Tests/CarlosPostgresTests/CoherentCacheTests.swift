#if Postgres
import Carlos
import CarlosPostgres
import Foundation
import PostgresNIO
import Synchronization
import Testing

/// Two levels over one namespace in this process stand for two processes: each has
/// its own instance id, so each one's notices reach the other's coherent cache.
@Suite("CoherentCache", .enabled(if: !PostgresTestServer.skipped))
struct CoherentCacheTests {
  @Test("before the listener listens the upper level is bypassed; once it listens it is used")
  func bypassUntilListening() async throws {
    try await PostgresTestServer.withClient { client in
      let namespace = PostgresTestServer.namespace()
      let lower = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: namespace))
      let listener = PostgresInvalidationListener(client: client)
      let memory = MemoryCacheLevel<String, Data>(capacity: 10)
      let cache = CoherentCache(upper: memory, lower: lower, listener: listener)
      #expect(!cache.isUsingUpper)
      try await cache.set(Data("v".utf8), forKey: "k").value
      #expect(try await cache.get("k").value == Data("v".utf8))
      #expect(await outcome(memory.get("k")).failure != nil, "nothing is kept upstairs while deaf")

      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
      #expect(cache.isUsingUpper)
      #expect(try await cache.get("k").value == Data("v".utf8))
      #expect(try await memory.get("k").value == Data("v".utf8), "copied up once listening")
    }
  }

  @Test("a value copied up expires when the memory level's own shorter policy says")
  func copiesKeepTheUpperPolicy() async throws {
    try await PostgresTestServer.withClient { client in
      let clock = ManualClock()
      let lower = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: PostgresTestServer.namespace(), clock: clock))
      let listener = PostgresInvalidationListener(client: client)
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      let memory = MemoryCacheLevel<String, Data>(
        capacity: 10, expiration: .afterWrite(.seconds(30)), clock: clock)
      let cache = CoherentCache(upper: memory, lower: lower, listener: listener)
      try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
      try await lower.set(Data("v".utf8), forKey: "k", expiry: .after(.seconds(60))).value
      try await eventually(within: .seconds(10), "a copy in memory") {
        _ = try await cache.get("k").value
        _ = try await memory.get("k").value
      }
      #expect(try await memory.entry(forKey: "k").expiresAt == clock.now().addingTimeInterval(30))
    }
  }

  @Test(
    "a value copied up keeps the expiry it has in the lower level; entry and insertIfAbsent go through both levels"
  )
  func copiesKeepTheLowerExpiry() async throws {
    try await PostgresTestServer.withClient { client in
      let namespace = PostgresTestServer.namespace()
      let clock = ManualClock()
      let lower = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: namespace, clock: clock))
      let other = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: namespace, clock: clock))
      let listener = PostgresInvalidationListener(client: client)
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      let memory = MemoryCacheLevel<String, Data>(capacity: 10, clock: clock)
      let cache = CoherentCache(upper: memory, lower: lower, listener: listener)
      try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
      try await other.set(Data("short".utf8), forKey: "k", expiry: .after(.seconds(1))).value
      // The set's notice may overtake the first copy up; a later get copies it.
      try await eventually(within: .seconds(10), "a copy in memory") {
        _ = try await cache.get("k").value
        _ = try await memory.get("k").value
      }
      let entry = try await cache.entry(forKey: "k")
      #expect(entry.expiresAt == clock.now().addingTimeInterval(1))
      clock.advance(by: .milliseconds(1100))
      #expect(await outcome(memory.get("k")).failure != nil, "expired upstairs too")
      #expect(await outcome(cache.get("k")).failure != nil)

      #expect(
        try await cache.insertIfAbsent(Data("a".utf8), forKey: "i", expiry: .after(.seconds(5)))
          .value)
      #expect(try await !cache.insertIfAbsent(Data("b".utf8), forKey: "i").value)
      #expect(try await !other.insertIfAbsent(Data("c".utf8), forKey: "i").value)
      #expect(try await memory.get("i").value == Data("a".utf8))
      #expect(
        try await memory.entry(forKey: "i").expiresAt == clock.now().addingTimeInterval(5))
    }
  }

  @Test(
    "a refresh notice keeps the key's copy in the upper level, served until the new value read from the lower level replaces it"
  )
  func refreshNoticeReplacesTheCopy() async throws {
    try await PostgresTestServer.withClient { client in
      let namespace = PostgresTestServer.namespace()
      let lower = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: namespace))
      // Another instance's level, whose writes send no notice of their own.
      let other = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: namespace, publishesInvalidations: false))
      let listener = PostgresInvalidationListener(client: client)
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      let memory = MemoryCacheLevel<String, Data>(capacity: 10)
      let cache = CoherentCache(upper: memory, lower: lower, listener: listener)
      try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
      try await cache.set(Data("v1".utf8), forKey: "k").value
      try await other.set(Data("v2".utf8), forKey: "k").value
      let refresh = InvalidationNotice(
        sender: other.instanceID, namespace: namespace, scope: .key(Data("k".utf8)),
        isRefresh: true)
      _ = try await client.query(
        "SELECT pg_notify(\(InvalidationNotice.channel), \(refresh.payload))"
      ).collect()
      let seen = Mutex<[String]>([])
      try await eventually(within: .seconds(10), "v2 in memory") {
        let value = await outcome(memory.get("k"))
        let text = (try? value.get()).map { String(decoding: $0, as: UTF8.self) } ?? "miss"
        seen.withLock { $0.append(text) }
        if text != "v2" { throw WaitTimedOut(what: "v2") }
      }
      #expect(!seen.withLock { $0.contains("miss") }, "\(seen.withLock { $0 })")
    }
  }

  @Test(
    "another writer's set, remove and long-key set drop keys from the upper level; own notices are ignored"
  )
  func noticesDropKeys() async throws {
    try await PostgresTestServer.withClient { client in
      let namespace = PostgresTestServer.namespace()
      let mine = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: namespace))
      let theirs = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: namespace))
      let listener = PostgresInvalidationListener(client: client)
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      let memory = MemoryCacheLevel<String, Data>(capacity: 10)
      let cache = CoherentCache(upper: memory, lower: mine, listener: listener)
      let marks = Marks()
      let subscription = listener.subscribe { event in
        if case .notice(let notice) = event, case .key(let key) = notice.scope {
          marks.add(String(decoding: key, as: UTF8.self))
        }
      }
      defer { subscription.cancel() }
      try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }

      try await cache.set(Data("a1".utf8), forKey: "a").value
      try await cache.set(Data("b1".utf8), forKey: "b").value
      // Notices arrive in commit order: once the marker's is here, "a"'s own notice was seen.
      try await theirs.set(Data("m".utf8), forKey: "marker1").value
      try await marks.wait(for: "marker1")
      #expect(try await memory.get("a").value == Data("a1".utf8), "own notice ignored")

      try await theirs.set(Data("a2".utf8), forKey: "a").value
      try await eventually(within: .seconds(20), "the drop of a") {
        if (try? await memory.get("a").value) != nil { throw WaitTimedOut(what: "a") }
      }
      #expect(try await cache.get("a").value == Data("a2".utf8))
      #expect(try await memory.get("b").value == Data("b1".utf8), "other keys stay")

      try await theirs.remove("b").value
      try await eventually(within: .seconds(20), "the drop of b") {
        if (try? await memory.get("b").value) != nil { throw WaitTimedOut(what: "b") }
      }
      #expect(await outcome(cache.get("b")).failure != nil)

      // A 100 KB key does not fit a notice: everything of the namespace is dropped.
      #expect(try await cache.get("a").value == Data("a2".utf8))
      try await theirs.set(Data("x".utf8), forKey: String(repeating: "k", count: 100_000)).value
      try await theirs.set(Data("m".utf8), forKey: "marker2").value
      try await marks.wait(for: "marker2")
      #expect(await outcome(memory.get("a")).failure != nil)
    }
  }

  @Test(
    "a coherent cache released while the listener calls it ends its subscription without a crash")
  func releasedDuringDelivery() async throws {
    // Found in a CI run: the example process crashed as it quit ("Recursive call to
    // lock Mutex"). The listener calls its subscribers under its lock; a cache whose
    // last reference goes away meanwhile is released inside that call, and the
    // release of its subscription unsubscribed under the same lock.
    try await PostgresTestServer.withClient { client in
      let lower = try PostgresCacheLevel<String>(
        client: client, options: .init(namespace: PostgresTestServer.namespace()))
      let listener = PostgresInvalidationListener(client: client)
      let held = Mutex<CoherentCache<MemoryCacheLevel<String, Data>>?>(
        CoherentCache(upper: MemoryCacheLevel(capacity: 10), lower: lower, listener: listener))
      // Another subscriber drops the last reference to the cache while the listener
      // delivers an event (in the example, the cache's own handler held the cache
      // while the program let go of it).
      let released = Mutex(false)
      let dropper = listener.subscribe { event in
        guard case .listening = event else { return }
        held.withLock { $0 = nil }
        released.withLock { $0 = true }
      }
      defer { dropper.cancel() }
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      try await withTimeout(.seconds(20), "the listener") { await listener.waitUntilListening() }
      #expect(released.withLock { $0 })
      // The released cache's subscription ends: the listener goes on delivering.
      let after = listener.subscribe { _ in }
      after.cancel()
    }
  }
}

/// The keys of the notices seen so far.
final class Marks: Sendable {
  private let seen = Mutex<Set<String>>([])

  func add(_ key: String) { _ = seen.withLock { $0.insert(key) } }

  /// Waits (up to 20 s) until a notice for `key` was seen; every subscriber has then
  /// handled the notices before it.
  func wait(for key: String) async throws {
    try await eventually(within: .seconds(20), "the notice for \(key)") {
      if !seen.withLock({ $0.contains(key) }) { throw WaitTimedOut(what: key) }
    }
  }
}
#endif
