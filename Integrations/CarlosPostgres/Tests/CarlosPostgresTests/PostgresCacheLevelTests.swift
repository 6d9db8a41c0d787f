#if Postgres
import Carlos
import CarlosPostgres
import Foundation
import PostgresNIO
import Testing

@Suite("PostgresCacheLevel", .enabled(if: !PostgresTestServer.skipped))
struct PostgresCacheLevelTests {
  func level(
    _ client: PostgresClient, _ namespace: String = PostgresTestServer.namespace(),
    configure: (inout PostgresCacheOptions) -> Void = { _ in }
  ) throws -> PostgresCacheLevel<String> {
    var options = PostgresCacheOptions(namespace: namespace)
    configure(&options)
    return try PostgresCacheLevel(client: client, options: options)
  }

  @Test("set then get returns the value; a missing key is a miss; remove makes it a miss")
  func setGetRemove() async throws {
    try await PostgresTestServer.withClient { client in
      let level = try level(client)
      #expect(await outcome(level.get("k")).failure as? FetchError == .valueNotInCache)
      try await level.set(Data("one".utf8), forKey: "k").value
      #expect(try await level.get("k").value == Data("one".utf8))
      try await level.set(Data("two".utf8), forKey: "k").value
      #expect(try await level.get("k").value == Data("two".utf8))
      try await level.remove("k").value
      #expect(await outcome(level.get("k")).failure as? FetchError == .valueNotInCache)
      #expect(level.statistics.hitCount == 2)
      #expect(level.statistics.missCount == 2)
    }
  }

  @Test("clear removes its own namespace only")
  func clearOwnNamespace() async throws {
    try await PostgresTestServer.withClient { client in
      let mine = try level(client)
      let other = try level(client)
      try await mine.set(Data("a".utf8), forKey: "k").value
      try await other.set(Data("b".utf8), forKey: "k").value
      try await mine.clearAll().value
      #expect(await outcome(mine.get("k")).failure as? FetchError == .valueNotInCache)
      #expect(try await other.get("k").value == Data("b".utf8))
    }
  }

  @Test(
    "keys with quotes, backslashes, SQL, non-ASCII, NUL and 100 KB are stored and read back exactly"
  )
  func hostileKeys() async throws {
    try await PostgresTestServer.withClient { client in
      let level = try level(client)
      let long = (0..<2800).map { _ in UUID().uuidString }.joined()  // ~100 KB, incompressible
      let keys = [
        "it's", "\"double\"", "back\\slash\\", "'; DROP TABLE carlos_cache; --",
        "SELECT * FROM pg_user WHERE 1=1", "日本語 ✓ 🚀", "a\u{0}b", "a", "\u{0}", "",
        String(long.prefix(100_000)), String(repeating: "k", count: 100_000),
      ]
      for (index, key) in keys.enumerated() {
        try await level.set(Data("value \(index)".utf8), forKey: key).value
      }
      for (index, key) in keys.enumerated() {
        let entry = try await level.get(key).value
        #expect(entry == Data("value \(index)".utf8), "key #\(index)")
      }
      // NFC: the two spellings of é are one key, as they are one String.
      try await level.set(Data("accent".utf8), forKey: "caf\u{E9}").value
      #expect(try await level.get("cafe\u{301}").value == Data("accent".utf8))
    }
  }

  @Test("a key over the maximum fails with keyTooLarge")
  func keyTooLarge() async throws {
    try await PostgresTestServer.withClient { client in
      let level = try level(client) { $0.maximumKeySize = 1000 }
      let key = String(repeating: "x", count: 1001)
      let result = await outcome(level.set(Data("v".utf8), forKey: key))
      #expect(result.failure as? PostgresCacheLevelError == .keyTooLarge(size: 1001, limit: 1000))
    }
  }

  @Test(
    "a value over the maximum fails with valueTooLarge, stores nothing and removes the old value")
  func valueTooLarge() async throws {
    try await PostgresTestServer.withClient { client in
      let level = try level(client) { $0.maximumValueSize = 1024 }
      try await level.set(Data("old".utf8), forKey: "k").value
      let result = await outcome(level.set(Data(count: 1025), forKey: "k"))
      #expect(result.failure as? PostgresCacheLevelError == .valueTooLarge(size: 1025, limit: 1024))
      #expect(await outcome(level.get("k")).failure as? FetchError == .valueNotInCache)
      let fresh = await outcome(level.set(Data(count: 4096), forKey: "new"))
      #expect(fresh.failure as? PostgresCacheLevelError == .valueTooLarge(size: 4096, limit: 1024))
      #expect(await outcome(level.get("new")).failure as? FetchError == .valueNotInCache)
    }
  }

