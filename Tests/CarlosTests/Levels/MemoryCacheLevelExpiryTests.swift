import Foundation
import Testing

@testable import Carlos

@Suite("MemoryCacheLevel expiry")
struct MemoryCacheLevelExpiryTests {
  static let policies: [EvictionPolicy] = [.lru, .tinyLFU, .adaptiveTinyLFU]

  private func value(_ level: MemoryCacheLevel<String, Int>, _ key: String) -> Int? {
    level.get(key).result?.value
  }

  @Test("after write: a value is a hit until its time, then a miss", arguments: policies)
  func afterWrite(policy: EvictionPolicy) {
    let clock = ManualClock()
    let level = MemoryCacheLevel<String, Int>(
      capacity: 100, policy: policy, expiration: .afterWrite(.seconds(10)), clock: clock)
    level.set(1, forKey: "a")
    clock.advance(by: .seconds(9))
    #expect(value(level, "a") == 1)
    clock.advance(by: .seconds(1))
    #expect(level.get("a").result?.error as? FetchError == .valueNotInCache)
    #expect(level.count == 0)
  }

  @Test("an update by a value of the same cost still sweeps the values that expired")
  func sameCostUpdateSweeps() {
    let clock = ManualClock()
    let level = MemoryCacheLevel<String, Int>(capacity: 100, clock: clock)
    level.set(1, forKey: "kept")
    level.set(2, forKey: "brief", expiry: .after(.seconds(1)))
    clock.advance(by: .seconds(60))
    level.set(3, forKey: "kept")  // same cost as before
    #expect(level.count == 1)
    #expect(value(level, "kept") == 3)
  }

  @Test(
    "a set renewing an expiring value keeps it until its new time, through sweeps at the old one",
    arguments: policies)
  func renewedInPlace(policy: EvictionPolicy) throws {
    let clock = ManualClock()
    let level = MemoryCacheLevel<String, Int>(
      capacity: 100, policy: policy, expiration: .afterWrite(.seconds(10)), clock: clock)
    level.set(1, forKey: "a")
    level.set(1, forKey: "other")
    clock.advance(by: .milliseconds(200))  // within the timer wheel's current tick
    level.set(2, forKey: "a")  // same cost: renewed in place, until 10.2 s
    clock.advance(by: .milliseconds(9_900))  // 10.1 s: past the first time
    level.set(3, forKey: "b")  // sweeps: "other" goes, "a" is scheduled again
    level.removeExpired()
    #expect(value(level, "a") == 2)
    #expect(value(level, "other") == nil)
    let expiresAt = try #require(level.entry(forKey: "a").result?.value?.expiresAt)
    #expect(abs(expiresAt.timeIntervalSince(clock.now()) - 0.1) < 1e-6)
    clock.advance(by: .milliseconds(100))
    #expect(value(level, "a") == nil)
    level.removeExpired()
    #expect(level.count == 1, "only b is left")
  }

  @Test("an update renewing a value in a later tick still sweeps the values that expired")
  func renewalInALaterTickSweeps() {
    let clock = ManualClock()
    let level = MemoryCacheLevel<String, Int>(
      capacity: 100, expiration: .afterWrite(.seconds(3)), clock: clock)
    level.set(1, forKey: "kept")
    level.set(2, forKey: "brief", expiry: .after(.seconds(1)))
    clock.advance(by: .seconds(2))
    level.set(3, forKey: "kept")  // same cost, later deadline
    #expect(level.count == 1)
    #expect(value(level, "kept") == 3)
  }

  @Test("after access: each read extends the life; an unread value expires")
  func afterAccess() {
    let clock = ManualClock()
    let level = MemoryCacheLevel<String, Int>(
      capacity: 100, expiration: .afterAccess(.seconds(10)), clock: clock)
    level.set(1, forKey: "read")
    level.set(2, forKey: "unread")
    for _ in 0..<5 {
      clock.advance(by: .seconds(6))
      #expect(value(level, "read") == 1)
    }
    #expect(value(level, "unread") == nil)
    clock.advance(by: .seconds(10))
    #expect(value(level, "read") == nil)
  }

