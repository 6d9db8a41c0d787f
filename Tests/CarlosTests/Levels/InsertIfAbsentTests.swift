import Carlos
import Foundation
import Testing

/// The built-in persistent levels, fresh, for insert-if-absent; `cleanUp` removes them.
private func persistentLevels(
  clock: ManualClock
) -> (levels: [(String, any InsertingCacheLevel<String, String>)], cleanUp: @Sendable () -> Void) {
  let folder = DiskTestFolder()
  let suite = "carlos.tests.\(UUID().uuidString)"
  let levels: [(String, any InsertingCacheLevel<String, String>)] = [
    ("disk", DiskCacheLevel<String, String>(path: folder.path, clock: clock)),
    ("user defaults", UserDefaultsCacheLevel<String, String>(name: suite, clock: clock)),
  ]
  return (
    levels,
    {
      folder.remove()
      UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite)
    }
  )
}

@Suite("Insert-if-absent on the built-in persistent levels")
struct InsertIfAbsentTests {
  @Test("the first insert stores; a second one keeps the first value and says false")
  func firstWins() async throws {
    let (levels, cleanUp) = persistentLevels(clock: ManualClock())
    defer { cleanUp() }
    for (name, level) in levels {
      #expect(try await level.insertIfAbsent("first", forKey: "k") == true, "\(name)")
      #expect(try await level.insertIfAbsent("second", forKey: "k") == false, "\(name)")
      #expect(try await level.get("k") == "first", "\(name)")
    }
  }

  @Test("an expired value counts as absent")
  func expiredIsAbsent() async throws {
    let clock = ManualClock()
    let (levels, cleanUp) = persistentLevels(clock: clock)
    defer { cleanUp() }
    for (name, level) in levels {
      #expect(
        try await level.insertIfAbsent("old", forKey: "k", expiry: .after(.seconds(5))) == true,
        "\(name)")
    }
    clock.advance(by: .seconds(6))
    for (name, level) in levels {
      #expect(try await level.insertIfAbsent("new", forKey: "k") == true, "\(name)")
      #expect(try await level.get("k") == "new", "\(name)")
    }
  }

  @Test("of 200 inserts of one key racing on 4 threads, exactly one stores, and its value stays")
  func exactlyOneWins() async throws {
    let (levels, cleanUp) = persistentLevels(clock: ManualClock())
    defer { cleanUp() }
    for (name, level) in levels {
      let inserts = await issueConcurrently(threads: 4, perThread: 50) { thread, index in
        let value = "\(thread)-\(index)"
        return level.insertIfAbsent(value, forKey: "race").map { stored in stored ? value : nil }
      }
      #expect(await waitUntilCompleted(inserts), "\(name)")
      let winners = inserts.compactMap { $0.result?.value ?? nil }
      #expect(winners.count == 1, "\(name)")
      #expect(try await level.get("race") == winners.first, "\(name)")
    }
  }
}
