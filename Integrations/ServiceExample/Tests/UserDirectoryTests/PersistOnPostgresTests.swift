import Carlos
import CarlosHummingbird
import CarlosPostgres
import Foundation
import Hummingbird
import PostgresNIO
import Testing

@Suite("CarlosPersistDriver over memory >>> postgres")
struct PersistOnPostgresTests {
  /// Runs `body` with a running PostgreSQL client of the test server.
  func withPostgres<T: Sendable>(_ body: @Sendable (PostgresClient) async throws -> T)
    async throws -> T
  {
    let client = PostgresClient(configuration: try DatabaseURL.configuration(try databaseURL()))
    return try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      defer { group.cancelAll() }
      return try await body(client)
    }
  }

  func driver(_ client: PostgresClient, _ namespace: String) throws -> CarlosPersistDriver<
    InsertingComposition<MemoryCacheLevel<String, Data>, PostgresCacheLevel<String>>
  > {
    // Generous timeouts: the tests race hundreds of writes on one row, on shared machines.
    let shared = try PostgresCacheLevel<String>(
      client: client,
      options: PostgresCacheOptions(namespace: namespace, operationTimeout: .seconds(30)))
    return CarlosPersistDriver(MemoryCacheLevel<String, Data>(capacity: 1_000) >>> shared)
  }

  /// How many of `count` creates of one key, spread over `drivers` at once, succeed
  /// (the others must fail with `PersistError.duplicate`).
  static func successfulCreates<Driver: PersistDriver>(
    _ count: Int, through drivers: [Driver], expires: Duration?
  ) async throws -> Int {
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for index in 0..<count {
        group.addTask {
          do {
            try await drivers[index % drivers.count].create(
              key: "session", value: index, expires: expires)
            return true
          } catch let error as PersistError where error == .duplicate {
            return false
          }
        }
      }
      return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
  }

  @Test("of 200 creates of one key through two instances' drivers, exactly one succeeds")
  func createIsAtomicAcrossInstances() async throws {
    try await withPostgres { client in
      let namespace = "persist-\(UUID().uuidString.prefix(8))"
      let drivers = try [driver(client, namespace), driver(client, namespace)]
      #expect(try await Self.successfulCreates(200, through: drivers, expires: nil) == 1)
      let first = try await drivers[0].get(key: "session", as: Int.self)
      let second = try await drivers[1].get(key: "session", as: Int.self)
      #expect(first != nil && first == second)
    }
  }

  @Test("set without an expiry keeps the one stored; getWithTTL reads it from PostgreSQL")
  func keepsExpiry() async throws {
    try await withPostgres { client in
      let namespace = "persist-\(UUID().uuidString.prefix(8))"
      let writer = try driver(client, namespace)
      let reader = try driver(client, namespace)
      try await writer.set(key: "k", value: "one", expires: .seconds(600))
      try await writer.set(key: "k", value: "two", expires: nil)
      let read = try #require(try await reader.getWithTTL(key: "k", as: String.self))
      #expect(read.object == "two")
      let ttl = try #require(read.ttl)
      #expect(ttl > .seconds(590) && ttl <= .seconds(600))
    }
  }

  @Test(
    "over coherent caches: create is atomic across instances, and a set through one instance's driver replaces the value the other holds in memory"
  )
  func coherentAcrossInstances() async throws {
    try await withPostgres { client in
      let listener = PostgresInvalidationListener(client: client)
      let listening = Task { await listener.run() }
      defer { listening.cancel() }
      await listener.waitUntilListening()
      let namespace = "persist-\(UUID().uuidString.prefix(8))"
      let drivers = try (0..<2).map { _ in
        CarlosPersistDriver(
          CoherentCache(
            upper: MemoryCacheLevel<String, Data>(capacity: 1_000),
            lower: try PostgresCacheLevel<String>(
              client: client,
              options: PostgresCacheOptions(namespace: namespace, operationTimeout: .seconds(30))),
            listener: listener))
      }
      #expect(try await Self.successfulCreates(100, through: drivers, expires: .seconds(60)) == 1)
      let first = try await drivers[0].get(key: "session", as: Int.self)
      #expect(first != nil)
      #expect(try await drivers[1].get(key: "session", as: Int.self) == first)
      let ttl = try #require(try await drivers[1].getWithTTL(key: "session", as: Int.self)?.ttl)
      #expect(ttl > .seconds(50) && ttl <= .seconds(60), "the expiry it has in PostgreSQL")

      try await drivers[0].set(key: "session", value: -1, expires: nil)
      let deadline = ContinuousClock.now + .seconds(10)
      var seen = try await drivers[1].get(key: "session", as: Int.self)
      while seen != -1, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(20))
        seen = try await drivers[1].get(key: "session", as: Int.self)
      }
      #expect(seen == -1, "the notice dropped the old value from the other instance's memory")
    }
  }
}
