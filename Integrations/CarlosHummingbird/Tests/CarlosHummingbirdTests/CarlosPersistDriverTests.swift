#if Hummingbird
import Carlos
import CarlosHummingbird
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// A pipeline whose every operation fails with `Outage`.
private struct DownLevel: InsertingCacheLevel, TimedCacheLevel {
  struct Outage: Error {}
  func get(_ key: String) -> Future<Data> { Future(Outage()) }
  func set(_ value: Data, forKey key: String) -> Future<Void> { Future(Outage()) }
  func set(_ value: Data, forKey key: String, expiry: Expiry) -> Future<Void> { Future(Outage()) }
  func remove(_ key: String) -> Future<Void> { Future(Outage()) }
  func entry(forKey key: String) -> Future<CacheEntry<Data>> { Future(Outage()) }
  func insertIfAbsent(_ value: Data, forKey key: String) -> Future<Bool> { Future(Outage()) }
  func insertIfAbsent(_ value: Data, forKey key: String, expiry: Expiry) -> Future<Bool> {
    Future(Outage())
  }
  func clear() {}
  func onMemoryWarning() {}
}

/// A clock whose every reading is one millisecond after the one before.
private final class SteppingClock: CacheClock, Sendable {
  private let readings = Mutex(0.0)
  func now() -> Date {
    let step = readings.withLock { count in
      count += 1
      return count
    }
    return Date(timeIntervalSinceNow: step / 1000)
  }
}

@Suite("CarlosPersistDriver")
struct CarlosPersistDriverTests {
  @Test(
    "of 200 creates of one key racing on 4 tasks, exactly one succeeds; the rest are duplicates")
  func exactlyOneCreateWins() async throws {
    let driver = CarlosPersistDriver(memoryOverStore())
    let outcomes = await withTaskGroup(of: [Result<Int, any Error>].self) { tasks in
      for task in 0..<4 {
        tasks.addTask {
          await withTaskGroup(of: Result<Int, any Error>.self) { creates in
            for index in 0..<50 {
              creates.addTask {
                let value = task * 100 + index
                do {
                  try await driver.create(key: "race", value: value, expires: nil)
                  return .success(value)
                } catch {
                  return .failure(error)
                }
              }
            }
            return await creates.reduce(into: []) { $0.append($1) }
          }
        }
      }
      return await tasks.reduce(into: []) { $0 += $1 }
    }
    #expect(outcomes.count == 200)
    let winners = outcomes.compactMap { try? $0.get() }
    #expect(winners.count == 1)
    let duplicates = outcomes.filter {
      if case .failure(let error) = $0 { return error as? PersistError == .duplicate }
      return false
    }
    #expect(duplicates.count == 199)
    #expect(try await driver.get(key: "race", as: Int.self) == winners.first)
  }

  @Test("set without an expiry keeps the expiry of the value it replaces")
  func setKeepsExpiry() async throws {
    let pipeline = memoryOverStore()
    let driver = CarlosPersistDriver(pipeline)
    try await driver.set(key: "k", value: "first", expires: .seconds(60))
    let before = try await pipeline.entry(forKey: "k").expiresAt
    try await driver.set(key: "k", value: "second", expires: nil)
    let after = try await pipeline.entry(forKey: "k")
    #expect(try await driver.get(key: "k", as: String.self) == "second")
    #expect(before != nil)
    #expect(after.expiresAt == before)
    #expect(try await pipeline.lower.entry(forKey: "k").expiresAt == before)
  }

  @Test("set without an expiry over a value that never expires stores one that never expires")
  func setWithoutExpiryStaysForever() async throws {
    let driver = CarlosPersistDriver(memoryOverStore())
    try await driver.set(key: "k", value: 1, expires: nil)
    try await driver.set(key: "k", value: 2, expires: nil)
    let answer = try await driver.getWithTTL(key: "k", as: Int.self)
    #expect(answer?.object == 2)
    #expect(answer?.ttl == nil)
  }

  @Test("set with an expiry replaces the old expiry")
  func setWithExpiryReplacesIt() async throws {
    let driver = CarlosPersistDriver(memoryOverStore())
    try await driver.set(key: "k", value: 1, expires: .seconds(5))
    try await driver.set(key: "k", value: 2, expires: .seconds(600))
    let ttl = try #require(try await driver.getWithTTL(key: "k", as: Int.self)?.ttl)
    #expect(ttl > .seconds(500) && ttl <= .seconds(600))
  }

  @Test("create with an expiry stores it in every level")
  func createWithExpiry() async throws {
    let pipeline = memoryOverStore()
    let driver = CarlosPersistDriver(pipeline)
    try await driver.create(key: "k", value: "v", expires: .seconds(30))
    let upper = try await pipeline.upper.entry(forKey: "k").expiresAt
    let lower = try await pipeline.lower.entry(forKey: "k").expiresAt
    #expect(upper != nil)
    #expect(upper == lower)
  }

