import Foundation
import Testing

@testable import Carlos

@Suite("Statistics and events of the persistent levels")
struct PersistentLevelEventsTests {
  @Test("the disk level counts hits, misses and evictions, and reports its events in order")
  func disk() async throws {
    let folder = DiskTestFolder()
    defer { folder.remove() }
    let clock = ManualClock()
    // Room for about two 1 KiB files.
    let disk = DiskCacheLevel<String, Data>(path: folder.path, capacity: 2_500, clock: clock)
    let log = EventLog<String>()
    let token = disk.observe { log.append($0) }
    let keyLog = EventLog<String>()
    let keyToken = disk.observe(key: "b") { keyLog.append($0) }
    try await disk.set(Data(count: 1_000), forKey: "a").value
    try await disk.set(Data(count: 1_000), forKey: "b", expiry: .after(.seconds(5))).value
    _ = try await disk.get("a").value
    _ = await diskTestFailure(disk.get("nothing"))
    try await disk.set(Data(count: 1_000), forKey: "c").value  // evicts b (least recently used)
    try await disk.remove("c").value
    try await disk.remove("c").value  // nothing left: no event
    try await disk.set(Data(count: 10), forKey: "d", expiry: .after(.seconds(1))).value
    clock.advance(by: .seconds(2))
    try await disk.removeExpired().value
    disk.clear()
    await disk.eventsDelivered()
    #expect(
      log.all == [
        .set("a"), .set("b"), .evicted("b"), .set("c"), .removed("c"), .set("d"), .expired("d"),
        .cleared,
      ])
    #expect(keyLog.all == [.set("b"), .evicted("b"), .cleared])
    let stats = disk.statistics
    #expect(stats.hitCount == 1 && stats.missCount == 1)
    #expect(stats.evictionCount == 1)
    #expect(stats.evictedCost > 1_000)
    withExtendedLifetime((token, keyToken)) {}
  }

  @Test("the user defaults level counts hits and misses and reports its events")
  func userDefaults() async throws {
    let name = "carlos-tests-events-\(UUID().uuidString)"
    defer {
      UserDefaults(suiteName: name)?.removePersistentDomain(forName: name)
      try? FileManager.default.removeItem(atPath: NSHomeDirectory() + "/.config/\(name).plist")
    }
    let clock = ManualClock()
    let level = UserDefaultsCacheLevel<String, Int>(name: name, clock: clock)
    let log = EventLog<String>()
    let token = level.observe { log.append($0) }
    try await level.set(1, forKey: "a")
    try await level.set(2, forKey: "b", expiry: .after(.seconds(1)))
    _ = try? await level.get("a")
    _ = try? await level.get("zzz")
    try await level.remove("a")
    clock.advance(by: .seconds(2))
    _ = try? await level.get("b")
    level.clear()
    await level.eventsDelivered()
    #expect(log.all == [.set("a"), .set("b"), .removed("a"), .expired("b"), .cleared])
    #expect(level.statistics.hitCount == 1)
    #expect(level.statistics.missCount == 2)
    withExtendedLifetime(token) {}
  }
}