  @Test("per entry: the closure decides each value's expiry")
  func perEntry() {
    let clock = ManualClock()
    let level = MemoryCacheLevel<String, Int>(
      capacity: 100,
      expiration: .perEntry { key, value in
        key == "forever" ? .never : .after(.seconds(Int64(value)))
      },
      clock: clock)
    level.set(5, forKey: "five")
    level.set(50, forKey: "fifty")
    level.set(1, forKey: "forever")
    clock.advance(by: .seconds(5))
    #expect(value(level, "five") == nil)
    #expect(value(level, "fifty") == 50)
    clock.advance(by: .seconds(1_000_000))
    #expect(value(level, "fifty") == nil)
    #expect(value(level, "forever") == 1)
  }

  @Test("an expiry given to set overrides the level's policy")
  func setOverridesPolicy() {
    let clock = ManualClock()
    let level = MemoryCacheLevel<String, Int>(
      capacity: 100, expiration: .afterWrite(.seconds(10)), clock: clock)
    level.set(1, forKey: "short", expiry: .after(.seconds(1)))
    level.set(2, forKey: "never", expiry: .never)
    level.set(3, forKey: "at", expiry: .at(clock.now().addingTimeInterval(100)))
    clock.advance(by: .seconds(1))
    #expect(value(level, "short") == nil)
    clock.advance(by: .seconds(98))
    #expect(value(level, "at") == 3)
    clock.advance(by: .seconds(1))
    #expect(value(level, "at") == nil)
    #expect(value(level, "never") == 2)
  }

  @Test("zero, negative and past expiries store nothing and remove the older value")
  func alreadyExpired() {
    let clock = ManualClock()
    let level = MemoryCacheLevel<String, Int>(capacity: 100, clock: clock)
    for expiry: Expiry in [
      .after(.zero), .after(.seconds(-3)), .at(clock.now().addingTimeInterval(-1)),
    ] {
      level.set(1, forKey: "k")
      #expect(level.set(2, forKey: "k", expiry: expiry).result?.value != nil)
      #expect(value(level, "k") == nil)
      #expect(level.count == 0)
    }
  }

  @Test(
    "a positive expiry shorter than a nanosecond stores the value until the next nanosecond",
    arguments: [Duration(secondsComponent: 0, attosecondsComponent: 1), .nanoseconds(1) / 2])
  func subNanosecond(duration: Duration) {
    let clock = ManualClock()
    let level = MemoryCacheLevel<String, Int>(capacity: 100, clock: clock)
    level.set(1, forKey: "k")
    #expect(level.set(2, forKey: "k", expiry: .after(duration)).result?.value != nil)
    #expect(value(level, "k") == 2)
    clock.advance(by: .microseconds(1))
    #expect(value(level, "k") == nil)
  }

  @Test("far-future expiries saturate: the value stays")
  func farFuture() {
    let clock = ManualClock()
    let level = MemoryCacheLevel<String, Int>(capacity: 100, clock: clock)
    level.set(1, forKey: "max", expiry: .after(.seconds(Int64.max)))
    level.set(2, forKey: "distant", expiry: .at(.distantFuture))
    clock.advance(by: .seconds(100 * 365 * 86_400))
    #expect(value(level, "max") == 1)
    #expect(value(level, "distant") == 2)
  }

  @Test("a wall clock jumping back cannot resurrect an expired value")
  func clockJumpsBack() {
    let clock = ManualClock()
    let start = clock.now()
    let level = MemoryCacheLevel<String, Int>(
      capacity: 100, expiration: .afterWrite(.seconds(10)), clock: clock)
    level.set(1, forKey: "a")
    level.set(2, forKey: "b")
    clock.advance(by: .seconds(20))
    #expect(value(level, "a") == nil)
    clock.set(to: start)
    #expect(value(level, "b") == nil)
    // New values expire relative to the latest time seen, not the jumped-back one.
    level.set(3, forKey: "c")
    clock.set(to: start.addingTimeInterval(29))
    #expect(value(level, "c") == 3)
    clock.set(to: start.addingTimeInterval(30))
    #expect(value(level, "c") == nil)
  }