  @Test("an invalid namespace is refused")
  func invalidNamespace() throws {
    let client = PostgresClient(
      configuration: .init(
        host: "127.0.0.1", username: "x", password: nil, database: nil, tls: .disable))
    for namespace in ["", "a\u{0}b", String(repeating: "n", count: 201)] {
      #expect(throws: PostgresCacheLevelError.invalidNamespace(namespace)) {
        _ = try PostgresCacheLevel<String>(client: client, options: .init(namespace: namespace))
      }
    }
  }

  @Test("expired rows are misses, entry(forKey:) tells the times, removeExpired deletes in batches")
  func expiry() async throws {
    try await PostgresTestServer.withClient { client in
      let clock = ManualClock()
      let level = try level(client) {
        $0.clock = clock
        $0.batchSize = 7
      }
      let start = clock.now()
      try await level.set(Data("short".utf8), forKey: "short", expiry: .after(.seconds(60))).value
      try await level.set(
        Data("long".utf8), forKey: "long", expiry: .at(start.addingTimeInterval(3600))
      ).value
      try await level.set(Data("never".utf8), forKey: "never").value
      for index in 0..<20 {
        try await level.set(
          Data("\(index)".utf8), forKey: "bulk\(index)", expiry: .after(.seconds(10))
        ).value
      }
      let entry = try await level.entry(forKey: "short")
      #expect(abs(entry.storedAt.timeIntervalSince(start)) < 0.001)
      #expect(abs(entry.expiresAt!.timeIntervalSince(start.addingTimeInterval(60))) < 0.001)
      #expect(try await level.entry(forKey: "never").expiresAt == nil)

      clock.advance(by: .seconds(61))
      #expect(await outcome(level.get("short")).failure as? FetchError == .valueNotInCache)
      #expect(await outcome(level.get("bulk3")).failure as? FetchError == .valueNotInCache)
      #expect(try await level.get("long").value == Data("long".utf8))
      try await level.removeExpired().value
      let rows = try await client.query(
        "SELECT count(*) FROM carlos_cache WHERE namespace = \(level.name)"
      ).collect()
      #expect(try rows.first?.decode(Int64.self) == 2)  // long, never

      // An expiry already past stores nothing and removes the older value.
      try await level.set(Data("gone".utf8), forKey: "long", expiry: .after(.seconds(-1))).value
      #expect(await outcome(level.get("long")).failure as? FetchError == .valueNotInCache)
    }
  }

  @Test("capacity: eviction deletes the oldest written rows until the namespace fits")
  func capacityEvictsOldest() async throws {
    try await PostgresTestServer.withClient { client in
      let clock = ManualClock()
      let level = try level(client) {
        $0.capacity = 10_000
        $0.clock = clock
        $0.batchSize = 4
      }
      for index in 0..<30 {
        clock.advance(by: .seconds(1))
        try await level.set(Data(count: 999), forKey: "k\(index)").value  // 1,001-1,002 bytes a row
      }
      try await level.enforceCapacity().value
      let usage = try await client.query(
        "SELECT coalesce(sum(size), 0)::bigint, count(*) FROM carlos_cache WHERE namespace = \(level.name)"
      ).collect()
      let (bytes, rows) = try #require(usage.first).decode((Int64, Int64).self)
      #expect(bytes <= 10_000)
      #expect(rows >= 9)
      #expect(try await level.get("k29").value.count == 999)
      #expect(await outcome(level.get("k0")).failure as? FetchError == .valueNotInCache)
      #expect(level.statistics.evictionCount == 30 - Int(rows))
    }
  }

  @Test("the logged table is an option, separate from the unlogged one")
  func loggedTable() async throws {
    try await PostgresTestServer.withClient { client in
      let namespace = PostgresTestServer.namespace()
      let logged = try level(client, namespace) { $0.durability = .logged }
      let unlogged = try level(client, namespace)
      try await logged.set(Data("durable".utf8), forKey: "k").value
      #expect(await outcome(unlogged.get("k")).failure as? FetchError == .valueNotInCache)
      #expect(try await logged.get("k").value == Data("durable".utf8))
      let kinds = try await client.query(
        """
        SELECT relname, relpersistence::text FROM pg_class
        WHERE relname IN ('carlos_cache', 'carlos_cache_logged') ORDER BY relname
        """
      ).collect().map { try $0.decode((String, String).self) }
      #expect(kinds.map(\.0) == ["carlos_cache", "carlos_cache_logged"])
      #expect(kinds.map(\.1) == ["u", "p"])
    }
  }

  @Test("in memory >>> postgres >>> fetcher, gets fall through and writes reach PostgreSQL")
  func composition() async throws {
    try await PostgresTestServer.withClient { client in
      let level = try level(client)
      let memory = MemoryCacheLevel<String, Data>(capacity: 100)
      let cache =
        memory >>> level
        >>> BasicFetcher<String, Data> { key in Future(Data("fetched \(key)".utf8)) }
      #expect(try await cache.get("a").value == Data("fetched a".utf8))
      #expect(
        try await eventually(within: .seconds(5), "write-back") { try await level.get("a").value }
          == Data("fetched a".utf8))
    }
  }
}

extension Result {
  /// The error of a failure.
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
#endif
