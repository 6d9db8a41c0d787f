import Carlos
import Foundation
import Testing

@Suite("AsyncCacheLevel: a level written with async/await is a level")
struct AsyncCacheLevelTests {
  @Test("an actor store answers get, set and remove through its Future-returning members")
  func bridges() async throws {
    let store = ActorStore(["k": "v"])
    let future: Future<String> = store.get("k")
    #expect(try await future.value == "v")
    try await store.set("w", forKey: "k")
    #expect(try await store.get("k") == "w")
    try await store.remove("k")
    await #expect(throws: FetchError.valueNotInCache) { try await store.get("k") }
  }

  @Test("composed below a memory level: a miss is fetched from the store and copied up")
  func composed() async throws {
    let memory = MemoryCacheLevel<String, String>()
    let cache = memory >>> ActorStore(["k": "stored"])
    #expect(try await cache.get("k") == "stored")
    #expect(try await memory.get("k") == "stored")
    let answer = try await (MemoryCacheLevel<String, String>() >>> ActorStore(["k": "s"]))
      .getWithSource("k")
    #expect(answer.source == "ActorStore" && answer.wasWrittenBack)
  }

  @Test("sets issued one after another from one thread reach the store in that order")
  func ordered() async throws {
    let store = ActorStore()
    for index in 0..<1_000 { _ = store.set("\(index)", forKey: "k") as Future<Void> }
    try await store.set("last", forKey: "k")
    #expect(await store.setOrder == (0..<1_000).map { "\($0)" } + ["last"])
    #expect(await store.stored("k") == "last")
  }

  @Test("pooled, capped, transformed, conditioned and with statistics, like any level")
  func combinators() async throws {
    let store = ActorStore(["1": "one"])
    let pooled = store.pooled().capRequests(2)
    #expect(try await pooled.get("1") == "one")
    let byNumber = { (number: Int) in "\(number)" } =>> store
    #expect(try await byNumber.get(1) == "one")
    let conditioned = { (key: String) in key != "secret" } <?> store
    await #expect(throws: FetchError.conditionNotSatisfied) { try await conditioned.get("secret") }
    let recorded = store.recordingStatistics()
    _ = try await recorded.get("1")
    #expect(recorded.statistics.hitCount == 1 && recorded.name == "ActorStore")
  }

  @Test("an async level refreshes a memory level: an old value is served, then reloaded")
  func refreshed() async throws {
    let clock = ManualClock()
    let store = ActorStore(["k": "v1"])
    let memory = MemoryCacheLevel<String, String>(clock: clock)
    let cache = memory.refreshing(from: store, after: .seconds(30), clock: clock)
    #expect(try await cache.get("k") == "v1")
    try await store.set("v2", forKey: "k")
    clock.advance(by: .seconds(31))
    #expect(try await cache.get("k") == "v1")
    #expect(await eventually { (try? await memory.get("k")) == "v2" })
  }

  @Test("a default expiry is refused honestly; clear reaches the store")
  func optionalMembers() async throws {
    let store = ActorStore(["k": "v"])
    await #expect(throws: FetchError.expiryNotSupported) {
      try await store.set("w", forKey: "k", expiry: .after(.seconds(5)))
    }
    #expect(await store.stored("k") == nil)
    try await store.set("v", forKey: "k", expiry: .never)
    clearSynchronously(store)
    #expect(await eventually { await store.clears == 1 })
    try await store.clear()
    #expect(await store.clears == 2)
  }
}

/// Clears `level` the way synchronous code does: through ``CacheLevel/clear()``.
func clearSynchronously<Level: CacheLevel>(_ level: Level) {
  level.clear()
}
