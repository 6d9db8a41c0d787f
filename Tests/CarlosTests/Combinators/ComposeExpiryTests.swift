import Carlos
import Foundation
import Testing

/// A value copied up from a lower level never outlives it there.
@Suite("Composition: the expiry of a copied-up value")
struct ComposeExpiryTests {
  let clock = ManualClock()

  func memory(_ expiration: ExpirationPolicy<String, Int> = .never) -> MemoryCacheLevel<
    String, Int
  > {
    MemoryCacheLevel(capacity: 100, expiration: expiration, clock: clock)
  }

  @Test(
    "memory >>> disk: a value set with an expiry, copied up again after memory lost it, expires in memory too"
  )
  func perSetExpirySurvivesTheCopyUp() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let upper = MemoryCacheLevel<String, Data>(capacity: 1 << 20, clock: clock)
    let disk = DiskCacheLevel<String, Data>(path: folder.path, clock: clock)
    let cache = upper >>> disk
    let token = Data("token".utf8)
    try await cache.set(token, forKey: "session", expiry: .after(.seconds(60)))
    upper.onMemoryWarning()  // the memory level drops its copy
    clock.advance(by: .seconds(30))
    #expect(try await cache.get("session") == token)  // from disk, copied into memory
    clock.advance(by: .seconds(31))
    #expect(upper.get("session").result?.value == nil)
    await #expect(throws: (any Error).self) { try await cache.get("session") }
  }

  @Test(
    "the copy expires when the lower level's value does, when the upper level's policy is longer")
  func lowerDeadlineWins() async throws {
    let (upper, lower) = (memory(.afterWrite(.seconds(300))), memory())
    try await lower.set(1, forKey: "k", expiry: .after(.seconds(60)))
    let deadline = try await lower.entry(forKey: "k").expiresAt
    #expect(try await (upper >>> lower).get("k") == 1)
    #expect(try await upper.entry(forKey: "k").expiresAt == deadline)
  }

  @Test("the copy expires when the upper level's policy says, when that comes first")
  func upperPolicyWins() async throws {
    let (upper, lower) = (memory(.afterWrite(.seconds(30))), memory())
    try await lower.set(1, forKey: "k", expiry: .after(.seconds(60)))
    clock.advance(by: .seconds(10))
    #expect(try await (upper >>> lower).get("k") == 1)
    let copy = try await upper.entry(forKey: "k")
    #expect(copy.expiresAt == copy.storedAt.addingTimeInterval(30))
  }

  @Test("a value that never expires below is copied under the upper level's policy, as before")
  func noDeadlineBelow() async throws {
    let (upper, lower) = (memory(.afterAccess(.seconds(30))), memory())
    try await lower.set(1, forKey: "k")
    #expect(try await (upper >>> lower).get("k") == 1)
    clock.advance(by: .seconds(20))
    #expect(upper.get("k").result?.value == 1)  // slides the after-access expiry
    clock.advance(by: .seconds(20))
    #expect(upper.get("k").result?.value == 1)
  }

  @Test(
    "through nested compositions and getWithSource, the deadline of the level that had the value reaches the top"
  )
  func nestedAndWithSource() async throws {
    let (top, middle, bottom) = (memory(), memory(), memory())
    try await bottom.set(1, forKey: "k", expiry: .after(.seconds(60)))
    let deadline = try await bottom.entry(forKey: "k").expiresAt
    let cache = top >>> (middle >>> bottom)
    let answer = try await cache.getWithSource("k")
    #expect(answer.value == 1 && answer.expiresAt == deadline && answer.wasWrittenBack)
    #expect(try await top.entry(forKey: "k").expiresAt == deadline)
    #expect(try await middle.entry(forKey: "k").expiresAt == deadline)
  }

  @Test("a timed level's getWithSource tells when the value expires; other levels do not")
  func answersTellTheDeadline() async throws {
    let level = memory()
    try await level.set(1, forKey: "timed", expiry: .after(.seconds(5)))
    try await level.set(2, forKey: "forever")
    let timed = try await level.getWithSource("timed")
    #expect(timed.expiresAt == clock.now().addingTimeInterval(5))
    #expect(try await level.getWithSource("forever").expiresAt == nil)
    let fetcher = BasicFetcher<String, Int> { _ in 3 }
    #expect(try await fetcher.getWithSource("any").expiresAt == nil)
  }

  @Test(
    "an upper level that cannot expire values is not given a copy that would outlive its source")
  func upperWithoutExpiry() async throws {
    let upper = PlainLevel()
    let lower = memory()
    try await lower.set(1, forKey: "k", expiry: .after(.seconds(60)))
    try await lower.set(2, forKey: "forever")
    let cache = upper >>> lower
    #expect(try await cache.get("k") == 1)
    #expect(try await cache.get("forever") == 2)
    #expect(upper.get("k").result?.value == nil)
    #expect(upper.get("forever").result?.value == 2)
  }

  @Test("the copy a refresh stores expires when the reloaded value does below")
  func refreshCarriesTheDeadline() async throws {
    let (upper, lower) = (memory(), memory())
    try await upper.set(1, forKey: "k")
    try await lower.set(2, forKey: "k", expiry: .after(.seconds(60)))
    let deadline = try await lower.entry(forKey: "k").expiresAt
    let cache = upper.refreshing(from: lower, after: .seconds(10), clock: clock)
    clock.advance(by: .seconds(11))
    #expect(try await cache.get("k") == 1)  // the old value, while the reload runs
    #expect(await eventually { upper.get("k").result?.value == 2 })
    #expect(try await upper.entry(forKey: "k").expiresAt == deadline)
  }
}

/// A level written the Carlos 0.x way: get, set, clear and memory warnings only, so it
/// refuses a value set with an expiry.
private final class PlainLevel: CacheLevel {
  let storage = Lock<[String: Int]>([:])
  func get(_ key: String) -> Future<Int> {
    storage.withLock { $0[key] }.map { Future($0) } ?? Future(FetchError.valueNotInCache)
  }
  func set(_ value: Int, forKey key: String) -> Future<Void> {
    storage.withLock { $0[key] = value }
    return Future()
  }
  func clear() { storage.withLock { $0 = [:] } }
  func onMemoryWarning() {}
}
