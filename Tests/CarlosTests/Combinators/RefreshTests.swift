import Carlos
import Foundation
import Testing

/// A lower level whose gets the test completes by hand, counting them.
final class HeldLevel: Fetcher {
  typealias KeyType = String
  typealias OutputType = String

  private let pending = Lock<[Promise<String>]>([])
  private let count = Lock(0)

  var gets: Int { count.withLock { $0 } }

  func get(_ key: String) -> Future<String> {
    let promise = Promise<String>()
    pending.withLock { $0.append(promise) }
    count.withLock { $0 += 1 }
    return promise.future
  }

  /// Completes every open get with `result`.
  func complete(with result: FutureResult<String>) {
    let open = pending.withLock { pending in
      defer { pending = [] }
      return pending
    }
    for promise in open { promise.complete(result) }
  }
}

@Suite("Refresh", .recordingLog)
struct RefreshTests {
  let clock = ManualClock()

  private func make() -> (
    MemoryCacheLevel<String, String>, HeldLevel,
    RefreshCache<MemoryCacheLevel<String, String>, HeldLevel>
  ) {
    let memory = MemoryCacheLevel<String, String>(capacity: 1_000, clock: clock)
    let lower = HeldLevel()
    return (memory, lower, memory.refreshing(from: lower, after: .seconds(60), clock: clock))
  }

  @Test("a young value is served without a reload")
  func youngValue() {
    let (memory, lower, cache) = make()
    memory.set("v1", forKey: "k")
    clock.advance(by: .seconds(59))
    #expect(cache.get("k").result?.value == "v1")
    #expect(lower.gets == 0)
  }

  @Test("an old value is served at once and replaced when the reload succeeds")
  func oldValueReloads() {
    let (memory, lower, cache) = make()
    memory.set("v1", forKey: "k")
    clock.advance(by: .seconds(60))
    #expect(cache.get("k").result?.value == "v1")
    #expect(cache.isReloading("k"))
    lower.complete(with: .success("v2"))
    #expect(!cache.isReloading("k"))
    #expect(memory.get("k").result?.value == "v2")
    #expect(cache.get("k").result?.value == "v2")
    #expect(lower.gets == 1)
  }

  @Test(
    "asked with its source, as a composition above asks it, an old value is served and reloaded too"
  )
  func withSourceReloads() {
    let (memory, lower, cache) = make()
    memory.set("v1", forKey: "k")
    clock.advance(by: .seconds(60))
    let answer = cache.getWithSource("k").result?.value
    #expect(answer?.value == "v1" && answer?.source == "MemoryCacheLevel")
    #expect(cache.isReloading("k"))
    lower.complete(with: .success("v2"))
    #expect(memory.get("k").result?.value == "v2")
    let above = MemoryCacheLevel<String, String>(capacity: 10, clock: clock)
    clock.advance(by: .seconds(60))
    #expect((above >>> cache).get("k").result?.value == "v2")
    #expect(cache.isReloading("k"), "a miss above reached the refresh below")
  }

  @Test("one reload per key at a time, however many gets")
  func oneReloadPerKey() {
    let (memory, lower, cache) = make()
    memory.set("v1", forKey: "a")
    memory.set("v1", forKey: "b")
    clock.advance(by: .seconds(120))
    for _ in 0..<50 {
      #expect(cache.get("a").result?.value == "v1")
      #expect(cache.get("b").result?.value == "v1")
    }
    #expect(lower.gets == 2)
    lower.complete(with: .success("v2"))
    clock.advance(by: .seconds(60))
    _ = cache.get("a")
    #expect(lower.gets == 3)
  }

  @Test("a failed reload keeps the old value, and the next get tries again")
  func failedReload() {
    let (memory, lower, cache) = make()
    memory.set("v1", forKey: "k")
    clock.advance(by: .seconds(61))
    _ = cache.get("k")
    lower.complete(with: .error(TestError(5)))
    #expect(memory.get("k").result?.value == "v1")
    #expect(cache.get("k").result?.value == "v1")
    #expect(lower.gets == 2)
  }

  @Test("a set during a reload wins over the reloaded value")
  func setDuringReload() {
    let (memory, lower, cache) = make()
    memory.set("v1", forKey: "k")
    clock.advance(by: .seconds(61))
    _ = cache.get("k")
    cache.set("mine", forKey: "k")
    lower.complete(with: .success("reloaded"))
    #expect(memory.get("k").result?.value == "mine")
  }

  @Test("a miss is answered by the lower level and written back")
  func miss() async throws {
    let (memory, lower, cache) = make()
    let get: Future<_> = cache.get("k")
    lower.complete(with: .success("fetched"))
    #expect(try await get.value == "fetched")
    #expect(memory.get("k").result?.value == "fetched")
  }

  @Test("an expired value is a miss, refresh or not")
  func expiredIsMiss() async throws {
    let memory = MemoryCacheLevel<String, String>(
      capacity: 1_000, expiration: .afterWrite(.seconds(100)), clock: clock)
    let lower = HeldLevel()
    let cache = memory.refreshing(from: lower, after: .seconds(60), clock: clock)
    try await memory.set("v1", forKey: "k")
    clock.advance(by: .seconds(100))
    let get: Future<_> = cache.get("k")
    #expect(!get.isCompleted)
    lower.complete(with: .success("v2"))
    #expect(try await get.value == "v2")
  }

  @Test("remove and clear reach both levels")
  func removeAndClear() async throws {
    let memory = MemoryCacheLevel<String, String>(capacity: 1_000, clock: clock)
    let lower = SpyLevel<String, String>(["k": "x"])
    let cache = memory.refreshing(from: lower, after: .seconds(1), clock: clock)
    try await memory.set("x", forKey: "k")
    _ = try? await cache.remove("k").value
    #expect(memory.count == 0 && lower.removes == ["k"])
    cache.clear()
    #expect(lower.clears == 1)
  }
}
