import Carlos
import Foundation
import Synchronization

/// A store written with async/await, as a level.
private actor ProfileStore: AsyncCacheLevel {
  private var profiles: [String: String] = [:]

  func get(_ key: String) async throws -> String {
    guard let profile = profiles[key] else { throw FetchError.valueNotInCache }
    return profile
  }

  func set(_ value: String, forKey key: String) async throws { profiles[key] = value }

  func remove(_ key: String) async throws { profiles[key] = nil }
}

/// The origin: an async function, slow the first time.
@Sendable
private func loadProfile(_ id: String) async throws -> String {
  try await Task.sleep(for: .milliseconds(10))
  guard !id.isEmpty else { throw FetchError.invalidKey }
  return "profile of \(id)"
}

extension Example {
  static let asyncLevels: Example = Example(
    name: "async-levels",
    summary: "async functions and async/await levels compose with >>>; try await waits and throws"
  ) {
    let memory = MemoryCacheLevel<String, String>().named("memory")
    let cache = memory >>> ProfileStore() >>> loadProfile

    let first = try await cache.getWithSource("42")
    print("first get: \"\(first.value)\" from \(first.source)")
    let second = try await cache.getWithSource("42")
    print("second get: \"\(second.value)\" from \(second.source)")

    try await cache.set("edited profile", forKey: "42")  // waits until every level stored it
    print("after set: \(try await cache.get("42"))")
    try await cache.remove("42")
    print("after remove, the origin again: \(try await cache.get("42"))")

    do {
      _ = try await cache.get("")
    } catch {
      print("a failing origin throws: \(error)")
    }

    // Concurrent callers of one key share one get and one load; the loaded value is stored.
    let sessions = MemoryCacheLevel<String, String>()
    async let a = sessions.get(
      "s1", orLoad: { key in Loaded("token for \(key)", expiry: .after(.seconds(60))) })
    async let b = sessions.get(
      "s1", orLoad: { key in Loaded("token for \(key)", expiry: .after(.seconds(60))) })
    print("get-or-load, two callers: \(try await [a, b])")

    // Through a pipeline, 50 concurrent callers of one key share one pass: the origin
    // (a level here) is asked once, and the loader is not needed.
    let originCalls = Mutex(0)
    let countedOrigin = { @Sendable (id: String) async throws -> String in
      originCalls.withLock { $0 += 1 }
      return try await loadProfile(id)
    }
    let pipeline = MemoryCacheLevel<String, String>() >>> countedOrigin
    let answers = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<50 {
        group.addTask { try await pipeline.get("7", orLoad: { key in "loaded \(key)" }) }
      }
      return try await group.reduce(into: [String]()) { $0.append($1) }
    }
    print(
      "50 callers through memory >>> origin: \(Set(answers)), origin asked \(originCalls.withLock { $0 }) time(s)"
    )

    // Observations as an AsyncSequence: the loop ends when the level goes away.
    var observed: MemoryCacheLevel<String, String>? = MemoryCacheLevel()
    let events = observed!.events()
    try await observed!.set("v", forKey: "k")
    observed = nil
    for await event in events { print("event: \(event)") }
  }
}