  @Test("expired values leave on the next set, so they stop taking capacity", arguments: policies)
  func expiredLeaveProactively(policy: EvictionPolicy) {
    let clock = ManualClock()
    let level = MemoryCacheLevel<Int, Int>(
      capacity: 100, policy: policy, expiration: .afterWrite(.seconds(10)), clock: clock)
    for key in 0..<100 { level.set(key, forKey: key) }
    #expect(level.totalCost == 100)
    clock.advance(by: .seconds(11))
    level.set(1_000, forKey: 1_000, expiry: .never)
    #expect(level.count == 1)
    #expect(level.totalCost == 1)
    // The live values that follow are not evicted for the expired ones' sake.
    for key in 2_000..<2_099 { level.set(key, forKey: key) }
    #expect(level.count == 100)
    #expect(value(level, 1_000) == 1_000)
  }

  private func value(_ level: MemoryCacheLevel<Int, Int>, _ key: Int) -> Int? {
    level.get(key).result?.value
  }

  @Test("removeExpired removes exactly the expired values")
  func removeExpired() {
    let clock = ManualClock()
    let level = MemoryCacheLevel<Int, Int>(capacity: 10_000, clock: clock)
    for key in 0..<1_000 {
      level.set(
        key, forKey: key, expiry: key % 10 == 0 ? .after(.seconds(5)) : .after(.seconds(3_600)))
    }
    clock.advance(by: .seconds(6))
    #expect(level.count == 1_000)
    level.removeExpired()
    #expect(level.count == 900)
    #expect(value(level, 10) == nil)
    #expect(value(level, 11) == 11)
  }

  @Test("entry(forKey:) answers the value with when it was stored and when it expires")
  func entry() throws {
    let clock = ManualClock()
    let level = MemoryCacheLevel<String, Int>(
      capacity: 100, expiration: .afterWrite(.seconds(60)), clock: clock)
    let storedAt = clock.now()
    level.set(7, forKey: "k")
    level.set(8, forKey: "forever", expiry: .never)
    clock.advance(by: .seconds(1))
    let entry = try #require(level.entry(forKey: "k").result?.value)
    #expect(entry.value == 7)
    #expect(abs(entry.storedAt.timeIntervalSince(storedAt)) < 0.001)
    #expect(abs(entry.expiresAt!.timeIntervalSince(storedAt.addingTimeInterval(60))) < 0.001)
    #expect(try #require(level.entry(forKey: "forever").result?.value).expiresAt == nil)
    #expect(level.entry(forKey: "absent").result?.error as? FetchError == .valueNotInCache)
    clock.advance(by: .seconds(60))
    #expect(level.entry(forKey: "k").result?.error as? FetchError == .valueNotInCache)
  }

  @Test("remove drops one key and leaves the others")
  func remove() {
    let level = MemoryCacheLevel<String, Int>(capacity: 100)
    level.set(1, forKey: "a")
    level.set(2, forKey: "b")
    #expect(level.remove("a").result?.value != nil)
    #expect(value(level, "a") == nil)
    #expect(value(level, "b") == 2)
    #expect(level.remove("absent").result?.value != nil)
    #expect(level.count == 1)
  }

  @Test("many threads setting, reading and expiring keep the level consistent")
  func concurrentExpiry() async throws {
    let clock = ManualClock()
    let level = MemoryCacheLevel<Int, Int>(
      capacity: 500, expiration: .afterAccess(.milliseconds(50)), clock: clock)
    let futures = await issueConcurrently(threads: 4, perThread: 5_000) {
      thread, index -> Future<Void> in
      let key = (thread * 7 + index) % 800
      switch index % 5 {
      case 0: return level.set(key, forKey: key)
      case 1:
        clock.advance(by: .milliseconds(1))
        return Future()
      case 2: return level.removeExpired()
      case 3: return level.remove(key)
      default: return level.get(key).map { _ in () }.recover { _ in () }
      }
    }
    #expect(await waitUntilCompleted(futures))
    #expect(level.totalCost <= 500)
    clock.advance(by: .seconds(1))
    try await level.removeExpired()
    #expect(level.count == 0)
  }
}
