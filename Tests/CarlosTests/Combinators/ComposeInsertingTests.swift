import Carlos
import Foundation
import Testing

/// A memory level whose inserts store at once but answer only when `release()` is called.
private final class HeldInsertLevel: InsertingCacheLevel {
  let memory = MemoryCacheLevel<String, Int>(capacity: 100)
  /// The inserts not answered yet, with what they will answer.
  private let held = Guarded<[(Promise<Bool>, Bool)]>([])

  func get(_ key: String) -> Future<Int> { memory.get(key) }
  func set(_ value: Int, forKey key: String) -> Future<Void> { memory.set(value, forKey: key) }
  func set(_ value: Int, forKey key: String, expiry: Expiry) -> Future<Void> {
    memory.set(value, forKey: key, expiry: expiry)
  }
  func remove(_ key: String) -> Future<Void> { memory.remove(key) }
  func clear() { memory.clear() }
  func onMemoryWarning() {}

  func insertIfAbsent(_ value: Int, forKey key: String) -> Future<Bool> {
    insertIfAbsent(value, forKey: key, expiry: .never)
  }

  func insertIfAbsent(_ value: Int, forKey key: String, expiry: Expiry) -> Future<Bool> {
    let promise = Promise<Bool>()
    let stored = memory.insertIfAbsent(value, forKey: key, expiry: expiry).result?.value ?? false
    held.withLock { $0.append((promise, stored)) }
    return promise.future
  }

  /// Answers every insert made so far.
  func release() {
    for (promise, stored) in held.withLock({ $0 }) { promise.succeed(stored) }
  }
}

@Suite("Composition of two inserting levels")
struct ComposeInsertingTests {
  private func memory() -> MemoryCacheLevel<String, Int> {
    MemoryCacheLevel<String, Int>(capacity: 1_000)
  }

  @Test("upper >>> lower of two inserting levels is itself an inserting, timed level")
  func isInsertingAndTimed() {
    let cache = memory() >>> memory()
    let inserting: any InsertingCacheLevel<String, Int> = cache
    let timed: any TimedCacheLevel<String, Int> = cache
    #expect(inserting.levelName == timed.levelName)
    #expect(cache.levelName == "MemoryCacheLevel >>> MemoryCacheLevel")
  }

  @Test("a composition with a plain level is still a BasicCache, as before")
  func plainCompositionUnchanged() {
    let fetcher = BasicFetcher<String, Int> { _ in Future(1) }
    let cache = memory() >>> memory() >>> fetcher
    let basic: BasicCache<String, Int> = cache
    let named: BasicCache<String, Int> = memory() >>> memory()
    #expect(basic.levelName == named.levelName)
  }

  @Test("inserting an absent key stores it in both levels and says true")
  func insertAbsent() async throws {
    let upper = memory()
    let lower = memory()
    let cache = upper >>> lower
    #expect(try await cache.insertIfAbsent(1, forKey: "k") == true)
    #expect(try await upper.get("k") == 1)
    #expect(try await lower.get("k") == 1)
  }

  @Test("a key held by the lower level is not inserted: false, and neither level changes")
  func lowerHolds() async throws {
    let upper = memory()
    let lower = memory()
    try await lower.set(1, forKey: "k")
    let cache = upper >>> lower
    #expect(try await cache.insertIfAbsent(2, forKey: "k") == false)
    #expect(try await lower.get("k") == 1)
    await #expect(throws: FetchError.valueNotInCache) { try await upper.get("k") }
  }

  @Test("the lower level decides: a key held only by the upper level is inserted")
  func lowerDecides() async throws {
    let upper = memory()
    let lower = memory()
    try await upper.set(1, forKey: "k")
    let cache = upper >>> lower
    #expect(try await cache.insertIfAbsent(2, forKey: "k") == true)
    #expect(try await lower.get("k") == 2)
    #expect(try await upper.get("k") == 2)
  }

  @Test("an insert's expiry reaches both levels")
  func expiryReachesBoth() async throws {
    // One clock that stands still: a relative expiry is resolved by each level when it
    // stores, so on the system clock a loaded machine put the two deadlines apart.
    let clock = ManualClock()
    let upper = MemoryCacheLevel<String, Int>(capacity: 1_000, clock: clock)
    let lower = MemoryCacheLevel<String, Int>(capacity: 1_000, clock: clock)
    let cache = upper >>> lower
    #expect(try await cache.insertIfAbsent(1, forKey: "k", expiry: .after(.seconds(60))) == true)
    let above = try await upper.entry(forKey: "k")
    let below = try await lower.entry(forKey: "k")
    #expect(above.expiresAt != nil)
    #expect(above.expiresAt == below.expiresAt)
  }

