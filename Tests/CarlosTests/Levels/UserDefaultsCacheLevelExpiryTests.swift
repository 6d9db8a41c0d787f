import Carlos
import Foundation
import Testing

@Suite("UserDefaultsCacheLevel expiry, remove and entries")
struct UserDefaultsCacheLevelExpiryTests {
  private let start = Date(timeIntervalSince1970: 1_700_000_000)

  /// A unique suite, removed (with its file) by `removeSuite`.
  private func makeSuiteName() -> String {
    "carlos.tests.expiry.\(UUID().uuidString)"
  }

  private func removeSuite(_ name: String) {
    if let defaults = UserDefaults(suiteName: name) {
      defaults.removePersistentDomain(forName: name)
      defaults.synchronize()
    }
    var folders = [NSHomeDirectory() + "/.config"]
    if let xdg = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] { folders.append(xdg) }
    for folder in folders { try? FileManager.default.removeItem(atPath: "\(folder)/\(name).plist") }
  }

  /// What the suite holds under the level's storage key for `key`.
  private func stored(_ key: String, in suite: String) -> Any? {
    UserDefaults(suiteName: suite)?.object(forKey: "carlos.cache." + key)
  }

  private func isMiss<T: Sendable>(_ future: Future<T>) -> Bool {
    future.result?.error as? FetchError == .valueNotInCache
  }

  @Test("After-write policy: a hit until the deadline, then a miss, removed from the suite")
  func afterWrite() async throws {
    let suite = makeSuiteName()
    defer { removeSuite(suite) }
    let clock = ManualClock(start: start)
    let level = UserDefaultsCacheLevel<String, String>(
      name: suite, expiration: .afterWrite(.seconds(60)), clock: clock)
    try await level.set("v", forKey: "k").value
    clock.advance(by: .seconds(59))
    #expect(try await level.get("k").value == "v")
    clock.advance(by: .seconds(1))
    #expect(isMiss(level.get("k")))
    #expect(stored("k", in: suite) == nil)
  }

  @Test("After-access counts from the write; per-entry closures and set-time expiries apply")
  func policiesAndOverrides() async throws {
    let suite = makeSuiteName()
    defer { removeSuite(suite) }
    let clock = ManualClock(start: start)
    let sliding = UserDefaultsCacheLevel<String, Int>(
      name: suite, expiration: .afterAccess(.seconds(10)), clock: clock)
    try await sliding.set(1, forKey: "a").value
    try await sliding.set(2, forKey: "forever", expiry: .never).value
    clock.advance(by: .seconds(6))
    #expect(try await sliding.get("a").value == 1)
    clock.advance(by: .seconds(6))
    #expect(isMiss(sliding.get("a")))
    #expect(try await sliding.get("forever").value == 2)

    let byValue = UserDefaultsCacheLevel<String, Int>(
      name: suite, expiration: .perEntry { _, value in value > 100 ? .after(.seconds(1)) : .never },
      clock: clock)
    try await byValue.set(500, forKey: "big").value
    try await byValue.set(5, forKey: "small").value
    clock.advance(by: .seconds(1))
    #expect(isMiss(byValue.get("big")))
    #expect(try await byValue.get("small").value == 5)
  }

  @Test(
    "An expiry already past stores nothing, removes the older value, and succeeds",
    arguments: [
      Expiry.after(.zero), .after(.seconds(-1)), .after(.nanoseconds(Int64.min)),
      .at(.distantPast), .at(Date(timeIntervalSince1970: 1_699_999_999)),
    ])
  func pastExpiry(expiry: Expiry) async throws {
    let suite = makeSuiteName()
    defer { removeSuite(suite) }
    let level = UserDefaultsCacheLevel<String, String>(
      name: suite, clock: ManualClock(start: start))
    try await level.set("old", forKey: "k").value
    try await level.set("new", forKey: "k", expiry: expiry).value
    #expect(isMiss(level.get("k")))
    #expect(stored("k", in: suite) == nil)
  }

  @Test(
    "A positive expiry shorter than a nanosecond stores the value until the next nanosecond",
    arguments: [Duration(secondsComponent: 0, attosecondsComponent: 1), .nanoseconds(1) / 2])
  func subNanosecondExpiry(duration: Duration) async throws {
    let suite = makeSuiteName()
    defer { removeSuite(suite) }
    let clock = ManualClock(start: start)
    let level = UserDefaultsCacheLevel<String, String>(name: suite, clock: clock)
    try await level.set("old", forKey: "k").value
    try await level.set("new", forKey: "k", expiry: .after(duration)).value
    #expect(try await level.get("k").value == "new")
    clock.advance(by: .microseconds(1))
    #expect(isMiss(level.get("k")))
  }

  @Test(
    "Far-future dates and overflowing durations saturate: stored, never expiring",
    arguments: [
      Expiry.at(.distantFuture), .after(.seconds(Int64.max)),
      .at(Date(timeIntervalSince1970: 1e300)),
    ])
  func farFuture(expiry: Expiry) async throws {
    let suite = makeSuiteName()
    defer { removeSuite(suite) }
    let clock = ManualClock(start: start)
    let level = UserDefaultsCacheLevel<String, String>(name: suite, clock: clock)
    try await level.set("v", forKey: "k", expiry: expiry).value
    clock.advance(by: .seconds(200 * 365 * 86_400))
    #expect(try await level.get("k").value == "v")
    #expect(try await level.entry(forKey: "k").expiresAt == nil)
  }

  @Test("A clock set back cannot bring an expired value back")
  func clockJumpsBack() async throws {
    let suite = makeSuiteName()
    defer { removeSuite(suite) }
    let clock = ManualClock(start: start)
    let level = UserDefaultsCacheLevel<String, Int>(
      name: suite, expiration: .afterWrite(.seconds(10)), clock: clock)
    try await level.set(1, forKey: "a").value
    try await level.set(2, forKey: "b").value
    clock.advance(by: .seconds(20))
    #expect(isMiss(level.get("a")))
    clock.set(to: start)
    #expect(stored("b", in: suite) != nil)
    #expect(isMiss(level.get("b")))
    try await level.set(3, forKey: "c").value
    #expect(try await level.entry(forKey: "c").storedAt == start.addingTimeInterval(20))
  }

  @Test("entry(forKey:) answers when the value was stored and expires, also from a new level")
  func entries() async throws {
    let suite = makeSuiteName()
    defer { removeSuite(suite) }
    let clock = ManualClock(start: start)
    let level = UserDefaultsCacheLevel<String, String>(
      name: suite, expiration: .afterWrite(.seconds(30)), clock: clock)
    try await level.set("v", forKey: "k").value
    try await level.set("w", forKey: "forever", expiry: .never).value
    clock.advance(by: .seconds(5))
    let reopened = UserDefaultsCacheLevel<String, String>(name: suite, clock: clock)
    let entry = try await reopened.entry(forKey: "k")
    #expect(entry.value == "v")
    #expect(entry.storedAt == start)
    #expect(entry.expiresAt == start.addingTimeInterval(30))
    #expect(try await reopened.entry(forKey: "forever").expiresAt == nil)
    #expect(isMiss(reopened.entry(forKey: "missing")))
    clock.advance(by: .seconds(25))
    #expect(isMiss(reopened.get("k")))
  }

  @Test("A value written before expiry existed (plain data) reads as never expiring")
  func legacyValue() async throws {
    let suite = makeSuiteName()
    defer { removeSuite(suite) }
    let defaults = try #require(UserDefaults(suiteName: suite))
    defaults.set(try JSONEncoder().encode(["a": 1]), forKey: "carlos.cache.legacy")
    defaults.synchronize()
    let clock = ManualClock(start: start)
    let level = UserDefaultsCacheLevel<String, [String: Int]>(
      name: suite, expiration: .afterWrite(.seconds(1)), clock: clock)
    clock.advance(by: .seconds(86_400))
    #expect(try await level.get("legacy").value == ["a": 1])
    let entry = try await level.entry(forKey: "legacy")
    #expect(entry.expiresAt == nil)
    #expect(entry.storedAt == .distantPast)
    try await level.removeExpired().value
    #expect(try await level.get("legacy").value == ["a": 1])
  }

  @Test("Something else stored under a level's key is invalid data, not a value")
  func foreignRecord() async throws {
    let suite = makeSuiteName()
    defer { removeSuite(suite) }
    let defaults = try #require(UserDefaults(suiteName: suite))
    defaults.set(["value": "not data", "storedAt": 5], forKey: "carlos.cache.a")
    defaults.set(
      ["value": Data([1]), "storedAt": 5, "expiresAt": "soon"], forKey: "carlos.cache.b")
    let level = UserDefaultsCacheLevel<String, Data>(name: suite)
    #expect(level.get("a").result?.error as? FetchError == .invalidCachedData)
    #expect(level.get("b").result?.error as? FetchError == .invalidCachedData)
  }

  @Test("removeExpired removes only the expired values, and leaves foreign keys alone")
  func removeExpired() async throws {
    let suite = makeSuiteName()
    defer { removeSuite(suite) }
    let clock = ManualClock(start: start)
    let level = UserDefaultsCacheLevel<String, Int>(name: suite, clock: clock)
    try await level.set(1, forKey: "soon", expiry: .after(.seconds(5))).value
    try await level.set(2, forKey: "later", expiry: .after(.seconds(50))).value
    try await level.set(3, forKey: "never").value
    UserDefaults(suiteName: suite)?.set("foreign", forKey: "foreign")
    clock.advance(by: .seconds(5))

    try await level.removeExpired().value

    #expect(stored("soon", in: suite) == nil)
    #expect(stored("later", in: suite) != nil)
    #expect(try await level.get("later").value == 2)
    #expect(try await level.get("never").value == 3)
    #expect(UserDefaults(suiteName: suite)?.string(forKey: "foreign") == "foreign")
  }

  @Test("remove takes one key out at once; removing a missing key succeeds")
  func remove() async throws {
    let suite = makeSuiteName()
    defer { removeSuite(suite) }
    let level = UserDefaultsCacheLevel<String, Int>(name: suite)
    try await level.set(1, forKey: "a").value
    try await level.set(2, forKey: "b").value
    try await level.remove("a").value
    try await level.remove("never stored").value
    #expect(isMiss(level.get("a")))
    #expect(try await level.get("b").value == 2)
    #expect(isMiss(UserDefaultsCacheLevel<String, Int>(name: suite).get("a")))
    try await level.set(3, forKey: "a").value
    #expect(try await level.get("a").value == 3)
  }

  @Test("An unusable suite name fails removeExpired with the clear error")
  func invalidSuite() {
    let level = UserDefaultsCacheLevel<String, Int>(name: "")
    #expect(
      level.removeExpired().result?.error as? UserDefaultsCacheLevelError == .invalidSuiteName(""))
    #expect(
      level.remove("k").result?.error as? UserDefaultsCacheLevelError == .invalidSuiteName(""))
  }
}