  @Test("create and set with an expiry give every level one deadline, however slowly they store")
  func oneDeadlineForEveryLevel() async throws {
    // Each reading of this clock is a millisecond later than the last, as when the
    // lower level is slow or the clock ticks between the two stores.
    let clock = SteppingClock()
    let pipeline =
      MemoryCacheLevel<String, Data>(capacity: 1 << 20, clock: clock)
      >>> MemoryCacheLevel<String, Data>(capacity: 1 << 20, clock: clock)
    let driver = CarlosPersistDriver(pipeline)
    try await driver.create(key: "created", value: "v", expires: .seconds(30))
    try await driver.set(key: "set", value: "v", expires: .seconds(30))
    for key in ["created", "set"] {
      let upper = try await pipeline.upper.entry(forKey: key).expiresAt
      let lower = try await pipeline.lower.entry(forKey: key).expiresAt
      #expect(upper != nil, "\(key)")
      #expect(upper == lower, "\(key)")
    }
  }

  @Test("a key whose value expired can be created again")
  func createAfterExpiry() async throws {
    let driver = CarlosPersistDriver(memoryOverStore())
    try await driver.create(key: "k", value: "old", expires: .milliseconds(50))
    try await Task.sleep(for: .milliseconds(100))
    try await driver.create(key: "k", value: "new", expires: nil)
    #expect(try await driver.get(key: "k", as: String.self) == "new")
  }

  @Test("create with an expiry of zero succeeds and stores nothing, unless the key holds a value")
  func createExpiredAtOnce() async throws {
    let driver = CarlosPersistDriver(memoryOverStore())
    try await driver.create(key: "k", value: "gone", expires: .zero)
    #expect(try await driver.get(key: "k", as: String.self) == nil)
    try await driver.create(key: "k", value: "kept", expires: nil)
    await #expect(throws: PersistError.duplicate) {
      try await driver.create(key: "k", value: "late", expires: .zero)
    }
    #expect(try await driver.get(key: "k", as: String.self) == "kept")
  }

  @Test("a missing key is nil for get and getWithTTL, and removing it succeeds")
  func missingKey() async throws {
    let driver = CarlosPersistDriver(memoryOverStore())
    #expect(try await driver.get(key: "nothing", as: String.self) == nil)
    #expect(try await driver.getWithTTL(key: "nothing", as: String.self) == nil)
    try await driver.remove(key: "nothing")
  }

  @Test("a value that does not decode as the asked type fails getWithTTL with invalidConversion")
  func invalidConversionWithTTL() async throws {
    let driver = CarlosPersistDriver(memoryOverStore())
    try await driver.set(key: "k", value: [1, 2, 3], expires: nil)
    await #expect(throws: PersistError.invalidConversion) {
      try await driver.getWithTTL(key: "k", as: String.self)
    }
  }

  @Test("any other failure of the pipeline is thrown unchanged")
  func pipelineFailures() async throws {
    let driver = CarlosPersistDriver(DownLevel())
    await #expect(throws: DownLevel.Outage.self) { try await driver.get(key: "k", as: Int.self) }
    await #expect(throws: DownLevel.Outage.self) {
      try await driver.create(key: "k", value: 1, expires: nil)
    }
    await #expect(throws: DownLevel.Outage.self) {
      try await driver.set(key: "k", value: 1, expires: nil)
    }
    await #expect(throws: DownLevel.Outage.self) { try await driver.remove(key: "k") }
  }

  @Test("a single memory level is a pipeline too")
  func singleLevel() async throws {
    let driver = CarlosPersistDriver(MemoryCacheLevel<String, Data>(capacity: 1 << 20))
    try await driver.create(key: "k", value: "v")
    await #expect(throws: PersistError.duplicate) { try await driver.create(key: "k", value: "w") }
    #expect(try await driver.get(key: "k", as: String.self) == "v")
  }

  @Test(
    "mounted in a live Hummingbird server as a service, it answers HTTP requests and stops on shutdown"
  )
  func liveServer() async throws {
    let driver = CarlosPersistDriver(memoryOverStore(), tidyInterval: .seconds(1))
    let app = Application(router: persistRouter(driver), services: [driver])
    try await app.test(.live) { client in
      try await client.execute(uri: "/create/page", method: .put, body: ByteBuffer(string: "hi")) {
        #expect($0.status == .ok)
      }
      try await client.execute(uri: "/create/page", method: .put, body: ByteBuffer(string: "hi")) {
        #expect($0.status == .conflict)
      }
      try await client.execute(uri: "/persist/page", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body) == "hi")
      }
    }
  }
}
#endif