  @Test("of 200 inserts of one key racing on 4 threads, exactly one stores, in both levels")
  func exactlyOneWins() async throws {
    let upper = memory()
    let lower = memory()
    let cache = upper >>> lower
    let inserts = await issueConcurrently(threads: 4, perThread: 50) { thread, index in
      let value = thread * 1_000 + index
      return cache.insertIfAbsent(value, forKey: "race").map { stored in stored ? value : nil }
    }
    #expect(await waitUntilCompleted(inserts))
    let winners = inserts.compactMap { $0.result?.value ?? nil }
    #expect(winners.count == 1)
    #expect(try await lower.get("race") == winners.first)
    #expect(try await upper.get("race") == winners.first)
  }

  @Test(
    "an insert that loses while the winner is in flight does not keep the winner from the upper level"
  )
  func losingInsertIsNotAWrite() async throws {
    let upper = memory()
    let lower = HeldInsertLevel()
    let cache = upper >>> lower
    let winner: Future<Bool> = cache.insertIfAbsent(1, forKey: "k")
    let loser: Future<Bool> = cache.insertIfAbsent(2, forKey: "k")
    lower.release()
    #expect(try await winner.value == true)
    #expect(try await loser.value == false)
    #expect(try await upper.get("k") == 1, "the stored value reached the upper level")
  }

  @Test("a set made while an insert is in flight is not overwritten in the upper level")
  func insertDoesNotOverwriteNewerSet() async throws {
    let upper = memory()
    let lower = HeldInsertLevel()
    let cache = upper >>> lower
    let insert: Future<Bool> = cache.insertIfAbsent(1, forKey: "k")
    try await cache.set(2, forKey: "k")
    lower.release()
    #expect(try await insert.value == true)
    #expect(try await upper.get("k") == 2)
    #expect(try await lower.get("k") == 2)
  }

  @Test("entry(forKey:) answers the upper entry, or the lower one on an upper miss")
  func entryFallsThrough() async throws {
    let upper = memory()
    let lower = memory()
    let cache = upper >>> lower
    try await lower.set(7, forKey: "k", expiry: .after(.seconds(60)))
    let entry = try await cache.entry(forKey: "k")
    #expect(entry.value == 7)
    #expect(entry.expiresAt != nil)
    try await upper.set(8, forKey: "k")
    #expect(try await cache.entry(forKey: "k").value == 8)
  }

  @Test("get, set and remove behave as in the plain composition")
  func plainOperations() async throws {
    let upper = memory()
    let lower = memory()
    let cache = upper >>> lower
    try await lower.set(3, forKey: "k")
    #expect(try await cache.get("k") == 3)
    #expect(try await upper.get("k") == 3)
    try await cache.set(4, forKey: "k")
    #expect(try await lower.get("k") == 4)
    try await cache.remove("k")
    await #expect(throws: FetchError.valueNotInCache) { try await cache.get("k") }
  }

  @Test("concurrent get(_:orLoad:) of one key through copies of the composition share one load")
  func sharesLoads() async throws {
    let cache = memory() >>> memory()
    let copy = cache
    let loads = Guarded(0)
    let gate = Promise<Int>()
    let loader: @Sendable (String) -> Future<Int> = { _ in
      loads.withLock { $0 += 1 }
      return gate.future
    }
    let first: Future<Int> = cache.get("k", orLoad: loader)
    let second: Future<Int> = copy.get("k", orLoad: loader)
    gate.succeed(9)
    #expect(try await first.value == 9)
    #expect(try await second.value == 9)
    #expect(loads.withLock { $0 } == 1)
  }

  @Test("compositions of inserting levels nest: (a >>> b) >>> c inserts into c")
  func nests() async throws {
    let (a, b, c) = (memory(), memory(), memory())
    let cache = (a >>> b) >>> c
    #expect(try await cache.insertIfAbsent(5, forKey: "k") == true)
    #expect(try await c.get("k") == 5)
    #expect(try await a.get("k") == 5)
    #expect(try await cache.insertIfAbsent(6, forKey: "k") == false)
  }
}
