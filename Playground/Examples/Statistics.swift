import Carlos
import Foundation

extension Example {
  static let statistics: Example = Example(
    name: "statistics",
    summary: "hits, misses, loads and evictions per level, and which level answered a get"
  ) {
    let memory = MemoryCacheLevel<String, String>(capacity: 20)  // room for three values
    let folder = NSTemporaryDirectory() + "carlos-playground-statistics-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let disk = DiskCacheLevel<String, String>(path: folder)
    let network = BasicFetcher<String, String> { key in Future("<\(key)>").snooze(0.01) }
    let countedMemory = memory.recordingStatistics("memory")
    let countedDisk = disk.recordingStatistics("disk")
    let countedNetwork = network.recordingStatistics("network")
    let cache = countedMemory >>> countedDisk >>> countedNetwork

    let before = memory.statistics
    for round in 0..<3 {
      for key in ["home", "about", "news", "contact", "faq"] {
        let answer = try await cache.getWithSource(key)
        if round < 2, key == "news" {
          print(
            "\(key), round \(round): from \(answer.source), copied up: \(answer.wasWrittenBack)")
        }
      }
    }
    for level in [countedMemory.name, countedDisk.name] {
      let stats = level == "memory" ? countedMemory.statistics : countedDisk.statistics
      print(
        "\(level): \(stats.hitCount) hits, \(stats.missCount) misses, hit rate \(Int(stats.hitRate * 100))%"
      )
    }
    let loads = countedNetwork.statistics
    print("network: \(loads.loadSuccessCount) loads, average \(loads.averageLoadPenalty)")
    let own = memory.statistics - before
    print(
      "the memory level's own count: \(own.evictionCount) evictions, \(own.evictedCost) bytes evicted"
    )
  }

  static let observations: Example = Example(
    name: "observations",
    summary: "observe a level, or one key of it; the token ends the observation"
  ) {
    let clock = ManualClock()
    let memory = MemoryCacheLevel<String, String>(capacity: 12, policy: .lru, clock: clock)
    let everything = memory.observe { event in print("  level: \(event)") }
    let onlyToken = memory.observe(key: "token") { event in print("  key 'token': \(event)") }
    try await memory.set("abc", forKey: "token", expiry: .after(.seconds(30)))
    try await memory.set("0123456789", forKey: "big")  // evicts "token" to make room
    try await memory.remove("big")
    try await memory.set("def", forKey: "token", expiry: .after(.seconds(30)))
    clock.advance(by: .seconds(31))
    _ = try? await memory.get("token")  // expired: a miss, and an event
    await memory.eventsDelivered()
    onlyToken.cancel()
    memory.clear()
    await memory.eventsDelivered()
    withExtendedLifetime(everything) {}
  }
}
