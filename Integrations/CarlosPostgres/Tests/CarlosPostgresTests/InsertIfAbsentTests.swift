#if Postgres
import Carlos
import CarlosPostgres
import Foundation
import PostgresNIO
import Testing

@Suite("PostgresCacheLevel.insertIfAbsent", .enabled(if: !PostgresTestServer.skipped))
struct InsertIfAbsentTests {
  @Test("stores only where the key holds nothing, and says whether it stored")
  func storesOnlyWhenAbsent() async throws {
    try await PostgresTestServer.withClient { client in
      let level = try PostgresCacheLevel<String>(
        client: client, options: PostgresCacheOptions(namespace: PostgresTestServer.namespace()))
      #expect(try await level.insertIfAbsent(Data("first".utf8), forKey: "k"))
      #expect(try await !level.insertIfAbsent(Data("second".utf8), forKey: "k"))
      #expect(try await level.get("k") == Data("first".utf8))
      try await level.remove("k")
      #expect(try await level.insertIfAbsent(Data("third".utf8), forKey: "k"))
      #expect(try await level.get("k") == Data("third".utf8))
    }
  }

  @Test("an expired value counts as absent; the new value keeps its own expiry")
  func expiredIsAbsent() async throws {
    try await PostgresTestServer.withClient { client in
      let clock = ManualClock()
      var options = PostgresCacheOptions(namespace: PostgresTestServer.namespace())
      options.clock = clock
      let level = try PostgresCacheLevel<String>(client: client, options: options)
      try await level.set(Data("old".utf8), forKey: "k", expiry: .after(.seconds(10)))
      #expect(try await !level.insertIfAbsent(Data("new".utf8), forKey: "k"))
      clock.advance(by: .seconds(11))
      #expect(
        try await level.insertIfAbsent(Data("new".utf8), forKey: "k", expiry: .after(.seconds(60))))
      let entry = try await level.entry(forKey: "k")
      #expect(entry.value == Data("new".utf8))
      #expect(abs(entry.expiresAt!.timeIntervalSince(clock.now().addingTimeInterval(60))) < 0.001)
      #expect(
        try await !level.insertIfAbsent(Data("x".utf8), forKey: "gone", expiry: .after(.zero)))
      #expect(await outcome(level.get("gone")).failure as? FetchError == .valueNotInCache)
    }
  }

  @Test("of 200 inserts of one key racing on two levels (two processes' worth), exactly one stores")
  func atomicUnderConcurrency() async throws {
    try await PostgresTestServer.withClient { client in
      let namespace = PostgresTestServer.namespace()
      // The test is about atomicity: 200 inserts queued on one row lock can take longer
      // than the default 2 s on a busy shared machine (it did once in CI).
      let levels = try (0..<2).map { _ in
        try PostgresCacheLevel<String>(
          client: client,
          options: PostgresCacheOptions(namespace: namespace, operationTimeout: .seconds(30)))
      }
      let stored = try await withThrowingTaskGroup(of: Bool.self) { group in
        for index in 0..<200 {
          group.addTask {
            try await levels[index % 2].insertIfAbsent(Data("\(index)".utf8), forKey: "race")
          }
        }
        return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
      }
      #expect(stored == 1)
      let value = try await levels[0].get("race")
      #expect(Int(String(decoding: value, as: UTF8.self)).map { (0..<200).contains($0) } == true)
    }
  }

  @Test("a value over the size limit fails and changes nothing")
  func tooLarge() async throws {
    try await PostgresTestServer.withClient { client in
      var options = PostgresCacheOptions(namespace: PostgresTestServer.namespace())
      options.maximumValueSize = 4
      let level = try PostgresCacheLevel<String>(client: client, options: options)
      try await level.set(Data("old".utf8), forKey: "k")
      let result = await outcome(level.insertIfAbsent(Data("too large".utf8), forKey: "k"))
      #expect(
        result.failure as? PostgresCacheLevelError == .valueTooLarge(size: 9, limit: 4))
      #expect(try await level.get("k") == Data("old".utf8))
    }
  }
}
#endif
