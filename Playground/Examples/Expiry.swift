import Carlos
import Foundation

extension Example {
  static let expiry: Example = Example(
    name: "expiry",
    summary: "values that expire: per level (after write, after access, per entry) and per set"
  ) {
    // A manual clock shows time passing without waiting; leave it out to use the system clock.
    let clock = ManualClock()
    let memory = MemoryCacheLevel<String, String>(
      capacity: 1_000, expiration: .afterWrite(.seconds(60)), clock: clock)
    try await memory.set("fresh data", forKey: "report")
    try await memory.set("one-time code 123456", forKey: "otp", expiry: .after(.seconds(30)))
    try await memory.set("app settings", forKey: "settings", expiry: .never)

    let entry = try await memory.entry(forKey: "report")
    print(
      "report stored at \(entry.storedAt), expires at \(entry.expiresAt.map { "\($0)" } ?? "never")"
    )
    clock.advance(by: .seconds(31))
    print(
      "after 31 s: otp \(await outcome(memory.get("otp"))), report \(await outcome(memory.get("report")))"
    )
    clock.advance(by: .seconds(30))
    print(
      "after 61 s: report \(await outcome(memory.get("report"))), settings \(await outcome(memory.get("settings")))"
    )

    // After access: a session stays while it is used.
    let sessions = MemoryCacheLevel<String, String>(
      capacity: 1_000, expiration: .afterAccess(.seconds(600)), clock: clock)
    try await sessions.set("alice", forKey: "session-a")
    try await sessions.set("bob", forKey: "session-b")
    for _ in 0..<3 {
      clock.advance(by: .seconds(400))
      _ = try? await sessions.get("session-a")
    }
    print(
      "after 20 min, a used session \(await outcome(sessions.get("session-a"))); an idle one \(await outcome(sessions.get("session-b")))"
    )

    // Per entry: the expiry depends on the value. A per-set expiry reaches every level.
    let folder = NSTemporaryDirectory() + "carlos-playground-expiry-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let disk = DiskCacheLevel<String, String>(
      path: folder,
      expiration: .perEntry { _, value in
        value.hasPrefix("error") ? .after(.seconds(5)) : .after(.seconds(3_600))
      },
      clock: clock)
    let cache = memory >>> disk
    try await cache.set("a token", forKey: "token", expiry: .after(.seconds(10))).value
    clock.advance(by: .seconds(10))
    print(
      "a token set with a 10 s expiry, 10 s later: memory \(await outcome(memory.get("token"))), disk \(await outcome(disk.get("token")))"
    )

    // Expired values leave by themselves over time; removeExpired() removes them now.
    for index in 0..<100 {
      try await memory.set("v\(index)", forKey: "k\(index)", expiry: .after(.seconds(1)))
    }
    clock.advance(by: .seconds(2))
    try await cache.removeExpired().value
    print("after removeExpired(): \(memory.count) values in memory")
  }
}
